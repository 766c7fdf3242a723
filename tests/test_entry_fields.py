"""The table form's fields of every game: the number pad for every number, the words and letters players read, and
the VEGEtables round's totals and places as the paper sheet ends with them."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from scoring.ranking import competition_ranks
from scoring.vegetables import manche_total
from tests.factories import enter, seat_by_hand
from tournaments import games
from tournaments.games.cheese_rescue import entry as cheese_entry
from tournaments.games.cheese_rescue import labels as cheese_labels
from tournaments.games.veggies import entry as veggies_entry
from tournaments.games.veggies import labels as veggies_labels
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.django_db

#: The boxes typed into (not chosen from).
TYPED = ("number", "text")


class Boxes(HTMLParser):
    """The attributes of every typed box inside the page's sheet forms."""

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.boxes: list[dict[str, str]] = []

    def handle_starttag(self, tag, attrs):
        found = {name: value or "" for name, value in attrs}
        if tag == "form" and "sheet" in found.get("class", "").split():
            self.depth += 1
        elif tag == "input" and self.depth and found.get("type") in TYPED:
            self.boxes.append(found)

    def handle_endtag(self, tag):
        if tag == "form" and self.depth:
            self.depth -= 1


def typed_boxes(html: str) -> list[dict[str, str]]:
    parser = Boxes()
    parser.feed(html)
    return parser.boxes


def started_table(make_event, game: str, players: int = 4, manches: int = 1):
    event = make_event(game, players=players, table_size=players, manches_per_round=manches)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()


def table_page(client, table) -> str:
    return client.get(reverse("tournaments:table", args=[table.token])).content.decode()


# The number pad -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [game.key for game in games.all_games()])
def test_every_box_of_every_game_opens_the_number_pad(client, make_event, game):
    boxes = typed_boxes(table_page(client, started_table(make_event, game)))
    assert boxes, "no box to type in"
    for box in boxes:
        assert box.get("inputmode") == "numeric", box["name"]
        assert box.get("pattern"), box["name"]


def test_a_number_that_may_not_be_negative_takes_digits_only(client, make_event):
    boxes = typed_boxes(table_page(client, started_table(make_event, "cheese-rescue")))
    patterns = {box["pattern"] for box in boxes}
    assert patterns == {"[0-9]*"}
    assert re.fullmatch(patterns.pop(), "12") and not re.fullmatch("[0-9]*", "-1")


def test_snack_match_group_sizes_take_sizes_on_the_number_pad(client, make_event):
    boxes = typed_boxes(table_page(client, started_table(make_event, "snack-match")))
    sizes = [box for box in boxes if ".groups." in box["name"]]
    assert sizes and all(box["type"] == "text" and box["inputmode"] == "numeric" for box in sizes)
    pattern = sizes[0]["pattern"]
    assert re.fullmatch(pattern, "5, 2") and re.fullmatch(pattern, "7") and re.fullmatch(pattern, "3;4 5")
    assert not re.fullmatch(pattern, "five")


# Veggies: a good nobody declared -----------------------------------------------------------------------------


def test_a_good_nobody_declared_says_it_scores_nothing_in_the_singular_and_the_plural():
    one = veggies_entry.good_points_text("Carrots", 1, unscored=True)
    four = veggies_entry.good_points_text("Carrots", 4, unscored=True)
    assert one == "Carrots: 1 point, not scored: nobody declared it as a biggest group"
    assert four == "Carrots: 4 points, not scored: nobody declared it as a biggest group"
    assert veggies_entry.good_points_text("Grapes", 5, unscored=False) == "Grapes: 5 points"


# The letters of the grids ----------------------------------------------------------------------------------------


def letters_as(mapping: dict[str, str]):
    """A stand-in for ``pgettext`` giving a language's letters."""
    return lambda _context, letter: mapping.get(letter, letter)


def test_the_stand_grid_shows_the_languages_letters_and_posts_the_codes(monkeypatch):
    italian = {"S": "F", "G": "U", "M": "N", "E": "V", "X": "T"}
    monkeypatch.setattr(veggies_labels, "pgettext", letters_as(italian))
    choices = dict(veggies_entry.cell_codes())
    assert choices == {"": "–", "S": "F", "B": "B", "G": "U", "C": "C", "M": "N", "E": "V", "X": "T"}
    assert veggies_labels.legend().startswith("F strawberries · B bananas · U grapes")


def test_letters_that_clash_in_a_language_fall_back_to_the_codes(monkeypatch):
    monkeypatch.setattr(veggies_labels, "pgettext", letters_as({"S": "F", "M": "F"}))
    assert veggies_labels.letters() == {code: code for code in "SBGCMEX"}
    monkeypatch.setattr(cheese_labels, "pgettext", letters_as({"D": "C", "C": "C"}))
    assert cheese_labels.letters() == {"D": "D", "C": "C", "M": "M", "S": "S"}


def test_cheese_marks_never_read_as_an_animal_or_the_start_card():
    assert cheese_entry.player_tags(["Ada", "Bea", "Elio", "Fede"]) == ["A", "B", "E", "F"]
    assert cheese_entry.player_tags(["Sara", "Bea", "Elio", "Fede"]) == ["1", "2", "3", "4"]
    assert cheese_entry.player_tags(["Ada", "Mia", "Elio", "Fede"]) == ["1", "2", "3", "4"]


def test_cheese_marks_follow_the_languages_letters(monkeypatch):
    italian = {"D": "C", "C": "G", "M": "T", "S": "P"}
    monkeypatch.setattr(cheese_labels, "pgettext", letters_as(italian))
    assert cheese_entry.player_tags(["Sara", "Mia", "Elio", "Fede"]) == ["S", "M", "E", "F"]
    assert cheese_entry.player_tags(["Gino", "Mia", "Elio", "Fede"]) == ["1", "2", "3", "4"]
    cards = cheese_entry.cards_for(4)
    assert dict(cheese_entry.animal_choices(cards)) == {"": "–", "D": "C", "C": "G", "M": "T", "S": "P"}


def test_the_board_shows_seat_numbers_when_a_name_starts_like_the_start_card(client, make_event):
    table = started_table(make_event, "cheese-rescue")
    first = table.seats.get(position=1).player
    first.name = "Sara Bruni"
    first.save()
    response = client.post(
        reverse("tournaments:table_check", args=[table.token, 1]), {"entry_mode": "board", "redraw": "1"}
    )
    html = response.content.decode()
    assert '<option value="Q1:3">1·3</option>' in html and '<option value="S">S</option>' in html
    assert "S·3" not in html


# VEGEtables: the round's totals and places -------------------------------------------------------------------------

MANCHE = {
    "pozzo": [30, 0, 20, 10],
    "sequences": [6, 2, 5, 3],
    "family_bonuses": [1, 0, 0, 0],
    "penalties": [0, 1, 0, 0],
}


def turned(shift: int) -> dict:
    """The manche with its columns turned by ``shift`` seats."""
    return {key: values[shift:] + values[:shift] for key, values in MANCHE.items()}


def manche_totals(manche: dict) -> list[int]:
    return [manche_total(*seat) for seat in zip(*(manche[key] for key in MANCHE))]


def round_lines(html: str) -> list[tuple[str, int, int]]:
    section = html[html.index('<div id="round-totals"') :]
    section = section[: section.index("</div>")]
    rows = re.findall(r'<tr><td>([^<]+)</td><td class="number">(-?\d+)</td><td class="number">(\d+)</td></tr>', section)
    return [(name, int(total), int(place)) for name, total, place in rows]


def test_the_vegetables_page_ends_with_each_players_round_total_and_place(client, make_event):
    table = started_table(make_event, "vegetables", manches=4)
    names = [seat.player.name for seat in table.seats.order_by("position")]
    html = table_page(client, table)
    assert '<div id="round-totals"' in html and round_lines(html) == []

    enter(table, {"manches": [turned(0)]}, 1)
    enter(table, {"manches": [turned(1)]}, 2)
    totals = [a + b for a, b in zip(manche_totals(turned(0)), manche_totals(turned(1)))]
    places = competition_ranks([(total,) for total in totals])
    html = table_page(client, table)
    assert round_lines(html) == list(zip(names, totals, places))
    assert "After 2 of 4 manches" in html


def test_saving_a_vegetables_sheet_brings_the_round_total_up_to_date(client, make_event):
    table = started_table(make_event, "vegetables", manches=2)
    data = {"seat": "1", "version": "0"}
    data |= {f"manches[0].{key}[{i}]": str(value) for key, values in MANCHE.items() for i, value in enumerate(values)}
    response = client.post(reverse("tournaments:table_save", args=[table.token, 1]), data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert re.search(r'<div id="round-totals" [^>]*hx-swap-oob="true">', html)
    assert [total for _name, total, _place in round_lines(html)] == manche_totals(MANCHE)


@pytest.mark.parametrize("game", [game.key for game in games.all_games() if not game.shows_round_totals])
def test_a_game_of_one_sheet_a_round_shows_no_round_total(client, make_event, game):
    assert 'id="round-totals"' not in table_page(client, started_table(make_event, game))
