"""The standings' words and figures, the same on the page, the projector and in the files: a tiebreak named as what
it adds up, tournament points rounded (half up, to the hundredth) rather than cut, and dropped players marked."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.formatting import hundredths
from tournaments.models import Player, Seat
from tournaments.models.rounds import RoundStatus
from tournaments.standings.build import rebuild_standings
from tournaments.standings.figures import number_text
from tournaments.standings.metrics import METRICS

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "es", "it")
#: Each round's largest group of the four players of a Snack Match table, round by round.
LARGEST = [(4, 5, 3, 2), (5, 4, 4, 3), (4, 4, 5, 6)]


def get(client, name: str, event, language: str = "en"):
    return client.get(reverse(f"tournaments:{name}", args=[event.slug]), HTTP_ACCEPT_LANGUAGE=language)


def csv_rows(client, event, language: str = "en") -> list[list[str]]:
    return list(csv.reader(io.StringIO(get(client, "standings_csv", event, language).content.decode("utf-8-sig"))))


def sheet_rows(client, event, language: str = "en") -> list[tuple]:
    workbook = load_workbook(io.BytesIO(get(client, "standings_xlsx", event, language).content))
    return [tuple(cell for cell in row) for row in workbook.active.iter_rows()]


@pytest.fixture
def snack(make_event):
    """Snack Match, three rounds at one table: each seat's score and largest group stored as a table's result."""
    event = make_event("snack-match", players=4, table_size=4)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    for number, largest in enumerate(LARGEST, start=1):
        round_ = seat_by_hand(event, number, [ids], status=RoundStatus.COMPLETE)
        for seat in Seat.objects.filter(round=round_).order_by("position"):
            group = largest[seat.position - 1]
            Seat.objects.filter(pk=seat.pk).update(
                score=10 + seat.position, tiebreak=[group], rank=5 - seat.position, placement_points=seat.position
            )
    rebuild_standings(event)
    return event


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_snack_match_tiebreak_is_named_as_the_sum_over_rounds_it_is_everywhere(client, snack, language):
    game = snack.game_bundle
    with translation.override(language):
        heading = METRICS["tiebreak"].heading_for(game)
        legend = game.tiebreak_explained()
        single = translation.gettext("Largest group")
    assert heading.startswith("Σ ") and heading != single
    summed = sum(largest[3] for largest in LARGEST)
    assert summed > max(max(largest) for largest in LARGEST), "a sum over rounds, not one group"

    page = get(client, "standings", snack, language).content.decode()
    assert re.search(rf"<th [^>]*>\s*(<a [^>]*>)?{re.escape(heading)}(</a>)?\s*</th>", page)
    assert legend in page
    projector = get(client, "projector", snack, language).content.decode()
    assert f'<th scope="col" class="number">{heading}</th>' in projector and legend in projector
    rows = csv_rows(client, snack, language)
    column = rows[0].index(heading)
    assert sorted(int(row[column]) for row in rows[1:]) == sorted(
        sum(round_[i] for round_ in LARGEST) for i in range(4)
    )
    sheet = sheet_rows(client, snack, language)
    assert [cell.value for cell in sheet[0]] == rows[0]
    assert single not in rows[0]


def test_the_name_of_the_sum_and_its_legend_say_it_is_summed_over_rounds():
    from tournaments.games import get_game

    game = get_game("snack-match")
    assert METRICS["tiebreak"].label_for(game) == "Largest groups, summed over rounds"
    assert METRICS["tiebreak"].heading_for(game) == "Σ largest group"
    assert game.tiebreak_explained() == "Ties broken by the largest group of each round, summed over the rounds"


def test_points_are_rounded_half_up_to_the_hundredth_by_one_function():
    assert hundredths(Decimal("34.667")) == Decimal("34.67")
    assert hundredths(Fraction(104, 3)) == Decimal("34.67")
    assert hundredths(Decimal("2.345")) == Decimal("2.35")
    assert number_text(Decimal("34.667")) == "34.67"
    assert number_text(Decimal("3.50")) == "3.5"
    assert number_text(Decimal("7.00")) == "7"


@pytest.fixture
def three_tied(make_event):
    """One table of four, three tied for first: each of them earns 7/3 points (4 + 2 + 1 shared), the last none."""
    event = make_event("cheese-rescue", players=4, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    (table,) = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.all()
    enter(table, cheese_tallies([5, 5, 5, 1]))
    return event


def test_opponents_points_are_the_exact_sum_rounded_not_cut_on_the_page_and_in_the_files(client, three_tied):
    """A winner's opponents have 7/3 + 7/3 + 0 = 14/3 points (4.667, shown 4.67, not 4.66); the last player's have
    3 x 7/3 = 7 (not 6.99)."""
    names = dict(three_tied.players.values_list("name", "pk"))
    last = three_tied.players.order_by("pk").last().name

    rows = {row[1]: row for row in csv_rows(client, three_tied)}
    header = rows.pop("Player")
    column = header.index("Opponents' points")
    assert {name: row[column] for name, row in rows.items()} == {
        name: "7" if name == last else "4.67" for name in names
    }

    sheet = sheet_rows(client, three_tied)
    values = {row[1].value: row[column] for row in sheet[1:]}
    assert values[last].value == 7
    winners = [cell for name, cell in values.items() if name != last]
    assert all(cell.value == pytest.approx(4.67) and cell.number_format == "0.0#" for cell in winners)

    page = get(client, "standings", three_tied).content.decode()
    assert page.count('<td class="number">4.67</td>') == 3 and "4.66" not in page
    assert "6.99" not in page


@pytest.mark.parametrize(("language", "word"), [("en", "dropped"), ("es", "retirado"), ("it", "ritirato")])
def test_the_files_mark_a_dropped_player(client, three_tied, language, word):
    leaver = three_tied.players.order_by("pk").first()
    Player.objects.filter(pk=leaver.pk).update(active=False)
    with translation.override(language):
        status = translation.gettext("Status")

    rows = csv_rows(client, three_tied, language)
    column = rows[0].index(status)
    assert {row[1]: row[column] for row in rows[1:]} == {
        name: word if name == leaver.name else "" for name in three_tied.players.values_list("name", flat=True)
    }
    sheet = sheet_rows(client, three_tied, language)
    assert [row[column].value for row in sheet if row[1].value == leaver.name] == [word]
