"""Backing up a whole event as one JSON document, and bringing it back into another database.

Players and teams are named inside the file by their ``ref`` (their id where they were exported),
users by username; nothing in the file relies on ids of the database it is imported into.
"""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Event, Manche, Player, Round, Seat, SheetRevision, Standing, Table, Team

FORMAT = "tablescore-event"
VERSION = 1


class BackupError(ValueError):
    """A backup that cannot be imported; the message says why, in words an organiser can act on."""


def data_fields(model: type[models.Model]) -> list[models.Field]:
    """The fields a backup copies as plain values: every stored field but the id and the links to other rows."""
    return [f for f in model._meta.concrete_fields if not f.primary_key and not f.is_relation]


def plain(value):
    """A stored value as JSON: dates and times in ISO 8601, decimals as strings (so no digit is lost)."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
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
        Prefetch("manches", queryset=Manche.objects.select_related("entered_by").order_by("number")),
    )
    rounds = list(event.rounds.order_by("number").prefetch_related(Prefetch("tables", queryset=tables)))
    manche_keys: dict[int, dict] = {}
    exported_rounds = []
    for round_ in rounds:
        exported_tables = []
        for table in round_.tables.all():
            seats = [{"player": seat.player_id, **row(seat)} for seat in table.seats.all()]
            manches = []
            for manche in table.manches.all():
                manche_keys[manche.pk] = {"round": round_.number, "table": table.number, "manche": manche.number}
                manches.append({**row(manche), "entered_by": username(manche.entered_by)})
            exported_tables.append({**row(table), "seats": seats, "manches": manches})
        exported_rounds.append({**row(round_), "tables": exported_tables})
    revisions = SheetRevision.objects.filter(manche__table__round__event=event).select_related("user").order_by("pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "event": {**row(event), "organisers": sorted(username(u) for u in event.organisers.all())},
        "teams": [{"ref": team.pk, **row(team)} for team in event.teams.order_by("pk")],
        "players": [{"ref": p.pk, **row(p), "team": p.team_id} for p in event.players.order_by("pk")],
        "rounds": exported_rounds,
        "revisions": [{**manche_keys[r.manche_id], **row(r), "user": username(r.user)} for r in revisions],
        "standings": [{"player": s.player_id, **row(s)} for s in event.standings.order_by("pk")],
    }


def export_event_json(event: Event) -> str:
    """The backup of ``event`` as JSON text, indented so a person can read it."""
    return json.dumps(export_event(event), ensure_ascii=False, indent=2) + "\n"


def backup_filename(event: Event) -> str:
    return f"{event.slug}-backup-{timezone.localtime():%Y-%m-%d-%H%M}.json"


# Import


def import_event(document: dict) -> Event:
    """Create the event of a backup, with everything it holds, in one transaction.

    Raises BackupError (a ValueError) for a file that is not a backup of this version, for an event
    whose web address is taken, and for any value the database would not store as it is.
    """
    check_header(document)
    event_data = part(document, "event", dict)
    slug = event_data.get("slug")
    if not slug or not isinstance(slug, str):
        raise BackupError(_("The backup names no web address (event.slug) for its tournament."))
    if Event.objects.filter(slug=slug).exists():
        raise BackupError(
            _("A tournament with the web address “%(slug)s” exists already; a backup is imported only once.")
            % {"slug": slug}
        )
    check_tokens(document)
    try:
        with transaction.atomic():
            return Importer(document).run()
    except IntegrityError as error:
        raise BackupError(_("The database refused the backup: %(error)s") % {"error": error}) from error


def check_header(document) -> None:
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


def part(document: dict, key: str, kind: type):
    value = document.get(key)
    if not isinstance(value, kind):
        expected = _("an object") if kind is dict else _("a list")
        raise BackupError(_("The backup's “%(key)s” should be %(expected)s.") % {"key": key, "expected": expected})
    return value


def check_tokens(document: dict) -> None:
    """Refuse a backup whose table links another tournament of this database uses already."""
    tokens = [
        table.get("token")
        for round_ in part(document, "rounds", list)
        if isinstance(round_, dict) and isinstance(round_.get("tables"), list)
        for table in round_["tables"]
        if isinstance(table, dict)
    ]
    taken = Table.objects.filter(token__in=[t for t in tokens if t]).select_related("round__event").first()
    if taken is not None:
        raise BackupError(
            _("The table links of this backup are used by the tournament “%(event)s” already.")
            % {"event": taken.round.event.slug}
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
            try:
                result[name] = fields[name].to_python(value)
            except ValidationError as error:
                raise BackupError(
                    _("%(where)s.%(field)s: %(problem)s")
                    % {"where": where, "field": name, "problem": " ".join(error.messages)}
                ) from error
    return result


def items(data: dict, key: str, where: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BackupError(_("%(where)s.%(key)s should be a list.") % {"where": where, "key": key})
    return value


class Importer:
    """Creates the rows of one backup, remembering the references of the file."""

    def __init__(self, document: dict):
        self.document = document
        self.users: dict[str, object] = {}
        self.teams: dict = {}
        self.players: dict = {}
        self.manches: dict[tuple, Manche] = {}
        self.timestamps: dict[type[models.Model], list[tuple[models.Model, dict]]] = {}

    def run(self) -> Event:
        data = self.document["event"]
        fields = values(Event, data, "event", links=("organisers",))
        event = self.create(Event, fields)
        event.organisers.set([self.user(name, "event.organisers") for name in items(data, "organisers", "event")])
        for i, team in enumerate(part(self.document, "teams", list)):
            where = f"teams[{i}]"
            fields = values(Team, team, where, ("ref",))
            self.remember(self.teams, team, where, self.create(Team, {**fields, "event": event}))
        for i, player in enumerate(part(self.document, "players", list)):
            where = f"players[{i}]"
            fields = values(Player, player, where, ("ref", "team"))
            team = None
            if player.get("team") is not None:
                team = self.find(self.teams, player["team"], f"{where}.team", _("team"))
            self.remember(self.players, player, where, self.create(Player, {**fields, "event": event, "team": team}))
        seats = []
        for i, round_data in enumerate(part(self.document, "rounds", list)):
            seats += self.make_round(event, round_data, f"rounds[{i}]")
        Seat.objects.bulk_create(seats)
        self.make_revisions()
        self.make_standings(event)
        self.restore_timestamps()
        event.refresh_from_db()
        return event

    def make_round(self, event: Event, data, where: str) -> list[Seat]:
        round_ = self.create(Round, {**values(Round, data, where, ("tables",)), "event": event})
        seats = []
        for t, table_data in enumerate(items(data, "tables", where)):
            at = f"{where}.tables[{t}]"
            table = self.create(Table, {**values(Table, table_data, at, ("seats", "manches")), "round": round_})
            for s, seat in enumerate(items(table_data, "seats", at)):
                seat_at = f"{at}.seats[{s}]"
                fields = values(Seat, seat, seat_at, ("player",))
                player = self.find(self.players, seat.get("player"), f"{seat_at}.player", _("player"))
                seats.append(Seat(table=table, round=round_, player=player, **fields))
            for m, manche_data in enumerate(items(table_data, "manches", at)):
                manche_at = f"{at}.manches[{m}]"
                fields = values(Manche, manche_data, manche_at, ("entered_by",))
                entered_by = self.user(manche_data.get("entered_by"), f"{manche_at}.entered_by")
                manche = self.create(Manche, {**fields, "table": table, "entered_by": entered_by})
                self.manches[(round_.number, table.number, manche.number)] = manche
        return seats

    def make_revisions(self) -> None:
        revisions = []
        for i, data in enumerate(part(self.document, "revisions", list)):
            where = f"revisions[{i}]"
            fields = values(SheetRevision, data, where, ("round", "table", "manche", "user"))
            key = (data.get("round"), data.get("table"), data.get("manche"))
            manche = self.manches.get(key)
            if manche is None:
                raise BackupError(
                    _(
                        "%(where)s names a manche the backup does not hold (round %(round)s, table %(table)s, "
                        "manche %(manche)s)."
                    )
                    % {"where": where, "round": key[0], "table": key[1], "manche": key[2]}
                )
            revision = SheetRevision(manche=manche, user=self.user(data.get("user"), f"{where}.user"), **fields)
            revisions.append(revision)
            self.timestamps.setdefault(SheetRevision, []).append((revision, fields))
        SheetRevision.objects.bulk_create(revisions)

    def make_standings(self, event: Event) -> None:
        standings = []
        for i, data in enumerate(part(self.document, "standings", list)):
            where = f"standings[{i}]"
            fields = values(Standing, data, where, ("player",))
            player = self.find(self.players, data.get("player"), f"{where}.player", _("player"))
            standings.append(Standing(event=event, player=player, **fields))
        Standing.objects.bulk_create(standings)

    def create(self, model: type[models.Model], fields: dict) -> models.Model:
        obj = model.objects.create(**fields)
        self.timestamps.setdefault(model, []).append((obj, fields))
        return obj

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
        if ref is None or ref in refs:
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
        """The user called ``name``, created without a usable password when this database has none."""
        if name is None:
            return None
        if not isinstance(name, str) or not name:
            raise BackupError(_("%(where)s should be a username.") % {"where": where})
        if name not in self.users:
            users = get_user_model()
            user = users.objects.filter(**{users.USERNAME_FIELD: name}).first()
            if user is None:
                user = users(**{users.USERNAME_FIELD: name})
                user.set_unusable_password()
                user.save()
            self.users[name] = user
        return self.users[name]
