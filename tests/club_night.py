"""A club night of 48 players with the names and clubs of tests/data/players-club-night.csv, written straight to the
database: rounds seated by the event's method, published, started, their sheets entered as the demo plays them."""

from __future__ import annotations

import datetime
import random
from pathlib import Path

from tournaments import games
from tournaments.models import Event, Player, Round
from tournaments.services import players as player_service
from tournaments.services.audit import Author
from tournaments.services.clock import change_clock
from tournaments.services.round_end import complete_round
from tournaments.services.rounds import publish_round, seat_round, start_round
from tournaments.services.sheets import record_sheet

CLUB_NIGHT = Path(__file__).resolve().parent / "data" / "players-club-night.csv"
DESK = Author(via="organiser")


def import_club_night(event: Event) -> list[Player]:
    rows = player_service.parse_player_csv(CLUB_NIGHT.read_text(encoding="utf-8"))
    return player_service.import_players(event, rows)


def enter_sheets(round_: Round, rng: random.Random, tables: int | None = None) -> None:
    """Sheets for the first ``tables`` tables of the round (all by default), as the event's game plays them."""
    event = round_.event
    game = event.game_bundle
    for table in list(round_.tables.order_by("number").prefetch_related("seats__player"))[:tables]:
        names = [seat.player.name for seat in table.seats.order_by("position")]
        for manche in table.manches.order_by("number"):
            document = {"game": event.game, "variant": event.effective_variant, "players": names}
            document.update(game.demo_sheet(rng, names, event))
            record_sheet(manche, document, based_on=manche.version, author=DESK)


def club_night(
    *, game: str = "veggies", complete: int = 1, live_tables: int | None = 5, drop: str = "", clock_minutes: int = 0
) -> Event:
    """48 players; ``complete`` rounds played and complete, then (``live_tables`` not None) a round in play with that
    many tables' sheets in; ``drop`` names a player who leaves after the first round; a running clock of
    ``clock_minutes`` on the round in play."""
    event = Event.objects.create(
        name=f"Noche de juegos — {games.get_game(game).name}",
        date=datetime.date(2026, 11, 21),
        venue="Asociación Lúdica, Valencia",
        game=game,
        table_size=4,
        manches_per_round=game_manches(game),
        rounds_planned=4,
        seed=20261121,
    )
    import_club_night(event)
    rng = random.Random(20261121)
    for number in range(1, complete + 1):
        round_ = play(event)
        enter_sheets(round_, rng)
        complete_round(round_)
        if number == 1 and drop:
            player_service.drop_player(event.players.get(name=drop))
    if live_tables is not None:
        round_ = play(event)
        enter_sheets(round_, rng, live_tables)
        if clock_minutes:
            change_clock(round_, "set", DESK, clock_minutes)
            change_clock(round_, "start", DESK)
    event.refresh_from_db()
    return event


def game_manches(game: str) -> int:
    return games.get_game(game).defaults.manches_per_round


def play(event: Event) -> Round:
    """The next round seated, published and started."""
    round_ = seat_round(event)
    publish_round(round_)
    start_round(round_)
    return round_
