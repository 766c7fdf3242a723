"""The metrics standings are ranked by, as a registry of small classes.

Each metric has a key (also the name of its stored column), a label and an aggregate over a player's
results; the ranking is a list of metric keys in order of precedence. Adding a tiebreak is adding one
class (and its column). Every page, file and printout of the standings takes its columns from here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from scoring.ranking import competition_ranks


@dataclass(frozen=True)
class SeatResult:
    """One player's result at one table of one round."""

    player: int
    round: int
    table: int
    points: Decimal
    score: int
    tiebreak: int


@dataclass
class PlayerRecord:
    """Everything the metrics need about one player."""

    player: int
    results: list[SeatResult] = field(default_factory=list)
    opponents: list[int] = field(default_factory=list)


class Metric:
    key: str = ""
    label: object = ""
    #: A heading for narrow columns (the projector's); empty: the label.
    short: object = ""
    #: True when the values are decimals (tournament points can be shared), False for whole numbers.
    decimal: bool = False

    def compute(self, record: PlayerRecord, totals: dict[str, dict[int, object]]) -> object:
        raise NotImplementedError

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

    def compute(self, record, totals):
        return sum((r.points for r in record.results), Decimal(0))


class GameScore(Metric):
    key, label = "score", _("Game score")
    short = _("Score")

    def compute(self, record, totals):
        return sum(r.score for r in record.results)


class GameTiebreak(Metric):
    """The game's own tiebreak after the score, named by the game (fewest mice, largest group...)."""

    key, label = "tiebreak", _("Game tiebreak")

    def compute(self, record, totals):
        return sum(r.tiebreak for r in record.results)

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

    def compute(self, record, totals):
        points = totals["points"]
        return sum((points.get(o, Decimal(0)) for o in record.opponents), Decimal(0))


METRICS: dict[str, Metric] = {m.key: m for m in (TournamentPoints(), GameScore(), GameTiebreak(), OpponentsPoints())}
PRECEDENCE = ("points", "score", "tiebreak", "buchholz")


def shown_metrics(game) -> list[Metric]:
    """The metrics an event of ``game`` shows, in order of precedence."""
    return [METRICS[key] for key in PRECEDENCE if METRICS[key].shown_for(game)]


@dataclass(frozen=True)
class Ranked:
    player: int
    rank: int
    rounds: int
    metrics: dict[str, object]


def records_from(results: Iterable[SeatResult], players: Iterable[int]) -> dict[int, PlayerRecord]:
    """Each player's results and the opponents met at the same tables."""
    records = {p: PlayerRecord(p) for p in players}
    by_table: dict[int, list[SeatResult]] = defaultdict(list)
    for result in results:
        records.setdefault(result.player, PlayerRecord(result.player)).results.append(result)
        by_table[result.table].append(result)
    for seated in by_table.values():
        for result in seated:
            records[result.player].opponents.extend(o.player for o in seated if o.player != result.player)
    return records


def legends(game) -> list[str]:
    """The one-line legends of the columns an event of ``game`` shows."""
    return [legend for metric in shown_metrics(game) if (legend := metric.legend_for(game))]


def rank_players(results: Iterable[SeatResult], players: Iterable[int], precedence=PRECEDENCE) -> list[Ranked]:
    """Standings, best first: metrics in ``precedence`` order, shared rank when all are equal.

    A player without a result yet ranks after every player with one, whatever the metrics say (a score below
    zero, a tiebreak counted negative): not having played is never better than having played.
    """
    records = records_from(results, players)
    totals: dict[str, dict[int, object]] = {}
    for key in precedence:
        metric = METRICS[key]
        totals[key] = {p: metric.compute(record, totals) for p, record in records.items()}

    def key(player: int) -> tuple:
        return (bool(records[player].results), *(totals[k][player] for k in precedence))

    order = sorted(records, key=key, reverse=True)
    ranks = competition_ranks([key(p) for p in order])
    return [
        Ranked(p, rank, len({r.round for r in records[p].results}), {k: totals[k][p] for k in precedence})
        for p, rank in zip(order, ranks)
    ]
