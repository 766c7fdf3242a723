"""The first pages: the public list and event page, the organiser's desk, the admin, languages."""

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils.html import escape

from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    call_command("load_demo")
    return Event.objects.filter(status="running")


def test_home_lists_public_events(client, demo):
    response = client.get("/")
    assert response.status_code == 200
    for event in demo:
        assert escape(event.name) in response.content.decode()


def test_event_page_shows_tables_and_players(client, demo):
    event = demo.get(game="veggies")
    round_ = event.rounds.get(number=1)
    round_.published = True
    round_.save()
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Table 1" in page
    assert all(player.name in page for player in event.players.all())


def test_private_events_are_not_shown(client, demo):
    event = demo.first()
    event.public = False
    event.save()
    assert client.get(event.get_absolute_url()).status_code == 404
    assert event.name not in client.get("/").content.decode()


def test_dashboard_needs_login(client):
    response = client.get(reverse("tournaments:dashboard"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_dashboard_lists_the_organisers_events(organiser_client, demo):
    page = organiser_client.get(reverse("tournaments:dashboard")).content.decode()
    assert all(escape(event.name) in page for event in demo)


def test_page_uses_the_vendored_htmx_and_no_external_assets(client, demo):
    page = client.get("/").content.decode()
    assert "/static/django_htmx/htmx" in page
    assert "https://" not in page and "http://" not in page.replace('xmlns="http://', "")


@pytest.mark.parametrize(("language", "words"), [("es", "Torneos"), ("it", "Tornei")])
def test_pages_speak_spanish_and_italian(client, demo, language, words):
    client.post(reverse("set_language"), {"language": language, "next": "/"})
    page = client.get("/").content.decode()
    assert f'lang="{language}"' in page
    assert words in page


ADMIN_MODELS = [
    *("event", "player", "team", "round", "table", "seat", "manche", "sheetrevision"),
    *("club", "person", "rating"),
]


@pytest.mark.parametrize("model", ADMIN_MODELS)
def test_admin_lists_every_model(organiser_client, demo, model):
    response = organiser_client.get(reverse(f"admin:tournaments_{model}_changelist"))
    assert response.status_code == 200
