"""A private event: its organisers and staff see every page of it; anyone else, logged in or not, finds nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Event

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"


@pytest.fixture
def private_event(make_event, django_user_model) -> Event:
    event = make_event("cheese-rescue", players=3, table_size=3, public=False)
    event.name = "Secret Cup"
    event.save()
    event.organisers.add(django_user_model.objects.create_user("olga", password=PASSWORD))
    round_ = seat_by_hand(event, 1, [list(event.players.order_by("pk").values_list("pk", flat=True))])
    enter(round_.tables.get(), cheese_tallies([6, 4, 2]))
    return event


def public_urls(event: Event) -> list[str]:
    player = event.players.order_by("pk").first()
    return [
        reverse("tournaments:event", args=[event.slug]),
        reverse("tournaments:find_table", args=[event.slug]) + "?find=a",
        reverse("tournaments:standings", args=[event.slug]),
        reverse("tournaments:standings_live", args=[event.slug]),
        reverse("tournaments:standings_csv", args=[event.slug]),
        reverse("tournaments:projector", args=[event.slug]),
        reverse("tournaments:projector_next", args=[event.slug]) + "?page=1",
        reverse("tournaments:player", args=[event.slug, player.pk]),
    ]


def organiser_urls(event: Event) -> list[str]:
    return [
        reverse("tournaments:print_standings", args=[event.slug]),
        reverse("tournaments:print_standings", args=[event.slug]) + "?round=1",
        reverse("tournaments:round", args=[event.slug, 1]),
        reverse("tournaments:print_sheets", args=[event.slug, 1]),
        reverse("tournaments:event_manage", args=[event.slug]),
    ]


def logged_in(client, django_user_model, username: str, **fields):
    user = django_user_model.objects.filter(username=username).first()
    if user is None:
        user = django_user_model.objects.create_user(username, password=PASSWORD, **fields)
    client.force_login(user)
    return client


def test_another_account_finds_no_page_of_a_private_event(client, private_event, django_user_model):
    visitor = logged_in(client, django_user_model, "visitor")
    for url in [*public_urls(private_event), *organiser_urls(private_event)]:
        assert visitor.get(url).status_code == 404, url
    assert "Secret Cup" not in visitor.get(reverse("tournaments:home")).content.decode()


def test_anonymous_visitors_find_no_public_page_of_a_private_event(client, private_event):
    for url in public_urls(private_event):
        assert client.get(url).status_code == 404, url
    assert "Secret Cup" not in client.get(reverse("tournaments:home")).content.decode()


@pytest.mark.parametrize(("username", "fields"), [("olga", {}), ("staff", {"is_staff": True})])
def test_its_organisers_and_staff_see_every_page(client, private_event, django_user_model, username, fields):
    runner = logged_in(client, django_user_model, username, **fields)
    for url in [*public_urls(private_event), *organiser_urls(private_event)]:
        assert runner.get(url).status_code == 200, url


def test_the_private_event_page_shows_its_players_to_its_organiser(client, private_event, django_user_model):
    page = logged_in(client, django_user_model, "olga").get(private_event.get_absolute_url()).content.decode()
    assert "Secret Cup" in page and all(p.name in page for p in private_event.players.all())


def test_table_links_and_the_api_still_work_by_token(client, private_event):
    table = private_event.rounds.get().tables.get()
    assert client.get(reverse("tournaments:table", args=[table.token])).status_code == 200
    answer = client.get(reverse("tournaments:api_table_sheet", args=[table.token]))
    assert answer.status_code == 200 and answer.json()["manches"]


def test_a_public_event_is_still_open_to_all_and_its_desk_refused_with_403(client, make_event, django_user_model):
    event = make_event("cheese-rescue", players=3, table_size=3)
    seat_by_hand(event, 1, [list(event.players.order_by("pk").values_list("pk", flat=True))])
    for url in public_urls(event):
        assert client.get(url).status_code == 200, url
    visitor = logged_in(client, django_user_model, "visitor")
    for url in public_urls(event):
        assert visitor.get(url).status_code == 200, url
    assert visitor.get(reverse("tournaments:event_manage", args=[event.slug])).status_code == 403
