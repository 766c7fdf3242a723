"""The demo: one event per game, with players, a seated round and some sheets entered; the events of a club
whose past evenings (complete, with the same people) give everyone a rating at once, and a season of all of
them so the ladder shows at once."""

from __future__ import annotations

import datetime
import random

from django.db import transaction

from . import games
from .models import Club, Event, Person, Player, Season
from .models.event import EventStatus, SeatingMethod
from .models.rounds import RoundStatus
from .models.seasons import PointsRule
from .services.round_end import complete_round
from .services.seating import seat_next_round
from .services.sheets import Author, record_sheet

CLUB = "Circolo Ludico Demo"
#: Past evenings of the club for each game, a week apart, and the rounds each one played.
PAST_EVENINGS = 3
PAST_ROUNDS = 3
#: The demo season counts each person's best results of this many tournaments.
SEASON_BEST = 8

PLAYERS = [
    ("Ada Rossi", "Circolo Ludico Roma"),
    ("Bea Martínez", "Club Dau Barcelona"),
    ("Cyd Nowak", "Klub Planszówek Kraków"),
    ("Dan Bianchi", "Circolo Ludico Roma"),
    ("Eva Łukasiewicz", "Klub Planszówek Kraków"),
    ("Fabio Esposito", "Tana dei Goblin Napoli"),
    ("Gloria Núñez", "Club Dau Barcelona"),
    ("Hugo Ferrer", "Club Dau Barcelona"),
    ("Irene Conti", "Tana dei Goblin Napoli"),
    ("Jakub Wróbel", "Klub Planszówek Kraków"),
    ("Kai Müller", ""),
    ("Lucía Peña", "Club Dau Barcelona"),
]


@transaction.atomic
def load_demo(seed: int = 7) -> list[Event]:
    """Create the demo event of every game that has one; returns them."""
    rng = random.Random(seed)
    today = datetime.date.today()
    club = Club.objects.create(name=CLUB)
    people = [Person.objects.create(club=club, name=name, affiliation=affiliation) for name, affiliation in PLAYERS]
    events = []
    for game in games.all_games():
        demo = game.demo
        if demo is None:
            continue
        for weeks in range(PAST_EVENINGS, 0, -1):
            past = demo_event(game, club, people, rng, today - datetime.timedelta(weeks=weeks))
            play_past_evening(past, rng)
        event = demo_event(game, club, people, rng, today)
        round_ = seat_next_round(event)
        round_.published, round_.status = True, RoundStatus.IN_PLAY
        round_.save(update_fields=["published", "status"])
        enter_some_sheets(round_, rng)
        events.append(event)
    season = Season.objects.create(club=club, name="Autumn season", rule=PointsRule.BEST, best=SEASON_BEST)
    season.events.set(club.events.all())
    return events


def demo_event(game, club: Club, people: list[Person], rng: random.Random, date: datetime.date) -> Event:
    """The game's demo event of ``date`` in the club, with the demo's players, each linked to their person."""
    demo = game.demo
    past = date < datetime.date.today()
    event = Event(
        name=f"{club.name} {date:%d/%m} · {game.name}" if past else demo.name,
        date=date,
        venue="Sala civica",
        game=game.key,
        table_size=demo.table_size,
        manches_per_round=demo.manches_per_round,
        rounds_planned=PAST_ROUNDS if past else 4,
        seating_method=demo.seating_method,
        options=dict(demo.options),
        status=EventStatus.RUNNING,
        seed=rng.randrange(2**31),
        club=club,
    )
    event.full_clean()
    event.save()
    Player.objects.bulk_create(
        Player(event=event, name=person.name, club=person.affiliation, checked_in=True, person=person)
        for person in people
    )
    return event


def play_past_evening(event: Event, rng: random.Random) -> None:
    """Every planned round seated (at random: quick), every sheet entered and the round completed."""
    for _number in range(event.rounds_planned):
        round_ = seat_next_round(event, SeatingMethod.RANDOM)
        round_.published, round_.status = True, RoundStatus.IN_PLAY
        round_.save(update_fields=["published", "status"])
        enter_some_sheets(round_, rng, every_table=True)
        complete_round(round_)


def enter_some_sheets(round_, rng: random.Random, every_table: bool = False) -> None:
    """Fill every manche of the first tables (of all of them with ``every_table``), as the players would."""
    event = round_.event
    game = event.game_bundle
    tables = list(round_.tables.prefetch_related("seats__player", "manches"))
    for table in tables if every_table else tables[:-1]:
        names = [seat.player.name for seat in table.seats.all()]
        for manche in table.manches.all():
            document = {"game": event.game, "variant": event.effective_variant, "players": names}
            document.update(game.demo_sheet(rng, names, event))
            record_sheet(manche, document, based_on=manche.version, author=Author(via="organiser", seat=1))
