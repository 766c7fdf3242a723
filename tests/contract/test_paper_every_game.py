"""Paper in for every registered game, the real ones and those of ``tests/games/``: a table's printed score sheet has
read boxes for every player, drawn where its layout says; filled in by hand and photographed by a phone, it is read
back by the desk's reader box by box as it was written. Nothing here names a game."""

from __future__ import annotations

import base64
import hashlib

import numpy as np
import pytest
from django.urls import reverse

from tests import paper_letters, paper_photos
from tests.contract.test_every_game import KEYS, NAMES, set_up, table_size
from tests.factories import seat_by_hand
from tests.test_sheet_layout import DPI as LAYOUT_DPI
from tests.test_sheet_layout import check_against_picture
from tournaments import games
from tournaments.models import Event, Round
from tournaments.printing.boxes import TABLE
from tournaments.printing.common import page_size
from tournaments.printouts.sheets import round_with_seats, sheet_layouts
from tournaments.services.paper import Layouts, read_file

pytestmark = pytest.mark.django_db

#: Pages are drawn at this resolution before the phone photographs them, as the benchmark does.
DPI = 300
#: One seed for every game, the benchmark's own: the same handwriting and the same photo whatever else runs.
SEED = 1
#: The reader is not perfect on synthetic handwriting: the benchmark asks, over many photos, 97 % of the filled boxes
#: right and fewer than 1 in 200 wrong without being marked unsure. One photo of one table is held to: at most this
#: share of its filled boxes wrong (one at least, so a sheet of a dozen boxes is not failed by one digit), no empty box
#: read as written, at most one box in 200 filled ones (one at least) wrong and not unsure, every sure field right.
WRONG_SHARE = 0.05


def seated_as_listed(client, event: Event, players: int) -> Round:
    """``players`` players imported and seated at one table in the order listed, under a link of the game's own: the
    printed page, and so the photo, is the same in every run."""
    client.post(
        reverse("tournaments:players_import", args=[event.slug]),
        {"text": "\n".join(NAMES[:players]), "action": "confirm"},
    )
    round_ = seat_by_hand(event, 1, [list(event.players.order_by("pk").values_list("pk", flat=True))])
    token = base64.urlsafe_b64encode(hashlib.sha256(event.game.encode()).digest()[:16]).decode().rstrip("=")
    round_.tables.update(token=token)
    return round_


def table_link(table) -> str:
    return "http://testserver" + reverse("tournaments:table", args=[table.token])


@pytest.mark.parametrize("key", KEYS)
def test_a_photo_of_every_games_filled_sheet_is_read_as_written(key, organiser_client):
    game = games.get_game(key)
    event = set_up(organiser_client, game)
    round_ = seated_as_listed(organiser_client, event, table_size(game))
    printed = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]))
    assert printed.status_code == 200 and printed["Content-Type"] == "application/pdf"
    layouts = sheet_layouts(event, round_with_seats(event, 1), table_link)
    (layout,) = layouts
    players = round_.tables.get().seats.count()

    seats = {box.seat for box in layout.boxes} - {TABLE}
    assert seats == set(range(players)), "read boxes for every player (and the whole table's), and no other"
    check_against_picture(layout, paper_photos.page_picture(printed.content, layout.page, LAYOUT_DPI), page_size(event))

    rng = np.random.default_rng(SEED)
    values = paper_letters.random_values(layouts, rng)
    picture = paper_letters.fill(
        paper_photos.page_picture(printed.content, layout.page, DPI), DPI, layouts, values, rng
    )
    photo = paper_photos.phone_photo(picture, rng)

    found = read_file(photo.jpeg, "photo.jpg", Layouts(event))

    assert [(page, sheet.layout.table) for page, sheet in found] == [(None, layout.table)], "the sheet identified"
    sheet = found[0][1]
    assert sheet.marks_found >= 3
    filled, right, empty_written, wrong_sure = paper_letters.misreads(sheet, layout, values[layout.table])
    assert filled - right <= max(1, WRONG_SHARE * filled), f"{right} of {filled} filled boxes right"
    assert not empty_written, empty_written
    assert len(wrong_sure) <= max(1, filled // 200), wrong_sure
    reading, doubted = sheet.reading(), set(sheet.unsure()) | {where[0] for where in wrong_sure}
    sure = {name: value for name, value in values[layout.table].items() if name not in doubted}
    assert {name: reading[name] for name in sure} == sure, "every field the reader is sure of is right"
