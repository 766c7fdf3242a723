"""The players page at a desk: the table sorted by any column (names and clubs alphabetically, as readers expect),
several players checked in, out or dropped at once after a confirmation, and the roll call by keyboard."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments.models import AuditEntry, Player, Team
from tournaments.models.audit import Action
from tournaments.services.players import roll_call_matches, sorted_players

pytestmark = pytest.mark.django_db

NAMES = {
    "Zoe Abel": "Ludoteca",
    "Íñigo Ruiz": "",
    "Inés Vidal": "Asociación Lúdica",
    "Núria Sánchez": "Zorro Club",
    "Nuno Costa": "Ágora",
}


@pytest.fixture
def event(make_event):
    event = make_event("cheese-rescue", players=0)
    Player.objects.bulk_create(Player(event=event, name=name, club=club) for name, club in NAMES.items())
    event.players.filter(name="Inés Vidal").update(checked_in=True)
    return event


def url(name: str, event) -> str:
    return reverse(f"tournaments:{name}", args=[event.slug])


def ids(event, *names: str) -> list[int]:
    return [event.players.get(name=name).pk for name in names]


def listed(page: str) -> list[str]:
    """The players' names in the order the table shows them."""
    return re.findall(r'<strong><a href="[^"]+/edit/">([^<]+)<span', page)


# Sorting


def test_names_sort_alphabetically_with_accents_beside_their_letters(event):
    names = [player.name for player in sorted_players(event.players.all(), "name")]
    assert names == ["Inés Vidal", "Íñigo Ruiz", "Nuno Costa", "Núria Sánchez", "Zoe Abel"]
    assert [player.name for player in sorted_players(event.players.all(), "-name")] == names[::-1]


def test_clubs_sort_alphabetically_and_players_without_a_club_come_last(event):
    clubs = [player.club for player in sorted_players(event.players.all(), "club")]
    assert clubs == ["Ágora", "Asociación Lúdica", "Ludoteca", "Zorro Club", ""]


def test_checked_in_and_team_sorts(event):
    Team.objects.create(event=event, name="Verde").players.add(event.players.get(name="Zoe Abel"))
    assert sorted_players(event.players.all(), "checked_in")[0].name == "Inés Vidal"
    assert sorted_players(event.players.all(), "-checked_in")[-1].name == "Inés Vidal"
    assert sorted_players(event.players.select_related("team"), "team")[0].name == "Zoe Abel"
    assert [p.name for p in sorted_players(event.players.all(), "nonsense")] == listed_by_name(event)


def listed_by_name(event) -> list[str]:
    return [player.name for player in sorted_players(event.players.all(), "name")]


def test_the_page_sorts_by_the_column_asked_and_its_header_offers_the_other_way(organiser_client, event):
    page = organiser_client.get(url("players", event), {"sort": "club", "show": "out"}).content.decode()
    assert listed(page) == ["Nuno Costa", "Zoe Abel", "Núria Sánchez", "Íñigo Ruiz"]
    assert re.search(r'aria-sort="ascending"[^>]*><a href="\?show=out&amp;sort=-club">', page)
    assert '<a href="?show=out&amp;sort=name">' in page
    assert '<input type="hidden" name="sort" value="club">' in page
    backwards = organiser_client.get(url("players", event), {"sort": "-name"}).content.decode()
    assert listed(backwards) == listed_by_name(event)[::-1]
    assert 'aria-sort="descending"><a href="?sort=name">' in backwards


# Several players at once


def test_ticked_players_are_checked_in_only_once_confirmed(organiser_client, event):
    chosen = ids(event, "Zoe Abel", "Nuno Costa", "Inés Vidal")
    asked = organiser_client.post(url("players_bulk", event), {"do": "in", "player": chosen})
    body = asked.content.decode()
    assert asked.status_code == 200 and "Check in 3 players" in body
    assert "Checked in: Inés Vidal, Nuno Costa, Zoe Abel." in body
    carried = re.search(r'<input type="hidden" name="players" value="([0-9,]+)">', body).group(1)
    assert sorted(map(int, carried.split(","))) == sorted(chosen)
    assert event.players.filter(checked_in=True).count() == 1

    done = organiser_client.post(
        url("players_bulk", event), {"do": "in", "players": ",".join(map(str, chosen)), "confirm": "1"}, follow=True
    )
    assert "2 players checked in. 1 already was as asked." in done.content.decode()
    assert set(event.players.filter(checked_in=True).values_list("name", flat=True)) == {
        "Zoe Abel",
        "Nuno Costa",
        "Inés Vidal",
    }
    entries = AuditEntry.objects.filter(event=event, action=Action.CHECK_IN)
    assert sorted(entry.subject.name for entry in entries) == ["Nuno Costa", "Zoe Abel"]
    assert all(entry.details == {"checked_in": True} for entry in entries)


def test_ticked_players_are_checked_out_and_dropped(organiser_client, event):
    organiser_client.post(url("players_bulk", event), {"do": "out", "player": ids(event, "Inés Vidal"), "confirm": "1"})
    assert not event.players.filter(checked_in=True).exists()
    chosen = ids(event, "Zoe Abel", "Íñigo Ruiz")
    response = organiser_client.post(url("players_bulk", event), {"do": "drop", "player": chosen, "confirm": "1"})
    assert response.status_code == 302
    assert set(event.players.filter(active=False).values_list("name", flat=True)) == {"Zoe Abel", "Íñigo Ruiz"}
    assert AuditEntry.objects.filter(event=event, action=Action.DROP).count() == 2


def test_htmx_confirmed_changes_and_sends_the_page_back(organiser_client, event):
    response = organiser_client.post(
        url("players_bulk", event),
        {"do": "in", "player": ids(event, "Zoe Abel"), "confirm": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response["HX-Redirect"] == url("players", event)
    assert event.players.get(name="Zoe Abel").checked_in


def test_nothing_ticked_or_another_events_players_change_nothing(organiser_client, event, make_event):
    stranger = make_event("veggies", players=2).players.first()
    for data in ({"do": "in"}, {"do": "in", "player": [stranger.pk], "confirm": "1"}, {"do": "wipe", "player": [1]}):
        response = organiser_client.post(url("players_bulk", event), data, follow=True)
        assert "Select players in the list first" in response.content.decode()
    stranger.refresh_from_db()
    assert not stranger.checked_in
    assert event.players.filter(checked_in=True).count() == 1


# The roll call


def test_the_roll_call_folds_accents_and_case_and_leaves_dropped_players_out(event):
    assert [player.name for player in roll_call_matches(event, "nuria")] == ["Núria Sánchez"]
    assert [player.name for player in roll_call_matches(event, "NU")] == ["Nuno Costa", "Núria Sánchez"]
    event.players.filter(name="Nuno Costa").update(active=False)
    assert [player.name for player in roll_call_matches(event, "nu")] == ["Núria Sánchez"]
    assert roll_call_matches(event, "   ") == []


def test_enter_checks_in_the_only_match_and_says_so(organiser_client, event):
    response = organiser_client.post(url("players_roll_call", event), {"name": "nuria"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    nuria = event.players.get(name="Núria Sánchez")
    assert nuria.checked_in
    assert body.startswith("Núria Sánchez checked in.")
    assert response["HX-Trigger"] == '{"rollCallDone": {}}'
    assert f'<tr id="player-{nuria.pk}" hx-swap-oob="true">' in body
    assert "2 checked in" in body
    entry = AuditEntry.objects.get(event=event, action=Action.CHECK_IN)
    assert entry.subject == nuria and entry.details == {"checked_in": True}


def test_several_matches_check_no_one_in_unless_one_is_picked(organiser_client, event):
    response = organiser_client.post(url("players_roll_call", event), {"name": "nu"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.startswith("2 players match: type more of the name, or pick one.")
    assert "HX-Trigger" not in response
    kept = body.split('<div id="roll-call-matches" class="roll-call-matches" hx-swap-oob="true">')[1].split("</div>")[0]
    assert kept.count('name="player"') == 2 and "Nuno Costa" in kept and "Núria Sánchez" in kept
    assert event.players.filter(checked_in=True).count() == 1
    nuno = event.players.get(name="Nuno Costa")
    organiser_client.post(url("players_roll_call", event), {"name": "nu", "player": ["", nuno.pk]})
    nuno.refresh_from_db()
    assert nuno.checked_in


def test_the_roll_call_without_javascript_answers_with_the_page(organiser_client, event):
    page = organiser_client.post(url("players_roll_call", event), {"name": "inés"}, follow=True).content.decode()
    assert "Inés Vidal was already checked in." in page
    page = organiser_client.post(url("players_roll_call", event), {"name": "xyz"}, follow=True).content.decode()
    assert "No active player matches “xyz”." in page


def test_typing_lists_the_matches(organiser_client, event):
    page = organiser_client.get(url("players_roll_call", event), {"name": "nu"}).content.decode()
    assert page.count('name="player"') == 2 and "2 players match" in page
    assert (
        "No active player matches."
        in organiser_client.get(url("players_roll_call", event), {"name": "q"}).content.decode()
    )
