"""The desk's alerts: disputes, and tables still empty late in the round, in a partial the desk asks for every
3 seconds, with their count in the page's title."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import AuditEntry, Round
from tournaments.models.audit import Action
from tournaments.models.rounds import RoundStatus, TableStatus
from tournaments.services.alerts import Lateness, desk_alerts
from tournaments.services.audit import Author
from tournaments.services.sheets import dispute_sheet

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def playing(make_event):
    """Round 1 of twelve players in play: three tables, table 1 with a sheet entered."""
    event = make_event("cheese-rescue", players=12)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[:4], ids[4:8], ids[8:]], status=RoundStatus.IN_PLAY)
    enter(round_.tables.get(number=1), cheese_tallies([9, 5, 3, 1]))
    return event, round_


def dispute(table) -> None:
    seat = table.seats.select_related("player").get(position=2)
    dispute_sheet(table.manches.get(number=1), Author(via="player", player=seat.player, seat=2), reason="Wrong total")


def alerts_url(event) -> str:
    return reverse("tournaments:desk_alerts", args=[event.slug])


def title_of(html: str) -> str:
    return " ".join(re.search(r"<title>(.*?)</title>", html, re.S)[1].split())


def test_nothing_to_see_early_in_the_round(organiser_client, playing):
    event, _ = playing
    response = organiser_client.get(alerts_url(event), **HTMX)
    html = response.content.decode()
    assert 'id="desk-alerts"' in html and " hidden" in html and 'class="alert' not in html
    assert title_of(html) == f"{event.name} · Tournament desk"


def test_a_dispute_shows_with_a_link_to_its_table_and_counts_in_the_title(organiser_client, playing):
    event, round_ = playing
    table = round_.tables.get(number=1)
    dispute(table)

    html = organiser_client.get(alerts_url(event), **HTMX).content.decode()

    assert title_of(html) == f"(1) {event.name} · Tournament desk"
    assert html.index("<title>") == 0, "at the top of the response, where HTMX takes the page's title from"
    item = re.search(r'<li class="alert disputed">(.*?)</li>', html, re.S)[1]
    assert reverse("tournaments:desk_table", args=[event.slug, table.pk]) in item
    assert "Table 1 (round 1)" in item and "disputes a sheet" in item
    assert "1 table needs you" in html


def test_the_desk_page_itself_shows_the_alerts_and_the_count(organiser_client, playing):
    event, round_ = playing
    dispute(round_.tables.get(number=1))
    Round.objects.filter(pk=round_.pk).update(
        clock_seconds=3600, clock_started_at=timezone.now() - timedelta(minutes=50)
    )

    page = organiser_client.get(reverse("tournaments:event_manage", args=[event.slug])).content.decode()

    assert title_of(page) == f"(3) {event.name} · Tournament desk"
    assert page.count("<title>") == 1
    assert page.count('<li class="alert disputed">') == 1 and page.count('<li class="alert empty">') == 2
    assert 'hx-trigger="every 3s"' in page
    assert 'aria-live="polite"' in page


def test_empty_tables_show_once_a_quarter_of_the_clock_is_left(organiser_client, playing):
    event, round_ = playing
    Round.objects.filter(pk=round_.pk).update(
        clock_seconds=3600, clock_started_at=timezone.now() - timedelta(minutes=44)
    )
    assert organiser_client.get(alerts_url(event), **HTMX).content.decode().count('class="alert') == 0

    Round.objects.filter(pk=round_.pk).update(clock_started_at=timezone.now() - timedelta(minutes=46))
    html = organiser_client.get(alerts_url(event), **HTMX).content.decode()

    assert title_of(html) == f"(2) {event.name} · Tournament desk"
    empty = re.findall(r'<li class="alert empty">(.*?)</li>', html, re.S)
    assert ["Table 2 (round 1)" in empty[0], "Table 3 (round 1)" in empty[1]] == [True, True]
    assert "a quarter of the round or less is left" in empty[0]
    assert "Table 1 (round 1)" not in html, "a table with a sheet is not empty"


def test_a_paused_clock_in_its_last_quarter_still_counts(playing):
    event, round_ = playing
    Round.objects.filter(pk=round_.pk).update(clock_seconds=3600, clock_elapsed=3000)
    assert desk_alerts(event).lateness == Lateness.CLOCK


def test_a_clock_set_but_not_started_gives_no_alarm(playing):
    event, round_ = playing
    Round.objects.filter(pk=round_.pk).update(clock_seconds=60, created_at=timezone.now() - timedelta(minutes=5))
    assert desk_alerts(event).empty == []


def test_without_a_clock_empty_tables_show_30_minutes_after_the_start(organiser_client, playing, organiser):
    event, round_ = playing
    Round.objects.filter(pk=round_.pk).update(created_at=timezone.now() - timedelta(hours=2))
    start = AuditEntry.objects.create(event=event, round=round_, action=Action.START, via="organiser")
    AuditEntry.objects.filter(pk=start.pk).update(at=timezone.now() - timedelta(minutes=29))
    assert desk_alerts(event).count == 0, "the start counts, not the seating"

    AuditEntry.objects.filter(pk=start.pk).update(at=timezone.now() - timedelta(minutes=31))
    html = organiser_client.get(alerts_url(event), **HTMX).content.decode()
    assert html.count('<li class="alert empty">') == 2
    assert "30 minutes or more after the round started" in html


def test_without_a_recorded_start_the_seating_time_counts(playing):
    event, round_ = playing
    Round.objects.filter(pk=round_.pk).update(created_at=timezone.now() - timedelta(minutes=31))
    assert desk_alerts(event).lateness == Lateness.STARTED
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.SEATED)
    assert desk_alerts(event).count == 0, "a round not yet started has no late tables"


def test_nothing_new_is_answered_with_204(organiser_client, playing):
    event, round_ = playing
    first = organiser_client.get(alerts_url(event), **HTMX).content.decode()
    version = re.search(r"\?v=(\w+)", first)[1]
    assert organiser_client.get(alerts_url(event), {"v": version}, **HTMX).status_code == 204

    dispute(round_.tables.get(number=1))
    changed = organiser_client.get(alerts_url(event), {"v": version}, **HTMX)
    assert changed.status_code == 200 and "disputes a sheet" in changed.content.decode()


def test_a_settled_dispute_leaves_the_alerts(organiser_client, playing):
    event, round_ = playing
    table = round_.tables.get(number=1)
    dispute(table)
    organiser_client.post(reverse("tournaments:desk_table_resolve", args=[event.slug, table.pk]))
    table.refresh_from_db()
    assert table.status != TableStatus.DISPUTED
    assert desk_alerts(event).count == 0


def test_disputes_of_an_earlier_round_still_show(organiser_client, playing):
    event, round_ = playing
    dispute(round_.tables.get(number=1))
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.COMPLETE)
    assert [table.number for table in desk_alerts(event).disputed] == [1]


def test_the_alerts_are_the_organisers(client, django_user_model, playing):
    event, _ = playing
    assert client.get(alerts_url(event)).status_code == 302
    client.force_login(django_user_model.objects.create_user("visitor", password="a-long-test-password"))
    assert client.get(alerts_url(event)).status_code == 403


def test_the_alerts_cost_a_few_queries(organiser_client, playing, django_assert_max_num_queries):
    event, round_ = playing
    dispute(round_.tables.get(number=1))
    Round.objects.filter(pk=round_.pk).update(
        clock_seconds=3600, clock_started_at=timezone.now() - timedelta(minutes=50)
    )
    with django_assert_max_num_queries(8):
        assert organiser_client.get(alerts_url(event), **HTMX).status_code == 200


def test_the_desk_page_finds_its_alerts_and_clock_without_more_queries(
    organiser_client, playing, django_assert_max_num_queries
):
    """The desk reads the rounds and tables once; alerts and clock come from what it read."""
    event, round_ = playing
    dispute(round_.tables.get(number=1))
    Round.objects.filter(pk=round_.pk).update(
        clock_seconds=3600, clock_started_at=timezone.now() - timedelta(minutes=50)
    )
    with django_assert_max_num_queries(6):
        page = organiser_client.get(reverse("tournaments:event_manage", args=[event.slug])).content.decode()
    assert "(3) " in title_of(page) and "Round 1 clock" in page
