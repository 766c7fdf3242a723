"""``manage.py read_sheets FILE...``: read photographed or scanned score sheets, one JSON line per sheet found."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from ...paper.images import PictureRefused
from ...services.paper import Layouts, read_file


class Command(BaseCommand):
    help = (
        "Read photographed or scanned score sheets (pictures or PDFs): one JSON line per sheet found, with its "
        "table token, round, manche, the document read and the paths the reader is unsure of. Nothing is stored."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", help="pictures (JPEG, PNG, ...) or PDFs")

    def handle(self, *args, files, **options):
        translation.activate("en")
        layouts = Layouts(None)
        for name in files:
            path = Path(name)
            if not path.is_file():
                raise CommandError(f"{name}: no such file.")
            try:
                found = read_file(path.read_bytes(), path.name, layouts)
            except PictureRefused as refused:
                raise CommandError(refused.message) from refused
            if not found:
                self.stderr.write(f"{name}: no score sheet found.")
            for page, sheet in found:
                table = layouts.tables[sheet.layout.link]
                for line in sheet_lines(sheet, table):
                    self.stdout.write(json.dumps({"file": name, "page": page or 1, **line}, ensure_ascii=False))


def sheet_lines(sheet, table) -> list[dict]:
    """One line per manche the sheet holds: each block's own where a sheet has a block per manche, else the table's
    one manche (None when the round plays several and the desk must be told which)."""
    names = [seat.player.name for seat in table.seats.order_by("position").select_related("player")]
    numbers = list(table.manches.values_list("number", flat=True))
    reading, unsure = sheet.reading(), set(sheet.unsure())
    by_manche: dict[int | None, dict[str, object]] = {}
    unsure_by_manche: dict[int | None, list[str]] = {}
    for reads in sheet.fields().values():
        box = reads[0].box
        manche = box.manche or (numbers[0] if len(numbers) == 1 else None)
        by_manche.setdefault(manche, {})[box.path] = reading[box.field]
        if box.field in unsure:
            unsure_by_manche.setdefault(manche, []).append(box.path)
    return [
        {
            "table": table.token,
            "table_number": table.number,
            "round": table.round.number,
            "manche": manche,
            "corner_marks": sheet.marks_found,
            "document": table.round.event.game_bundle.sheet_from_paper(names, values),
            "unsure": unsure_by_manche.get(manche, []),
        }
        for manche, values in by_manche.items()
    ]
