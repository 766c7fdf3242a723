"""Changes to many players at once, or for good, on the organiser's players page: checking everyone in or no one
asks first when check-ins would be lost and can be undone; a player never seated can be deleted, one who played only
dropped; the desk counts players in the players page's words; names are listed alphabetically everywhere."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import seat_by_hand
from tournaments.models import AuditEntry, Player
from tournaments.models.audit import Action

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(make_event):
    event = make_event("cheese-rescue", players=8, table_size=4)
    event.players.filter(name__in=["Player 00", "Player 02", "Player 05"]).update(checked_in=True)
    event.players.filter(name="Player 07").update(active=False, checked_in=True)
    return event


def url(name: str, event, *args) -> str:
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def checked_in(event) -> set[str]:
    return set(event.players.filter(checked_in=True).values_list("name", flat=True))


def test_check_in_none_asks_first_and_changes_nothing_until_confirmed(organiser_client, event):
    page = organiser_client.get(url("players", event)).content.decode()
    assert 'hx-confirm="Clear the check-ins of 3 players?"' in page
    before = checked_in(event)
    asked = organiser_client.post(url("players_check_in_all", event), {"present": "0"})
    assert asked.status_code == 200
    body = asked.content.decode()
    assert "The check-ins of 3 players will be cleared." in body
    assert re.search(r'<input type="hidden" name="present" value="0">', body)
    assert 'name="confirm" value="1"' in body and "Clear 3 check-ins" in body
    assert checked_in(event) == before
    assert not AuditEntry.objects.filter(event=event, action=Action.CHECK_IN).exists()


def test_check_in_none_then_undo_restores_exactly_the_previous_set(organiser_client, event):
    before = checked_in(event)
    done = organiser_client.post(url("players_check_in_all", event), {"present": "0", "confirm": "1"})
    assert done.status_code == 302
    assert checked_in(event) == {"Player 07"}
    page = organiser_client.get(url("players", event)).content.decode()
    assert "3 check-ins cleared." in page
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    assert "3 check-ins cleared." not in organiser_client.get(url("players", event)).content.decode()
    Player.objects.filter(event=event, name="Player 01").update(checked_in=True)
    undone = organiser_client.post(url("players_check_in_all_undo", event), {"token": token})
    assert undone.status_code == 302
    assert checked_in(event) == before | {"Player 01"}
    entries = list(AuditEntry.objects.filter(event=event, action=Action.CHECK_IN).order_by("pk"))
    assert [entry.details for entry in entries] == [
        {"all": False, "changed": 3},
        {"all": False, "undo": True, "changed": 3, "undoes": entries[0].pk},
    ]
    assert all(entry.via == "organiser" and entry.user is not None for entry in entries)


def test_an_undo_of_another_event_or_a_forged_one_is_refused(organiser_client, event, make_event):
    organiser_client.post(url("players_check_in_all", event), {"present": "0", "confirm": "1"})
    token = re.search(r'name="token" value="([^"]+)"', organiser_client.get(url("players", event)).content.decode())
    other = make_event("veggies", players=2)
    response = organiser_client.post(url("players_check_in_all_undo", other), {"token": token.group(1)}, follow=True)
    assert "This undo no longer works" in response.content.decode()
    organiser_client.post(url("players_check_in_all_undo", event), {"token": token.group(1) + "x"})
    assert checked_in(event) == {"Player 07"}


def test_check_in_all_asks_first_only_when_some_had_arrived_and_can_be_undone(organiser_client, event, make_event):
    before = checked_in(event)
    asked = organiser_client.post(url("players_check_in_all", event), {"present": "1"})
    assert "4 more players will be checked in" in asked.content.decode()
    assert checked_in(event) == before
    organiser_client.post(url("players_check_in_all", event), {"present": "1", "confirm": "1"})
    assert len(checked_in(event)) == 8
    page = organiser_client.get(url("players", event)).content.decode()
    assert "4 players checked in." in page
    token = re.search(r'name="token" value="([^"]+)"', page).group(1)
    organiser_client.post(url("players_check_in_all_undo", event), {"token": token})
    assert checked_in(event) == before
    nobody_yet = make_event("veggies", players=4)
    page = organiser_client.get(url("players", nobody_yet)).content.decode()
    assert "more players? The list" not in page
    assert organiser_client.post(url("players_check_in_all", nobody_yet), {"present": "1"}).status_code == 302
    assert nobody_yet.players.filter(checked_in=True).count() == 4


def test_an_htmx_check_in_none_confirmed_in_the_browser_goes_back_to_the_page(organiser_client, event):
    unasked = organiser_client.post(url("players_check_in_all", event), {"present": "0"}, HTTP_HX_REQUEST="true")
    assert unasked["HX-Redirect"] == url("players_check_in_all", event) + "?present=0"
    assert len(checked_in(event)) == 4
    confirm_page = organiser_client.get(unasked["HX-Redirect"]).content.decode()
    assert "The check-ins of 3 players will be cleared." in confirm_page
    response = organiser_client.post(
        url("players_check_in_all", event), {"present": "0", "confirm": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response["HX-Redirect"] == url("players", event)
    assert checked_in(event) == {"Player 07"}


def edited(player, **changes) -> dict:
    fields = {"name": player.name, "club": player.club, "team": "", "active": "on"}
    return {**fields, **changes}


def test_a_player_never_seated_is_deleted_after_a_confirmation(organiser_client, event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[:4]])
    page = organiser_client.get(url("players", event)).content.decode()
    assert page.count('hx-confirm="Delete ') == 4
    absent = event.players.get(pk=ids[5])
    earlier = organiser_client.post(url("players_edit", event, absent.pk), edited(absent, club="Late Club"))
    assert earlier.status_code == 302
    asked = organiser_client.post(url("players_delete", event, absent.pk))
    assert asked.status_code == 200 and "was never seated" in asked.content.decode()
    assert event.players.filter(pk=absent.pk).exists()
    done = organiser_client.post(url("players_delete", event, absent.pk), {"confirm": "1"}, follow=True)
    assert "Player 05 deleted." in done.content.decode()
    assert not event.players.filter(pk=absent.pk).exists()
    entry = AuditEntry.objects.get(event=event, action=Action.PLAYER_DELETE)
    assert entry.details == {"name": "Player 05", "club": "Late Club"}
    kept = AuditEntry.objects.get(event=event, action=Action.PLAYER_EDIT)
    assert kept.subject is None and kept.details["club"][1] == "Late Club"


def test_a_player_who_played_cannot_be_deleted_only_dropped(organiser_client, event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[:4]])
    response = organiser_client.post(url("players_delete", event, ids[0]), {"confirm": "1"}, follow=True)
    assert "played a round: drop them instead" in response.content.decode()
    assert event.players.filter(pk=ids[0]).exists()


def test_an_htmx_delete_removes_the_row_and_updates_the_counts(organiser_client, event):
    player = event.players.get(name="Player 01")
    response = organiser_client.post(url("players_delete", event, player.pk), {"confirm": "1"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "<tr" not in body and 'hx-swap-oob="true"' in body and "7 players, 4 checked in, 1 dropped" in body


def test_the_desk_and_the_players_page_count_players_in_the_same_words(organiser_client, event):
    words = "8 players, 4 checked in, 1 dropped"
    assert words in organiser_client.get(url("players", event)).content.decode()
    assert words in organiser_client.get(url("event_manage", event)).content.decode()


def test_the_swap_list_sorts_names_alphabetically(organiser_client, make_event):
    event = make_event("cheese-rescue", players=0, table_size=4)
    names = ["Zoe", "Íñigo", "Ólafur", "Łukasz", "Anna", "Inés", "Lucas", "Oscar"]
    Player.objects.bulk_create(Player(event=event, name=name) for name in names)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[:4], ids[4:]])
    event.rounds.update(published=False)
    page = organiser_client.get(url("round", event, 1)).content.decode()
    select = re.search(r'<select name="player_a".*?</select>', page, re.S).group(0)
    listed = re.findall(r">([^<(]+) \(table", select)
    assert listed == ["Anna", "Inés", "Íñigo", "Lucas", "Łukasz", "Ólafur", "Oscar", "Zoe"]
