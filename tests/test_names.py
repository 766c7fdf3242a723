"""Names keep something to see: invisible formatting characters are dropped before the uniqueness check."""

import pytest

from tournaments.forms.players import PlayerForm
from tournaments.names import clean_text, has_visible_character
from tournaments.services import players as service

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
RIGHT_TO_LEFT_OVERRIDE = "\u202e"


def test_format_characters_are_dropped_and_spacing_tidied():
    assert clean_text(f"  Ada{ZERO_WIDTH}  {RIGHT_TO_LEFT_OVERRIDE}Lovelace ") == "Ada Lovelace"


def test_a_name_of_format_characters_only_shows_nothing():
    assert not has_visible_character(clean_text(ZERO_WIDTH))
    assert has_visible_character("Łukasz")


@pytest.mark.django_db
def test_the_form_refuses_a_name_with_nothing_to_see(make_event):
    event = make_event()
    form = PlayerForm({"name": ZERO_WIDTH, "club": "", "team": ""}, event=event)
    assert not form.is_valid()
    assert "name" in form.errors


@pytest.mark.django_db
def test_an_override_does_not_make_a_second_player_of_the_same_name(make_event):
    event = make_event()
    service.add_player(event, "Ada Lovelace")
    with pytest.raises(service.DuplicateName):
        service.add_player(event, f"{RIGHT_TO_LEFT_OVERRIDE}Ada{ZERO_WIDTH} Lovelace")
    with pytest.raises(service.InvisibleName):
        service.add_player(event, ZERO_WIDTH)


def test_imported_rows_with_nothing_to_see_are_refused_with_a_reason():
    rows = service.parse_player_csv(f"name,club\n{ZERO_WIDTH},Club\n\u0301\u0301,Club\nAda,Club\n")
    assert [row.errors for row in rows] == [
        ["The name is missing."],
        ["The name has no letter or digit to show."],
        [],
    ]
