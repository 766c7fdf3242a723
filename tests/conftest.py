"""Fixtures shared by the app's tests: events with players, seated rounds, logged-in organisers."""

from __future__ import annotations

import datetime

import pytest


@pytest.fixture(autouse=True)
def own_login_throttle(settings, tmp_path_factory):
    """The ``ratelimit`` cache in a folder of this test run, never the project's own."""
    folder = tmp_path_factory.getbasetemp() / "ratelimit"
    settings.CACHES = {**settings.CACHES, "ratelimit": {**settings.CACHES["ratelimit"], "LOCATION": str(folder)}}


@pytest.fixture
def make_event(db):
    from tournaments.models import Event, Player

    def make(game: str = "vegetables", players: int = 8, **fields) -> Event:
        defaults = {"table_size": 4, "manches_per_round": 4 if game == "vegetables" else 1, "rounds_planned": 3}
        defaults.update(fields)
        event = Event.objects.create(name=f"Test {game}", date=datetime.date(2026, 11, 21), game=game, **defaults)
        Player.objects.bulk_create(
            Player(event=event, name=f"Player {i:02d}", club="Club A" if i % 2 else "Club B") for i in range(players)
        )
        return event

    return make


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_superuser("boss", password="a-long-test-password")


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client
