"""Recording a manche's score sheet: checked by the rules, guarded by its version, kept in the audit trail."""

from __future__ import annotations

import json
import math
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.errors import Problems

from .. import games, sql
from ..models import Manche, SheetRevision
from ..models.audit import Action
from ..models.event import Confirmation
from ..models.rounds import DISPUTE_REASON_MAX, RoundStatus, TableStatus
from ..models.sheets import Via
from ..ratings.build import rebuild_event_club
from ..standings.refresh import mark_stale, sheet_saved
from .audit import Author, record
from .delivery import Delivery
from .results import update_table_results
from .tables import NOT_STARTED, TableAtHand, table_by_id

__all__ = [
    "AlreadyReceived",
    "Author",
    "ConfirmationRefused",
    "InvalidReason",
    "NoSuchManche",
    "StaleSheet",
    "TableClosed",
    "confirm_sheet",
    "confirmation_refusal",
    "closed_message",
    "dispute_sheet",
    "record_sheet",
    "received_already",
    "record_table_sheet",
    "resolve_dispute",
]


class StaleSheet(Exception):
    """The sheet changed since the version a save was based on; ``current`` is what it is now."""

    def __init__(self, current: Manche):
        super().__init__(f"manche {current.pk} is at version {current.version}")
        self.current = current


class AlreadyReceived(Exception):
    """A save sent again whose first sending was stored (its answer never reached the phone); ``current`` is the
    manche as it is now."""

    def __init__(self, current: Manche):
        super().__init__(f"manche {current.pk} already has this save")
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


class TableClosed(Exception):
    """The table takes no change from its players now; ``reason`` is the untranslated message id that says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def record_sheet(manche: Manche, document: dict, *, based_on: int, author: Author) -> Manche:
    """``record_table_sheet`` for ``manche``, which is brought up to date with what was stored."""
    saved = record_table_sheet(table_by_id(manche.table_id), manche.number, document, based_on=based_on, author=author)
    for name in (*sql.SHEET_FIELDS, "version"):
        setattr(manche, name, getattr(saved, name))
    return manche


def locked(at: TableAtHand) -> list[Manche]:
    """Inside a transaction: lock the table (``sql.lock_table``) and bring ``at`` up to date with what is stored
    now: the table's status and lock, its round's status, its manches."""
    table, round_, manches = sql.lock_table(at.table.pk)
    at.table.status, at.table.locked, at.round.status = table.status, table.locked, round_.status
    at.table.dispute_reason = table.dispute_reason
    for manche in manches:
        manche.table = at.table
    at.manches = manches
    return manches


def received_already(at: TableAtHand, number: int, delivery: Delivery) -> bool:
    """Whether this save (by its key) was stored already as a change of the table's manche ``number``."""
    if not delivery.key:
        return False
    return SheetRevision.objects.filter(manche__table_id=at.table.pk, manche__number=number, key=delivery.key).exists()


def keys_since(current: Manche, based_on: int, delivery: Delivery) -> frozenset[str]:
    """Inside the table's lock: the phones' keys of the changes stored since ``based_on``, when this save has a key
    and the sheet has changed since; empty otherwise."""
    if not delivery.key or based_on >= current.version:
        return frozenset()
    since = SheetRevision.objects.filter(manche_id=current.pk, version__gt=based_on)
    return frozenset(since.values_list("key", flat=True))


def version_for(current: Manche, based_on: int, delivery: Delivery, since: frozenset[str]) -> int:
    """The version a save counts as based on: ``based_on``, or the current one when every change since (``since``:
    their keys) was one of the phone's own saves that got no answer (``delivery.replaces``); StaleSheet when
    somebody else changed the sheet."""
    if current.version == based_on:
        return based_on
    if since and since <= delivery.replaces:
        return current.version
    raise StaleSheet(current)


def record_table_sheet(
    at: TableAtHand,
    number: int,
    document: dict,
    *,
    based_on: int,
    author: Author,
    only_while_open: bool = False,
    delivery: Delivery | None = None,
    paper: bytes | None = None,
) -> Manche:
    """Score ``document`` and store it as the sheet of the table's manche ``number`` if nobody changed it since
    ``based_on``; returns the manche as stored (``at`` holds the table's manches as they are after the save).
    ``paper`` is the picture of the paper sheet it was read from, kept with the change.

    Raises ScoreSheetError for a sheet the rules refuse, TableClosed (``only_while_open``: the players' doors) when
    the table takes no change from its players, NoSuchManche, StaleSheet for a stale version, and AlreadyReceived
    for a save whose key is stored already (a replay, whatever version it says it is based on). The table is
    locked and checked again inside the transaction that writes, which also keeps the change in the audit trail,
    stores the table's results and marks the event's standings out of date; they are rebuilt after the commit
    (``standings.refresh``).
    """
    check_size(document)
    check_players(at.names, document)
    delivery = delivery or Delivery()
    event = at.event
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
        manches = locked(at)
        current = at.manche(number)
        if current is not None and received_already(at, number, delivery):
            raise AlreadyReceived(current)
        since = keys_since(current, based_on, delivery) if current else frozenset()
        closed = at.closed_reason() if only_while_open else None
        if closed:
            raise TableClosed(closed)
        if current is None:
            raise NoSuchManche(number)
        based_on = version_for(current, based_on, delivery, since)
        if not sql.update_sheet(current.pk, based_on, sheet):
            raise StaleSheet(Manche.objects.get(pk=current.pk))
        after_completion = at.round.status == RoundStatus.COMPLETE
        sql.insert_revision(
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
                "after_completion": after_completion,
                "entered_at": delivery.entered_at(now),
                "key": delivery.key,
                "paper": paper,
            }
        )
        for name, value in sheet.items():
            setattr(current, name, value)
        current.version = based_on + 1
        update_table_results(at.table, at.seats, manches)
        if author.is_organiser and at.table.status == TableStatus.DISPUTED:
            settle_dispute(at, author, manches)
        else:
            refresh_table_status(at.table, manches)
        if after_completion:
            rebuild_event_club(event)
        mark_stale(event.pk)
        transaction.on_commit(partial(sheet_saved, event.pk, at_once=author.is_organiser), robust=True)
    return current


def sheets_status(manches: list[Manche]) -> str:
    """Empty, in progress, entered or confirmed, from how many of the table's manches have a sheet and whether
    every one is confirmed."""
    entered = sum(1 for m in manches if m.document)
    if entered == 0:
        return TableStatus.EMPTY
    if entered < len(manches):
        return TableStatus.IN_PROGRESS
    if all(m.confirmed_at for m in manches):
        return TableStatus.CONFIRMED
    return TableStatus.ENTERED


def refresh_table_status(table, manches: list[Manche] | None = None) -> None:
    """The table's status from its sheets (``sheets_status``), unless it is disputed; ``manches`` are the table's
    when read already."""
    manches = list(table.manches.all()) if manches is None else manches
    status = sheets_status(manches)
    if table.status not in (status, TableStatus.DISPUTED):
        table.status = status
        table.save(update_fields=["status"])


class ConfirmationRefused(Exception):
    """A confirmation or dispute the rules of the table do not allow; the message says why."""


class InvalidReason(ValueError):
    """A dispute's reason that is missing or too long; the message names the field and the rule."""


def closed_message(at: TableAtHand) -> str:
    """Why the table's players can no longer change its sheets, in words they act on: who closed it and whom
    to ask for a correction."""
    if at.table.locked:
        return gettext(
            "The organiser has locked this table: scores can no longer be changed here. "
            "For a correction, ask the organiser at the desk."
        )
    return gettext(
        "This round is complete: scores can no longer be changed here. For a correction, ask the organiser at the desk."
    )


def disputed_message(table) -> str:
    """What every phone of a disputed table says about it."""
    if table.dispute_reason:
        return gettext("Disputed: %(reason)s; the organiser will settle it.") % {"reason": table.dispute_reason}
    return gettext("Disputed; the organiser will settle it.")


def closed_refusal(at: TableAtHand, author: Author) -> None:
    """Players confirm and dispute only while the table takes changes; the organiser always may."""
    closed = None if author.is_organiser else at.closed_reason()
    if closed == NOT_STARTED:
        raise ConfirmationRefused(_(closed))
    if closed:
        raise ConfirmationRefused(closed_message(at))


def dispute_reason(text: object) -> str:
    """The reason a dispute gives, on one line; InvalidReason when it is missing or longer than
    DISPUTE_REASON_MAX characters."""
    kept = "".join(c for c in str(text or "") if c.isprintable() or c.isspace())
    reason = " ".join(kept.split())
    if not reason:
        raise InvalidReason(gettext("Reason: say in a few words what is wrong; a dispute needs one."))
    if len(reason) > DISPUTE_REASON_MAX:
        raise InvalidReason(
            ngettext(
                "Reason: at most %(maximum)d characters; this one has %(length)d character.",
                "Reason: at most %(maximum)d characters; this one has %(length)d characters.",
                len(reason),
            )
            % {"maximum": DISPUTE_REASON_MAX, "length": len(reason)}
        )
    return reason


#: Why a player may not confirm a sheet, as untranslated messages (``confirmation_refusal`` says them).
NOT_A_PLAYER = gettext_noop("A sheet is confirmed by a player at the table.")
SAME_PHONE = gettext_noop("This phone entered the sheet: another player confirms it on their own phone.")
SAME_PLAYER = gettext_noop("You entered this sheet: another player at the table confirms it.")
SAME_SEAT = gettext_noop("Another player confirms the sheet, not the one who entered it.")
OWN_LINK_NEEDED = gettext_noop(
    "To confirm, another player opens their own link: the QR code on their player card, or their name "
    "on the seating list. The table link enters and corrects sheets; it does not confirm them."
)
#: The refusals of the person who entered the sheet: a second player at the table confirms it.
ENTERED_IT = (SAME_PLAYER, SAME_SEAT)


def refusal_reason(manche: Manche, author: Author, confirmation: str) -> str | None:
    """Why ``author`` may not confirm the sheet as it is (an untranslated message), or None when it counts.

    It takes a second person: the organiser, or a player at the table through their own link (player card or
    seating list), never the one who entered the sheet (their player, the seat the table link said, their
    phone). In honour mode (``Confirmation.SECOND_PHONE``) the table link on another phone than the one that
    entered the sheet counts too, as a confirmation on a second phone, not verified; not for a sheet the JSON API
    sent without a phone's cookie, since there is no first phone to tell the second from.
    """
    if author.is_organiser:
        return None
    if author.via not in (Via.LINK, Via.PLAYER):
        return NOT_A_PLAYER
    if author.device and author.device == manche.entered_device:
        return SAME_PHONE
    if author.player is not None and author.player.pk == manche.entered_player_id:
        return SAME_PLAYER
    if author.seat is not None and author.seat == manche.entered_seat:
        return SAME_SEAT
    came_without_phone = manche.entered_via == Via.API and not manche.entered_device
    if author.via == Via.LINK and (confirmation != Confirmation.SECOND_PHONE or came_without_phone):
        return OWN_LINK_NEEDED
    return None


def confirmation_refusal(manche: Manche, author: Author, confirmation: str) -> str | None:
    """``refusal_reason`` in the active language."""
    reason = refusal_reason(manche, author, confirmation)
    return gettext(reason) if reason else None


def locked_manche(at: TableAtHand, number: int) -> Manche:
    """Inside a transaction: the table locked and ``at`` brought up to date; its manche ``number`` as it is now."""
    locked(at)
    current = at.manche(number)
    if current is None:
        raise NoSuchManche(number)
    return current


def confirm_sheet(manche: Manche, *, version: int, author: Author, at: TableAtHand | None = None) -> Manche:
    """A second person confirms the sheet as it is at ``version`` (see ``confirmation_refusal``); returns the
    manche as stored. ``at`` is the manche's table when the caller has read it."""
    at = at or table_by_id(manche.table_id)
    with transaction.atomic():
        current = locked_manche(at, manche.number)
        closed_refusal(at, author)
        if current.document is None:
            raise ConfirmationRefused(_("There is no sheet to confirm yet."))
        if current.version != version:
            raise StaleSheet(current)
        if at.table.status == TableStatus.DISPUTED and not author.is_organiser:
            raise ConfirmationRefused(
                gettext("%(disputed)s Nobody confirms it until then.") % {"disputed": disputed_message(at.table)}
            )
        refusal = confirmation_refusal(current, author, at.event.confirmation)
        if refusal:
            raise ConfirmationRefused(refusal)
        confirmed = {
            "confirmed_seat": author.seat,
            "confirmed_via": author.via,
            "confirmed_player": author.player,
            "confirmed_by": author.user if author.is_organiser else None,
            "confirmed_device": author.device,
            "confirmed_at": timezone.now(),
        }
        Manche.objects.filter(pk=current.pk, version=version).update(**confirmed)
        for name, value in confirmed.items():
            setattr(current, name, value)
        action = Action.CONFIRM_ON_PHONE if current.confirmed_on_phone else Action.CONFIRM
        record(at.event, action, author, table=at.table, manche=current, version=version)
        if author.is_organiser and at.table.status == TableStatus.DISPUTED:
            settle_dispute(at, author, at.manches)
        else:
            refresh_table_status(at.table, at.manches)
    return current


def dispute_sheet(manche: Manche, author: Author, at: TableAtHand | None = None, *, reason: str) -> Manche:
    """Mark the manche's table disputed with ``reason`` (``dispute_reason``): the organiser settles it, and until
    then no player confirms its sheets. Returns the manche as it is.

    Raises ConfirmationRefused once the table is closed or while the manche has no sheet, InvalidReason for a
    missing or too long reason."""
    at = at or table_by_id(manche.table_id)
    with transaction.atomic():
        current = locked_manche(at, manche.number)
        closed_refusal(at, author)
        if current.document is None:
            raise ConfirmationRefused(_("There is no sheet to dispute yet."))
        reason = dispute_reason(reason)
        at.table.status, at.table.dispute_reason = TableStatus.DISPUTED, reason
        at.table.save(update_fields=["status", "dispute_reason"])
        version, details = current.version, {"reason": reason}
        record(at.event, Action.DISPUTE, author, table=at.table, manche=current, version=version, details=details)
    return current


def settle_dispute(at: TableAtHand, author: Author, manches: list[Manche]) -> None:
    """Inside a transaction, the table locked: the organiser settled its dispute (at its page, or by correcting or
    confirming a sheet there). The reason goes to the audit trail; the status follows the sheets again."""
    table, reason = at.table, at.table.dispute_reason
    table.status, table.dispute_reason = sheets_status(manches), ""
    table.save(update_fields=["status", "dispute_reason"])
    record(at.event, Action.RESOLVE, author, table=table, details={"reason": reason} if reason else None)


def resolve_dispute(table, author: Author) -> None:
    """The organiser settled the table's dispute at its page; nothing happens when it is not disputed (any more)."""
    at = table_by_id(table.pk)
    with transaction.atomic():
        manches = locked(at)
        if at.table.status == TableStatus.DISPUTED:
            settle_dispute(at, author, manches)
    table.status, table.dispute_reason = at.table.status, at.table.dispute_reason
