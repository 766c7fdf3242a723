"""Recording a manche's score sheet: checked by the rules, guarded by its version, kept in the audit trail."""

from __future__ import annotations

import json
import math
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from scoring.errors import Problems

from .. import games
from ..models import Manche, Seat, Table
from ..models.audit import Action
from ..models.rounds import RoundStatus, TableStatus
from ..models.sheets import Via
from ..ratings.build import rebuild_event_club
from ..standings.refresh import mark_stale, sheet_saved
from . import sheet_statements as statements
from .audit import Author, record
from .results import update_table_results
from .tables import NOT_STARTED, closed_reason

__all__ = [
    "Author",
    "ConfirmationRefused",
    "NoSuchManche",
    "StaleSheet",
    "confirm_sheet",
    "dispute_sheet",
    "record_sheet",
    "record_table_sheet",
]


class StaleSheet(Exception):
    """The sheet changed since the version a save was based on; ``current`` is what it is now."""

    def __init__(self, current: Manche):
        super().__init__(f"manche {current.pk} is at version {current.version}")
        self.current = current


#: The largest sheet kept, as compact JSON in UTF-8: well above what any real sheet of any game needs.
MAX_DOCUMENT_BYTES = 16 * 1024


def check_size(document: object) -> None:
    """Refuse a sheet over MAX_DOCUMENT_BYTES, or one JSON cannot store (NaN, a NUL, a lone surrogate)."""
    try:
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        size = len(text.encode("utf-8"))
    except (TypeError, ValueError, RecursionError):
        text, size = None, 0
    problems = Problems()
    if text is None or "\\u0000" in text:
        problems.add("document", gettext_noop("This sheet holds a value that cannot be stored: check what was sent."))
    elif size > MAX_DOCUMENT_BYTES:
        problems.add(
            "document",
            gettext_noop("A score sheet is at most {maximum} kB; this one is {size} kB."),
            maximum=MAX_DOCUMENT_BYTES // 1024,
            size=math.ceil(size / 1024),
        )
    problems.raise_if_any()


def check_players(names: list[str], document: dict) -> None:
    """Refuse a sheet whose players are not the table's (``names``, in seat order)."""
    if not isinstance(document, dict):
        return  # not a sheet at all: the rules refuse it and say so
    if document.get("players") != names:
        problems = Problems()
        problems.add(
            "players", gettext_noop("This table's players, in seat order, are: {names}."), names=", ".join(names)
        )
        problems.raise_if_any()


def with_event_fields(event, document: dict) -> dict:
    """The document with what the event decides rather than the table (its game says which fields)."""
    fields = event.game_bundle.document_fields(event)
    return {**document, **fields} if fields and isinstance(document, dict) else document


class NoSuchManche(LookupError):
    """The table has no manche of that number."""


def record_sheet(manche: Manche, document: dict, *, based_on: int, author: Author) -> Manche:
    """``record_table_sheet`` for ``manche``, which is brought up to date with what was stored."""
    saved = record_table_sheet(manche.table, manche.number, document, based_on=based_on, author=author)
    for name in (*statements.SHEET_FIELDS, "version"):
        setattr(manche, name, getattr(saved, name))
    return manche


def record_table_sheet(table: Table, number: int, document: dict, *, based_on: int, author: Author) -> Manche:
    """Score ``document`` and store it as the sheet of the table's manche ``number`` if nobody changed it since
    ``based_on``; returns the manche as stored.

    Raises ScoreSheetError for a sheet the rules refuse, NoSuchManche and StaleSheet for a stale version. The
    version check is a conditional UPDATE in the same transaction as the write, which also keeps the change in the
    audit trail, stores the table's results and marks the event's standings out of date; they are rebuilt after
    the commit (``standings.refresh``): at once for the organiser, within the rebuild interval for the tables.
    """
    check_size(document)
    seated = statements.seated(table.pk)
    check_players([name for _pk, name in seated], document)
    event = table.round.event
    document = with_event_fields(event, document)
    document, result = games.check(document)
    now = timezone.now()
    sheet = {
        "document": document,
        "result": result,
        "entered_by": author.user,
        "entered_seat": author.seat,
        "entered_via": author.via,
        "entered_player": author.player,
        "entered_device": author.device,
        "entered_at": now,
        "confirmed_seat": None,
        "confirmed_via": "",
        "confirmed_player": None,
        "confirmed_by": None,
        "confirmed_device": "",
        "confirmed_at": None,
    }
    with transaction.atomic():
        table_status, round_status = statements.lock_table(table.pk)
        manches = statements.table_manches(table.pk)
        current = next((m for m in manches if m.number == number), None)
        if current is None:
            raise NoSuchManche(number)
        if current.version != based_on:
            raise StaleSheet(current)
        if not statements.update_sheet(current.pk, based_on, sheet):
            raise StaleSheet(Manche.objects.get(pk=current.pk))
        statements.insert_revision(
            {
                "manche": current.pk,
                "version": based_on + 1,
                "before": current.document,
                "after": document,
                "changed_at": now,
                "user": author.user,
                "via": author.via,
                "seat": author.seat,
                "player": author.player,
                "device": author.device,
                "after_completion": round_status == RoundStatus.COMPLETE,
            }
        )
        for name, value in sheet.items():
            setattr(current, name, value)
        current.version = based_on + 1
        update_table_results(table, [Seat(pk=pk) for pk, _name in seated], manches)
        table.status = table_status
        refresh_table_status(table, manches)
        if round_status == RoundStatus.COMPLETE:
            rebuild_event_club(event)
        mark_stale(event.pk)
        transaction.on_commit(partial(sheet_saved, event.pk, at_once=author.is_organiser), robust=True)
    return current


def refresh_table_status(table, manches: list[Manche] | None = None) -> None:
    """Empty, in progress or entered, from how many manches have a sheet (confirmation comes later); ``manches``
    are the table's when read already."""
    manches = list(table.manches.all()) if manches is None else manches
    entered = sum(1 for m in manches if m.document)
    if entered == 0:
        status = TableStatus.EMPTY
    elif entered < len(manches):
        status = TableStatus.IN_PROGRESS
    elif all(m.confirmed_at for m in manches):
        status = TableStatus.CONFIRMED
    else:
        status = TableStatus.ENTERED
    if table.status not in (status, TableStatus.DISPUTED):
        table.status = status
        table.save(update_fields=["status"])


class ConfirmationRefused(Exception):
    """A confirmation or dispute the rules of the table do not allow; the message says why."""


def closed_refusal(manche: Manche, author: Author) -> None:
    """Players confirm and dispute only while the table takes changes; the organiser always may."""
    closed = None if author.is_organiser else closed_reason(manche.table)
    if closed == NOT_STARTED:
        raise ConfirmationRefused(_(closed))
    if closed:
        raise ConfirmationRefused(
            _("This table is closed: the organiser has locked it or completed the round. Ask the organiser.")
        )


def confirmation_refusal(manche: Manche, author: Author) -> str | None:
    """Why ``author`` may not confirm the sheet as it is, or None when the confirmation counts.

    It takes a second person: another player's own link at the table, or the table link on another device
    than the one that entered the sheet. The entering device never confirms, whatever seat it claims.
    """
    if author.is_organiser:
        return None
    if author.device and author.device == manche.entered_device:
        return _("This phone entered the sheet: another player confirms it on their own phone.")
    if author.player is not None and author.player.pk == manche.entered_player_id:
        return _("You entered this sheet: another player at the table confirms it.")
    if author.seat is not None and author.seat == manche.entered_seat:
        return _("Another player confirms the sheet, not the one who entered it.")
    if author.via not in (Via.LINK, Via.PLAYER):
        return _("A sheet is confirmed by a player at the table.")
    return None


def confirm_sheet(manche: Manche, *, version: int, author: Author) -> Manche:
    """A second person confirms the sheet as it is at ``version`` (see ``confirmation_refusal``)."""
    with transaction.atomic():
        statements.lock_table(manche.table_id)
        current = Manche.objects.select_related("table__round__event").get(pk=manche.pk)
        closed_refusal(current, author)
        if current.document is None:
            raise ConfirmationRefused(_("There is no sheet to confirm yet."))
        if current.version != version:
            raise StaleSheet(current)
        refusal = confirmation_refusal(current, author)
        if refusal:
            raise ConfirmationRefused(refusal)
        Manche.objects.filter(pk=manche.pk, version=version).update(
            confirmed_seat=author.seat,
            confirmed_via=author.via,
            confirmed_player=author.player,
            confirmed_by=author.user if author.is_organiser else None,
            confirmed_device=author.device,
            confirmed_at=timezone.now(),
        )
        table = current.table
        record(table.round.event, Action.CONFIRM, author, table=table, manche=current, version=version)
        manche.refresh_from_db()
        refresh_table_status(manche.table)
    return manche


def dispute_sheet(manche: Manche, author: Author) -> None:
    """Mark the manche's table disputed: the organiser sorts it out."""
    with transaction.atomic():
        statements.lock_table(manche.table_id)
        current = Manche.objects.select_related("table__round__event").get(pk=manche.pk)
        closed_refusal(current, author)
        table = current.table
        table.status = TableStatus.DISPUTED
        table.save(update_fields=["status"])
        record(table.round.event, Action.DISPUTE, author, table=table, manche=current, version=current.version)


def resolve_dispute(table, author: Author) -> None:
    """The organiser settled it: the status follows the sheets again."""
    table.status = TableStatus.EMPTY
    table.save(update_fields=["status"])
    refresh_table_status(table)
    record(table.round.event, Action.RESOLVE, author, table=table)
