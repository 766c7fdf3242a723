"""Players of an event: registering them one by one or from a CSV list, checking them in, dropping them."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Container, Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import BooleanField, Count, Exists, ExpressionWrapper, OuterRef, Q, QuerySet, Subquery
from django.utils import translation
from django.utils.translation import gettext as _

from ..collation import alphabetical, sort_key
from ..models import AuditEntry, Event, Player, Round, Seat, Team
from ..models.audit import Action
from ..names import clean_text, has_visible_character
from .audit import Author, record
from .find_table import folded
from .look_alikes import LookAlikes, lost_mark

#: The longest name, club and team name the models keep.
MAX_LENGTH = 100

#: What a header cell may say for each column, in English, Spanish and Italian.
HEADER_WORDS = {
    "name": {"name", "player", "nombre", "jugador", "nome", "giocatore"},
    "club": {"club", "circolo"},
    "team": {"team", "equipo", "squadra"},
}
#: Columns of other lists that an import reads past without complaint: they are not imported.
IGNORED_WORDS = {"rating", "id", "elo"}
COLUMNS = ("name", "club", "team")
#: Separators in order of preference when as many lines hold each.
SEPARATORS = ("\t", ";", ",")
QUOTED = re.compile(r'"[^"]*"')
#: What a checked-in cell may say, in the app's languages and as a workbook's true and false read back.
YES_WORDS = {"yes", "y", "sí", "si", "sì", "true", "1", "x", "✓"}
NO_WORDS = {"no", "n", "false", "0", ""}
#: The export's headers, as the export writes them in each language: each of them is known to the import.
EXPORT_HEADERS = {
    "name": "Name",
    "club": "Club",
    "team": "Team",
    "checked_in": "Checked in",
    "active": "Active",
}


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
    checked_in: bool = False
    active: bool = True
    errors: list[str] = field(default_factory=list)
    #: What the organiser should look at before importing the row (a name much like another): it is imported anyway.
    warnings: list[str] = field(default_factory=list)
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
    """Tab, semicolon or comma: the one found, outside quoted values, on the most lines (a stray tab at the start or
    end of one line does not count); on a tie the first of ``SEPARATORS``; a comma when there is none."""
    lines = [QUOTED.sub("", line).strip() for line in text.splitlines()]
    found = {sep: sum(1 for line in lines if sep in line) for sep in SEPARATORS}
    best = max(SEPARATORS, key=lambda sep: (found[sep], -SEPARATORS.index(sep)))
    return best if found[best] else ","


def header_words() -> dict[str, set[str]]:
    """The words a header cell may say for each column (``""`` for the columns read past): the typed ones, and the
    export's headers in every language of the app."""
    words = {column: set(known) for column, known in HEADER_WORDS.items()}
    words["checked_in"] = {"checked in", "checked-in", "present"}
    words["active"] = {"active", "activo", "attivo"}
    words[""] = set(IGNORED_WORDS)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for column, header in EXPORT_HEADERS.items():
                words[column].add(_(header).casefold())
    return words


def read_header(cells: list[str]) -> list[str | None] | None:
    """The column of each position if ``cells`` is a header row naming at least the name column, else None; a
    column read past (such as a rating) is ``""``."""
    known = header_words()
    columns: list[str | None] = []
    for cell in cells:
        word = clean_text(cell).casefold()
        column = next((c for c, words in known.items() if word in words), None)
        if word and column is None:
            return None
        columns.append(column)
    return columns if "name" in columns else None


def yes_or_no(value: str) -> bool | None:
    """What a checked-in cell says: True, False, or None when it is neither a yes nor a no."""
    word = value.casefold()
    if word in YES_WORDS or word == str(_("Yes")).casefold():
        return True
    if word in NO_WORDS or word == str(_("No")).casefold():
        return False
    return None


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
        elif column == "checked_in":
            present = yes_or_no(value)
            if present is None:
                row.errors.append(_("The checked-in column says “%(value)s”: write yes or no.") % {"value": value})
            row.checked_in = bool(present)
        elif column == "active":
            playing = yes_or_no(value) if value else True
            if playing is None:
                row.errors.append(_("The active column says “%(value)s”: write yes or no.") % {"value": value})
            row.active = playing is not False
        elif column:
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
    """The rows of ``text`` checked against the file itself and the players already registered, names much like
    another one flagged (``flag_look_alikes``)."""
    registered = list(event.players.values_list("name", flat=True))
    rows = parse_player_csv(text, {name_key(name) for name in registered})
    flag_look_alikes(rows, alphabetical(registered))
    return rows


def flag_look_alikes(rows: list[ParsedRow], registered: Iterable[str]) -> None:
    """Warn on each importable row whose name differs from a registered player's, or from an earlier row's, only by
    accents or by letters lost when the file was saved ("Ma?gorzata"), and on a name with such a lost letter."""
    known: LookAlikes[str] = LookAlikes()
    for name in registered:
        known.add(name, name)
    earlier: LookAlikes[ParsedRow] = LookAlikes()
    for row in rows:
        if not row.importable:
            continue
        mark = lost_mark(row.name)
        said = {"line": row.number, "name": row.name, "mark": mark}
        if (other := known.find(row.name)) is not None:
            if mark:
                message = _(
                    "Line %(line)d: “%(name)s” has “%(mark)s” where the file may have lost a letter: is it "
                    "“%(other)s”, already registered?"
                )
            else:
                message = _(
                    "Line %(line)d: “%(name)s” differs from “%(other)s”, already registered, only by accents "
                    "or a lost letter: is it the same player?"
                )
            row.warnings.append(message % {**said, "other": other})
        elif (first := earlier.find(row.name)) is not None:
            if mark:
                message = _(
                    "Line %(line)d: “%(name)s” has “%(mark)s” where the file may have lost a letter: is it "
                    "“%(other)s” of line %(first)d?"
                )
            else:
                message = _(
                    "Line %(line)d: “%(name)s” differs from “%(other)s” of line %(first)d only by accents or "
                    "a lost letter: is it the same player?"
                )
            row.warnings.append(message % {**said, "other": first.name, "first": first.number})
        elif mark:
            row.warnings.append(
                _("Line %(line)d: “%(name)s” has “%(mark)s” where the file may have lost a letter: check the name.")
                % said
            )
        earlier.add(row.name, row)


def status_in_file(rows: list[ParsedRow]) -> dict[str, object]:
    """What the importable rows say of check-in and dropping: how many are checked in, and the names marked dropped."""
    importable = [row for row in rows if row.importable]
    return {
        "checked_in": sum(1 for row in importable if row.checked_in),
        "dropped": [row.name for row in importable if not row.active],
    }


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


def import_players(
    event: Event, rows: list[ParsedRow], *, skip_bad: bool = False, keep_status: bool = False
) -> list[Player]:
    """Register every good row in one transaction, skipping names already registered.

    Players start not checked in and playing, as at a new event, whatever the list says; ``keep_status`` keeps the
    list's check-ins and dropped players. Raises ImportRefused, saving nothing, if any row has an error, unless
    ``skip_bad`` says to leave those out.
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
                    checked_in=row.checked_in and keep_status,
                    active=row.active or not keep_status,
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


def check_in_all(event: Event, present: bool) -> list[int]:
    """Check in (or out) every active player at once; the ids of those who changed, for an undo."""
    changing = event.players.filter(active=True, checked_in=not present)
    changed = list(changing.values_list("pk", flat=True))
    event.players.filter(pk__in=changed).update(checked_in=present)
    return changed


def undo_check_in_all(event: Event, present: bool, changed: list[int]) -> int:
    """Put back the check-in of the players ``check_in_all(event, present)`` changed; how many were put back."""
    return event.players.filter(pk__in=changed).update(checked_in=not present)


class UndoneAlready(Exception):
    """The check-in of everyone (or no one) was undone already: an undo works once."""


def undo_check_in_all_once(event: Event, undo: dict, author: Author) -> int:
    """Undo the check-in of everyone (or no one) that ``undo`` describes (``present``, ``players``, and ``entry``:
    its audit entry), once; how many check-ins were put back. The undo is kept in the audit trail as the undo of
    that entry, in the transaction that puts them back and holds that entry's row, so two sendings of one undo,
    by any process, undo it once.

    Raises LookupError when this event keeps no such check-in, UndoneAlready when it was undone already."""
    with transaction.atomic():
        done = AuditEntry.objects.select_for_update().filter(pk=undo.get("entry"), event=event, action=Action.CHECK_IN)
        done = done.first()
        if done is None:
            raise LookupError(undo.get("entry"))
        if AuditEntry.objects.filter(event=event, action=Action.CHECK_IN, details__undoes=done.pk).exists():
            raise UndoneAlready(done.pk)
        restored = undo_check_in_all(event, undo["present"], undo["players"])
        details = {"all": undo["present"], "undo": True, "changed": restored, "undoes": done.pk}
        record(event, Action.CHECK_IN, author, details=details)
    return restored


def check_in_all_overwrites(event: Event, present: bool) -> int:
    """How many players' check-in a ``check_in_all`` would overwrite: those it clears, or, checking everyone in,
    the players not arrived yet when some did arrive (who arrived is then lost); 0 when nothing is lost."""
    counts = player_counts(event)
    return counts["fills"] if present else counts["clears"]


def may_delete(player: Player) -> bool:
    """Whether the player may be deleted: never seated in any round (who played is dropped instead)."""
    return not Seat.objects.filter(player=player).exists()


def delete_player(player: Player) -> bool:
    """Delete a player who was never seated; False, deleting nothing, for one who was."""
    with transaction.atomic():
        if not may_delete(player):
            return False
        player.delete()
    return True


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


def search_text(text: str) -> str:
    """``text`` as the organiser's search compares it: folded as the public search folds it (no accents, no case),
    and without spaces or punctuation ("O'Neill" is oneill)."""
    return "".join(char for char in folded(text) if char.isalnum())


def search_words(typed: str) -> list[str]:
    """The words typed in a search, each folded as ``search_text`` folds it ("D'Angelo n" is dangelo, n)."""
    return [word for word in map(search_text, typed.split()) if word]


def word_starts(text: str) -> tuple[str, frozenset[int]]:
    """``search_text(text)`` and where in it each word of ``text`` starts, a word ending at a blank or a punctuation
    mark: "D'Angelo Fernández" is dangelofernandez, its words starting at d, a and f."""
    letters, starts = [], set()
    for char in " " + folded(text):
        if not char.isalnum():
            starts.add(len(letters))
            continue
        letters.append(char)
    return "".join(letters), frozenset(starts)


def begins_words(text: str, words: list[str]) -> bool:
    """Whether each searched word begins a word of ``text``: "dangelo" finds D'Angelo and "n" finds Nagy, but "n"
    does not find Fernández."""
    letters, starts = word_starts(text)
    return all(any(letters.startswith(word, start) for start in starts) for word in words)


def matches(player: Player, words: list[str]) -> bool:
    """Whether every searched word begins a word of the player's name or of their club."""
    return all(begins_words(player.name, [word]) or begins_words(player.club, [word]) for word in words)


def filtered(players: QuerySet[Player], *, query: str = "", show: str = "", club: str = "") -> Iterable[Player]:
    """The players matching a search (name or club: accents, case and punctuation do not matter) and the filters of
    the players page."""
    if show == "in":
        players = players.filter(checked_in=True, active=True)
    elif show == "out":
        players = players.filter(checked_in=False, active=True)
    elif show == "dropped":
        players = players.filter(active=False)
    if club:
        players = players.filter(club=club)
    words = search_words(query)
    if words:
        return [player for player in players if matches(player, words)]
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
    """The event's players with their team, whether they registered after round 1 was seated (``late``) and whether
    they were ever seated (``seated``: who was not may be deleted); ``by_name``
    puts them in the order a reader expects."""
    late = ExpressionWrapper(Q(registered_at__gt=first_round_seated(event)), output_field=BooleanField())
    seated = Exists(Seat.objects.filter(player=OuterRef("pk")))
    return event.players.select_related("team").annotate(late=late, seated=seated)


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
    """How many players are registered, checked in and dropped, in one query; also how many check-ins
    ``check_in_all`` would overwrite each way (``clears``: checking no one in; ``fills``: checking everyone in)."""
    found = event.players.aggregate(
        all_players=Count("pk"),
        arrived=Count("pk", filter=Q(checked_in=True)),
        gone=Count("pk", filter=Q(active=False)),
        active_in=Count("pk", filter=Q(active=True, checked_in=True)),
        active_out=Count("pk", filter=Q(active=True, checked_in=False)),
    )
    counts = {
        "registered": found["all_players"],
        "checked_in": found["arrived"],
        "dropped": found["gone"],
        "active_in": found["active_in"],
        "active_out": found["active_out"],
    }
    counts["clears"] = counts["active_in"]
    counts["fills"] = counts["active_out"] if counts["active_in"] else 0
    return counts


#: The columns the players page sorts by (``?sort=club``, ``?sort=-club`` the other way round).
SORTS = ("name", "club", "team", "checked_in", "status")


def sort_choice(sort: str) -> tuple[str, bool]:
    """The column and whether it runs backwards, read from a ``?sort=`` value; by name for anything unknown."""
    column = sort.removeprefix("-")
    if column not in SORTS:
        return "name", False
    return column, sort.startswith("-")


def sorted_players(players: Iterable[Player], sort: str = "") -> list[Player]:
    """``players`` ordered by the column a ``?sort=`` value names: names and clubs in the app's alphabetical order
    (``collation``), players without a club or team after the others, ties by name; checked in and active first."""
    column, backwards = sort_choice(sort)

    def key(player: Player) -> tuple:
        name = sort_key(player.name)
        if column == "club":
            return (not player.club, sort_key(player.club), name)
        if column == "team":
            team = player.team.name if player.team else ""
            return (not team, sort_key(team), name)
        if column == "checked_in":
            return (not player.checked_in, name)
        if column == "status":
            return (not player.active, name)
        return (name,)

    return sorted(players, key=key, reverse=backwards)


#: What the players page does to the players selected in its table, all at once.
BULK_ACTIONS = ("in", "out", "drop")


def bulk_change(event: Event, ids: Iterable[int], action: str) -> list[Player]:
    """Check in (``in``), check out (``out``) or drop (``drop``) the event's players of ``ids``; those that changed,
    by name (the others already were as asked)."""
    field, value = ("active", False) if action == "drop" else ("checked_in", action == "in")
    with transaction.atomic():
        changed = list(event.players.filter(pk__in=list(ids)).exclude(**{field: value}).select_for_update())
        event.players.filter(pk__in=[player.pk for player in changed]).update(**{field: value})
    for player in changed:
        setattr(player, field, value)
    return by_name(changed)


def roll_call_matches(event: Event, text: str) -> list[Player]:
    """The active players of whose name each word typed at the roll call begins a word, folded as the players search
    folds them (accents, case and punctuation do not matter), by name; none for an empty box."""
    words = search_words(text)
    if not words:
        return []
    return by_name(player for player in players_of(event).filter(active=True) if begins_words(player.name, words))
