"""`load_demo` makes one event per game with players, a seated round and scores."""

import pytest
from django.core.management import call_command

from tournaments.models import Event, Manche, Seat

pytestmark = pytest.mark.django_db


def test_load_demo_makes_one_scored_event_per_game():
    call_command("load_demo", "--if-empty")
    events = Event.objects.all()
    assert sorted(e.game for e in events) == ["cheese-rescue", "snack-match", "vegetables", "veggies"]
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
    assert Event.objects.count() == 4


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
