"""A new round's clock starts with the length the organiser set last, so it need not be set again every round."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.models import Round
from tournaments.models.rounds import RoundStatus
from tournaments.services.clock import State, state

pytestmark = pytest.mark.django_db


def seat_next(client, event) -> Round:
    """Complete the rounds under way and seat the next one through the desk, as the organiser does."""
    event.rounds.update(status=RoundStatus.COMPLETE)
    response = client.post(reverse("tournaments:round_seat", args=[event.slug]), {"method": "random", "confirm": "1"})
    assert response.status_code == 302
    return event.rounds.order_by("-number").first()


def change_clock(client, event, round_, action: str, **fields) -> None:
    url = reverse("tournaments:round_clock", args=[event.slug, round_.number])
    assert client.post(url, {"action": action, **fields}, HTTP_HX_REQUEST="true").status_code == 200


def test_the_next_round_starts_with_the_length_set_last_not_the_time_added(organiser_client, make_event):
    event = make_event("vegetables", players=8)
    first = seat_next(organiser_client, event)
    assert first.clock_seconds is None, "an event that never had a clock gets none by itself"
    change_clock(organiser_client, event, first, "set", minutes=45)
    change_clock(organiser_client, event, first, "start")
    change_clock(organiser_client, event, first, "add", seconds=300)

    second = seat_next(organiser_client, event)
    assert second.clock_seconds == 45 * 60 and state(second) == State.READY
    page = organiser_client.get(reverse("tournaments:event_manage", args=[event.slug])).content.decode()
    assert "Round 2 clock" in page and "45:00" in page and "Start the clock" in page
    assert 'name="minutes" type="number" inputmode="numeric" min="1" max="600" required value="45"' in page

    change_clock(organiser_client, event, second, "set", minutes=30)
    assert seat_next(organiser_client, event).clock_seconds == 30 * 60


def test_a_round_without_a_clock_in_between_does_not_lose_the_length(organiser_client, make_event):
    event = make_event("vegetables", players=8)
    first = seat_next(organiser_client, event)
    change_clock(organiser_client, event, first, "set", minutes=50)
    second = seat_next(organiser_client, event)
    change_clock(organiser_client, event, second, "remove")
    assert Round.objects.get(pk=second.pk).clock_seconds is None
    assert seat_next(organiser_client, event).clock_seconds == 50 * 60


def test_without_a_recorded_setting_the_latest_rounds_length_carries_over(organiser_client, make_event):
    event = make_event("vegetables", players=8)
    first = seat_next(organiser_client, event)
    Round.objects.filter(pk=first.pk).update(clock_seconds=40 * 60)
    assert seat_next(organiser_client, event).clock_seconds == 40 * 60


def test_each_event_keeps_its_own_length(organiser_client, make_event):
    timed = make_event("vegetables", players=8)
    change_clock(organiser_client, timed, seat_next(organiser_client, timed), "set", minutes=45)
    other = make_event("veggies", players=8)
    seat_next(organiser_client, other)
    assert seat_next(organiser_client, other).clock_seconds is None
