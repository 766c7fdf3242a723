"""The default printed sheet (``printing/tally.TallySheet``): each player's number of every tally field in a line of
digit boxes, read into the default table form's own paths; drawn where the layout says, and from a photo through the
desk into the table's document."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase
from django.urls import reverse
from reportlab.lib.pagesizes import A4

import scoring
from scoring.registry import TallyField
from tests import paper_photos
from tests.factories import seat_by_hand
from tests.games.high_score import GAME as HIGH_SCORE
from tests.test_printing import pages_text
from tests.test_score_sheet_pages import longest_seats
from tests.test_sheet_layout import DPI as LAYOUT_DPI
from tests.test_sheet_layout import check_against_picture
from tournaments.entry.layouts import FormState
from tournaments.entry.paths import document_from_fields
from tournaments.entry.tally import tally_form
from tournaments.models import PaperSheet, Player
from tournaments.models.rounds import RoundStatus
from tournaments.models.sheets import Via
from tournaments.printing.boxes import ANY_DIGIT, DIGIT
from tournaments.printing.common import SheetHeader, page_size
from tournaments.printing.fonts import register_fonts
from tournaments.printing.tally import TALLY_DIGITS, TallySheet
from tournaments.printouts.sheets import page_slots, round_with_seats, sheet_layouts

FIELDS = (TallyField("points", "Points", "What your cards are worth."), TallyField("bonus", "Bonus"))
#: Pages are drawn at this resolution before the phone photographs them.
DPI = 300


def table_link(table) -> str:
    return "http://testserver" + reverse("tournaments:table", args=[table.token])


def laid_out(fields, players: int) -> TallySheet:
    """The default sheet of the longest names, laid out in a whole A4 page under its header."""
    register_fonts()
    seats = longest_seats(players)
    sheet = TallySheet(fields, seats)
    slot = page_slots(A4, 1)[0]
    room = slot.room_below(SheetHeader.HEIGHT)
    assert sheet.wrap(slot.width, room)[1] <= room
    return sheet


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_has_digit_boxes_in_every_tally_row_and_none_in_the_names_or_the_total(players):
    sheet = laid_out(FIELDS, players)
    names = sheet.names
    boxes = sheet.boxes()

    assert len(boxes) == len(FIELDS) * players * TALLY_DIGITS
    for row, player, x, y, width, height in sheet.cells():
        line = sheet.cell_line(row, player, x, y, width, height)
        if row.key not in {field.key for field in FIELDS}:
            assert line is None, row.key
            continue
        assert not line.write_ins and not line.signs
        assert [(b.path, b.kind, b.place, b.allowed, b.seat, b.label, b.manche) for b in line.boxes] == [
            (f"{row.key}[{player}]", DIGIT, place, ANY_DIGIT, player, f"{names[player]} · {row.label}", None)
            for place in (2, 1, 0)
        ]
        assert [box.x for box in line.boxes] == sorted(box.x for box in line.boxes), "hundreds first"
        for box in line.boxes:
            assert x < box.x and box.x + box.width < x + width and y < box.y and box.y + box.height < y + height
    assert [box for cell in sheet.cells() if (line := sheet.cell_line(*cell)) for box in line.boxes] == boxes
    for one, other in combinations(boxes, 2):
        across = min(one.x + one.width, other.x + other.width) - max(one.x, other.x)
        up = min(one.y + one.height, other.y + other.height) - max(one.y, other.y)
        assert across <= 0.01 or up <= 0.01, (one, other)
    assert min(box.width for box in boxes) >= 16 and min(box.height for box in boxes) >= 20, "room for a digit"


def test_a_sheet_may_ask_for_fewer_digits():
    sheet = TallySheet(FIELDS[:1], longest_seats(3), digits=1)
    sheet.wrap(500, 300)

    assert [(box.path, box.place) for box in sheet.boxes()] == [("points[0]", 0), ("points[1]", 0), ("points[2]", 0)]


def test_the_boxes_are_the_default_forms_fields_and_what_is_read_is_the_document():
    names = ["Ada", "Bea", "Cyd"]
    sheet = HIGH_SCORE.sheet(None, longest_seats(3))
    sheet.wrap(500, 300)
    layout = tally_form(HIGH_SCORE.rules.tally_fields).layout(FormState(names, {}, {}))
    form_fields = [cell.name for row in layout.rows for cell in row.cells]
    read = {"scores[0]": 120, "scores[1]": 7, "scores[2]": 0}

    document = HIGH_SCORE.sheet_from_paper(names, read)

    assert list(dict.fromkeys(box.field for box in sheet.boxes())) == form_fields == list(read)
    posted = document_from_fields(((name, str(value)) for name, value in read.items()), HIGH_SCORE.entry.roots)
    assert document == {"game": HIGH_SCORE.key, "players": names, **posted}
    assert document["scores"] == [120, 7, 0]
    result = scoring.score(document, {HIGH_SCORE.key: HIGH_SCORE.rules})
    assert [player["score"] for player in result["players"]] == [120, 7, 0]


@pytest.mark.django_db
def test_tables_of_three_four_and_five_have_their_boxes_drawn_where_listed(settings, make_event, organiser_client):
    settings.EXTRA_GAMES = ["tests.games.placings"]
    event = make_event("placings", players=12, table_size=4, manches_per_round=1)
    players = list(event.players.order_by("pk"))
    for player, seat in zip(players, longest_seats(5) + longest_seats(5)[:3] + longest_seats(4)):
        Player.objects.filter(pk=player.pk).update(name=f"{seat.name} {player.pk}")
    ids = [player.pk for player in players]
    seat_by_hand(event, 1, [ids[:3], ids[3:7], ids[7:]])
    round_ = round_with_seats(event, 1)

    printed = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1])).content
    layouts = sheet_layouts(event, round_, table_link)

    assert [(layout.page, len(layout.boxes)) for layout in layouts] == [(0, 9), (1, 12), (2, 15)]
    for layout, table in zip(layouts, round_.tables.all()):
        check_against_picture(layout, paper_photos.page_picture(printed, layout.page, LAYOUT_DPI), page_size(event))
        text = "".join(pages_text(printed)[layout.page].split())
        assert all("".join(seat.player.name.split()) in text for seat in table.seats.all()), "every name printed"


@pytest.mark.django_db
def test_a_photo_of_the_default_sheet_is_saved_from_the_desk_into_the_tables_document(
    settings, make_event, organiser_client
):
    """What the reader is sure of is as written; the organiser corrects what it marks unsure, and the table's
    document holds the numbers written."""
    settings.EXTRA_GAMES = ["tests.games.high_score"]
    event = make_event("high-score", players=4, table_size=4, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()
    names = [seat.player.name for seat in table.seats.select_related("player").order_by("position")]
    printed = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1])).content
    (layout,) = sheet_layouts(event, round_with_seats(event, 1), table_link)
    part = HIGH_SCORE.demo_sheet(random.Random(3), names, event)
    written = {f"scores[{seat}]": score for seat, score in enumerate(part["scores"])}
    rng = np.random.default_rng(3)
    picture = paper_photos.fill(paper_photos.page_picture(printed, 0, DPI), DPI, [layout], {1: written}, rng)
    photo = paper_photos.phone_photo(picture, rng)

    organiser_client.post(
        reverse("tournaments:round_paper", args=[event.slug, 1]),
        {"pictures": SimpleUploadedFile("IMG_1.jpg", photo.jpeg)},
    )
    paper = PaperSheet.objects.get(table=table)
    read = {item["name"]: item["value"] for item in paper.fields}
    unsure = {item["name"] for item in paper.fields if item["unsure"]}
    assert unsure < set(written), "the sheet set straight, some fields read surely"
    assert [(item["name"], item["kind"], item["seat"]) for item in paper.fields] == [
        (name, "number", seat) for seat, name in enumerate(written)
    ]
    assert {name: read[name] for name in read if name not in unsure} == {
        name: value for name, value in written.items() if name not in unsure
    }
    corrected = {name: str(written[name] if name in unsure else read[name]) for name in read}
    with TestCase.captureOnCommitCallbacks(execute=True):
        saved = organiser_client.post(
            reverse("tournaments:paper_save", args=[event.slug, paper.pk]), {"manche": "1", **corrected}
        )

    assert saved.status_code == 302
    manche = table.manches.get(number=1)
    assert manche.entered_via == Via.PAPER
    assert manche.document["scores"] == part["scores"]
