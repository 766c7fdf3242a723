"""The metrics standings are ranked by, as a registry of small classes.

Each metric has a key (also the name of its stored column), a label and an aggregate over the players' results;
a game's ranking is a list of metric keys in order of precedence (``Game.ranking``). Adding a tiebreak is adding
one class (and its column). Every page, file and printout of the standings takes its columns from here.

The results are summed once (``tally``: one pass over them); each metric then reads its totals from the tally.
Tournament points are summed exactly (``point_units``) and rounded to the hundredth once, when a standing is made.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from django.utils.translation import gettext_lazy as _

from scoring.ranking import competition_ranks

from ..formatting import hundredths

#: Tournament points are summed in 252,000ths: a whole number of them for every hundredth and every share of tied
#: places (a whole number of points over at most ``MOST_TIED`` seats; 2,520 is the least common multiple of 1 to 9).
POINT_UNITS = 252_000
#: The most seats that can tie for a place: a table's most seats.
MOST_TIED = 9


@lru_cache(maxsize=4096)
def point_units(stored: Decimal) -> int:
    """A seat's tournament points, which it stores to the hundredth, in ``POINT_UNITS``: the share of tied places they
    round (2.33 is 7/3: three such shares make 7, not 6.99), else the hundredths themselves."""
    share = Fraction(stored).limit_denominator(MOST_TIED)
    exact = share if hundredths(share) == stored else Fraction(stored)
    return int(exact * POINT_UNITS)


def points_of(units: int) -> Decimal:
    """Tournament points counted in ``POINT_UNITS``, to the hundredth."""
    return hundredths(Fraction(units, POINT_UNITS))


class SeatResult(NamedTuple):
    """One player's result at one table of one round (the columns of a stored seat, in this order)."""

    player: int
    round: int
    table: int
    points: Decimal
    score: int
    tiebreak: int


@dataclass
class Tally:
    """The players' results summed in one pass, by player id: what every metric aggregates."""

    #: Tournament points in ``POINT_UNITS``.
    points: dict[int, int] = field(default_factory=dict)
    score: dict[int, int] = field(default_factory=dict)
    tiebreak: dict[int, int] = field(default_factory=dict)
    #: How many results each player has (a player sits once a round: the rounds played).
    played: dict[int, int] = field(default_factory=dict)
    #: The players of each table, by table id.
    tables: dict[int, list[int]] = field(default_factory=dict)


def tally(results: Iterable[SeatResult], players: Iterable[int], into: Tally | None = None) -> Tally:
    """Each player's sums over ``results`` (added to ``into`` when given); every one of ``players`` is in it, with
    zeros when without a result."""
    counted = Tally() if into is None else into
    points, score, tiebreak, played, tables = (
        counted.points,
        counted.score,
        counted.tiebreak,
        counted.played,
        counted.tables,
    )
    for player in players:
        points[player], score[player], tiebreak[player], played[player] = 0, 0, 0, 0
    for player, _round, table, stored, scored, broken in results:
        earned = point_units(stored)
        if player in played:
            points[player] += earned
            score[player] += scored
            tiebreak[player] += broken
            played[player] += 1
        else:
            points[player], score[player], tiebreak[player], played[player] = earned, scored, broken, 1
        seated = tables.get(table)
        if seated is None:
            tables[table] = [player]
        else:
            seated.append(player)
    return counted


class Metric:
    key: str = ""
    label: object = ""
    #: A heading for narrow columns (the projector's); empty: the label.
    short: object = ""
    #: True when the values are tournament points (``POINT_UNITS`` in the tally, hundredths in a standing), False for
    #: whole numbers.
    decimal: bool = False

    def aggregate(self, counted: Tally, totals: dict[str, dict[int, object]]) -> dict[int, object]:
        """Each player's value, from the tally and the metrics of higher precedence already in ``totals`` (exact:
        tournament points in ``POINT_UNITS``)."""
        raise NotImplementedError

    def standing_value(self, value):
        """An aggregated value as a standing holds it: tournament points to the hundredth."""
        return points_of(value) if self.decimal else value

    def label_for(self, game) -> str:
        """The metric's name for an event of ``game`` (the printed standings' heading)."""
        return str(self.label)

    def heading_for(self, game) -> str:
        """The column's heading on screen, over the values as ``shown_value`` gives them."""
        return self.label_for(game)

    def short_label_for(self, game) -> str:
        """The column's heading where room is short."""
        return str(self.short) if self.short else self.heading_for(game)

    def shown_for(self, game) -> bool:
        """Whether an event of ``game`` shows this column at all."""
        return True

    def shown_value(self, value, game):
        """The value as an event of ``game`` shows it (the stored value unless the game counts otherwise)."""
        return value

    def legend_for(self, game) -> str:
        """One line under the standings saying what this column decides; empty when the heading says it all."""
        return ""


class TournamentPoints(Metric):
    key, label, decimal = "points", _("Tournament points"), True
    short = _("Points")

    def aggregate(self, counted, totals):
        return counted.points


class GameScore(Metric):
    key, label = "score", _("Game score")
    short = _("Score")

    def aggregate(self, counted, totals):
        return counted.score


class GameTiebreak(Metric):
    """The game's own tiebreak after the score, named by the game (fewest mice, largest group...)."""

    key, label = "tiebreak", _("Game tiebreak")

    def aggregate(self, counted, totals):
        return counted.tiebreak

    def label_for(self, game) -> str:
        return game.tiebreak_name() or str(self.label)

    def heading_for(self, game) -> str:
        return game.tiebreak_column() or str(self.label)

    def shown_for(self, game) -> bool:
        return bool(game.tiebreak_name())

    def shown_value(self, value, game):
        return game.tiebreak_value(value)

    def legend_for(self, game) -> str:
        return game.tiebreak_explained()


class OpponentsPoints(Metric):
    """Buchholz: the tournament points of every opponent met, once per meeting."""

    key, label, decimal = "buchholz", _("Opponents' points"), True

    def aggregate(self, counted, totals):
        points = totals["points"]
        buchholz = dict.fromkeys(points, 0)
        for seated in counted.tables.values():
            together = sum(points[player] for player in seated)
            for player in seated:
                buchholz[player] += together - points[player]
        return buchholz


#: Every metric, each after those its aggregate reads; their keys are the stored columns, in this order.
METRICS: dict[str, Metric] = {m.key: m for m in (TournamentPoints(), GameScore(), GameTiebreak(), OpponentsPoints())}
METRIC_KEYS = tuple(METRICS)


def shown_metrics(game) -> list[Metric]:
    """The metrics an event of ``game`` ranks by and shows, in order of precedence."""
    return [METRICS[key] for key in game.ranking if METRICS[key].shown_for(game)]


def legends(game) -> list[str]:
    """The one-line legends of the columns an event of ``game`` shows."""
    return [legend for metric in shown_metrics(game) if (legend := metric.legend_for(game))]


class Ranked(NamedTuple):
    player: int
    rank: int
    rounds: int
    #: Every metric's value (``METRIC_KEYS``), those the ranking does not read included.
    metrics: dict[str, object]


def rank_tally(counted: Tally, ranking: Sequence[str]) -> list[Ranked]:
    """Standings from summed results, best first: the metrics of ``ranking`` in order, a shared rank when all of
    them are equal. The one ranking of the app: the stored standings, the previous ranks and the statistics' rank
    after each round all come from here.

    A player without a result yet ranks after every player with one, whatever the metrics say (a score below
    zero, a tiebreak counted negative): not having played is never better than having played.
    """
    totals: dict[str, dict[int, object]] = {}
    for key, metric in METRICS.items():
        totals[key] = metric.aggregate(counted, totals)
    played = counted.played
    keys = {player: (played[player] > 0, *(totals[key][player] for key in ranking)) for player in played}
    order = sorted(keys, key=keys.__getitem__, reverse=True)
    ranks = competition_ranks([keys[player] for player in order])
    return [
        Ranked(
            player,
            rank,
            played[player],
            {key: METRICS[key].standing_value(column[player]) for key, column in totals.items()},
        )
        for player, rank in zip(order, ranks)
    ]


def rank_players(results: Iterable[SeatResult], players: Iterable[int], ranking: Sequence[str]) -> list[Ranked]:
    """Standings from the players' results, best first (see ``rank_tally``)."""
    return rank_tally(tally(results, players), ranking)
