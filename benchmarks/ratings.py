"""A club's ratings at scale: rebuilt from every completed round, and one round rated onto them; then the plots of
the statistics pages.

    python benchmarks/ratings.py --events 200 --players 64 [--people 96] [--repeat 3] [--plot-rounds 8]

Builds a throwaway database: one club with ``--people`` people; each event seats ``--players`` of them at
tables of 4 for 4 rounds with random places. Prints one JSON line: sizes and medians in seconds (target: the
rebuild under 5 s). Then one event of ``--players`` players and ``--plot-rounds`` rounds, every sheet entered
with the game's demo sheets, and a second JSON line: the median time to render every plot of its statistics page,
a player's page and a person's page (whose rating history is that person's across the whole club), in
milliseconds (target: under 100 ms a page).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import time

import _django

ROUNDS = 4
TABLE_SIZE = 4


def build_club(events: int, players: int, people: int, seed: int):
    from tournaments import games
    from tournaments.models import Club, Event, Person, Player, Round, Seat, Table
    from tournaments.models.rounds import RoundStatus

    rng = random.Random(seed)
    club = Club.objects.create(name="Benchmark club")
    persons = Person.objects.bulk_create(Person(club=club, name=f"Person {i:04d}") for i in range(people))
    game = games.default_game().key
    start = datetime.date(2022, 1, 4)
    for e in range(events):
        event = Event.objects.create(
            name=f"Evening {e:03d}", date=start + datetime.timedelta(days=7 * e), game=game, club=club
        )
        chosen = rng.sample(persons, players)
        linked = Player.objects.bulk_create(Player(event=event, name=person.name, person=person) for person in chosen)
        ids = [player.pk for player in linked]
        rounds = Round.objects.bulk_create(
            Round(event=event, number=n, status=RoundStatus.COMPLETE, published=True) for n in range(1, ROUNDS + 1)
        )
        seats = []
        for round_ in rounds:
            tables = Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(players // TABLE_SIZE))
            rng.shuffle(ids)
            for t, table in enumerate(tables):
                group = ids[t * TABLE_SIZE : (t + 1) * TABLE_SIZE]
                ranks = rng.sample(range(1, TABLE_SIZE + 1), TABLE_SIZE)
                seats += [
                    Seat(table=table, round=round_, player_id=player, position=position, rank=rank)
                    for position, (player, rank) in enumerate(zip(group, ranks), start=1)
                ]
        Seat.objects.bulk_create(seats, batch_size=1000)
    return club


def median_time(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--people", type=int, default=96)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot-rounds", type=int, default=8)
    args = parser.parse_args()
    vendor = _django.setup()

    from tournaments.models import Event, RatingChange, Round
    from tournaments.models.rounds import RoundStatus
    from tournaments.ratings.build import rate_round, rebuild_ratings

    club = build_club(args.events, args.players, args.people, args.seed)
    rebuild = median_time(lambda: rebuild_ratings(club), args.repeat)
    last = Event.objects.filter(club=club).order_by("-date").first().rounds.get(number=ROUNDS)

    def rate_last_round() -> float:
        """The ratings without the last round, then that round completed and rated onto them (timed)."""
        Round.objects.filter(pk=last.pk).update(status=RoundStatus.IN_PLAY)
        rebuild_ratings(club)
        Round.objects.filter(pk=last.pk).update(status=RoundStatus.COMPLETE)
        started = time.perf_counter()
        rate_round(last)
        return time.perf_counter() - started

    one_round = statistics.median(rate_last_round() for _ in range(args.repeat))
    print(
        json.dumps(
            {
                "benchmark": "ratings",
                "database": vendor,
                "events": args.events,
                "players_per_event": args.players,
                "people": args.people,
                "rounds_per_event": ROUNDS,
                "seats": RatingChange.objects.count(),
                "rebuild_seconds": round(rebuild, 3),
                "rebuild_target_seconds": 5.0,
                "rate_one_round_seconds": round(one_round, 4),
            }
        )
    )
    print(json.dumps(plots_figures(club, args.players, args.plot_rounds, max(args.repeat, 5), args.seed)))


def plotted_event(club, players: int, rounds: int, seed: int):
    """An event of the club with ``players`` of its people, ``rounds`` rounds seated at random, every sheet entered
    with the game's demo sheet and every round completed."""
    from tournaments import games
    from tournaments.demo import enter_some_sheets
    from tournaments.models import Event, Player
    from tournaments.models.event import SeatingMethod
    from tournaments.models.rounds import RoundStatus
    from tournaments.services.round_end import complete_round
    from tournaments.services.seating import seat_next_round

    rng = random.Random(seed)
    event = Event.objects.create(
        name="Plotted evening",
        date=datetime.date(2030, 1, 1),
        game=games.default_game().key,
        rounds_planned=rounds,
        club=club,
    )
    people = list(club.people.order_by("pk")[:players])
    Player.objects.bulk_create(Player(event=event, name=person.name, person=person) for person in people)
    for _ in range(rounds):
        round_ = seat_next_round(event, SeatingMethod.RANDOM)
        round_.published, round_.status = True, RoundStatus.IN_PLAY
        round_.save(update_fields=["published", "status"])
        enter_some_sheets(round_, rng, every_table=True)
        complete_round(round_)
    return event


def plots_figures(club, players: int, rounds: int, repeat: int, seed: int) -> dict:
    """Milliseconds to read and render every plot of the event's statistics page, a player's and a person's page."""
    from tournaments.ratings.pages import person_history
    from tournaments.services.statistics import event_plots, player_plots, rating_plot

    event = plotted_event(club, players, rounds, seed)
    player = event.players.order_by("pk").first()
    person = club.people.order_by("pk").first()
    pages = {
        "event": lambda: event_plots(event),
        "player": lambda: player_plots(event, player),
        "person": lambda: [rating_plot(history) for history in person_history(person)],
    }
    counts = {name: len(render()) for name, render in pages.items()}
    millis = {name: round(1000 * median_time(render, repeat), 1) for name, render in pages.items()}
    return {
        "benchmark": "plots",
        "players": players,
        "rounds": rounds,
        "plots": counts,
        "person_rated_rounds": person.rating_changes.count(),
        **{f"{name}_page_ms": value for name, value in millis.items()},
        "slowest_page_ms": max(millis.values()),
        "page_target_ms": 100,
    }


if __name__ == "__main__":
    main()
