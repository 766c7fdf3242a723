"""`load_demo` makes one event per game with players, a seated round and scores."""

import pytest
from django.core.management import call_command

from tournaments import games
from tournaments.demo import PAST_EVENINGS, PAST_ROUNDS, SEASON_BEST
from tournaments.models import Event, Manche, Person, Rating, Season, Seat
from tournaments.models.event import EventStatus
from tournaments.services.ladder import season_ladder

pytestmark = pytest.mark.django_db


def demo_games() -> list[str]:
    """The keys of the registered games that have a demo: every real game has one."""
    keys = [game.key for game in games.all_games() if game.demo is not None]
    assert keys == [game.key for game in games.all_games()] and len(keys) >= 4
    return keys


def test_load_demo_makes_one_scored_event_per_game():
    call_command("load_demo", "--if-empty")
    events = Event.objects.filter(status=EventStatus.RUNNING)
    assert sorted(e.game for e in events) == sorted(demo_games())
    for event in events:
        assert event.players.count() >= 8
        round_ = event.rounds.get(number=1)
        seated = Seat.objects.filter(round=round_).count()
        assert seated == event.players.filter(active=True).count()
        scored = Manche.objects.filter(table__round=round_, result__isnull=False)
        assert scored.exists()
        assert Seat.objects.filter(round=round_, placement_points__isnull=False).exists()


def test_load_demo_if_empty_loads_only_once():
    call_command("load_demo", "--if-empty")
    call_command("load_demo", "--if-empty")
    assert Event.objects.count() == len(demo_games()) * (1 + PAST_EVENINGS)


def test_the_demo_club_has_past_evenings_with_the_same_people_and_their_ratings():
    call_command("load_demo")
    past = Event.objects.filter(status=EventStatus.FINISHED)
    assert past.count() == len(demo_games()) * PAST_EVENINGS
    assert {e.club_id for e in Event.objects.all()} == {Person.objects.first().club_id}
    assert all(e.rounds.filter(status="complete").count() == PAST_ROUNDS for e in past)
    people = Person.objects.count()
    assert Rating.objects.count() == len(demo_games()) * people
    assert set(Rating.objects.values_list("rounds", flat=True)) == {PAST_EVENINGS * PAST_ROUNDS}
    assert Rating.objects.filter(ordinal__gt=0).exists() and Rating.objects.filter(ordinal__lt=5).exists()


def test_the_demo_season_counts_every_event_of_the_club_and_ranks_its_people():
    call_command("load_demo")
    season = Season.objects.get()
    assert season.events.count() == Event.objects.count() and season.counted == SEASON_BEST
    ladder = season_ladder(season)
    assert len(ladder.rows) == Person.objects.count() and ladder.unlinked == 0
    assert ladder.rows[0].rank == 1 and ladder.rows[0].total >= ladder.rows[-1].total > 0
    assert all(sum(r is not None and r.counted for r in row.results) <= SEASON_BEST for row in ladder.rows)


def test_ensure_organiser_creates_one_account_and_prints_its_login(capsys, settings, tmp_path):
    settings.BASE_DIR = tmp_path
    call_command("ensure_organiser")
    first = capsys.readouterr().out
    assert "organiser" in first and "password" in first
    call_command("ensure_organiser")
    assert capsys.readouterr().out == first
    assert "http://127.0.0.1:8000/accounts/login/" in first
    call_command("ensure_organiser", address="http://127.0.0.1:8011")
    assert "Log in at http://127.0.0.1:8011/accounts/login/" in capsys.readouterr().out
