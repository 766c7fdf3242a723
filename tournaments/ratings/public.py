"""Ratings as public pages show them: from the results of the club's public events alone.

While every event of the club at a game is public, those are the stored ratings. Once one is private, the club's
public results at the game are rated again from scratch (as a rebuild rates them) and kept in the cache until the
stored ratings change or an event at the game turns public or private.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.db.models import Count, Max

from ..models import Event, Player, Rating
from .build import play, rated_seats, rating_row
from .pages import player_rating

#: What the cache keeps of each public rating: the fields of a Rating the pages show or derive.
FIELDS = ("mu", "sigma", "ordinal", "previous_ordinal", "rounds", "events")
#: How long public ratings stay in the cache when nothing replaces them sooner.
KEEP_SECONDS = 24 * 60 * 60


def private_events(event: Event) -> list[int]:
    """The ids of the private events of the event's club at its game."""
    events = Event.objects.filter(club_id=event.club_id, game=event.game, public=False)
    return list(events.order_by("pk").values_list("pk", flat=True))


def cache_key(event: Event, private: list[int]) -> str:
    """A key that changes with the stored ratings of the event's club at its game (rating a round or rebuilding
    updates them) and with the events kept private."""
    ratings = Rating.objects.filter(person__club_id=event.club_id, game=event.game)
    stored = ratings.aggregate(count=Count("pk"), at=Max("updated"))
    state = f"{stored['count']}:{stored['at']}:{private}"
    return f"public-ratings:{event.club_id}:{event.game}:{hashlib.sha256(state.encode()).hexdigest()}"


def rated_publicly(event: Event) -> dict[int, tuple]:
    """The fields of each person's rating at the event's game from their club's public events alone, by person."""
    progress = {}
    play(progress, rated_seats(event.club, event.game, public_only=True).iterator(chunk_size=5000), [])
    return {key[0]: tuple(getattr(rating_row(key, p), name) for name in FIELDS) for key, p in progress.items()}


def public_ratings(event: Event, private: list[int]) -> dict[int, tuple]:
    """``rated_publicly``, from the cache while nothing changed."""
    key = cache_key(event, private)
    ratings = cache.get(key)
    if ratings is None:
        ratings = rated_publicly(event)
        cache.set(key, ratings, KEEP_SECONDS)
    return ratings


def public_player_rating(player: Player) -> Rating | None:
    """The rating of the player's person at the event's game counting their club's public events only: the stored
    one while the club has no private event at the game, else an unsaved one."""
    event = player.event
    if player.person_id is None or event.club_id is None:
        return None
    private = private_events(event)
    if not private:
        return player_rating(player)
    fields = public_ratings(event, private).get(player.person_id)
    return None if fields is None else Rating(person_id=player.person_id, game=event.game, **dict(zip(FIELDS, fields)))


def shown_rating(player: Player) -> Rating | None:
    """The rating the player's page shows: from public events alone on a public event's page, which anyone sees;
    every event counted on a private one's, which only its organisers see."""
    return public_player_rating(player) if player.event.public else player_rating(player)
