"""Sheets waiting at the desk as the reader stores them, made from a table's printed layout without a photo: the
printed sheet itself is the picture, every box read as ``values`` say, the boxes of some fields read unsure."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping

import numpy as np
from PIL import Image

from tests.paper_photos import page_picture
from tournaments.models import PaperSheet, Table
from tournaments.paper.reader import PICTURE_RESOLUTION, BoxRead, SheetRead, picture_rect
from tournaments.printing.boxes import DIGIT, TableLayout
from tournaments.printouts.sheets import round_with_seats, score_sheets_pdf, sheet_layouts
from tournaments.services import paper as reading

#: Points an inch: the printed page is drawn at the resolution the reader keeps a sheet's picture at.
POINT = 72.0


def layout_of(table: Table) -> TableLayout:
    """Where ``table``'s sheet is on the round's printed sheets."""
    event = table.round.event
    round_ = round_with_seats(event, table.round.number)
    return next(layout for layout in sheet_layouts(event, round_, lambda t: t.token) if layout.table == table.number)


def printed_picture(table: Table, layout: TableLayout) -> np.ndarray:
    """The table's printed sheet, blank, as the reader keeps its picture (its slot and corner marks, upright)."""
    event = table.round.event
    pdf = score_sheets_pdf(event, round_with_seats(event, table.round.number), lambda t: t.token)
    page = page_picture(pdf, layout.page, PICTURE_RESOLUTION * POINT)
    left, bottom, right, top = picture_rect(layout)
    page_top = page.shape[0] / PICTURE_RESOLUTION
    rows = slice(round((page_top - top) * PICTURE_RESOLUTION), round((page_top - bottom) * PICTURE_RESOLUTION))
    return page[rows, round(left * PICTURE_RESOLUTION) : round(right * PICTURE_RESOLUTION)]


def stored_sheet(
    table: Table, values: Mapping[str, object] | None = None, unsure: Iterable[str] = (), source: str = "IMG_1.jpg"
) -> PaperSheet:
    """``table``'s sheet waiting to be checked: each field (``Box.field``) read as ``values`` has it (empty when not
    given), the boxes of the fields in ``unsure`` read unsure."""
    layout = layout_of(table)
    values, unsure = values or {}, set(unsure)
    reads = [BoxRead(box, None if box.kind == DIGIT else False, 1.0, box.field in unsure) for box in layout.boxes]
    picture = printed_picture(table, layout)
    fields = reading.fields_of(SheetRead(layout, picture, reads, 4))
    for item in fields:
        if item["name"] in values:
            item["value"] = values[item["name"]]
    buffer = io.BytesIO()
    Image.fromarray(picture).save(buffer, "JPEG", quality=80)
    return PaperSheet.objects.create(
        table=table,
        picture=buffer.getvalue(),
        width=picture.shape[1],
        height=picture.shape[0],
        fields=fields,
        source=source,
        versions={str(number): version for number, version in table.manches.values_list("number", "version")},
    )
