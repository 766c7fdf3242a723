"""Backing up a whole event as one JSON document, and bringing it back into another database.

Players and teams are named inside the file by their ``ref`` (their id where they were exported),
users by username; nothing in the file relies on ids of the database it is imported into. The event's club is
named by its web address and name, each player's person by name and club: an import finds the club by its web
address and the person by name and club (whatever the case), and creates those it does not find (a new club's
organisers are the event's); the club's ratings are then rebuilt.

A backup is checked as the forms check what people type: the text is read only if it nests no deeper than a
backup does, every row is validated by its model before it is stored (and by the forms' own checks of single values
that a door into the import hands over, ``FieldChecks``), the event's game must be one this Tablescore knows,
every sheet is scored again by the game's rules (the stored result is the engine's, never the file's, and so are
each seat's score, tiebreak and place), a round clock is no longer than the clock allows, link tokens must be well
formed, and the accounts it names must exist already (an import never creates one). Anything refused stores nothing.
"""

from __future__ import annotations

import base64
import datetime
import json
import re
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation

from django.contrib.auth import get_user_model
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import MaxValueValidator
from django.db import DataError, IntegrityError, models, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring

from .. import games
from ..games.problems import translated
from ..models import AuditEntry, Club, Event, Manche, Person, Player, Round, Seat, SheetRevision, Standing, Table, Team
from ..models.event import MAX_PLACEMENT_POINTS
from ..models.tokens import is_weak, new_token, well_formed
from ..ratings.build import rebuild_event_club
from .clock import MAX_SECONDS
from .results import rank_seats

FORMAT = "tablescore-event"
VERSION = 1


#: The links of a manche to who entered and confirmed it (not plain values).
MANCHE_AUTHORS = ("entered_by", "entered_player", "confirmed_by", "confirmed_player")


class BackupError(ValueError):
    """A backup that cannot be imported; the message says why, in words an organiser can act on."""


def data_fields(model: type[models.Model]) -> list[models.Field]:
    """The fields a backup copies as plain values: every stored field but the id and the links to other rows."""
    return [f for f in model._meta.concrete_fields if not f.primary_key and not f.is_relation]


def plain(value):
    """A stored value as JSON: dates and times in ISO 8601, decimals as strings (so no digit is lost), bytes (a paper
    sheet's picture) in base64."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(value).decode("ascii")
    return value


def row(obj: models.Model) -> dict:
    return {f.name: plain(f.value_from_object(obj)) for f in data_fields(type(obj))}


def username(user) -> str | None:
    return None if user is None else user.get_username()


# Export


def export_event(event: Event) -> dict:
    """The whole event as a versioned document: event, teams, players, rounds, sheet changes, standings."""
    tables = Table.objects.order_by("number").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.order_by("position")),
        Prefetch("manches", queryset=Manche.objects.select_related("entered_by", "confirmed_by").order_by("number")),
    )
    rounds = list(event.rounds.order_by("number").prefetch_related(Prefetch("tables", queryset=tables)))
    manche_keys: dict[int, dict] = {}
    table_keys: dict[int, dict] = {}
    exported_rounds = []
    for round_ in rounds:
        exported_tables = []
        for table in round_.tables.all():
            seats = [{"player": seat.player_id, **row(seat)} for seat in table.seats.all()]
            manches = []
            table_keys[table.pk] = {"round": round_.number, "table": table.number}
            for manche in table.manches.all():
                manche_keys[manche.pk] = {**table_keys[table.pk], "manche": manche.number}
                manches.append({**row(manche), **manche_authors(manche)})
            exported_tables.append({**row(table), "seats": seats, "manches": manches})
        exported_rounds.append({**row(round_), "tables": exported_tables})
    revisions = SheetRevision.objects.filter(manche__table__round__event=event).select_related("user").order_by("pk")
    audit = AuditEntry.objects.filter(event=event).select_related("user", "round").order_by("pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "event": {
            **row(event),
            "organisers": sorted(username(u) for u in event.organisers.all()),
            "club": {"slug": event.club.slug, "name": event.club.name} if event.club else None,
        },
        "teams": [{"ref": team.pk, **row(team)} for team in event.teams.order_by("pk")],
        "players": [
            {"ref": p.pk, **row(p), "team": p.team_id, "person": person_of(p)}
            for p in event.players.select_related("person").order_by("pk")
        ],
        "rounds": exported_rounds,
        "revisions": [
            {**manche_keys[r.manche_id], **row(r), "user": username(r.user), "player": r.player_id} for r in revisions
        ],
        "standings": [{"player": s.player_id, **row(s)} for s in event.standings.order_by("pk")],
        "audit": [audit_row(entry, table_keys, manche_keys) for entry in audit],
    }


def person_of(player: Player) -> dict | None:
    """The player's person as the file names it: by name and club (the event's club holds them)."""
    person = player.person
    return None if person is None else {"name": person.name, "affiliation": person.affiliation}


def manche_authors(manche: Manche) -> dict:
    """Who entered and who confirmed the manche's sheet, as the file names them (players by ref, users by name)."""
    return {
        "entered_by": username(manche.entered_by),
        "entered_player": manche.entered_player_id,
        "confirmed_by": username(manche.confirmed_by),
        "confirmed_player": manche.confirmed_player_id,
    }


def audit_row(entry: AuditEntry, table_keys: dict, manche_keys: dict) -> dict:
    """One entry of the audit trail: its table or manche by round and number, its people by ref and name."""
    place = manche_keys.get(entry.manche_id) or table_keys.get(entry.table_id) or {}
    links = {"user": username(entry.user), "player": entry.player_id, "subject": entry.subject_id}
    links["of_round"] = entry.round.number if entry.round else None
    return {**place, **row(entry), **links}


def export_event_json(event: Event) -> str:
    """The backup of ``event`` as JSON text, indented so a person can read it."""
    return json.dumps(export_event(event), ensure_ascii=False, indent=2) + "\n"


def backup_filename(event: Event) -> str:
    return f"{event.slug}-backup-{timezone.localtime():%Y-%m-%d-%H%M}.json"


# Import

#: What the database or a conversion may raise for a value no check foresaw; each becomes a BackupError.
REFUSALS = (OverflowError, InvalidOperation, DataError, IntegrityError, ValueError, TypeError)

#: The deepest a backup's lists and objects nest: about a dozen levels hold a sheet, the rest is room for a game's own.
MAX_DEPTH = 32

#: A JSON text's strings (skipped whole: brackets inside them are text) and the brackets that open or close a level.
JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')

#: Checks of single values by model and field name: each returns the value as it is stored, or raises
#: ValidationError with the message its form gives.
FieldChecks = Mapping[type[models.Model], Mapping[str, Callable[[object], object]]]


def clock_length(seconds: int | None) -> int | None:
    """A round clock's length, at most what the clock itself lets a round last."""
    if seconds is not None:
        MaxValueValidator(MAX_SECONDS)(seconds)
    return seconds


#: The import's own checks of limits the models do not hold, beside the forms' checks a door hands over.
OWN_CHECKS: FieldChecks = {Round: {"clock_seconds": clock_length}}


def read_backup(text: str) -> dict:
    """The document of a backup's JSON text; BackupError for text nested deeper than ``MAX_DEPTH`` or not JSON."""
    if nesting_depth(text) > MAX_DEPTH:
        raise too_deep()
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BackupError(_("The file is not JSON: %(problem)s.") % {"problem": error}) from None
    except ValueError:
        raise BackupError(_("The file holds a number too long to read: it is not a Tablescore backup.")) from None


def nesting_depth(text: str) -> int:
    """How deep the lists and objects of a JSON text nest, counted without parsing it (past ``MAX_DEPTH``: stops)."""
    level = deepest = 0
    for token in JSON_TOKENS.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            level += 1
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                break
        elif bracket in ("]", "}"):
            level -= 1
    return deepest


def too_deep() -> BackupError:
    return BackupError(
        _("The file nests lists and objects more than %(most)d levels deep: it is not a Tablescore backup.")
        % {"most": MAX_DEPTH}
    )


def import_event(document: dict, checks: FieldChecks | None = None) -> Event:
    """Create the event of a backup, with everything it holds, in one transaction.

    Raises BackupError (a ValueError) for a file that is not a backup of this version, for an event
    whose web address is taken, for accounts this database does not have, for a sheet its game's rules
    refuse, and for any value a form or the database would not take as it is; then nothing is stored.
    ``checks`` are the forms' own checks of single values, which the door into the import hands over.
    Weak link tokens (well formed, but no random draw makes them) are replaced by new ones.
    """
    check_header(document)
    importer = Importer(document, checks or {})
    try:
        with transaction.atomic():
            return importer.run()
    except BackupError:
        raise
    except REFUSALS as error:
        raise BackupError(
            _("%(where)s: the database refused this part of the backup (%(error)s).")
            % {"where": importer.at, "error": error}
        ) from error


def check_event(document: dict) -> None:
    """Refuse a backup without its event's web address, or of an event this database has already."""
    event_data = part(document, "event", dict)
    slug = event_data.get("slug")
    if not slug or not isinstance(slug, str):
        raise BackupError(_("The backup names no web address (event.slug) for its tournament."))
    if Event.objects.filter(slug=slug).exists():
        raise BackupError(
            _("A tournament with the web address “%(slug)s” exists already; a backup is imported only once.")
            % {"slug": slug}
        )
    check_game(event_data)


def check_header(document) -> None:
    """Refuse anything but a backup of this version, nested no deeper than a backup does."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(
            _("This file is not a Tablescore tournament backup (its format should be “%(format)s”).")
            % {"format": FORMAT}
        )
    version = document.get("version")
    if type(version) is not int or version != VERSION:
        raise BackupError(
            _("This backup is version %(found)s; this Tablescore reads version %(version)d.")
            % {"found": version, "version": VERSION}
        )
    if nesting(document) > MAX_DEPTH:
        raise too_deep()


def nesting(document) -> int:
    """How deep the lists and objects of ``document`` nest, found without recursion (past ``MAX_DEPTH``: stops)."""
    deepest = 0
    waiting = [(document, 1)]
    while waiting and deepest <= MAX_DEPTH:
        value, level = waiting.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, level)
            waiting.extend((child, level + 1) for child in (value.values() if isinstance(value, dict) else value))
    return deepest


def part(document: dict, key: str, kind: type):
    value = document.get(key)
    if not isinstance(value, kind):
        expected = _("an object") if kind is dict else _("a list")
        raise BackupError(_("The backup's “%(key)s” should be %(expected)s.") % {"key": key, "expected": expected})
    return value


def check_game(event_data: dict) -> None:
    """Refuse an event of a game no bundle of this Tablescore plays."""
    if games.find_game(event_data.get("game")) is None:
        raise BackupError(
            _("event.game: “%(game)s” is not a game this Tablescore knows; it knows %(games)s.")
            % {"game": event_data.get("game"), "games": ", ".join(game.key for game in games.all_games())}
        )


def objects_in(value) -> list[tuple[int, dict]]:
    """The objects of a list of the backup with their positions (anything else is left to the importer)."""
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)] if isinstance(value, list) else []


def table_rows(document: dict) -> list[tuple[str, dict]]:
    """Every table of the backup, with where it is."""
    return [
        (f"rounds[{r}].tables[{t}]", table)
        for r, round_ in objects_in(document.get("rounds"))
        for t, table in objects_in(round_.get("tables"))
    ]


def token_rows(document: dict) -> list[tuple[str, dict, type[models.Model]]]:
    """Every row of the backup that holds a link token: players and tables, with where they are."""
    players = [(f"players[{i}]", player, Player) for i, player in objects_in(document.get("players"))]
    return players + [(where, table, Table) for where, table in table_rows(document)]


def check_tokens(document: dict) -> None:
    """Refuse link tokens that are not text or not well formed, given twice, or used here already.

    A row without a token (a backup older than player links) gets a new one, and so does a weak one.
    """
    kept: dict[str, str] = {}
    for where, data, _model in token_rows(document):
        token = data.get("token")
        if token is None:
            continue
        if not isinstance(token, str):
            raise BackupError(_("%(where)s.token should be text: a link token of 22 characters.") % {"where": where})
        if not well_formed(token):
            raise BackupError(
                _("%(where)s.token is not a link token: those are 22 letters, digits, “-” or “_”.") % {"where": where}
            )
        if is_weak(token):
            continue
        if token in kept:
            raise BackupError(
                _("%(where)s.token is the token of %(other)s too; each link has its own.")
                % {"where": where, "other": kept[token]}
            )
        kept[token] = where
    taken = Table.objects.filter(token__in=kept).select_related("round__event").first()
    if taken is not None:
        raise BackupError(
            _("The table links of this backup are used by the tournament “%(event)s” already.")
            % {"event": taken.round.event.slug}
        )
    taken_player = Player.objects.filter(token__in=kept).select_related("event").first()
    if taken_player is not None:
        raise BackupError(
            _("The player links of this backup are used by the tournament “%(event)s” already.")
            % {"event": taken_player.event.slug}
        )


def named_users(document: dict) -> list[tuple[str, object]]:
    """Every account the backup names (organisers, who entered sheets, who changed them), with where."""
    event = document.get("event")
    organisers = event.get("organisers", []) if isinstance(event, dict) else []
    found = [
        (f"event.organisers[{i}]", name) for i, name in enumerate(organisers if isinstance(organisers, list) else [])
    ]
    for where, table in table_rows(document):
        for m, manche in objects_in(table.get("manches")):
            found.append((f"{where}.manches[{m}].entered_by", manche.get("entered_by")))
            found.append((f"{where}.manches[{m}].confirmed_by", manche.get("confirmed_by")))
    for i, revision in objects_in(document.get("revisions")):
        found.append((f"revisions[{i}].user", revision.get("user")))
    for i, entry in objects_in(document.get("audit")):
        found.append((f"audit[{i}].user", entry.get("user")))
    return found


def existing_users(document: dict) -> dict[str, object]:
    """The accounts the backup names, by username; BackupError naming those this database does not have."""
    names = set()
    for where, name in named_users(document):
        if name is None and not where.startswith("event."):
            continue
        if not isinstance(name, str) or not name:
            raise BackupError(_("%(where)s should be a username.") % {"where": where})
        names.add(name)
    users = get_user_model()
    found = {user.get_username(): user for user in users.objects.filter(**{f"{users.USERNAME_FIELD}__in": names})}
    missing = sorted(names - set(found))
    if missing:
        raise BackupError(
            _(
                "The backup names accounts this Tablescore does not have: %(names)s. An import creates no account: "
                "create them first (or ask whoever runs this Tablescore), then import again."
            )
            % {"names": ", ".join(missing)}
        )
    return found


def expected_kind(field: models.Field) -> tuple[tuple[type, ...], str]:
    """The JSON types a backup may give for ``field``, and how to say so."""
    if isinstance(field, models.BooleanField):
        return (bool,), _("true or false")
    if isinstance(field, models.IntegerField):
        return (int,), _("a whole number")
    if isinstance(field, models.DecimalField):
        return (str, int), _("a number written as text, e.g. “2.50”")
    return (str,), _("text")


def check_kind(field: models.Field, value, where: str) -> None:
    """Refuse a value of the wrong JSON type for its field, before anything converts it (a list is not text)."""
    problem = None
    if value is None:
        if not field.null:
            problem = _("should not be null")
    elif isinstance(field, models.JSONField):
        try:
            json.dumps(value, allow_nan=False)
        except (ValueError, TypeError, RecursionError):
            problem = _("holds a number JSON cannot keep (infinity or not-a-number)")
    elif isinstance(field, models.BinaryField):
        try:
            base64.b64decode(value, validate=True)
        except (ValueError, TypeError):
            problem = _("should be a picture in base64")
    else:
        kinds, label = expected_kind(field)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            problem = _("should be %(kind)s") % {"kind": label}
    if problem:
        raise BackupError(
            _("%(where)s.%(field)s %(problem)s.") % {"where": where, "field": field.name, "problem": problem}
        )


def values(model: type[models.Model], data, where: str, links: tuple[str, ...] = ()) -> dict:
    """The stored values of one row of the backup, checked field by field; ``links`` are its references."""
    if not isinstance(data, dict):
        raise BackupError(_("%(where)s should be an object.") % {"where": where})
    fields = {f.name: f for f in data_fields(model)}
    unknown = sorted(set(data) - set(fields) - set(links))
    if unknown:
        raise BackupError(
            _("%(where)s has fields this Tablescore does not know: %(fields)s.")
            % {"where": where, "fields": ", ".join(unknown)}
        )
    result = {}
    for name, value in data.items():
        if name in fields:
            check_kind(fields[name], value, where)
            try:
                result[name] = fields[name].to_python(value)
            except ValidationError as error:
                raise BackupError(
                    _("%(where)s.%(field)s: %(problem)s")
                    % {"where": where, "field": name, "problem": " ".join(error.messages)}
                ) from error
    return result


def validate(obj: models.Model, where: str) -> None:
    """Check ``obj`` as a form would (fields, choices, lengths, the model's own rules, uniqueness)."""
    try:
        obj.full_clean()
    except ValidationError as error:
        raise refusal(where, error.message_dict) from error


def checked(fields: dict, checks: Mapping[str, Callable[[object], object]], where: str) -> dict:
    """``fields`` after the ``checks`` of their names: each value as its check returns it."""
    result, errors = dict(fields), {}
    for name, check in checks.items():
        if name in fields:
            try:
                result[name] = check(fields[name])
            except ValidationError as error:
                errors[name] = error.messages
    if errors:
        raise refusal(where, errors)
    return result


def refusal(where: str, errors: dict[str, list[str]]) -> BackupError:
    """The error for a row refused, naming each field and what is wrong with it."""
    problems = [
        " ".join(messages) if field == NON_FIELD_ERRORS else f"{field}: {' '.join(messages)}"
        for field, messages in errors.items()
    ]
    return BackupError(_("%(where)s is refused: %(problems)s") % {"where": where, "problems": "; ".join(problems)})


def items(data: dict, key: str, where: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BackupError(_("%(where)s.%(key)s should be a list.") % {"where": where, "key": key})
    return value


def scored(event: Event, document, where: str, place: dict) -> dict | None:
    """The engine's result for a manche's sheet (None for no sheet); BackupError naming the manche if refused."""
    if document is None:
        return None
    if not isinstance(document, dict) or document.get("game") != event.game:
        raise BackupError(
            _("%(where)s (round %(round)s, table %(table)s, manche %(manche)s): the sheet is not a sheet of %(game)s.")
            % {"where": where, "game": event.game_name, **place}
        )
    try:
        return games.score(document)
    except scoring.ScoreSheetError as error:
        problems = "; ".join(f"{p.path or '-'}: {translated(p)}" for p in error.problems)
        raise BackupError(
            _(
                "%(where)s (round %(round)s, table %(table)s, manche %(manche)s): the rules refuse the sheet: "
                "%(problems)s"
            )
            % {"where": where, "problems": problems, **place}
        ) from error


class Importer:
    """Creates the rows of one backup, remembering the references of the file.

    ``at`` says which part of the backup is being stored, for the message of an error nothing foresaw.
    """

    def __init__(self, document: dict, checks: FieldChecks):
        self.document = document
        self.checks = {
            model: {**OWN_CHECKS.get(model, {}), **checks.get(model, {})} for model in {*OWN_CHECKS, *checks}
        }
        self.users: dict[str, object] = {}
        self.at = "event"
        self.teams: dict = {}
        self.players: dict = {}
        self.manches: dict[tuple, Manche] = {}
        self.tables: dict[tuple, Table] = {}
        self.rounds: dict[int, Round] = {}
        self.timestamps: dict[type[models.Model], list[tuple[models.Model, dict]]] = {}
        self.club: Club | None = None
        self.people: dict[tuple[str, str], Person] = {}

    def run(self) -> Event:
        check_event(self.document)
        check_tokens(self.document)
        self.users = existing_users(self.document)
        data = self.document["event"]
        fields = values(Event, data, "event", links=("organisers", "club"))
        organisers = [self.user(name, "event.organisers") for name in items(data, "organisers", "event")]
        self.club = self.find_club(data.get("club"), organisers)
        event = self.create(Event, {**fields, "club": self.club}, "event")
        event.organisers.set(organisers)
        for i, team in enumerate(part(self.document, "teams", list)):
            where = f"teams[{i}]"
            fields = values(Team, team, where, ("ref",))
            self.remember(self.teams, team, where, self.create(Team, {**fields, "event": event}, where))
        for i, player in enumerate(part(self.document, "players", list)):
            where = f"players[{i}]"
            fields = values(Player, player, where, ("ref", "team", "person"))
            team = None
            if player.get("team") is not None:
                team = self.find(self.teams, player["team"], f"{where}.team", _("team"))
            person = self.find_person(player.get("person"), f"{where}.person")
            fields = {**fields, "event": event, "team": team, "person": person, "token": self.token(player)}
            self.remember(self.players, player, where, self.create(Player, fields, where))
        seats = []
        for i, round_data in enumerate(part(self.document, "rounds", list)):
            seats += self.make_round(event, round_data, f"rounds[{i}]")
        self.at = _("rounds (their seats)")
        Seat.objects.bulk_create(seats)
        self.make_revisions()
        self.make_standings(event)
        self.make_audit(event)
        self.at = _("event (its times of creation)")
        self.restore_timestamps()
        event.refresh_from_db()
        rebuild_event_club(event)
        return event

    def find_club(self, data, organisers: list) -> Club | None:
        """The club the backup names: this database's club of that web address, else a new one."""
        if data is None:
            return None
        fields = values(Club, data, "event.club")
        if not fields.get("slug"):
            raise BackupError(_("event.club should name the club's web address (slug)."))
        club = Club.objects.filter(slug=fields["slug"]).first()
        if club is None:
            club = self.create(Club, fields, "event.club")
            club.organisers.set(organisers)
        return club

    def find_person(self, data, where: str) -> Person | None:
        """The club's person of the backup's name and club (whatever the case), created when there is none."""
        if data is None:
            return None
        if self.club is None:
            raise BackupError(_("%(where)s names a person, but the tournament has no club.") % {"where": where})
        fields = values(Person, data, where)
        key = (fields.get("name", "").casefold(), fields.get("affiliation", "").casefold())
        if not self.people:
            self.people = {(p.name.casefold(), p.affiliation.casefold()): p for p in self.club.people.all()}
        if key not in self.people:
            self.people[key] = self.create(Person, {**fields, "club": self.club}, where)
        return self.people[key]

    def make_round(self, event: Event, data, where: str) -> list[Seat]:
        round_ = self.create(Round, {**values(Round, data, where, ("tables",)), "event": event}, where)
        self.rounds[round_.number] = round_
        seats = []
        for t, table_data in enumerate(items(data, "tables", where)):
            at = f"{where}.tables[{t}]"
            fields = values(Table, table_data, at, ("seats", "manches"))
            table = self.create(Table, {**fields, "round": round_, "token": self.token(table_data)}, at)
            self.tables[(round_.number, table.number)] = table
            table_seats = []
            for s, seat in enumerate(items(table_data, "seats", at)):
                seat_at = f"{at}.seats[{s}]"
                fields = values(Seat, seat, seat_at, ("player",))
                player = self.find(self.players, seat.get("player"), f"{seat_at}.player", _("player"))
                table_seats.append((seat_at, {"table": table, "round": round_, "player": player, **fields}))
            for m, manche_data in enumerate(items(table_data, "manches", at)):
                manche_at = f"{at}.manches[{m}]"
                fields = values(Manche, manche_data, manche_at, MANCHE_AUTHORS)
                place = {"round": round_.number, "table": table.number, "manche": fields.get("number")}
                fields["result"] = scored(event, fields.get("document"), manche_at, place)
                authors = self.manche_authors(manche_data, manche_at)
                manche = self.create(Manche, {**fields, "table": table, **authors}, manche_at)
                self.manches[(round_.number, table.number, manche.number)] = manche
            seats += self.seats_with_results(table, table_seats)
        return seats

    def seats_with_results(self, table: Table, rows: list[tuple[str, dict]]) -> list[Seat]:
        """The table's seats with the score, tiebreak and place the engine's results give them, as a sheet save
        would store them; the file's tournament points are kept (the event's scheme may have changed since)."""
        rows = sorted(rows, key=lambda row: row[1].get("position") or 0)
        ranked = rank_seats(len(rows), table.manches.all())
        if ranked is None:
            results = [{"score": None, "tiebreak": [], "rank": None, "placement_points": None} for _row in rows]
        else:
            results = [{"score": seat.score, "tiebreak": seat.tiebreak, "rank": seat.rank} for seat in ranked]
        seats = []
        for (where, fields), result in zip(rows, results):
            points = fields.get("placement_points")
            if points is not None and not 0 <= points <= MAX_PLACEMENT_POINTS:
                raise BackupError(
                    _("%(where)s.placement_points should be from 0 to %(maximum)d.")
                    % {"where": where, "maximum": MAX_PLACEMENT_POINTS}
                )
            seats.append(self.build(Seat, {**fields, **result}, where))
        return seats

    def make_revisions(self) -> None:
        revisions = []
        for i, data in enumerate(part(self.document, "revisions", list)):
            where = f"revisions[{i}]"
            fields = values(SheetRevision, data, where, ("round", "table", "manche", "user", "player"))
            key = (data.get("round"), data.get("table"), data.get("manche"))
            manche = self.manches.get(key) if all(type(k) is int for k in key) else None
            if manche is None:
                raise BackupError(
                    _(
                        "%(where)s names a manche the backup does not hold (round %(round)s, table %(table)s, "
                        "manche %(manche)s)."
                    )
                    % {"where": where, "round": key[0], "table": key[1], "manche": key[2]}
                )
            user = self.user(data.get("user"), f"{where}.user")
            player = self.player_or_none(data.get("player"), f"{where}.player")
            revision = self.build(SheetRevision, {"manche": manche, "user": user, "player": player, **fields}, where)
            revisions.append(revision)
            self.timestamps.setdefault(SheetRevision, []).append((revision, fields))
        self.at = "revisions"
        SheetRevision.objects.bulk_create(revisions)

    def make_standings(self, event: Event) -> None:
        standings = []
        for i, data in enumerate(part(self.document, "standings", list)):
            where = f"standings[{i}]"
            fields = values(Standing, data, where, ("player",))
            player = self.find(self.players, data.get("player"), f"{where}.player", _("player"))
            standings.append(self.build(Standing, {"event": event, "player": player, **fields}, where))
        self.at = "standings"
        Standing.objects.bulk_create(standings)

    def make_audit(self, event: Event) -> None:
        entries = []
        for i, data in enumerate(part(self.document, "audit", list) if "audit" in self.document else []):
            where = f"audit[{i}]"
            links_in_file = ("round", "table", "manche", "user", "player", "subject", "of_round")
            fields = values(AuditEntry, data, where, links_in_file)
            round_, table, manche = data.get("round"), data.get("table"), data.get("manche")
            of_round = data.get("of_round")
            links = {
                "round": self.rounds.get(of_round) if of_round is not None else None,
                "table": self.tables.get((round_, table)) if table is not None else None,
                "manche": self.manches.get((round_, table, manche)) if manche is not None else None,
                "user": self.user(data.get("user"), f"{where}.user"),
                "player": self.player_or_none(data.get("player"), f"{where}.player"),
                "subject": self.player_or_none(data.get("subject"), f"{where}.subject"),
            }
            missing_round = of_round is not None and links["round"] is None
            if (
                missing_round
                or (table is not None and links["table"] is None)
                or (manche is not None and links["manche"] is None)
            ):
                raise BackupError(_("%(where)s names a table or manche the backup does not hold.") % {"where": where})
            entry = self.build(AuditEntry, {"event": event, **links, **fields}, where)
            entries.append(entry)
            self.timestamps.setdefault(AuditEntry, []).append((entry, fields))
        self.at = "audit"
        AuditEntry.objects.bulk_create(entries)

    def manche_authors(self, data: dict, where: str) -> dict:
        return {
            "entered_by": self.user(data.get("entered_by"), f"{where}.entered_by"),
            "confirmed_by": self.user(data.get("confirmed_by"), f"{where}.confirmed_by"),
            "entered_player": self.player_or_none(data.get("entered_player"), f"{where}.entered_player"),
            "confirmed_player": self.player_or_none(data.get("confirmed_player"), f"{where}.confirmed_player"),
        }

    def player_or_none(self, ref, where: str):
        return None if ref is None else self.find(self.players, ref, where, _("player"))

    def build(self, model: type[models.Model], fields: dict, where: str) -> models.Model:
        """A row of ``model``, validated as a form would, not saved yet."""
        self.at = where
        obj = model(**checked(fields, self.checks.get(model, {}), where))
        validate(obj, where)
        return obj

    def create(self, model: type[models.Model], fields: dict, where: str) -> models.Model:
        obj = self.build(model, fields, where)
        obj.save(force_insert=True)
        self.timestamps.setdefault(model, []).append((obj, fields))
        return obj

    def token(self, data: dict) -> str:
        """The row's link token as the backup gives it (checked already); a new one for none or a weak one."""
        token = data.get("token")
        return new_token() if token is None or is_weak(token) else token

    def restore_timestamps(self) -> None:
        """Put back the times the database set itself on creation (auto_now_add), one update per model."""
        for model, created in self.timestamps.items():
            names = [
                f.name for f in data_fields(model) if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)
            ]
            changed = []
            for obj, fields in created:
                kept = [name for name in names if name in fields]
                for name in kept:
                    setattr(obj, name, fields[name])
                if kept:
                    changed.append(obj)
            if changed:
                model.objects.bulk_update(changed, names, batch_size=500)

    def remember(self, refs: dict, data: dict, where: str, obj: models.Model) -> None:
        ref = data.get("ref")
        if type(ref) not in (int, str) or ref in refs:
            raise BackupError(_("%(where)s.ref should be present and unique.") % {"where": where})
        refs[ref] = obj

    def find(self, refs: dict, ref, where: str, kind: str):
        try:
            return refs[ref]
        except (KeyError, TypeError):
            raise BackupError(
                _("%(where)s names %(kind)s %(ref)s, which the backup does not hold.")
                % {"where": where, "kind": kind, "ref": ref}
            ) from None

    def user(self, name, where: str):
        """The existing account called ``name`` (None for nobody); an import never creates one."""
        if name is None:
            return None
        if not isinstance(name, str) or name not in self.users:
            raise BackupError(
                _("%(where)s should be the username of an account of this Tablescore.") % {"where": where}
            )
        return self.users[name]
