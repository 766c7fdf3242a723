"""The standings' one read model: ``StandingRow``, a player's place as every page, file and printout reads it.

The stored standings (``standings_rows``) and the standings after an earlier round (``rows_after``, ranked again by
``metrics.rank_players``) are lists of the same rows, best first, ties in alphabetical order. The standings page and
its phone list, the projector, CSV, Excel, PDF, statistics and the season ladder all read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from django.db.models import BooleanField, Exists, OuterRef, Value

from ..collation import sort_key
from ..models import Event, Seat, Standing
from .build import STORED, seat_results
from .figures import Figure, figures
from .metrics import METRICS, rank_players
from .stage import Stage

#: Names and clubs recur on every page view: their collation keys (the costly part of a page) are kept per process.
cached_sort_key = lru_cache(maxsize=8192)(sort_key)


@dataclass(eq=False)
class ListedPlayer:
    name: str
    club: str
    active: bool = True


@dataclass(eq=False)
class StandingRow:
    """One player's standing: rank, the stored metrics (``metrics.METRIC_KEYS``), rounds played, movement since the
    last complete round (``moved``: None when there is nothing to compare), and the player.

    Plain values rather than model instances: a page of the live standings sorts every row to show a hundred.
    """

    player_id: int
    player: ListedPlayer
    rank: int
    points: Decimal = Decimal(0)
    score: int = 0
    tiebreak: int = 0
    buchholz: Decimal = Decimal(0)
    rounds_played: int = 0
    previous_rank: int | None = None
    previous_round: int | None = None
    moved: int | None = None
    #: Each metric as the event's game shows it (``Metric.shown_value``), by key: what a column sorts by.
    shown: dict[str, object] = field(default_factory=dict)
    #: For the rows a page shows: the player's page, and the shown metrics as figures by key (``figures.Figure``).
    url: str = ""
    figures: dict = field(default_factory=dict)
    #: For the rows a phone lists: the figures its line shows, and those shown on tap (``StandingsTable.phone_rows``).
    line: list = field(default_factory=list)
    details: list = field(default_factory=list)
    #: Seated in the round in play without a result yet: shown without figures until they have one.
    playing: bool = False

    def __post_init__(self) -> None:
        self.name_key = cached_sort_key(self.player.name)
        self.club_key = cached_sort_key(self.player.club)

    @property
    def dropped(self) -> bool:
        return not self.player.active

    @property
    def played(self) -> bool:
        """Whether the player has a result (their figures mean something)."""
        return self.rounds_played > 0

    @property
    def ranked(self) -> bool:
        """Whether the standings list the player: they have a result, or are playing for their first."""
        return self.played or self.playing

    @property
    def places(self) -> int:
        """How many places the player moved, up or down."""
        return abs(self.moved or 0)

    def sort_keys(self) -> tuple:
        return (self.rank, self.name_key)


def with_shown_values(rows: list[StandingRow], game) -> list[StandingRow]:
    """The rows, each with its metrics as the game shows them, best first (ties in alphabetical order)."""
    for row in rows:
        row.shown = {key: metric.shown_value(getattr(row, key), game) for key, metric in METRICS.items()}
    rows.sort(key=StandingRow.sort_keys)
    return rows


#: What a figure shows while the player has no result yet.
NO_FIGURE = "–"


def with_figures(rows, game, keys: tuple[str, ...] | None = None) -> list[StandingRow]:
    """The rows a page shows, each with the metrics the game shows (only ``keys`` when given) as figures; a dash
    for each while the player has no result."""
    shown = []
    for row in rows:
        row.figures = {figure.key: figure for figure in figures(row, game, keys)}
        if not row.played:
            row.figures = {key: Figure(key, figure.label, NO_FIGURE) for key, figure in row.figures.items()}
        shown.append(row)
    return shown


def split_absent(rows: list[StandingRow]) -> tuple[list[StandingRow], list[StandingRow]]:
    """The rows the standings rank (best first), and apart, by name, the players who did not play: no result and
    not playing now."""
    ranked = [row for row in rows if row.ranked]
    absent = sorted((row for row in rows if not row.ranked), key=lambda row: row.name_key)
    return ranked, absent


def movement(standing: Standing | StandingRow, stage: Stage) -> int | None:
    """Places gained (positive) or lost since the last complete round; None when there is nothing to compare:
    no round complete before this one, or the player had no result by then."""
    if stage.baseline is None or standing.previous_round != stage.baseline or standing.previous_rank is None:
        return None
    return standing.previous_rank - standing.rank


def seated_now(event: Event, stage: Stage):
    """Whether a standing's player is seated in the round in play (always False when none is)."""
    if not stage.live:
        return Value(False, output_field=BooleanField())
    seats = Seat.objects.filter(
        round__event=event, round__number=stage.number, round__published=True, player_id=OuterRef("player_id")
    )
    return Exists(seats)


def standings_rows(event: Event, stage: Stage) -> list[StandingRow]:
    """The event's stored standings, read with one query; each row says whether its player is playing now."""
    stored = Standing.objects.filter(event=event).order_by().annotate(playing=seated_now(event, stage))
    rows = []
    for *values, player_id, name, club, active, playing in stored.values_list(
        *STORED, "player_id", "player__name", "player__club", "player__active", "playing"
    ):
        row = StandingRow(player_id, ListedPlayer(name, club, active), **dict(zip(STORED, values, strict=True)))
        row.moved = movement(row, stage)
        row.playing = playing and not row.played
        rows.append(row)
    return with_shown_values(rows, event.game_bundle)


def rows_after(event: Event, number: int) -> list[StandingRow]:
    """The standings as they were after round ``number``: only results of that round and the ones before count."""
    results = [result for result in seat_results(event) if result.round <= number]
    players = {
        pk: ListedPlayer(name, club, active)
        for pk, name, club, active in event.players.values_list("pk", "name", "club", "active")
    }
    game = event.game_bundle
    ranked = rank_players(results, players, game.ranking)
    rows = [StandingRow(r.player, players[r.player], r.rank, rounds_played=r.rounds, **r.metrics) for r in ranked]
    return with_shown_values(rows, game)
