"""Letter boxes in pictures of filled score sheets: what ``tests.paper_photos`` does for digit and mark boxes (values
made up, written in by hand, compared with what the reader read), done for letter boxes too.

Values are given per table as there; a letter field's value is what a perfect reader returns for it, what the
character written stands for (``Box.meaning``), or None for an empty box.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

import numpy as np

from tests import paper_photos
from tests.handwriting import font_glyph
from tournaments.printing.boxes import LETTER, Box, TableLayout

#: Share of letter boxes left empty on purpose.
EMPTY_LETTERS = 0.15


def without_letters(layout: TableLayout) -> TableLayout:
    """``layout`` with its digit and mark boxes only, as ``paper_photos`` takes them."""
    return replace(layout, boxes=[box for box in layout.boxes if box.kind != LETTER])


def letter_boxes(layout: TableLayout) -> list[Box]:
    return [box for box in layout.boxes if box.kind == LETTER]


def random_values(layouts: Iterable[TableLayout], rng: np.random.Generator) -> dict[int, dict[str, object]]:
    """``paper_photos.random_values`` for every field, a letter field's one of the characters its box allows (some
    left empty)."""
    layouts = list(layouts)
    values = paper_photos.random_values([without_letters(layout) for layout in layouts], rng)
    for layout in layouts:
        for box in letter_boxes(layout):
            character = box.allowed[int(rng.integers(len(box.allowed)))]
            values[layout.table][box.field] = None if rng.random() < EMPTY_LETTERS else box.meaning(character)
    return values


def character(box: Box, value: object) -> str | None:
    """The character written in ``box`` for the field's ``value``."""
    return next((written for written, meant in box.choices() if meant == value), None)


def fill(
    picture: np.ndarray,
    dpi: float,
    layouts_on_page: Iterable[TableLayout],
    values: Mapping[int, Mapping[str, object]],
    rng: np.random.Generator,
    writer: str = "held_out",
) -> np.ndarray:
    """``paper_photos.fill``, then each letter written in its box in a held-out handwriting font."""
    layouts = list(layouts_on_page)
    page = paper_photos.fill(picture, dpi, [without_letters(layout) for layout in layouts], values, rng, writer)
    page = page.astype(np.float32)
    scale = dpi / paper_photos.POINT
    page_top = picture.shape[0] / scale
    inset = paper_photos.WRITE_INSET
    for layout in layouts:
        boxes = letter_boxes(layout)
        pen = rng.uniform(*paper_photos.PEN_GREY) if boxes else 0.0
        for box in boxes:
            written = character(box, values[layout.table].get(box.field))
            if written is None:
                continue
            left = round((box.x + inset) * scale)
            top = round((page_top - box.y - box.height + inset) * scale)
            width = round((box.x + box.width - inset) * scale) - left
            height = round((page_top - box.y - inset) * scale) - top
            ink = font_glyph(written, width, height, rng)
            region = page[top : top + height, left : left + width]
            region *= 1.0 - ink[: region.shape[0], : region.shape[1]] * (1.0 - pen / 255.0)
    return page.clip(0, 255).astype(np.uint8)


def misreads(sheet, layout: TableLayout, values: dict) -> tuple[int, int, list, list]:
    """``paper_photos.misreads`` over every box: filled boxes, those read right, empty boxes read as written, and
    boxes read wrong without the reader marking them unsure."""
    plain = replace(sheet, boxes=[read for read in sheet.boxes if read.box.kind != LETTER])
    filled, right, empty_written, wrong_sure = paper_photos.misreads(plain, without_letters(layout), values)
    letters = [read for read in sheet.boxes if read.box.kind == LETTER]
    assert [read.box for read in letters] == letter_boxes(layout), "the letter boxes read are those printed"
    for read in letters:
        value, got = values.get(read.box.field), read.box.meaning(read.value)
        filled += value is not None
        right += value is not None and got == value
        where = (read.box.field, "", value, got, round(read.confidence, 2))
        if value is None and got is not None:
            empty_written.append(where)
        if got != value and not read.unsure:
            wrong_sure.append(where)
    return filled, right, empty_written, wrong_sure


def box_values(layout: TableLayout, values: Mapping[str, object]) -> list[tuple[Box, object]]:
    """``paper_photos.box_values`` for every box of ``layout``, in its order: a letter box holds the character
    written in it (None when empty)."""
    held = dict(paper_photos.box_values(without_letters(layout), values))
    for box in letter_boxes(layout):
        held[box] = character(box, values.get(box.field))
    return [(box, held[box]) for box in layout.boxes]
