"""Ratings rebuilt from the stored results: every completed round of a club's events, in one fixed order.

The order is the events' dates, then their ids, then round and table numbers: the same results give the same
numbers every time. Each table is one match ranked by the seats' stored places (equal places tie). A seat
whose player is linked to no person still plays, as a newcomer at the default rating each time: the people at
that table are rated against them, and nothing is kept for the unlinked player.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import groupby

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import Club, Event, Person, Rating, RatingChange, Round, Seat
from ..models.rounds import RoundStatus
from ..sql import insert_rows
from . import skill as skills

#: What one seat of a completed round brings to the ratings, in the order they are rated.
SEAT_FIELDS = (
    "round__event__date",
    "round__event_id",
    "round__number",
    "table__number",
    "position",
    "round__event__game",
    "player__person_id",
    "rank",
)


@dataclass
class Progress:
    """A person's rating at one game while the results are read: the skill now and what it counts."""

    skill: skills.Skill
    previous_ordinal: float
    rounds: int = 0
    events: set[int] = field(default_factory=set)
    last_event: int | None = None

    def played(self, event_id: int, after: skills.Skill) -> None:
        if event_id != self.last_event:
            self.previous_ordinal = self.skill.ordinal
            self.last_event = event_id
            self.events.add(event_id)
        self.skill = after
        self.rounds += 1


def rated_seats(club: Club, game: str | None = None, rounds: Iterable[Round] | None = None, public_only: bool = False):
    """The seats with a place of the club's completed rounds (of ``game``; of ``rounds``; of its public events), in
    rating order."""
    seats = Seat.objects.filter(round__event__club=club, round__status=RoundStatus.COMPLETE, rank__isnull=False)
    if game is not None:
        seats = seats.filter(round__event__game=game)
    if rounds is not None:
        seats = seats.filter(round__in=list(rounds))
    if public_only:
        seats = seats.filter(round__event__public=True)
    return seats.order_by(*SEAT_FIELDS[:5]).values_list(*SEAT_FIELDS)


def tables_of(seats) -> Iterator[tuple[tuple, list[tuple]]]:
    """The seats grouped by table: (event date, event id, round, table) and the table's seats."""
    for key, group in groupby(seats, key=lambda seat: seat[:4]):
        yield key, list(group)


#: A RatingChange as ``play`` collects it: its columns, in this order.
CHANGE_COLUMNS = (
    "person_id",
    "game",
    "event_id",
    "round_number",
    "table_number",
    "rank",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)


def store_changes(changes: list[tuple]) -> None:
    """Insert rating changes (rows of ``CHANGE_COLUMNS``) as plain rows: a rebuild writes tens of thousands, and a
    model object each would take longer than the rating itself."""
    insert_rows(RatingChange, CHANGE_COLUMNS, changes)


def play(progress: dict[tuple[int, str], Progress], seats, changes: list[tuple]) -> None:
    """Rate every table of ``seats`` onto ``progress``, adding a row of ``CHANGE_COLUMNS`` per linked seat to
    ``changes``."""
    for (_date, event_id, round_number, table_number), table in tables_of(seats):
        if len(table) < 2:
            continue
        game = table[0][5]
        keys = [(seat[6], game) if seat[6] is not None else None for seat in table]
        before = [progress[key].skill if key in progress else skills.initial() for key in keys]
        after = skills.rate_table(before, [seat[7] for seat in table])
        for key, seat, old, new in zip(keys, table, before, after):
            if key is None:
                continue
            if key not in progress:
                progress[key] = Progress(old, old.ordinal)
            progress[key].played(event_id, new)
            changes.append(
                (key[0], game, event_id, round_number, table_number, seat[7], old.mu, old.sigma, new.mu, new.sigma)
            )


def rating_row(key: tuple[int, str], progress: Progress) -> Rating:
    person_id, game = key
    return Rating(
        person_id=person_id,
        game=game,
        mu=progress.skill.mu,
        sigma=progress.skill.sigma,
        ordinal=progress.skill.ordinal,
        previous_ordinal=progress.previous_ordinal,
        rounds=progress.rounds,
        events=len(progress.events),
    )


@transaction.atomic
def rebuild_ratings(club: Club, game: str | None = None) -> int:
    """Rate the club's people again from scratch (at ``game`` only, if given); returns the ratings stored."""
    progress: dict[tuple[int, str], Progress] = {}
    changes: list[tuple] = []
    play(progress, rated_seats(club, game).iterator(chunk_size=5000), changes)
    people = Person.objects.filter(club=club).values("pk")
    games = {"game": game} if game is not None else {}
    RatingChange.objects.filter(person__in=people, **games).delete()
    Rating.objects.filter(person__in=people, **games).delete()
    store_changes(changes)
    Rating.objects.bulk_create([rating_row(key, p) for key, p in sorted(progress.items())], batch_size=2000)
    return len(progress)


def later_rounds_rated(round_: Round) -> bool:
    """Whether the club has ratings from rounds that come after ``round_`` in rating order (or from it)."""
    event = round_.event
    later = (
        Q(event__date__gt=event.date)
        | Q(event__date=event.date, event_id__gt=event.pk)
        | Q(event_id=event.pk, round_number__gte=round_.number)
    )
    return RatingChange.objects.filter(person__club_id=event.club_id, game=event.game).filter(later).exists()


@transaction.atomic
def rate_round(round_: Round) -> None:
    """Bring the club's ratings up to date once ``round_`` is complete: its tables are rated onto the stored
    ratings when it is the latest round rated, otherwise the club's ratings at its game are rebuilt."""
    event = round_.event
    if event.club_id is None:
        return
    if later_rounds_rated(round_):
        rebuild_ratings(event.club, event.game)
        return
    seats = list(rated_seats(event.club, event.game, [round_]))
    people = {seat[6] for seat in seats if seat[6] is not None}
    stored = {r.person_id: r for r in Rating.objects.filter(person_id__in=people, game=event.game)}
    seen = set(
        RatingChange.objects.filter(person_id__in=people, game=event.game, event=event).values_list(
            "person_id", flat=True
        )
    )
    progress = {(pk, event.game): resumed(stored[pk], event.pk if pk in seen else None) for pk in stored}
    changes: list[tuple] = []
    play(progress, seats, changes)
    store_changes(changes)
    rows = [rating_row(key, p) for key, p in sorted(progress.items())]
    now = timezone.now()
    for row in rows:
        if row.person_id in stored:
            row.pk, row.updated = stored[row.person_id].pk, now
    fields = ["mu", "sigma", "ordinal", "previous_ordinal", "rounds", "events", "updated"]
    Rating.objects.bulk_create([row for row in rows if row.pk is None])
    Rating.objects.bulk_update([row for row in rows if row.pk is not None], fields)


def resumed(rating: Rating, current_event: int | None) -> Progress:
    """A stored rating as progress to rate on; ``current_event`` when the person played in it already."""
    progress = Progress(skills.Skill(rating.mu, rating.sigma), rating.previous_ordinal, rating.rounds)
    progress.events = set(range(-rating.events, 0))
    if current_event is not None:
        progress.last_event = current_event
    return progress


def rebuild_event_club(event: Event) -> None:
    """The ratings of the event's club at its game rebuilt (after a round reopens or people are relinked)."""
    if event.club_id is not None:
        rebuild_ratings(event.club, event.game)
