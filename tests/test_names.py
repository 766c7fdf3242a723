"""Names keep something to see: invisible formatting characters are dropped before the uniqueness check."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from tournaments.forms.event import EventForm
from tournaments.forms.players import PlayerForm
from tournaments.models import Event
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


def test_control_characters_are_dropped_and_blank_ones_become_spaces():
    assert clean_text("A\x01B\x1bC\x7f\x9b") == "ABC"
    assert clean_text("Ada\tLove\nlace\r\n") == "Ada Love lace"


EVENT_FIELDS = {
    "date": "2026-11-21",
    "game": "vegetables",
    "rounds_planned": 4,
    "manches_per_round": 4,
    "table_size": 4,
    "seating_method": "mixer",
    "confirmation": "player",
    "language": "en",
    "paper_size": "A4",
}
MODEL_FIELDS = {"date": datetime.date(2026, 11, 21), "game": "vegetables", "table_size": 4, "manches_per_round": 4}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "kept"),
    [(f"{RIGHT_TO_LEFT_OVERRIDE}evil\u200b", "evil"), ("A\x01B\x1bC", "ABC"), (" Autumn\u2066 \tCup ", "Autumn Cup")],
)
def test_an_event_form_keeps_only_what_shows_of_the_name_and_venue(typed, kept):
    form = EventForm({**EVENT_FIELDS, "name": typed, "venue": f"Sala {typed}"})
    assert form.is_valid(), form.errors
    event = form.save()
    assert (event.name, event.venue) == (kept, f"Sala {kept}")


@pytest.mark.django_db
def test_an_event_form_refuses_a_name_with_nothing_to_see():
    form = EventForm({**EVENT_FIELDS, "name": f"{ZERO_WIDTH}\x01\x1b", "venue": ""})
    assert not form.is_valid()
    assert form.errors["name"] == ["A name needs at least one letter or digit."]


@pytest.mark.django_db
def test_an_event_cleaned_as_a_model_keeps_only_what_shows():
    event = Event(name=f"{RIGHT_TO_LEFT_OVERRIDE}Night\x00", venue="\u202dClub\u202c\x7f", **MODEL_FIELDS)
    event.full_clean()
    assert (event.name, event.venue) == ("Night", "Club")
    with pytest.raises(ValidationError) as refused:
        Event(name=ZERO_WIDTH, **MODEL_FIELDS).full_clean()
    assert refused.value.message_dict["name"] == ["A name needs at least one letter or digit."]
