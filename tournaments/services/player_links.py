"""A player's own link: who they are, where they sit now, what comes next, their sheets and their standing."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from ..models import Manche, Player, Seat, Standing
from ..models.rounds import RoundStatus
from ..models.tokens import find_by_token


def player_by_token(token: str) -> Player | None:
    """The player whose link this is, or None (a revoked link finds nobody)."""
    return find_by_token(Player.objects.select_related("event", "team"), token)


@dataclass
class PlayerOverview:
    """What a player's page shows: the table now, the rounds published after it, the ones played."""

    now: Seat | None = None
    upcoming: list[Seat] = field(default_factory=list)
    played: list[Seat] = field(default_factory=list)
    opponents: dict[int, list[Seat]] = field(default_factory=dict)
    standing: Standing | None = None
    waiting: list[Manche] = field(default_factory=list)

    @property
    def now_mates(self) -> list[Seat]:
        """Who sits at the player's table now, by seat."""
        return self.opponents.get(self.now.table_id, []) if self.now else []

    @property
    def now_seats(self) -> list[Seat]:
        """Every seat of the player's table now, the player's own included, by seat."""
        return sorted([self.now, *self.now_mates], key=lambda seat: seat.position) if self.now else []

    @property
    def started(self) -> bool:
        """Whether the round of the table now is in play: its sheets take entries."""
        return self.now is not None and self.now.round.status == RoundStatus.IN_PLAY

    @property
    def results(self) -> list[tuple[Seat, list[Seat]]]:
        """The rounds played, latest first, each with the tablemates met."""
        return [(seat, self.opponents.get(seat.table_id, [])) for seat in reversed(self.played)]


def overview(player: Player, *, own_link: bool = False) -> PlayerOverview:
    """The player's published seats sorted into now, upcoming and played, with tablemates and standing.

    "Now" is the earliest published round not yet complete; later published rounds are upcoming. Through the
    player's ``own_link`` it also holds the sheets of their table waiting for them to confirm.
    """
    seats = list(
        Seat.objects.filter(player=player, round__published=True)
        .select_related("table", "round")
        .order_by("round__number")
    )
    result = PlayerOverview(standing=Standing.objects.filter(event_id=player.event_id, player=player).first())
    for seat in seats:
        if seat.round.status == RoundStatus.COMPLETE:
            result.played.append(seat)
        elif result.now is None:
            result.now = seat
        else:
            result.upcoming.append(seat)
    mates = Seat.objects.filter(table__in=[s.table_id for s in seats]).exclude(player=player).select_related("player")
    for mate in mates.order_by("position"):
        result.opponents.setdefault(mate.table_id, []).append(mate)
    if own_link and result.started and player.event.confirmation_required:
        result.waiting = waiting_for(result.now)
    return result


def waiting_for(seat: Seat) -> list[Manche]:
    """The sheets of the seat's table that wait for a confirmation this player may give: entered, not confirmed,
    and not entered by them (through their link or in their seat's name)."""
    manches = Manche.objects.filter(table_id=seat.table_id, document__isnull=False, confirmed_at__isnull=True)
    mine = Q(entered_player_id=seat.player_id) | Q(entered_seat=seat.position)
    return list(manches.exclude(mine).order_by("number"))
