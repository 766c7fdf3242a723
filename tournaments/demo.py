"""The demo: one event per game, with players, a seated round and some sheets entered."""

from __future__ import annotations

import datetime
import random

from django.db import transaction

from . import games
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


@transaction.atomic
def load_demo(seed: int = 7) -> list[Event]:
    """Create the demo event of every game that has one; returns them."""
    rng = random.Random(seed)
    today = datetime.date.today()
    events = []
    for game in games.all_games():
        demo = game.demo
        if demo is None:
            continue
        event = Event(
            name=demo.name,
            date=today,
            venue="Sala civica",
            game=game.key,
            table_size=demo.table_size,
            manches_per_round=demo.manches_per_round,
            rounds_planned=4,
            seating_method=demo.seating_method,
            options=dict(demo.options),
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
    game = event.game_bundle
    tables = list(round_.tables.prefetch_related("seats__player", "manches"))
    for table in tables[:-1]:
        names = [seat.player.name for seat in table.seats.all()]
        for manche in table.manches.all():
            document = {"game": event.game, "variant": event.effective_variant, "players": names}
            document.update(game.demo_sheet(rng, names, event))
            record_sheet(manche, document, based_on=manche.version, author=Author(via="organiser", seat=1))
