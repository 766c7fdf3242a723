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
    #: True when the values are decimals (tournament points can be shared), False for whole numbers.
    decimal: bool = False

    def compute(self, record: PlayerRecord, totals: dict[str, dict[int, object]]) -> object:
        raise NotImplementedError

    def label_for(self, game) -> str:
        """The column's heading for an event of ``game``."""
        return str(self.label)

    def shown_for(self, game) -> bool:
        """Whether an event of ``game`` shows this column at all."""
        return True


class TournamentPoints(Metric):
    key, label, decimal = "points", _("Tournament points"), True

    def compute(self, record, totals):
        return sum((r.points for r in record.results), Decimal(0))


class GameScore(Metric):
    key, label = "score", _("Game score")

    def compute(self, record, totals):
        return sum(r.score for r in record.results)


class GameTiebreak(Metric):
    """The game's own tiebreak after the score, named by the game (fewest mice, largest group...)."""

    key, label = "tiebreak", _("Game tiebreak")

    def compute(self, record, totals):
        return sum(r.tiebreak for r in record.results)

    def label_for(self, game) -> str:
        return game.tiebreak_name() or str(self.label)

    def shown_for(self, game) -> bool:
        return bool(game.tiebreak_name())


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


def rank_players(results: Iterable[SeatResult], players: Iterable[int], precedence=PRECEDENCE) -> list[Ranked]:
    """Standings, best first: metrics in ``precedence`` order, shared rank when all are equal."""
    records = records_from(results, players)
    totals: dict[str, dict[int, object]] = {}
    for key in precedence:
        metric = METRICS[key]
        totals[key] = {p: metric.compute(record, totals) for p, record in records.items()}
    order = sorted(records, key=lambda p: tuple(totals[k][p] for k in precedence), reverse=True)
    ranks = competition_ranks([tuple(totals[k][p] for k in precedence) for p in order])
    return [
        Ranked(p, rank, len({r.round for r in records[p].results}), {k: totals[k][p] for k in precedence})
        for p, rank in zip(order, ranks)
    ]
