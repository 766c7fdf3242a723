"""The unavoidable repeats the desk shows are a true lower bound for the tables actually seated."""

import random
from itertools import combinations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.factories import seat_by_hand
from tournaments.models import Round
from tournaments.models.rounds import RoundStatus
from tournaments.seating import mixer_seating, plan_table_sizes, random_seating, total_repeats
from tournaments.seating.quality import least_overlap, repeat_lower_bound, seating_quality, unavoidable_repeats
from tournaments.services.rounds import refresh_quality


def seatings(players, sizes):
    """Every way to seat ``players`` at tables of ``sizes`` (tables of one size are not told apart)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    size = sizes[0]
    for others in combinations(rest, size - 1):
        table = [first, *others]
        left = [p for p in rest if p not in others]
        for tables in seatings(left, sizes[1:]):
            yield [table, *tables]


def fewest_repeats(player_count, shapes):
    """The fewest repeats of any schedule with these table sizes per round, by trying every schedule."""
    players = list(range(player_count))
    options = [list(seatings(players, sorted(sizes, reverse=True))) for sizes in shapes]
    best = None

    def search(done, met, repeats):
        nonlocal best
        if best is not None and repeats >= best:
            return
        if done == len(options):
            best = repeats
            return
        for tables in options[done] if done else options[0][:1]:
            pairs = [frozenset(p) for table in tables for p in combinations(table, 2)]
            search(done + 1, met | set(pairs), repeats + sum(1 for p in pairs if p in met))

    search(0, set(), 0)
    return best


def app_sizes(players, table_size):
    """The tables the app seats ``players`` at, or skip the example when it cannot."""
    try:
        return plan_table_sizes(players, table_size, 1)
    except ValueError:
        assume(False)


def test_short_tables_no_longer_make_the_bound_false():
    # 13 players at 4 + 3 + 3 + 3 for five rounds once showed "at least 20 unavoidable" beside 3 repeats
    assert repeat_lower_bound(13, [4] * 5) == 0
    assert repeat_lower_bound(13, [[4, 3, 3, 3]] * 5) == 0


@pytest.mark.parametrize(
    ("players", "shapes", "fewest"),
    [
        (5, [[3, 2]] * 2, 1),
        (6, [[3, 3]] * 2, 2),
        (8, [[4, 4]] * 2, 4),
        (4, [[2, 2]] * 4, 2),
        (4, [[4]] * 3, 12),
        (7, [[4, 3]] * 2, 3),
        (6, [[2, 2, 2]] * 5, 0),
        (6, [[2, 2, 2]] * 6, 3),
    ],
)
def test_the_bound_reaches_the_fewest_repeats_of_small_events(players, shapes, fewest):
    assert fewest_repeats(players, shapes) == fewest
    assert repeat_lower_bound(players, shapes) == fewest


@st.composite
def tiny_events(draw):
    """A few rounds of 2 to 7 players, each round at tables of any sizes."""
    players = draw(st.integers(2, 7))
    shapes = []
    for _ in range(draw(st.integers(1, 3))):
        sizes, left = [], players
        while left:
            sizes.append(draw(st.integers(1, min(left, 5))))
            left -= sizes[-1]
        shapes.append(sizes)
    return players, shapes


@settings(max_examples=80, deadline=None)
@given(event=tiny_events())
def test_the_bound_never_exceeds_the_fewest_repeats_of_tiny_events(event):
    players, shapes = event
    assert repeat_lower_bound(players, shapes) <= fewest_repeats(players, shapes)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 7), table_size=st.integers(2, 4), rounds=st.integers(1, 3))
def test_the_bound_never_exceeds_the_fewest_repeats_at_the_apps_tables(players, table_size, rounds):
    shapes = [app_sizes(players, table_size)] * rounds
    assert repeat_lower_bound(players, shapes) <= fewest_repeats(players, shapes)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(3, 16),
    table_size=st.integers(2, 5),
    rounds=st.integers(1, 6),
    seed=st.integers(0, 1000),
)
def test_the_bound_never_exceeds_the_repeats_of_the_mixer(players, table_size, rounds, seed):
    sizes = app_sizes(players, table_size)
    schedule = []
    for number in range(1, rounds + 1):
        history = [pair for tables in schedule for table in tables for pair in combinations(table, 2)]
        met = {}
        for a, b in history:
            met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        tables = mixer_seating(
            list(range(players)), sizes, met, round_number=number, rounds_total=rounds, seed=seed, time_limit=0.5
        )
        quality = seating_quality(tables, schedule)
        schedule.append(tables)
        assert quality.lower_bound <= quality.repeats_total == total_repeats(schedule)
    assert repeat_lower_bound(players, [sizes] * rounds) == unavoidable_repeats(schedule)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), players=st.integers(2, 12), table_size=st.integers(2, 5), rounds=st.integers(1, 5))
def test_the_bound_holds_when_players_come_and_go(data, players, table_size, rounds):
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    schedule = []
    for _ in range(rounds):
        present = data.draw(st.lists(st.integers(0, players - 1), min_size=2, unique=True))
        sizes = app_sizes(len(present), table_size)
        schedule.append(random_seating(present, sizes, rng))
    assert unavoidable_repeats(schedule) <= total_repeats(schedule)


@pytest.mark.parametrize(
    ("before", "after", "pairs"),
    [((3, 2), (3, 2), 1), ((3, 3), (3, 3), 2), ((4, 4, 4), (4, 4, 4), 3), ((5, 5), (5, 5), 8), ((6, 6), (4, 4, 4), 6)],
)
def test_least_overlap_of_two_rounds(before, after, pairs):
    assert least_overlap(before, after) == pairs
    assert least_overlap(after, before) == pairs


def test_the_round_page_says_how_many_repeats_were_unavoidable(organiser_client, make_event):
    event = make_event("cheese-rescue", players=13)
    p = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [p[0:4], p[4:7], p[7:10], p[10:13]], status=RoundStatus.COMPLETE)
    second = seat_by_hand(event, 2, [[p[0], p[1], p[4], p[7]], [p[2], p[5], p[8]], [p[3], p[6], p[9]], p[10:13]])
    assert refresh_quality(second) == {"repeats_this_round": 4, "repeats_total": 4, "lower_bound": 0}
    page = " ".join(organiser_client.get(reverse("tournaments:round", args=[event.slug, 2])).content.decode().split())
    assert "This round: 4 repeated meetings. So far: 4 repeated meetings." in page
    assert "At least 0 of them are unavoidable with these table sizes." in page
    Round.objects.filter(pk=second.pk).update(seating_quality={"repeats_this_round": 1, "repeats_total": 1})
    page = " ".join(organiser_client.get(reverse("tournaments:round", args=[event.slug, 2])).content.decode().split())
    assert "This round: 1 repeated meeting. So far: 1 repeated meeting." in page
    assert "unavoidable" not in page


def test_a_round_without_repeats_does_not_speak_of_unavoidable_ones(organiser_client, make_event):
    event = make_event("cheese-rescue", players=8)
    p = list(event.players.order_by("pk").values_list("pk", flat=True))
    first = seat_by_hand(event, 1, [p[:4], p[4:]])
    assert refresh_quality(first) == {"repeats_this_round": 0, "repeats_total": 0, "lower_bound": 0}
    page = " ".join(organiser_client.get(reverse("tournaments:round", args=[event.slug, 1])).content.decode().split())
    assert "This round: 0 repeated meetings. So far: 0 repeated meetings." in page
    assert "unavoidable" not in page
