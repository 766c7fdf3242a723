"""The statistics of an event, a player and a person as plots: standings movement by round, the scores of each
round, each game's own story (through its bundle), and a person's rating over the rounds.

Each page reads a fixed number of queries whatever the size of the event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import gettext as _

from ..collation import sort_key
from ..games.story import round_label
from ..models import Event, Manche, Player
from ..models.rounds import RoundStatus
from ..plots import Group, Plot, Series, lines, strips
from ..plots.sheets import StoredSheet
from ..ratings.pages import GameHistory
from ..standings.build import seat_results
from ..standings.metrics import SeatResult, rank_tally, tally

#: The lines of the event's movement plot: the players ranked first now.
TOP = 8


@dataclass(frozen=True)
class Movement:
    """Each player's rank after each complete round."""

    rounds: list[int]
    names: dict[int, str]
    ranks: dict[int, list[int | None]]

    def latest(self, player: int) -> int | None:
        return next((rank for rank in reversed(self.ranks.get(player, [])) if rank is not None), None)

    def leaders(self, count: int) -> list[int]:
        ranked = [player for player in self.ranks if self.latest(player) is not None]
        return sorted(ranked, key=lambda player: (self.latest(player), sort_key(self.names[player])))[:count]


def movement(event: Event, results: Sequence[SeatResult]) -> Movement:
    """The ranks after each complete round with results, as the standings ranked them then."""
    complete = set(event.rounds.filter(status=RoundStatus.COMPLETE).values_list("number", flat=True))
    rounds = sorted(complete & {result.round for result in results})
    if not rounds:
        return Movement([], {}, {})
    names = dict(event.players.values_list("pk", "name"))
    ranks: dict[int, list[int | None]] = {player: [] for player in names}
    counted, done = tally((), names), 0
    for number in rounds:
        tally((r for r in results if done < r.round <= number), (), into=counted)
        done = number
        after = {r.player: r.rank for r in rank_tally(counted, event.game_bundle.ranking) if r.rounds}
        for player in names:
            ranks[player].append(after.get(player))
    return Movement(rounds, names, ranks)


def movement_plot(moved: Movement, player: int | None = None, ident: str = "movement") -> Plot | None:
    if not moved.rounds:
        return None
    shown = moved.leaders(TOP)
    if player is not None and player not in shown and moved.latest(player) is not None:
        shown.append(player)
    series = [
        Series(moved.names[p], moved.ranks[p], highlight=p == player, muted=player is not None and p != player)
        for p in shown
    ]
    if player is None:
        description = _("The rank after each complete round of the %(count)d players ranked first now.") % {
            "count": len(shown)
        }
    else:
        description = _("The player's rank after each complete round, highlighted, beside the players ranked first.")
    return lines(
        ident,
        _("Standings movement by round"),
        description,
        [round_label(n) for n in moved.rounds],
        series,
        _("Player"),
        inverted=True,
    )


def score_plot(results: Sequence[SeatResult], player: int | None = None, ident: str = "scores") -> Plot | None:
    by_round: dict[int, list[int]] = {}
    for result in results:
        by_round.setdefault(result.round, []).append(result.score)
    if not by_round:
        return None
    own = {r.round: r.score for r in results if r.player == player}
    groups = [Group(round_label(n), by_round[n], [own[n]] if n in own else []) for n in sorted(by_round)]
    headings = [_("Round"), _("Players"), _("Lowest"), _("Median"), _("Highest")]
    if player is not None:
        headings.append(_("This player"))
    description = _("Every game score of each round: a dot per player, the bar at the median.")
    if player is not None:
        description += " " + _("The player's own score is the large dot.")
    return strips(ident, _("Score distribution per round"), description, groups, headings)


def event_sheets(event: Event) -> list[StoredSheet]:
    """The event's scored sheets of published rounds, in one query."""
    rows = Manche.objects.filter(
        table__round__event=event, table__round__published=True, result__isnull=False
    ).values_list("table__round__number", "result")
    return [StoredSheet(*row) for row in rows.order_by("table__round__number", "table__number", "number")]


def event_plots(event: Event) -> list[Plot]:
    """The event's statistics page: movement, scores per round, then the game's own story."""
    results = seat_results(event)
    found = [movement_plot(movement(event, results)), score_plot(results)]
    return [plot for plot in found if plot] + event.game_bundle.stats(event_sheets(event))


def player_plots(event: Event, player: Player) -> list[Plot]:
    """A player's page: their line in the movement and their scores among everyone's."""
    results = seat_results(event)
    found = [
        movement_plot(movement(event, results), player.pk, "player-movement"),
        score_plot(results, player.pk, "player-scores"),
    ]
    return [plot for plot in found if plot]


@dataclass(frozen=True)
class PrintedCharts:
    """What the printed standings draw under the table: the leaders' movement and the scores of each round."""

    rounds: list[str]
    leaders: list[Series]
    scores: list[Group]


def printed_charts(event: Event, after_round: int | None = None) -> PrintedCharts | None:
    """The standings' charts, up to ``after_round`` when the standings are printed as they were then."""
    results = [r for r in seat_results(event) if after_round is None or r.round <= after_round]
    if not results:
        return None
    moved = movement(event, results)
    leaders = [Series(moved.names[p], moved.ranks[p]) for p in moved.leaders(TOP)]
    by_round: dict[int, list[int]] = {}
    for result in results:
        by_round.setdefault(result.round, []).append(result.score)
    scores = [Group(round_label(n), by_round[n]) for n in sorted(by_round)]
    return PrintedCharts([round_label(n) for n in moved.rounds], leaders, scores)


def rating_plot(history: GameHistory) -> Plot | None:
    """A person's rating at one game after each rated round, oldest first."""
    steps = list(reversed(history.lines))
    if not steps:
        return None
    values = [float(steps[0].before), *(float(line.after) for line in steps)]
    labels = [""]
    previous = None
    for line in steps:
        event = line.change.event
        labels.append(formats.date_format(event.date, "d/m") if event.pk != previous else "")
        previous = event.pk
    name = history.game.name if history.game else history.key
    description = _("From %(first)s to %(last)s over %(count)d rounds; the table below lists each round.") % {
        "first": int(values[0]),
        "last": int(values[-1]),
        "count": len(steps),
    }
    return lines(
        f"rating-{history.key}",
        _("Rating at %(game)s") % {"game": name},
        description,
        labels,
        [Series(_("Rating"), values, highlight=True)],
        _("Rating"),
    )
