"""The demo: one event per game, with players, a seated round and some sheets entered."""

from __future__ import annotations

import datetime
import random

from django.db import transaction

from .models import Event, Player
from .models.event import EventStatus
from .models.rounds import RoundStatus
from .services.seating import seat_next_round
from .services.sheets import Author, record_sheet

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

EVENTS = [
    ("Torneo VEGEtables d'autunno", "vegetables", 4, 4, "mixer"),
    ("Veggies Market Cup", "veggies", 4, 1, "mixer"),
    ("Copa Snack Match", "snack-match", 4, 1, "swiss"),
    ("Cheese Rescue Night", "cheese-rescue", 3, 1, "mixer"),
]


def vegetables_manche(rng: random.Random, n: int) -> dict:
    pozzo = [10 * k for k in range(n - 1, -1, -1)]
    rng.shuffle(pozzo)
    cuts = sorted(rng.sample(range(1, 16), n - 1))
    sequences = [b - a for a, b in zip([0, *cuts], [*cuts, 16])]
    bonuses = [min(s, rng.choice([0, 0, 1])) for s in sequences]
    penalties = [rng.choice([0, 0, 0, 1]) for _ in range(n)]
    return {"manches": [{"pozzo": pozzo, "sequences": sequences, "family_bonuses": bonuses, "penalties": penalties}]}


def veggies_sheet(rng: random.Random, n: int) -> dict:
    goods = ["strawberries", "bananas", "grapes", "carrots", "mushrooms"]
    stands = []
    for _ in range(n):
        biggest, second = rng.sample(goods, 2)
        size = rng.randint(4, 7)
        stands.append(
            {
                "declared": [biggest],
                "goods": {
                    biggest: {"largest": size, "groups": rng.randint(1, 3)},
                    second: {"largest": rng.randint(1, size - 1), "groups": rng.randint(1, 3)},
                },
                "mice": rng.randint(0, 4),
            }
        )
    return {"stands": stands}


def snack_match_sheet(rng: random.Random, n: int) -> dict:
    return {
        "zones": [
            {
                "groups": {
                    "snacks": {"sandwich": [rng.randint(1, 6)], "donut": [rng.randint(1, 4), 2]},
                    "cloths": {"green": [rng.randint(3, 8)], "orange": [rng.randint(1, 5), 1]},
                }
            }
            for _ in range(n)
        ]
    }


def cheese_rescue_sheet(rng: random.Random, n: int) -> dict:
    options = [(0, 0), (1, 3), (2, 4), (3, 5), (3, 4), (4, 6), (2, 3), (5, 8)]
    tallies = []
    for _ in range(n):
        cards, points = rng.choice(options)
        tallies.append({"cheese_points": points, "cheese_cards": cards})
    return {"tallies": tallies}


SHEETS = {
    "vegetables": vegetables_manche,
    "veggies": veggies_sheet,
    "snack-match": snack_match_sheet,
    "cheese-rescue": cheese_rescue_sheet,
}


@transaction.atomic
def load_demo(seed: int = 7) -> list[Event]:
    """Create the demo events; returns them."""
    rng = random.Random(seed)
    today = datetime.date.today()
    events = []
    for name, game, table_size, manches, method in EVENTS:
        event = Event(
            name=name,
            date=today,
            venue="Sala civica",
            game=game,
            table_size=table_size,
            manches_per_round=manches,
            rounds_planned=4,
            seating_method=method,
            status=EventStatus.RUNNING,
            seed=rng.randrange(2**31),
        )
        event.full_clean()
        event.save()
        Player.objects.bulk_create(Player(event=event, name=n, club=c, checked_in=True) for n, c in PLAYERS)
        round_ = seat_next_round(event)
        round_.published, round_.status = True, RoundStatus.IN_PLAY
        round_.save(update_fields=["published", "status"])
        enter_some_sheets(round_, rng)
        events.append(event)
    return events


def enter_some_sheets(round_, rng: random.Random) -> None:
    """Fill every manche of the first tables, as the players would, leaving the last table to do."""
    event = round_.event
    make = SHEETS[event.game]
    tables = list(round_.tables.prefetch_related("seats__player", "manches"))
    for table in tables[:-1]:
        names = [seat.player.name for seat in table.seats.all()]
        for manche in table.manches.all():
            document = {"game": event.game, "variant": event.effective_variant, "players": names}
            document.update(make(rng, len(names)))
            record_sheet(manche, document, based_on=manche.version, author=Author(via="organiser", seat=1))
