"""Setting up an event through its form: per-game defaults, the rules checked at their fields, editing."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import seat_by_hand
from tournaments.models import Event

pytestmark = pytest.mark.django_db

NEW = reverse("tournaments:event_new")


def event_data(**changes) -> dict:
    data = {
        "name": "Autumn Cup",
        "date": "2026-11-21",
        "venue": "Club house",
        "game": "cheese-rescue",
        "variant": "",
        "rounds_planned": "4",
        "manches_per_round": "1",
        "table_size": "4",
        "seating_method": "mixer",
        "placement_points": "",
        "confirmation_required": "on",
        "public": "on",
        "language": "en",
        "paper_size": "A4",
    }
    data.update(changes)
    return data


def selected(page: str, name: str) -> str:
    """The value of the selected option of select ``name`` in ``page``."""
    start = page.index(f'name="{name}"')
    chunk = page[start : page.index("</select>", start)]
    marker = chunk.index(" selected")
    return chunk[chunk.rindex('value="', 0, marker) + 7 : chunk.index('"', chunk.rindex('value="', 0, marker) + 7)]


def test_the_new_event_form_needs_login(client):
    response = client.get(NEW)
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_the_dashboard_links_to_the_new_event_form_and_each_desk(organiser_client, make_event):
    event = make_event("veggies", players=4)
    page = organiser_client.get(reverse("tournaments:dashboard")).content.decode()
    assert NEW in page
    assert reverse("tournaments:event_manage", args=[event.slug]) in page


def test_vegetables_is_offered_first_with_four_manches_and_the_mixer(member):
    page = member.get(NEW).content.decode()
    assert selected(page, "game") == "vegetables"
    assert 'name="manches_per_round" value="4"' in page
    assert selected(page, "table_size") == "4"
    assert selected(page, "seating_method") == "mixer"
    assert 'value="expert"' in page


def test_each_game_brings_its_own_defaults_and_variants(member):
    page = member.get(NEW, {"game": "veggies"}).content.decode()
    assert selected(page, "game") == "veggies"
    assert 'name="manches_per_round" value="1"' in page
    assert 'value="two-player"' in page and 'value="teams"' in page
    assert 'value="expert"' not in page


def test_changing_the_game_with_htmx_swaps_only_the_game_fields(member):
    response = member.get(
        NEW,
        {"game": "vegetables", "name": "Kept", "manches_per_round": "1"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="game-fields",
    )
    page = response.content.decode()
    assert page.startswith('<div id="game-fields">')
    assert "<html" not in page
    assert 'name="manches_per_round" value="4"' in page
    assert 'value="expert"' in page


def test_without_javascript_the_game_button_redraws_the_form_keeping_what_was_typed(member):
    data = event_data(game="snack-match", name="Picnic Open", manches_per_round="4", refresh_game="1")
    response = member.post(NEW, data)
    page = response.content.decode()
    assert response.status_code == 200
    assert not Event.objects.exists()
    assert 'value="Picnic Open"' in page
    assert 'name="manches_per_round" value="1"' in page
    assert 'value="special-diet"' in page
    assert 'name="name_sandwich"' in page


def test_creating_an_event_makes_the_creator_its_organiser(member):
    response = member.post(NEW, event_data(placement_points="5, 3, 1, 0"), follow=True)
    event = Event.objects.get()
    assert response.redirect_chain[-1][0] == reverse("tournaments:event_manage", args=[event.slug])
    assert list(event.organisers.all()) == [member.user]
    assert event.placement_points == [5, 3, 1, 0]
    assert (event.game, event.table_size, event.manches_per_round) == ("cheese-rescue", 4, 1)
    page = response.content.decode()
    assert "Autumn Cup" in page and "Tournament desk" in page


@pytest.mark.parametrize(("text", "points"), [("4/2/1/0", [4, 2, 1, 0]), (" 6 / 3 ", [6, 3]), ("", [])])
def test_placement_points_are_read_from_text(member, text, points):
    member.post(NEW, event_data(placement_points=text))
    assert Event.objects.get().placement_points == points


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"table_size": "6"}, "table_size", "is played at tables of 2, 3, 4"),
        ({"game": "vegetables", "manches_per_round": "2"}, "manches_per_round", "at least 4 manches"),
        ({"placement_points": "1/2/4/0"}, "placement_points", "never rising"),
        ({"placement_points": "4/two/1"}, "placement_points", "whole numbers"),
        ({"variant": "expert"}, "variant", "The variants of Cheese Rescue are: standard"),
    ],
)
def test_bad_settings_are_refused_at_their_field_and_nothing_typed_is_lost(member, changes, field, words):
    response = member.post(NEW, event_data(name="Kept Name", venue="Kept Venue", **changes))
    assert not Event.objects.exists()
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert words in errors[field][0]
    page = response.content.decode()
    assert words in page
    assert 'value="Kept Name"' in page and 'value="Kept Venue"' in page


def test_snack_match_keeps_component_names_and_the_special_diet(member):
    data = event_data(
        game="snack-match",
        variant="special-diet",
        name_sandwich="Panino",
        name_green="Verde",
        diet_1_component="donut",
        diet_1_modifier="corners",
        diet_2_component="green",
        diet_2_modifier="most",
    )
    member.post(NEW, data)
    event = Event.objects.get()
    assert event.options == {
        "names": {"snacks": {"sandwich": "Panino"}, "cloths": {"green": "Verde"}},
        "diet": [
            {"kind": "snack", "component": "donut", "modifier": "corners"},
            {"kind": "cloth", "component": "green", "modifier": "most"},
        ],
    }
    page = member.get(reverse("tournaments:event_edit", args=[event.slug])).content.decode()
    assert 'value="Panino"' in page
    assert (selected(page, "diet_1_modifier"), selected(page, "diet_2_component")) == ("corners", "green")


def test_the_special_diet_needs_two_cards_with_different_modifiers(member):
    data = event_data(game="snack-match", variant="special-diet", diet_1_component="donut", diet_1_modifier="most")
    errors = member.post(NEW, data).context["form"].options_form.errors
    assert set(errors) == {"diet_2_component", "diet_2_modifier"}
    data.update(diet_2_component="soda", diet_2_modifier="most")
    errors = member.post(NEW, data).context["form"].options_form.errors
    assert set(errors) == {"diet_2_modifier"}
    assert "different modifiers" in errors["diet_2_modifier"][0]
    assert not Event.objects.exists()


def test_a_standard_game_keeps_no_diet(member):
    member.post(NEW, event_data(game="snack-match", diet_1_component="donut", diet_1_modifier="most"))
    assert "diet" not in Event.objects.get().options


def test_editing_shows_the_settings_and_saves_changes(member, make_event):
    event = make_event("cheese-rescue", players=4, placement_points=[4, 2, 1, 0])
    event.organisers.add(member.user)
    url = reverse("tournaments:event_edit", args=[event.slug])
    page = member.get(url).content.decode()
    assert 'value="4/2/1/0"' in page
    assert 'value="Test cheese-rescue"' in page
    response = member.post(url, event_data(name="Renamed", table_size="3", placement_points="3 2 0"), follow=True)
    event.refresh_from_db()
    assert (event.name, event.table_size, event.placement_points) == ("Renamed", 3, [3, 2, 0])
    assert response.redirect_chain[-1][0] == reverse("tournaments:event_manage", args=[event.slug])
    assert "settings are saved" in response.content.decode()


def test_editing_refuses_bad_settings_at_their_field(member, make_event):
    event = make_event("vegetables", players=4)
    event.organisers.add(member.user)
    url = reverse("tournaments:event_edit", args=[event.slug])
    response = member.post(url, event_data(game="vegetables", manches_per_round="3"))
    assert list(response.context["form"].errors) == ["manches_per_round"]
    event.refresh_from_db()
    assert event.manches_per_round == 4


def test_the_game_is_fixed_once_a_round_is_seated(member, make_event):
    event = make_event("cheese-rescue", players=4)
    event.organisers.add(member.user)
    seat_by_hand(event, 1, [list(event.players.values_list("pk", flat=True))])
    url = reverse("tournaments:event_edit", args=[event.slug])
    member.post(url, event_data(game="veggies", name="Still cheese"))
    event.refresh_from_db()
    assert (event.name, event.game) == ("Still cheese", "cheese-rescue")


def test_only_the_events_organisers_may_edit_it(member, client, make_event):
    event = make_event("veggies", players=4)
    url = reverse("tournaments:event_edit", args=[event.slug])
    assert member.get(url).status_code == 403
    assert member.post(url, event_data(game="veggies", name="Hijacked")).status_code == 403
    response = client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    event.refresh_from_db()
    assert event.name == "Test veggies"


def test_posting_the_form_needs_the_csrf_token(member):
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(member.user)
    assert guarded.post(NEW, event_data()).status_code == 403
    assert not Event.objects.exists()


def variant_options(page: str) -> list[tuple[str, str]]:
    """The (value, text) of each option of the variant select in ``page``."""
    start = page.index('name="variant"')
    chunk = page[start : page.index("</select>", start)]
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', chunk)


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("vegetables", [("expert", "Expert (the game&#x27;s default)")]),
        ("snack-match", [("standard", "Standard (the game&#x27;s default)"), ("special-diet", "Special diet")]),
        (
            "veggies",
            [
                ("", "Standard (Two players at 2)"),
                ("standard", "Standard"),
                ("two-player", "Two players"),
                ("teams", "Teams"),
            ],
        ),
    ],
)
def test_the_variant_choice_offers_each_variant_once_the_default_by_its_name(member, game, expected):
    page = member.get(NEW, {"game": game}).content.decode()
    assert variant_options(page) == expected
    assert selected(page, "variant") == expected[0][0]


def test_an_event_saved_with_the_default_variant_plays_it(member):
    response = member.post(NEW, event_data(game="vegetables", variant="expert", manches_per_round="4"))
    assert response.status_code == 302
    assert Event.objects.get().effective_variant == "expert"
