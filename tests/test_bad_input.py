"""Odd input never makes a server error: numbers are ASCII digits with a bound, refused with 400 or 404."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tests.test_event_setup import event_data
from tournaments.forms.event import EventForm, parse_points
from tournaments.models import Event, Standing
from tournaments.numbers import whole_number

pytestmark = pytest.mark.django_db

NEW = reverse("tournaments:event_new")
HUGE = str(2**70)


def seated(make_event, **fields) -> Event:
    """A Cheese Rescue event of four players at one table, its first round seated."""
    event = make_event("cheese-rescue", players=4, table_size=4, **fields)
    seat_by_hand(event, 1, [list(event.players.order_by("pk").values_list("pk", flat=True))])
    return event


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("7", 7), ("12", 12), ("13", None), ("²", None), ("٣", None), ("1_0", None), (" 1", None)],
)
def test_whole_numbers_are_ascii_digits_within_a_bound(text, number):
    assert whole_number(text, maximum=12) == number
    assert whole_number("1\n", maximum=12) is None and whole_number(None, maximum=12) is None
    assert whole_number(HUGE, maximum=12) is None and whole_number("0", maximum=12, minimum=1) is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("4/²/1/0", "Write whole numbers"),
        ("4/٣/1/0", "Write whole numbers"),
        ("10000/0/0/0", "at most 999 points"),
        ("1000", "at most 999 points"),
        ("9/8/7/6/5/4/3/2/1/0", "at most 9 places"),
    ],
)
def test_the_event_form_refuses_points_that_are_not_small_ascii_numbers(organiser_client, text, words):
    response = organiser_client.post(NEW, event_data(placement_points=text))
    assert response.status_code == 200
    assert words in response.context["form"].errors["placement_points"][0]
    assert not Event.objects.exists()
    with pytest.raises(ValidationError):
        parse_points(text)


def test_editing_an_event_to_ten_thousand_points_is_refused_and_nothing_is_stored(organiser_client, make_event):
    event = seated(make_event, placement_points=[4, 2, 1, 0])
    url = reverse("tournaments:event_edit", args=[event.slug])
    response = organiser_client.post(url, event_data(placement_points="10000/0/0/0", name="Changed"))
    assert response.status_code == 200 and list(response.context["form"].errors) == ["placement_points"]
    event.refresh_from_db()
    assert (event.name, event.placement_points) == ("Test cheese-rescue", [4, 2, 1, 0])
    table = event.rounds.get().tables.get()
    enter(table, cheese_tallies([6, 4, 2, 0]))
    assert table.seats.get(position=1).placement_points == 4


def test_the_largest_points_still_let_sheets_be_saved_and_standings_built(organiser_client, make_event):
    form = EventForm(event_data(placement_points="999/999/999/999", table_size="4"))
    assert form.is_valid(), form.errors
    event = form.save()
    event.players.bulk_create(event.players.model(event=event, name=f"P{i}") for i in range(4))
    seat_by_hand(event, 1, [list(event.players.order_by("pk").values_list("pk", flat=True))])
    table = event.rounds.get().tables.get()
    enter(table, cheese_tallies([6, 4, 2, 0]))
    assert [seat.placement_points for seat in table.seats.order_by("position")] == [999] * 4
    assert sorted(Standing.objects.filter(event=event).values_list("points", flat=True)) == [999] * 4
    event.organisers.add(response_user(organiser_client))
    assert organiser_client.get(reverse("tournaments:standings_csv", args=[event.slug])).status_code == 200
    assert organiser_client.get(reverse("tournaments:print_standings", args=[event.slug])).status_code == 200


def response_user(client):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


@pytest.mark.parametrize(
    "points", [[10000, 0, 0, 0], [4, 2, 1, 1, 1, 1, 1, 1, 1, 0], [4.0, 2, 1], [True], "4/2/1/0", [1, 2]]
)
def test_the_event_model_refuses_points_it_cannot_keep(make_event, points):
    event = make_event("cheese-rescue", players=4)
    event.placement_points = points
    with pytest.raises(ValidationError) as refused:
        event.full_clean()
    assert "placement_points" in refused.value.message_dict
    event.placement_points = [999, 999, 0]
    event.full_clean()


@pytest.mark.parametrize("asked", ["²", "٣", "0", "2", HUGE, "-1", "1.0", "one", "1 1"])
def test_standings_pdf_after_a_round_that_is_not_a_number_of_this_event_is_a_bad_request(
    organiser_client, make_event, asked
):
    event = seated(make_event)
    response = organiser_client.get(reverse("tournaments:print_standings", args=[event.slug]), {"round": asked})
    assert response.status_code == 400
    assert "give the number of a round of this event (1)" in response.content.decode()


@pytest.mark.parametrize(("page", "sort"), [("²", "²"), (HUGE, "-"), ("-1", "player__token"), ("0", "-x"), ("x", "")])
def test_paged_standings_and_projector_take_any_page_without_a_server_error(client, make_event, page, sort):
    event = seated(make_event)
    for name in ["standings", "standings_live", "projector_next"]:
        query = {"page": page, "v": page, "sort": sort}
        response = client.get(reverse(f"tournaments:{name}", args=[event.slug]), query)
        assert response.status_code in (200, 204, 404), name


@pytest.mark.parametrize("number", [HUGE, "99999"])
def test_numbers_in_paths_beyond_any_row_are_not_found(organiser_client, make_event, number):
    event = seated(make_event)
    table = event.rounds.get().tables.get()
    urls = [
        f"/e/{event.slug}/players/{number}/",
        f"/e/{event.slug}/organiser/rounds/{number}/",
        f"/e/{event.slug}/organiser/rounds/{number}/sheets.pdf",
        f"/t/{table.token}/manches/{number}/check/",
    ]
    for url in urls:
        response = organiser_client.get(url) if "check" not in url else organiser_client.post(url)
        assert response.status_code == 404, url


@pytest.mark.parametrize("seat", ["²", HUGE, "-1", "x"])
def test_a_table_link_with_a_strange_seat_or_version_asks_who_you_are(client, make_event, seat):
    event = seated(make_event)
    table = event.rounds.get().tables.get()
    url = reverse("tournaments:table_confirm", args=[table.token, 1])
    response = client.post(url, {"seat": seat, "version": HUGE})
    assert response.status_code == 400
