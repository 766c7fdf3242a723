"""Paper in at an angle: a filled sheet photographed by a phone held 30 to 40 degrees off straight above, its top, a
side, its bottom or a corner the farthest from the camera, is set straight by all its corner marks in frame and read
about as well as a photo taken from straight above."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from tests import paper_letters, paper_photos
from tests.test_paper_reading import DPI, filled_page, printed
from tournaments.services.paper import Layouts, read_file

#: The side of the page farthest from the camera, in degrees clockwise from its top (``paper_photos.camera_corners``).
TOP, TOP_RIGHT, RIGHT, BOTTOM_RIGHT, BOTTOM, BOTTOM_LEFT, LEFT, TOP_LEFT = range(0, 360, 45)
#: How much lower than a straight photo's the share of filled boxes read right may be in a photo at an angle.
MARGIN = 0.03
#: The photos are taken with numbers of their own (a test's seed and this), the same whatever filling the sheet drew.
CAMERA_SEED = 1000


def marks_in_frame(photo: paper_photos.Photo, layout, page_height: int) -> int:
    """How many of the sheet's corner marks are whole inside the photo."""
    width, height = Image.open(io.BytesIO(photo.jpeg)).size
    scale = DPI / paper_photos.POINT
    inside = 0
    for mark in layout.marks:
        corners = [(x * scale, page_height - y * scale) for x, y in mark.corners()]
        where = paper_photos.apply(photo.transform, corners)
        inside += bool((where >= 0).all() and (where[:, 0] < width).all() and (where[:, 1] < height).all())
    return inside


def right_share(found, on_page: dict, values: dict) -> float:
    """The share of the filled boxes of the sheets found that are read right."""
    filled = right = 0
    for _page, sheet in found:
        table = sheet.layout.table
        sheet_filled, sheet_right, _empty, _wrong = paper_letters.misreads(sheet, on_page[table], values[table])
        filled, right = filled + sheet_filled, right + sheet_right
    return right / filled


@pytest.mark.parametrize(
    ("game", "fields", "seed", "shots"),
    [
        ("vegetables", {"manches_per_round": 3}, 51, [(30, TOP), (35, RIGHT), (40, BOTTOM_LEFT)]),
        ("veggies", {}, 52, [(30, BOTTOM), (35, TOP_LEFT), (40, RIGHT)]),
        ("snack-match", {}, 53, [(30, LEFT), (35, BOTTOM_RIGHT), (40, TOP)]),
        ("cheese-rescue", {}, 54, [(30, TOP_RIGHT), (35, BOTTOM), (40, LEFT)]),
    ],
)
def test_a_photo_at_an_angle_is_set_straight_by_its_corner_marks(make_event, game, fields, seed, shots):
    hand, camera = np.random.default_rng(seed), np.random.default_rng(seed + CAMERA_SEED)
    event, pdf, layouts = printed(make_event, game, **fields)
    picture, on_page, values = filled_page(pdf, layouts, 0, hand)
    straight = read_file(paper_photos.phone_photo(picture, camera, tilt=0.0).jpeg, "straight.jpg", Layouts(event))
    assert sorted(sheet.layout.table for _page, sheet in straight) == sorted(on_page)
    expected = right_share(straight, on_page, values)

    for tilt, away in shots:
        photo = paper_photos.phone_photo(picture, camera, tilt=tilt, away=away)

        found = read_file(photo.jpeg, f"tilted-{tilt}-{away}.jpg", Layouts(event))

        assert sorted(sheet.layout.table for _page, sheet in found) == sorted(on_page), (tilt, away)
        for _page, sheet in found:
            in_frame = marks_in_frame(photo, sheet.layout, picture.shape[0])
            assert in_frame >= 3, "the photo frames the sheet"
            assert sheet.marks_found == in_frame, (tilt, away, sheet.layout.table)
        share = right_share(found, on_page, values)
        assert share >= expected - MARGIN, f"{share:.3f} right at {tilt} degrees ({away}), {expected:.3f} straight"
