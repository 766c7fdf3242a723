"""The mixer answers within its time limit whatever the rounds planned, the set-up form's most or far beyond."""

from __future__ import annotations

import time

import pytest

from tournaments.forms.event import MAX_ROUNDS
from tournaments.models import Event, Round
from tournaments.models.rounds import RoundStatus
from tournaments.seating import meetings_of_rounds, mixer, mixer_seating, plan_table_sizes, random_seating
from tournaments.services.seating import seat_next_round

LIMIT = 1.0
MARGIN = 1.5  # generous for a busy machine: before, 1,000 rounds planned overran by seconds, 32,767 by minutes
#: The most rounds an event's model keeps (a small integer), reached only around the set-up form.
MODEL_MOST = 32_767


def timed(call):
    start = time.monotonic()
    result = call()
    return result, time.monotonic() - start


@pytest.mark.parametrize("rounds_planned", [MAX_ROUNDS, 1_000, MODEL_MOST])
@pytest.mark.parametrize("count", [32, 256])
def test_the_mixer_keeps_its_time_limit_whatever_the_rounds_planned(rounds_planned, count):
    players = list(range(count))
    sizes = plan_table_sizes(count, 4, 3)
    history = meetings_of_rounds([random_seating(players, sizes, 1), random_seating(players, sizes, 2)])
    tables, took = timed(
        lambda: mixer_seating(
            players, sizes, history, round_number=3, rounds_total=rounds_planned, seed=5, time_limit=LIMIT
        )
    )
    assert sorted(p for table in tables for p in table) == players
    assert took < LIMIT + MARGIN, f"{took:.2f} s"


@pytest.mark.parametrize("round_number", [2, 40])
def test_a_round_far_beyond_the_plan_keeps_the_time_limit_too(round_number):
    players = list(range(32))
    sizes = plan_table_sizes(32, 4, 3)
    history = meetings_of_rounds(random_seating(players, sizes, seed) for seed in range(round_number - 1))
    tables, took = timed(
        lambda: mixer_seating(
            players, sizes, history, round_number=round_number, rounds_total=MODEL_MOST, seed=5, time_limit=LIMIT
        )
    )
    assert sorted(p for table in tables for p in table) == players
    assert took < LIMIT + MARGIN, f"{took:.2f} s"


def test_the_plan_covers_every_round_the_set_up_form_allows():
    assert mixer.MAX_PLANNED_ROUNDS >= MAX_ROUNDS


@pytest.mark.django_db
@pytest.mark.parametrize("rounds_planned", [MAX_ROUNDS, MODEL_MOST])
def test_seating_an_event_with_any_rounds_planned_keeps_the_time_limit(make_event, monkeypatch, rounds_planned):
    monkeypatch.setattr(mixer, "TIME_LIMIT", LIMIT)
    event = make_event("cheese-rescue", players=32, table_size=4, seating_method="mixer")
    Event.objects.filter(pk=event.pk).update(rounds_planned=rounds_planned)
    event.refresh_from_db()
    assert event.rules  # the games' bundles loaded before any clock starts
    for number in (1, 2, 3):
        round_, took = timed(lambda: seat_next_round(event))
        assert round_.number == number
        assert took < LIMIT + MARGIN, f"round {number}: {took:.2f} s"
        Round.objects.filter(pk=round_.pk).update(status=RoundStatus.COMPLETE)
