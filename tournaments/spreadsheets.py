"""Player lists and standings as organisers' spreadsheets have them: text in any of the usual encodings,
and Excel workbooks (.xlsx) read and written with openpyxl."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from decimal import Decimal

from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from openpyxl import Workbook, load_workbook

from .csv_export import safe_cell

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ZIP_MAGIC = b"PK\x03\x04"

#: What each encoding is called in the preview, in the words of whoever saved the file.
ENCODINGS = {
    "utf-8-sig": _("UTF-8 with a byte order mark (“CSV UTF-8” from Excel)"),
    "utf-8": _("UTF-8"),
    "cp1252": _("Windows-1252 (“CSV” from Excel on Windows)"),
    "latin-1": _("Latin-1"),
    "xlsx": _("Excel workbook (.xlsx), its first sheet"),
}


class UnreadableFile(ValueError):
    """The upload is neither text nor an Excel workbook this app can read."""


def decode_text(data: bytes) -> tuple[str, str]:
    """The text of a CSV upload and the encoding it was read with: UTF-8 (with or without BOM), else
    Windows-1252, else Latin-1 (which reads any bytes)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data.decode("utf-8-sig"), "utf-8-sig"
    for encoding in ("utf-8", "cp1252", "latin-1"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise UnreadableFile(_("The file cannot be read as text."))


def is_xlsx(name: str, data: bytes) -> bool:
    return name.lower().endswith(".xlsx") or data.startswith(ZIP_MAGIC)


def xlsx_as_csv(data: bytes, max_rows: int) -> str:
    """The first sheet of an Excel workbook as CSV text (at most ``max_rows`` rows), for the list reader."""
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a file that is not a workbook
        raise UnreadableFile(_("The file is not an Excel workbook (.xlsx) that can be read.")) from error
    try:
        sheet = workbook.worksheets[0]
        out = io.StringIO()
        writer = csv.writer(out)
        for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
            if number > max_rows:
                raise UnreadableFile(_("The sheet is too long: at most %(count)d rows.") % {"count": max_rows})
            writer.writerow(["" if value is None else str(value) for value in row])
        return out.getvalue()
    finally:
        workbook.close()


def read_upload(name: str, data: bytes, max_rows: int) -> tuple[str, str]:
    """The text of an uploaded player list and how it was read (a key of ``ENCODINGS``)."""
    if is_xlsx(name, data):
        return xlsx_as_csv(data, max_rows), "xlsx"
    return decode_text(data)


def xlsx_cell(value: object) -> object:
    """Numbers stay numbers; text that a spreadsheet would run as a formula is neutralised."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return safe_cell(value)


def xlsx_response(rows: Iterable[Iterable[object]], filename: str, title: str) -> HttpResponse:
    """An Excel download of ``rows`` (the first one the header), every cell made safe."""
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=str(title)[:31])
    for row in rows:
        sheet.append([xlsx_cell(value) for value in row])
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = HttpResponse(buffer.getvalue(), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
