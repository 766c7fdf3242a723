"""The desk's board of the round under way: a tile per table with its state in a word, its players and the time of
its last change, the count of tables in each state, and a filter by state.

The tables come with their seats' players and their last change in one query (a row per seat, folded into one
table each), so the desk asks the database as often for forty tables as for two.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from operator import attrgetter

from django.db.models import F, OuterRef, Prefetch, QuerySet, Subquery
from django.utils.translation import ngettext_lazy, pgettext_lazy

from ..models import AuditEntry, Round, SheetRevision, Table
from ..models.audit import Action
from ..models.rounds import TableStatus
from .clock_display import current_of, current_round


class State:
    """Where a table stands, as the board says it."""

    EMPTY = "empty"
    ENTERED = "entered"
    TO_CONFIRM = "to_confirm"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"
    LOCKED = "locked"


#: The states in the board's order, each with its word on a tile and its count above the board.
STATES = {
    State.EMPTY: (pgettext_lazy("table state", "empty"), ngettext_lazy("%(count)d empty", "%(count)d empty", "count")),
    State.ENTERED: (
        pgettext_lazy("table state", "entered"),
        ngettext_lazy("%(count)d entered", "%(count)d entered", "count"),
    ),
    State.TO_CONFIRM: (
        pgettext_lazy("table state", "to confirm"),
        ngettext_lazy("%(count)d to confirm", "%(count)d to confirm", "count"),
    ),
    State.CONFIRMED: (
        pgettext_lazy("table state", "confirmed"),
        ngettext_lazy("%(count)d confirmed", "%(count)d confirmed", "count"),
    ),
    State.DISPUTED: (
        pgettext_lazy("table state", "disputed"),
        ngettext_lazy("%(count)d disputed", "%(count)d disputed", "count"),
    ),
    State.LOCKED: (
        pgettext_lazy("table state", "locked"),
        ngettext_lazy("%(count)d locked", "%(count)d locked", "count"),
    ),
}

#: What the audit trail records of a table besides its sheets' changes: each counts as a change on the board.
TABLE_ACTIONS = (Action.CONFIRM, Action.CONFIRM_ON_PHONE, Action.DISPUTE, Action.RESOLVE, Action.LOCK, Action.UNLOCK)


def table_rows() -> QuerySet[Table]:
    """A row per seat, ordered by table then seat, each with ``player_name`` and the moments of its table's last
    sheet change and last action: ``fold`` makes them one table each."""
    revisions = SheetRevision.objects.filter(manche__table=OuterRef("pk")).order_by("-changed_at")
    actions = AuditEntry.objects.filter(table=OuterRef("pk"), action__in=TABLE_ACTIONS).order_by("-at")
    return Table.objects.annotate(
        player_name=F("seats__player__name"),
        seat_position=F("seats__position"),
        last_sheet=Subquery(revisions.values("changed_at")[:1]),
        last_action=Subquery(actions.values("at")[:1]),
    ).order_by("number", "pk", "seat_position")


def fold(rows) -> list[Table]:
    """``table_rows``' rows as one table each, with ``names``: its players' names in seat order."""
    tables = []
    for _pk, group in groupby(rows, key=attrgetter("pk")):
        group = list(group)
        table = group[0]
        table.names = [row.player_name for row in group if row.player_name is not None]
        tables.append(table)
    return tables


def table_state(table: Table, confirmation_required: bool) -> str:
    """The board's word for ``table``: a dispute first, then a lock, then how far its sheets are."""
    if table.status == TableStatus.DISPUTED:
        return State.DISPUTED
    if table.locked:
        return State.LOCKED
    if table.status == TableStatus.EMPTY:
        return State.EMPTY
    if table.status == TableStatus.CONFIRMED:
        return State.CONFIRMED
    if table.status == TableStatus.ENTERED and confirmation_required:
        return State.TO_CONFIRM
    return State.ENTERED


#: Words that join two surnames into one ("Puig i Cadafalch", "Ortega y Gasset").
JOINING = {"i", "y", "e"}


def surname(name: str) -> str:
    """The part of ``name`` a tile shows on a laptop: from its first lowercase particle on ("van der Westhuizen",
    "de Oliveira Bragança"), a word earlier for a joining word ("Puig i Cadafalch"), else its last word."""
    words = name.split()
    for index, word in enumerate(words[1:-1], start=1):
        if word[0].islower():
            start = index - 1 if word in JOINING and index > 1 else index
            return " ".join(words[start:])
    return words[-1] if words else name


def with_initials(name: str) -> str:
    """``name``'s surname after the initials of its first given name: "Hans-Jürgen Jørgensen" as "H.-J. Jørgensen"."""
    last = surname(name)
    given = name[: len(name) - len(last)].split()
    if not given:
        return name
    return "-".join(f"{part[0]}." for part in given[0].split("-") if part) + " " + last


def short_names(names: list[str]) -> list[str]:
    """The names of one table as its tile shows them when space is short: surnames; the initials of a first name
    before a surname two players share; the whole name when even that is shared."""
    shorts = [surname(name) for name in names]
    shared = {short for short in shorts if shorts.count(short) > 1}
    shorts = [with_initials(name) if short in shared else short for name, short in zip(names, shorts)]
    shared = {short for short in shorts if shorts.count(short) > 1}
    return [name if short in shared else short for name, short in zip(names, shorts)]


@dataclass(frozen=True)
class Seated:
    """A player at a tile: the whole name, and the short one a narrow tile shows in its place."""

    name: str
    short: str


@dataclass(frozen=True)
class Tile:
    table: Table
    state: str
    names: list[str]
    changed_at: datetime | None

    @property
    def word(self) -> str:
        return STATES[self.state][0]

    @property
    def seated(self) -> list[Seated]:
        return [Seated(name, short) for name, short in zip(self.names, short_names(self.names))]


@dataclass(frozen=True)
class Count:
    state: str
    count: int

    @property
    def label(self) -> str:
        return STATES[self.state][1] % {"count": self.count}


@dataclass(frozen=True)
class Board:
    """The tiles of ``round``; ``shown`` is the state the desk filters by ("" for every table)."""

    round: Round
    tiles: list[Tile]
    shown: str = ""

    @property
    def counts(self) -> list[Count]:
        """How many tables are in each state, in the board's order; the states of no table left out, but the one
        shown."""
        found = [Count(state, sum(1 for tile in self.tiles if tile.state == state)) for state in STATES]
        return [count for count in found if count.count or count.state == self.shown]

    @property
    def shown_tiles(self) -> list[Tile]:
        return [tile for tile in self.tiles if not self.shown or tile.state == self.shown]

    @property
    def version(self) -> str:
        """Changes whenever what the board shows changes; the desk asks with it and hears "nothing new" (204)."""
        parts = [f"{self.round.pk}:{self.round.status}:{self.shown}"] + [
            f"{t.table.pk}:{t.state}:{t.changed_at}:{'|'.join(t.names)}" for t in self.tiles
        ]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]


def shown_state(value: str | None) -> str:
    """The state a request asks the board to show, "" (every table) when it names none the board knows."""
    return value if value in STATES else ""


def tile_of(table: Table, confirmation_required: bool) -> Tile:
    moments = [moment for moment in (table.last_sheet, table.last_action) if moment is not None]
    return Tile(table, table_state(table, confirmation_required), table.names, max(moments, default=None))


def board_of(event, round_: Round, tables: list[Table], shown: str = "") -> Board:
    """The board of ``round_`` from its ``tables`` as ``fold`` makes them."""
    tiles = [tile_of(table, event.confirmation_required) for table in tables]
    return Board(round_, tiles, shown_state(shown))


def desk_rounds(event) -> list[Round]:
    """The event's rounds in order, each with ``board_tables``: its tables as ``fold`` makes them; two queries."""
    seats = Prefetch("tables", queryset=table_rows(), to_attr="seat_rows")
    rounds = list(event.rounds.order_by("number").prefetch_related(seats))
    for round_ in rounds:
        round_.board_tables = fold(round_.seat_rows)
    return rounds


def desk_board(event, rounds: list[Round], shown: str = "") -> Board | None:
    """The board of the round under way among ``rounds`` (``desk_rounds``'), None between rounds."""
    round_ = current_of(rounds)
    return None if round_ is None else board_of(event, round_, round_.board_tables, shown)


def rounds_version(rounds: list[Round], board: Board | None) -> str:
    """Changes whenever the desk's list of ``rounds`` (``desk_rounds``') changes: a round's state, publication or
    seating, a table's state or lock, and which round the board shows."""
    parts = [str(board.round.pk) if board else ""]
    for round_ in rounds:
        quality = json.dumps(round_.seating_quality, sort_keys=True)
        parts.append(f"{round_.pk}:{round_.status}:{round_.published}:{quality}")
        parts += [f"{table.pk}:{table.status}:{table.locked}" for table in round_.board_tables]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]


def live_board(event, shown: str = "") -> Board | None:
    """The board of the round under way, read afresh: two queries."""
    round_ = current_round(event)
    if round_ is None:
        return None
    return board_of(event, round_, fold(table_rows().filter(round=round_)), shown)
