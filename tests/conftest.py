"""Fixtures shared by the app's tests: events with players, seated rounds, logged-in organisers."""

from __future__ import annotations

import datetime
import uuid

import pytest


@pytest.fixture(autouse=True)
def own_rate_limits(settings, tmp_path_factory):
    """Each test counts in caches of its own (a key prefix; files in this run's folder), so nothing an earlier test
    or run did throttles it, under rate limits far above what any test sends; the tests of the limits set them."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    own = {}
    for alias, config in settings.CACHES.items():
        own[alias] = {**config, "KEY_PREFIX": ":".join(filter(None, [config.get("KEY_PREFIX"), prefix]))}
        if config["BACKEND"].endswith("FileBasedCache"):
            own[alias]["LOCATION"] = str(tmp_path_factory.getbasetemp() / alias)
    settings.CACHES = own
    settings.SAVE_RATE_LIMIT = settings.NOT_FOUND_RATE_LIMIT = (100_000, 60)
    settings.SAVE_RATE_LIMITS = dict.fromkeys(settings.SAVE_RATE_LIMITS, (100_000, 60))


@pytest.fixture(autouse=True)
def default_language(settings):
    """Every test starts in the site's default language, whatever a test run before it in the same process (a worker
    runs tests of several files) left active."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def standings_rebuilt_at_every_change(settings):
    """Each save's standings are rebuilt as soon as it commits, never held back by the interval between rebuilds
    (no timer thread left behind by a test), and the live standings rendered at every change; the tests of those
    intervals set them."""
    settings.STANDINGS_REBUILD_INTERVAL = 0
    settings.LIVE_RENDER_SECONDS = 0


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


@pytest.fixture
def member(django_user_model):
    """A logged-in organiser without staff rights: sees only the events that name them."""
    from django.test import Client

    user = django_user_model.objects.create_user("ada", password="a-long-test-password")
    client = Client()
    client.force_login(user)
    client.user = user
    return client
