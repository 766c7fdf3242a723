"""Players of an event: registering them one by one or from a CSV list, checking them in, dropping them."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Container, Iterable
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from ..collation import alphabetical
from ..models import Event, Player, Round, Team
from ..names import clean_text, has_visible_character

#: The longest name, club and team name the models keep.
MAX_LENGTH = 100

#: What a header cell may say for each column, in English, Spanish and Italian.
HEADER_WORDS = {
    "name": {"name", "player", "nombre", "jugador", "nome", "giocatore"},
    "club": {"club", "circolo"},
    "team": {"team", "equipo", "squadra"},
}
COLUMNS = ("name", "club", "team")
SEPARATORS = ("\t", ";", ",")
QUOTED = re.compile(r'"[^"]*"')


class DuplicateName(Exception):
    """A player of that name (whatever the case) is already registered in the event."""


class InvisibleName(ValueError):
    """A name with nothing to see once invisible characters are dropped."""


class ImportRefused(Exception):
    """The rows cannot be imported as they are; the message says why."""


@dataclass
class ParsedRow:
    """One player line of an imported file: where it was, what it says, what is wrong with it."""

    number: int
    name: str = ""
    club: str = ""
    team: str = ""
    errors: list[str] = field(default_factory=list)
    duplicate: bool = False

    @property
    def importable(self) -> bool:
        return not self.errors and not self.duplicate


def name_key(name: str) -> str:
    """What two names must share to be the same player: case, spacing and invisible characters do not count."""
    return clean_text(name).casefold()


def registered_names(event: Event) -> set[str]:
    return {name_key(name) for name in event.players.values_list("name", flat=True)}


def guess_separator(text: str) -> str:
    """Tab, semicolon or comma: the first of them found outside quoted values, else a comma."""
    unquoted = QUOTED.sub("", text)
    return next((sep for sep in SEPARATORS if sep in unquoted), ",")


def read_header(cells: list[str]) -> list[str | None] | None:
    """The column of each position if ``cells`` is a header row naming at least the name column, else None."""
    words = [clean_text(cell).casefold() for cell in cells]
    columns: list[str | None] = []
    for word in words:
        column = next((c for c, known in HEADER_WORDS.items() if word in known), None)
        if word and column is None:
            return None
        columns.append(column)
    return columns if "name" in columns else None


def parse_player_csv(text: str, registered: Container[str] = frozenset()) -> list[ParsedRow]:
    """Read a player list (name, club, team) into rows with their errors; ``registered`` are name keys to skip.

    Blank lines are ignored; a first row of column names in English, Spanish or Italian sets the order,
    otherwise it is name, club, team. Saves nothing.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    reader = csv.reader(io.StringIO(text), delimiter=guess_separator(text))
    columns: list[str | None] = list(COLUMNS)
    header_seen = False
    rows: list[ParsedRow] = []
    first_row_of: dict[str, int] = {}
    line = 0
    try:
        for cells in reader:
            number = line + 1
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if not header_seen:
                header_seen = True
                header = read_header(cells)
                if header is not None:
                    columns = header
                    continue
            rows.append(parse_row(number, cells, columns, registered, first_row_of))
    except csv.Error as error:
        rows.append(ParsedRow(number=line + 1, errors=[_("This line cannot be read: %(error)s.") % {"error": error}]))
    return rows


def parse_row(
    number: int, cells: list[str], columns: list[str | None], registered: Container[str], first_row_of: dict[str, int]
) -> ParsedRow:
    row = ParsedRow(number=number)
    extra = False
    for position, cell in enumerate(cells):
        value = clean_text(cell)
        column = columns[position] if position < len(columns) else None
        if column is None:
            extra = extra or bool(value)
        else:
            setattr(row, column, value)
    if not row.name:
        row.errors.append(_("The name is missing."))
    elif not has_visible_character(row.name):
        row.errors.append(_("The name has no letter or digit to show."))
    too_long = {
        "name": _("The name is longer than %(max)d characters."),
        "club": _("The club is longer than %(max)d characters."),
        "team": _("The team is longer than %(max)d characters."),
    }
    for column, message in too_long.items():
        if len(getattr(row, column)) > MAX_LENGTH:
            row.errors.append(message % {"max": MAX_LENGTH})
    if extra:
        row.errors.append(_("Too many columns: a row holds at most name, club and team."))
    if row.name:
        key = name_key(row.name)
        if key in registered:
            row.duplicate = True
        elif key in first_row_of:
            row.errors.append(_("Same name as line %(line)d of this list.") % {"line": first_row_of[key]})
        else:
            first_row_of[key] = number
    return row


def preview_import(event: Event, text: str) -> list[ParsedRow]:
    """The rows of ``text`` checked against the file itself and the players already registered."""
    return parse_player_csv(text, registered_names(event))


def teams_by_name(event: Event) -> dict[str, Team]:
    return {name_key(team.name): team for team in event.teams.all()}


def team_named(event: Event, name: str, teams: dict[str, Team]) -> Team | None:
    """The event's team of that name (whatever the case), made if there is none yet; None for no name."""
    if not name:
        return None
    key = name_key(name)
    if key not in teams:
        teams[key] = Team.objects.create(event=event, name=name)
    return teams[key]


def add_player(event: Event, name: str, club: str = "", team_name: str = "", checked_in: bool = False) -> Player:
    """Register one player, with the team of that name (made if new). Raises DuplicateName."""
    name, club, team_name = clean_text(name), clean_text(club), clean_text(team_name)
    if not has_visible_character(name):
        raise InvisibleName(name)
    if name_key(name) in registered_names(event):
        raise DuplicateName(name)
    try:
        with transaction.atomic():
            team = team_named(event, team_name, teams_by_name(event))
            return Player.objects.create(event=event, name=name, club=club, team=team, checked_in=checked_in)
    except IntegrityError as error:
        raise DuplicateName(name) from error


def import_players(event: Event, rows: list[ParsedRow], *, skip_bad: bool = False) -> list[Player]:
    """Register every good row in one transaction, skipping names already registered.

    Raises ImportRefused, saving nothing, if any row has an error, unless ``skip_bad`` says to leave those out.
    """
    if skip_bad:
        rows = [row for row in rows if not row.errors]
    if any(row.errors for row in rows):
        raise ImportRefused(_("Some rows have errors: nothing was imported."))
    try:
        with transaction.atomic():
            registered = registered_names(event)
            teams = teams_by_name(event)
            players = [
                Player(
                    event=event,
                    name=row.name,
                    club=row.club,
                    team=team_named(event, row.team, teams),
                    checked_in=False,
                )
                for row in rows
                if not row.duplicate and name_key(row.name) not in registered
            ]
            return Player.objects.bulk_create(players)
    except IntegrityError as error:
        raise ImportRefused(_("Players were registered meanwhile: preview the list again.")) from error


def blank_lines(text: str) -> int:
    """How many lines of a pasted or uploaded list are blank (the end of the last line does not count)."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").rstrip("\n").split("\n")
    return sum(1 for line in lines if not line.strip(" \t,;"))


def check_in_all(event: Event, present: bool) -> int:
    """Check in (or out) every active player at once; how many changed."""
    return event.players.filter(active=True, checked_in=not present).update(checked_in=present)


def edit_player(player: Player, *, name: str, club: str, team_name: str, checked_in: bool, active: bool) -> dict:
    """Change the player's details; what changed, as ``{field: [before, after]}``. Raises DuplicateName."""
    before = {
        "name": player.name,
        "club": player.club,
        "team": player.team.name if player.team else "",
        "checked_in": player.checked_in,
        "active": player.active,
    }
    after = {"name": name, "club": club, "team": team_name, "checked_in": checked_in, "active": active}
    player.name, player.club, player.checked_in, player.active = name, club, checked_in, active
    player.team = team_named(player.event, team_name, teams_by_name(player.event))
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as error:
        raise DuplicateName(name) from error
    return {field: [before[field], after[field]] for field in after if before[field] != after[field]}


def filtered(players: QuerySet[Player], *, query: str = "", show: str = "", club: str = "") -> QuerySet[Player]:
    """The players matching a search (name or club) and the filters of the players page."""
    if query:
        players = players.filter(Q(name__icontains=query) | Q(club__icontains=query))
    if show == "in":
        players = players.filter(checked_in=True, active=True)
    elif show == "out":
        players = players.filter(checked_in=False, active=True)
    elif show == "dropped":
        players = players.filter(active=False)
    if club:
        players = players.filter(club=club)
    return players


def clubs_of(event: Event) -> list[str]:
    """The clubs of the event's players, each once, alphabetically."""
    return alphabetical(set(event.players.exclude(club="").values_list("club", flat=True)))


def by_name(players: Iterable[Player]) -> list[Player]:
    """``players`` in alphabetical order of their names, the same on every database (``collation``)."""
    return alphabetical(players, key=lambda player: player.name)


def check_in(player: Player, present: bool = True) -> Player:
    """Mark the player as arrived (or, with ``present=False``, undo it)."""
    player.checked_in = present
    player.save(update_fields=["checked_in"])
    return player


def drop_player(player: Player) -> Player:
    """Drop the player: kept in the list with past results, never seated again."""
    player.active = False
    player.save(update_fields=["active"])
    return player


def reinstate_player(player: Player) -> Player:
    """Bring a dropped player back: seated again from the next round on."""
    player.active = True
    player.save(update_fields=["active"])
    return player


def first_round_seated(event: Event) -> Subquery:
    return Subquery(Round.objects.filter(event=event, number=1).values("created_at")[:1])


def players_of(event: Event) -> QuerySet[Player]:
    """The event's players with their team and whether they registered after round 1 was seated; ``by_name``
    puts them in the order a reader expects."""
    late = ExpressionWrapper(Q(registered_at__gt=first_round_seated(event)), output_field=BooleanField())
    return event.players.select_related("team").annotate(late=late)


def export_rows(event: Event, *, spreadsheet: bool) -> list[list[object]]:
    """The player list as a table: a header, then each player by name. A spreadsheet keeps yes and no as its
    own true and false; a CSV file says them in words."""
    header = [_("Name"), _("Club"), _("Team"), _("Checked in"), _("Active")]

    def said(value: bool) -> object:
        return value if spreadsheet else (_("Yes") if value else _("No"))

    rows = [
        [p.name, p.club, p.team.name if p.team else "", said(p.checked_in), said(p.active)]
        for p in by_name(players_of(event))
    ]
    return [header, *rows]


def is_late(player: Player) -> bool:
    """Whether the player registered after round 1 was seated."""
    seated = Round.objects.filter(event_id=player.event_id, number=1).values_list("created_at", flat=True).first()
    return seated is not None and player.registered_at > seated


def player_counts(event: Event) -> dict[str, int]:
    """How many players are registered, checked in and dropped."""
    return event.players.aggregate(
        registered=Count("pk"),
        checked_in=Count("pk", filter=Q(checked_in=True)),
        dropped=Count("pk", filter=Q(active=False)),
    )
