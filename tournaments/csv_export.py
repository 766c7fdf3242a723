"""The CSV files the app writes: safe to open in a spreadsheet, and read with their accents by Excel.

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a formula to a spreadsheet:
a player called ``=HYPERLINK(...)`` would become a link in every organiser's copy of the standings. Such cells
get a leading ``'`` (shown by no spreadsheet, and telling it the cell is text), unless they are plain numbers
such as ``-3`` or ``12.5``, which stay numbers. Every file starts with a byte order mark so Excel reads UTF-8.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable

from django.http import HttpResponse

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def safe_cell(value: object) -> str:
    """The text of one cell, neutralised if a spreadsheet would read it as a formula."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def write_rows(out, rows: Iterable[Iterable[object]]) -> None:
    """Write ``rows`` to the file-like ``out`` as CSV, every cell made safe."""
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([safe_cell(value) for value in row])


def csv_response(rows: Iterable[Iterable[object]], filename: str) -> HttpResponse:
    """A CSV download of ``rows``, starting with the byte order mark."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write(BOM)
    write_rows(response, rows)
    return response
