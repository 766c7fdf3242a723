"""Player lists and standings as organisers' spreadsheets have them: text in any of the usual encodings,
and Excel workbooks (.xlsx) read and written with openpyxl.

A workbook is a zip of XML parts that may unpack to far more than was sent. Before openpyxl reads one, the zip's
directory must show parts of a sensible size, packed no tighter than spreadsheets are, and the cells and shared
strings, counted as the XML streams past and nothing of it kept, must be within the limits (openpyxl holds a whole row
at once, however long); the reading then stops at the row, cell and time limits. What the app writes loses the
characters XML cannot hold, and its sheets get names every spreadsheet accepts.
"""

from __future__ import annotations

import csv
import io
import re
import time
import zipfile
from collections.abc import Iterable
from decimal import Decimal
from xml.parsers import expat

from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from openpyxl import Workbook, load_workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.workbook.child import INVALID_TITLE_REGEX
from openpyxl.xml.constants import MAX_COLUMN, SHEET_MAIN_NS

from .csv_export import FORMULA_STARTS

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ZIP_MAGIC = b"PK\x03\x04"

#: The largest workbook read, as sent (the import's whole request may be 2 MB).
MAX_XLSX_BYTES = 1_500_000
#: The most a workbook's parts may unpack to, together.
MAX_XLSX_UNPACKED_BYTES = 20_000_000
#: How many times its packed size a part may unpack to: a spreadsheet's rarely reach 20.
MAX_XLSX_RATIO = 100
#: Parts that unpack to less than this are not held to the ratio: a few kilobytes of repeated markup pack tightly.
RATIO_FREE_BYTES = 1_000_000
#: The most cells a sheet, and the most shared strings a workbook, may hold.
MAX_XLSX_CELLS = 100_000
#: The most cells a row may hold: as many as a spreadsheet has columns (openpyxl holds a whole row at once).
MAX_ROW_CELLS = MAX_COLUMN
#: The longest a workbook may take to read, in seconds.
MAX_XLSX_SECONDS = 5
#: How much of a part's XML is parsed at a time while its cells are counted.
CHUNK_BYTES = 64 * 1024
#: The elements counted, as expat names them: a sheet's rows and cells, and the shared strings cells point to.
ROW = f"{SHEET_MAIN_NS} row"
CELL = f"{SHEET_MAIN_NS} c"
SHARED_STRING = f"{SHEET_MAIN_NS} si"

#: Characters XML cannot hold: the control characters openpyxl refuses, lone surrogates, U+FFFE and U+FFFF.
NOT_XML = re.compile(ILLEGAL_CHARACTERS_RE.pattern + r"|[\ud800-\udfff\ufffe\uffff]")
#: The longest name a sheet may have, and the names Excel keeps for itself.
MAX_TITLE = 31
RESERVED_TITLES = frozenset({"history"})

NOT_A_WORKBOOK = _("The file is not an Excel workbook (.xlsx) that can be read.")

#: What each encoding is called in the preview, in the words of whoever saved the file.
ENCODINGS = {
    "utf-8-sig": _("UTF-8 with a byte order mark (“CSV UTF-8” from Excel)"),
    "utf-8": _("UTF-8"),
    "cp1252": _("Windows-1252 (“CSV” from Excel on Windows)"),
    "cp1250": _("Windows-1250 (“CSV” from Excel on Windows in Central Europe)"),
    "latin-1": _("Latin-1"),
    "xlsx": _("Excel workbook (.xlsx), its first sheet"),
}


class UnreadableFile(ValueError):
    """The upload is neither text nor an Excel workbook this app can read."""


def decode_text(data: bytes) -> tuple[str, str]:
    """The text of a CSV upload and the encoding it was read with: UTF-8 (with or without BOM), else
    Windows-1252, or Windows-1250 when that reads fewer signs inside words ("Ma£gorzata" is "Małgorzata"), else
    Latin-1 (which reads any bytes)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data.decode("utf-8-sig"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    read = {}
    for encoding in ("cp1252", "cp1250"):
        try:
            read[encoding] = data.decode(encoding)
        except UnicodeDecodeError:
            continue
    if read:
        encoding = min(read, key=lambda encoding: signs_inside_words(read[encoding]))
        return read[encoding], encoding
    return data.decode("latin-1"), "latin-1"


def signs_inside_words(text: str) -> int:
    """How many characters past ASCII that are not letters stand between two letters: what a text read in the wrong
    one of the Windows encodings shows ("Wi¶niewski", "Ma£gorzata"); 0 for a text read right."""
    return sum(
        1
        for before, char, after in zip(text, text[1:], text[2:], strict=False)
        if ord(char) > 127 and not char.isalpha() and before.isalpha() and after.isalpha()
    )


def is_xlsx(name: str, data: bytes) -> bool:
    return name.lower().endswith(".xlsx") or data.startswith(ZIP_MAGIC)


def packed_too_tightly(part: zipfile.ZipInfo) -> bool:
    return part.file_size > max(RATIO_FREE_BYTES, MAX_XLSX_RATIO * part.compress_size)


def check_sizes(archive: zipfile.ZipFile) -> None:
    """Refuse a workbook whose parts unpack to too much, or one packed far tighter than spreadsheets are."""
    parts = archive.infolist()
    if sum(part.file_size for part in parts) > MAX_XLSX_UNPACKED_BYTES:
        raise UnreadableFile(
            _("The file is too large once unpacked: at most %(size)d MB.")
            % {"size": MAX_XLSX_UNPACKED_BYTES // 1_000_000}
        )
    if any(packed_too_tightly(part) for part in parts):
        raise UnreadableFile(
            _("A part of the file unpacks to more than %(ratio)d times its packed size.") % {"ratio": MAX_XLSX_RATIO}
        )


def check_time(deadline: float) -> None:
    if time.monotonic() > deadline:
        raise UnreadableFile(
            _("The file takes too long to read: at most %(seconds)d seconds.") % {"seconds": MAX_XLSX_SECONDS}
        )


def too_many_cells() -> UnreadableFile:
    return UnreadableFile(_("A sheet has too many cells: at most %(count)d.") % {"count": MAX_XLSX_CELLS})


class CellCount:
    """A start-element handler for one part of a workbook: counts its cells, in all and in the current row, and its
    shared strings, refusing the workbook past the limits."""

    def __init__(self):
        self.cells = self.row_cells = self.shared_strings = 0

    def __call__(self, name: str, attributes: dict) -> None:
        if name == CELL:
            self.cells += 1
            self.row_cells += 1
            if self.row_cells > MAX_ROW_CELLS:
                raise UnreadableFile(_("A row has too many cells: at most %(count)d.") % {"count": MAX_ROW_CELLS})
            if self.cells > MAX_XLSX_CELLS:
                raise too_many_cells()
        elif name == ROW:
            self.row_cells = 0
        elif name == SHARED_STRING:
            self.shared_strings += 1
            if self.shared_strings > MAX_XLSX_CELLS:
                raise too_many_cells()


def count_cells(archive: zipfile.ZipFile, deadline: float) -> None:
    """Refuse a workbook with a part holding more cells, or more shared strings, than ``MAX_XLSX_CELLS``, or a row of
    more than ``MAX_ROW_CELLS``."""
    for part in archive.infolist():
        stream_elements(archive, part, CellCount(), deadline)


def stream_elements(archive: zipfile.ZipFile, part: zipfile.ZipInfo, start, deadline: float) -> None:
    """Call ``start`` with each element of a part as it is parsed; a part that is not XML is left to openpyxl."""
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.StartElementHandler = start
    with archive.open(part) as stream:
        try:
            while chunk := stream.read(CHUNK_BYTES):
                check_time(deadline)
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except expat.ExpatError:
            return


def sheet_as_csv(sheet, max_rows: int, deadline: float) -> str:
    """A read-only sheet's rows as CSV text, read as they are whatever size the sheet claims, within the limits."""
    sheet.reset_dimensions()
    out = io.StringIO()
    writer = csv.writer(out)
    cells = 0
    for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
        if number > max_rows:
            raise UnreadableFile(_("The sheet is too long: at most %(count)d rows.") % {"count": max_rows})
        cells += len(row)
        if cells > MAX_XLSX_CELLS:
            raise too_many_cells()
        check_time(deadline)
        writer.writerow(["" if value is None else str(value) for value in row])
    return out.getvalue()


def xlsx_as_csv(data: bytes, max_rows: int) -> str:
    """The first sheet of an Excel workbook as CSV text (at most ``max_rows`` rows), for the list reader."""
    deadline = time.monotonic() + MAX_XLSX_SECONDS
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            check_sizes(archive)
            count_cells(archive, deadline)
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            return sheet_as_csv(workbook.worksheets[0], max_rows, deadline)
        finally:
            workbook.close()
    except UnreadableFile:
        raise
    except Exception as error:  # zipfile and openpyxl raise many kinds for a file that is not a workbook
        raise UnreadableFile(NOT_A_WORKBOOK) from error


def read_upload(name: str, data: bytes, max_rows: int) -> tuple[str, str]:
    """The text of an uploaded player list and how it was read (a key of ``ENCODINGS``)."""
    if is_xlsx(name, data):
        return xlsx_as_csv(data, max_rows), "xlsx"
    return decode_text(data)


def xml_text(text: str) -> str:
    """``text`` without the characters a workbook cannot hold."""
    return NOT_XML.sub("", text)


def trimmed_title(title: str) -> str:
    return title[:MAX_TITLE].strip(" '")


def sheet_title(title: object, taken: Iterable[str] = ()) -> str:
    """``title`` as every spreadsheet accepts a sheet's name: without ``/ \\ ? * [ ] :`` and what XML cannot hold, at
    most 31 characters, no apostrophe at either end, not empty, and unlike the names ``taken`` whatever the case."""
    base = trimmed_title(" ".join(INVALID_TITLE_REGEX.sub(" ", xml_text(str(title))).split())) or str(_("Sheet"))
    used = {name.casefold() for name in taken} | RESERVED_TITLES
    name, number = base, 1
    while name.casefold() in used:
        number += 1
        suffix = f" ({number})"
        name = trimmed_title(base[: MAX_TITLE - len(suffix)]) + suffix
    return name


def add_sheet(workbook: Workbook, title: object):
    """A new sheet at the end of ``workbook``, named after ``title`` as every spreadsheet accepts."""
    return workbook.create_sheet(title=sheet_title(title, workbook.sheetnames))


#: How a number with a fraction (a shared tournament point) shows: one or two decimals, 3.5 and 34.67.
FRACTION_FORMAT = "0.0#"


def xlsx_value(value: object) -> object:
    """Numbers as numbers (whole ones as integers), text without what a workbook cannot hold."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return xml_text(str(value))


def xlsx_cell(sheet, value: object) -> WriteOnlyCell:
    """A cell of a write-only ``sheet``: numbers as numbers, fractions with one or two decimals; text that a spreadsheet
    would run as a formula is stored as text (the cell's type and quote prefix: nothing added to what it shows)."""
    value = xlsx_value(value)
    cell = WriteOnlyCell(sheet, value=value)
    if isinstance(value, float) and not value.is_integer():
        cell.number_format = FRACTION_FORMAT
    elif isinstance(value, str) and value.startswith(FORMULA_STARTS):
        cell.data_type = "s"
        cell.quotePrefix = True
    return cell


def xlsx_response(rows: Iterable[Iterable[object]], filename: str, title: object) -> HttpResponse:
    """An Excel download of ``rows`` (the first one the header) on a sheet named after ``title``, every cell made
    safe. Every workbook the app writes is made here."""
    workbook = Workbook(write_only=True)
    sheet = add_sheet(workbook, title)
    for row in rows:
        sheet.append([xlsx_cell(sheet, value) for value in row])
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = HttpResponse(buffer.getvalue(), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
