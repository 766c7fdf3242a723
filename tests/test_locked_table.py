"""A table the organiser locked (or whose round is complete): every phone says so plainly and whom to ask, and a
save or confirmation that meets the lock is refused in words with nothing typed lost."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import seat_by_hand
from tests.test_player_links import fields, manche, player_url, seated, table_confirm, table_save
from tournaments.models.rounds import RoundStatus
from tournaments.services.tables import published_table
from tournaments.views import table_entry

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
LOCKED = (
    "The organiser has locked this table: scores can no longer be changed here. "
    "For a correction, ask the organiser at the desk."
)
COMPLETE = (
    "This round is complete: scores can no longer be changed here. For a correction, ask the organiser at the desk."
)
KEPT = "Not saved: what you typed is kept below, to show the organiser."


@pytest.fixture
def event(make_event):
    return make_event("vegetables", players=8, confirmation_required=True)


@pytest.fixture
def table(event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY)
    table = round_.tables.get(number=1)
    table_save(Client(), table, seat=1)
    return table


def lock(table) -> None:
    table.locked = True
    table.save(update_fields=["locked"])


def table_page(table) -> str:
    return Client().get(reverse("tournaments:table", args=[table.token])).content.decode()


def test_a_locked_tables_phones_say_it_is_locked_and_whom_to_ask(table):
    lock(table)
    other = seated(table, 2)
    for page in (table_page(table), Client().get(player_url("player_table", other, table)).content.decode()):
        assert f'<p class="table-alert locked">{LOCKED}</p>' in page
        assert "/confirm/" not in page and 'class="primary save"' not in page
        assert "Something is wrong" not in page
        assert page.count(f'<p class="muted closed-note">{LOCKED}</p>') == 3, "the three manches without a sheet"


def test_a_complete_rounds_phones_say_so(table):
    table.round.status = RoundStatus.COMPLETE
    table.round.save(update_fields=["status"])
    page = table_page(table)
    assert f'<p class="table-alert locked">{COMPLETE}</p>' in page and "locked this table" not in page


def test_an_open_table_shows_no_notice(table):
    page = Client().get(player_url("player_table", seated(table, 2), table)).content.decode()
    assert '<div id="table-notice" class="table-notice" hidden></div>' in page
    assert "Confirm this result as Player 01" in page and "Something is wrong" in page


def test_the_desk_still_corrects_a_locked_table_and_shows_no_phone_notice(organiser_client, table):
    lock(table)
    event = table.round.event
    page = organiser_client.get(reverse("tournaments:desk_table", args=[event.slug, table.pk])).content.decode()
    assert LOCKED not in page and 'class="primary save"' in page


def test_a_save_on_a_page_opened_before_the_lock_is_refused_and_keeps_what_was_typed(table):
    lock(table)
    url = reverse("tournaments:table_save", args=[table.token, 2])
    response = Client().post(url, fields(seat="2"), **HTMX)
    assert response.status_code == 403
    page = response.content.decode()
    assert f'<p class="notice" role="status">{LOCKED} {KEPT}</p>' in page
    assert '<fieldset class="kept" disabled' in page and 'value="30"' in page
    assert 'class="primary save"' not in page
    assert f'<p class="table-alert locked">{LOCKED}</p>' in page, "the page's header says it too"
    assert table.manches.get(number=2).document is None


def test_a_save_that_races_the_lock_is_refused_the_same_way(table, monkeypatch):
    """The page's check passes (the table was read open), the lock comes before the save's transaction."""
    opened = published_table(table.token)
    lock(table)
    monkeypatch.setattr(table_entry, "table_for", lambda token: opened)
    url = reverse("tournaments:table_save", args=[table.token, 2])
    response = Client().post(url, fields(seat="2"), **HTMX)
    assert response.status_code == 403
    page = response.content.decode()
    assert f"{LOCKED} {KEPT}" in page and 'value="30"' in page and '<fieldset class="kept" disabled' in page
    assert table.manches.get(number=2).document is None


def test_a_players_save_on_a_locked_table_is_refused_in_words(table):
    lock(table)
    me = seated(table, 3)
    response = Client().post(player_url("player_table_save", me, table, 2), fields(), **HTMX)
    assert response.status_code == 403
    assert f"{LOCKED} {KEPT}" in response.content.decode()


def test_a_confirmation_that_meets_the_lock_says_whom_to_ask(table):
    lock(table)
    response = table_confirm(Client(), table, seat=2)
    assert response.status_code == 403
    assert f'<p class="error" role="alert">{LOCKED}' in response.content.decode()
    other = seated(table, 2)
    refused = Client().post(player_url("player_table_confirm", other, table, 1), {"version": "1"}, **HTMX)
    assert refused.status_code == 403 and LOCKED in refused.content.decode()
    assert "Confirmed. Thank you!" not in refused.content.decode()
    assert manche(table).confirmed_at is None


def test_a_dispute_that_meets_the_lock_says_whom_to_ask(table):
    lock(table)
    url = reverse("tournaments:table_dispute", args=[table.token, 1])
    response = Client().post(url, {"seat": "3", "reason": "Wrong total"}, **HTMX)
    assert response.status_code == 403 and LOCKED in response.content.decode()


def test_a_locked_table_page_asks_the_database_as_often(table, django_assert_max_num_queries):
    lock(table)
    with django_assert_max_num_queries(5):
        page = Client().get(reverse("tournaments:table", args=[table.token])).content.decode()
    assert LOCKED in page
