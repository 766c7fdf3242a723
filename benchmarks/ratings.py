"""A club's ratings at scale: rebuilt from every completed round, and one round rated onto them.

    python benchmarks/ratings.py --events 200 --players 64 [--people 96] [--repeat 3]

Builds a throwaway database: one club with ``--people`` people; each event seats ``--players`` of them at
tables of 4 for 4 rounds with random places. Prints one JSON line: sizes and medians in seconds (target: the
rebuild under 5 s).
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


if __name__ == "__main__":
    main()
