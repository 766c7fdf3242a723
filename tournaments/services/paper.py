"""Paper in: the pictures an organiser uploads are read into sheets waiting to be checked, and a checked sheet is
saved as the organiser's entry from paper, its picture kept with the change."""

from __future__ import annotations

import io
import logging
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import numpy
from django.db import transaction
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from PIL import Image

import scoring

from ..games.problems import translated
from ..models import Event, PaperSheet, Table
from ..models.sheets import PAPER_COPY_BYTES, Via
from ..numbers import whole_number
from ..paper.bounded import SLOW, OutOfTime, PageRead, Reader, read_here
from ..paper.images import (
    HEAVY,
    MALFORMED,
    MANY_PAGES,
    MANY_PIXELS,
    MAX_BYTES,
    MAX_PAGES,
    MAX_PIXELS,
    MEMORY,
    NOT_PDF,
    TOO_SMALL,
    PictureRefused,
    Refused,
)
from ..paper.reader import SheetRead
from ..printing.boxes import DIGIT, LETTER, MARK, TableLayout
from ..printouts.sheets import round_with_seats, sheet_layouts
from .audit import Author
from .sheets import NoSuchManche, StaleSheet, record_table_sheet, with_event_fields
from .tables import table_by_id

logger = logging.getLogger(__name__)

#: How long one upload may read before it answers with what it has (the app server stops a request at 60 s), and
#: one page of it before the process reading it is ended and the next page read: an upload answers within their sum.
READING_SECONDS = 40
PAGE_SECONDS = 15
#: How much memory a page may take to be drawn and read (where the system can hold its process to it): a picture of
#: ``MAX_PIXELS`` takes about a third of it.
PAGE_MEMORY_BYTES = 2**30


@dataclass
class Upload:
    """What reading some files gave: the sheets found (stored, waiting to be checked) and what to tell."""

    sheets: list[PaperSheet] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def table_token(text: str) -> str | None:
    """The token of the table link a QR code carries, or None for any other text."""
    try:
        match = resolve(urlsplit(text).path)
    except Resolver404:
        return None
    return match.kwargs.get("token") if match.url_name == "table" else None


class Layouts:
    """The layouts of the tables a reading meets, each round laid out once; only ``event``'s tables when given
    (``elsewhere``: whether a code of another event's table was met; which event is not told)."""

    def __init__(self, event: Event | None):
        self.event = event
        self.rounds: dict[int, dict[int, TableLayout]] = {}
        self.tables: dict[str, Table] = {}
        self.elsewhere = False

    def __call__(self, text: str) -> TableLayout | None:
        token = table_token(text)
        table = Table.objects.select_related("round__event").filter(token=token).first() if token else None
        if table is None:
            return None
        event = table.round.event
        if self.event is not None and event.pk != self.event.pk:
            self.elsewhere = True
            return None
        if table.round_id not in self.rounds:
            round_ = round_with_seats(event, table.round.number)
            laid = sheet_layouts(event, round_, lambda t: t.token)
            self.rounds[table.round_id] = {layout.table: layout for layout in laid}
        self.tables[table.token] = table
        return self.rounds[table.round_id].get(table.number)

    def printed_with(self, layout: TableLayout) -> list[TableLayout]:
        """The other tables printed on the same page of the round's sheets as ``layout``'s (met by this reading)."""
        table = self.tables[layout.link]
        return [
            other
            for other in self.rounds[table.round_id].values()
            if other.page == layout.page and other.link != layout.link
        ]

    def answer(self, texts: list[str]) -> tuple[list[TableLayout | None], dict[str, list[TableLayout]]]:
        """What a page's reading asks for the texts of its QR codes: each one's layout (None for no table here),
        and the tables printed beside each."""
        known = {text: self(text) for text in dict.fromkeys(texts)}
        found = [known[text] for text in texts]
        return found, {layout.link: self.printed_with(layout) for layout in found if layout is not None}


def read_files(event: Event, files: Iterable, user) -> Upload:
    """Read every uploaded file (``name`` and ``read()``): each sheet found is stored as a PaperSheet waiting to be
    checked; each file that holds none, is refused, or has a page that could not be read, says why. The pages are
    read in a process of their own, each within ``PAGE_SECONDS`` and all within ``READING_SECONDS``."""
    upload = Upload()
    layouts = Layouts(event)
    deadline = time.monotonic() + READING_SECONDS
    hidden: list[tuple[TableLayout, str]] = []
    with Reader(deadline, PAGE_SECONDS, PAGE_MEMORY_BYTES) as reader:
        for upload_file in files:
            name = getattr(upload_file, "name", "") or _("The file")
            if time.monotonic() >= deadline:
                upload.problems.append(not_read(name))
                continue
            if (getattr(upload_file, "size", 0) or 0) > MAX_BYTES:
                upload.problems.append(refusal(HEAVY, {}, name))
                continue
            data = upload_file.read()
            layouts.elsewhere = False
            told, stored = len(upload.problems), len(upload.sheets)
            try:
                for page, read in sources(reader.pages(data, layouts.answer), name, is_pdf(data), upload.problems):
                    upload.sheets += [
                        store(sheet, layouts.tables[sheet.layout.link], page, user) for sheet in read.sheets
                    ]
                    hidden += [(layout, page) for layout in read.uncoded]
            except Refused as refused:
                upload.problems.append(refusal(refused.code, refused.details, name))
            except OutOfTime as late:
                upload.problems.append(cut_short(name, late.number, is_pdf(data)))
            if len(upload.sheets) == stored and len(upload.problems) == told:
                upload.problems.append(nothing_found(name, layouts))
    upload.problems += codes_not_found(hidden, {paper.table.token for paper in upload.sheets})
    return upload


def is_pdf(data: bytes) -> bool:
    return data[:5] == b"%PDF-"


def sources(pages: Iterable[PageRead], name: str, pdf: bool, problems: list[str]) -> Iterator[tuple[str, PageRead]]:
    """The pages read, each with where it was read (``source_of``); why each other page was not read, told."""
    for read in pages:
        source = source_of(name, read.number if pdf else None)
        if read.failure is None:
            yield source, read
            continue
        if read.failure == MALFORMED:
            logger.warning("%s could not be read: %s", source, read.details.get("trace", "its process died"))
        problems.append(refusal(read.failure, read.details, name, source))


def source_of(name: str, page: int | None) -> str:
    """Where a sheet was read: the file, and its page in a PDF."""
    return name if page is None else _("%(file)s, page %(page)d") % {"file": name, "page": page}


def read_file(
    data: bytes,
    name: str,
    layouts: Layouts,
    hidden: list[tuple[TableLayout, str]] | None = None,
    problems: list[str] | None = None,
) -> list[tuple[int | None, SheetRead]]:
    """The sheets on each page of one file at hand, read in this process without bounds (a command's, a test's),
    with their page number (None for a single picture). ``hidden`` gets the tables printed beside a sheet found
    whose QR code the picture shows no sign of, with where they were missed; ``problems`` why a page was not read
    (without it, PictureRefused says it). Raises PictureRefused for a file that holds no pages to read."""
    found = []
    told: list[str] = []
    try:
        for source, read in sources(read_here(data, layouts.answer), name, is_pdf(data), told):
            found += [(read.number if is_pdf(data) else None, sheet) for sheet in read.sheets]
            if hidden is not None:
                hidden += [(layout, source) for layout in read.uncoded]
    except Refused as refused:
        raise PictureRefused(refusal(refused.code, refused.details, name)) from refused
    if told and problems is None:
        raise PictureRefused(told[0])
    (problems if problems is not None else []).extend(told)
    return found


def refusal(code: str, details: dict, name: str, source: str | None = None) -> str:
    """What to tell of a file (``name``) refused, or of a page of it (``source``) that could not be read."""
    file = name or _("The file")
    source = source or file
    if code == HEAVY:
        return _("%(file)s is larger than %(size)d MB.") % {"file": file, "size": MAX_BYTES // 2**20}
    if code == NOT_PDF:
        return _("%(file)s is not a PDF this page can read.") % {"file": file}
    if code == MANY_PAGES:
        return _("%(file)s has %(pages)d pages; at most %(most)d are read at once.") % {
            "file": file,
            "pages": details["pages"],
            "most": MAX_PAGES,
        }
    if code == MANY_PIXELS:
        return _("%(file)s has more than %(megapixels)d megapixels.") % {
            "file": name or _("The picture"),
            "megapixels": MAX_PIXELS // 1_000_000,
        }
    if code == TOO_SMALL:
        size = {"file": name, "width": details["width"], "height": details["height"]}
        if name:
            return _("The picture %(file)s is too small (%(width)d × %(height)d): photograph closer.") % size
        return _("The picture is too small (%(width)d × %(height)d): photograph closer.") % size
    if code == SLOW:
        return _("%(source)s could not be read: it took longer than %(seconds)d seconds.") % {
            "source": source,
            "seconds": PAGE_SECONDS,
        }
    if code == MEMORY:
        return _("%(source)s could not be read: it needs more memory than a page may take.") % {"source": source}
    if code == MALFORMED:
        return _("%(source)s could not be read: it is damaged, or drawn in a way this page cannot read.") % {
            "source": source
        }
    return _("%(file)s is neither a picture nor a PDF this page can read.") % {"file": file}


def not_read(name: str) -> str:
    return _("%(file)s was not read: there was no time left. Add it again.") % {"file": name}


def cut_short(name: str, number: int, pdf: bool) -> str:
    """What to tell of a file whose reading's time ran out at page ``number``."""
    if not pdf or number <= 1:
        return not_read(name)
    return _("%(file)s was read up to page %(page)d: there was no time left. Add its other pages again.") % {
        "file": name,
        "page": number - 1,
    }


def codes_not_found(hidden: list[tuple[TableLayout, str]], read: set[str]) -> list[str]:
    """What to tell of the tables whose QR code was not found beside another's, each once, unless read elsewhere."""
    first = {}
    for layout, source in hidden:
        if layout.link not in read:
            first.setdefault(layout.link, (layout.table, source))
    return [
        _("Table %(table)d's QR code was not found on this page (%(source)s): photograph it again.")
        % {"table": table, "source": source}
        for table, source in first.values()
    ]


def nothing_found(name: str, layouts: Layouts) -> str:
    if layouts.elsewhere:
        return _("%(file)s is a sheet of another event: nothing was read.") % {"file": name}
    return _(
        "No score sheet of this event was found in %(file)s. Photograph the whole sheet, its QR code and its four "
        "black corner squares in the picture, flat and in good light."
    ) % {"file": name}


def jpeg(picture: numpy.ndarray) -> bytes:
    """The sheet's picture as a JPEG of at most ``PAPER_COPY_BYTES``."""
    image = Image.fromarray(picture)
    for quality in (70, 55, 40, 30):
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=quality, optimize=True)
        if buffer.tell() <= PAPER_COPY_BYTES:
            return buffer.getvalue()
        image = image.resize((image.width * 3 // 4, image.height * 3 // 4))
    return buffer.getvalue()


def store(sheet: SheetRead, table: Table, source: str, user) -> PaperSheet:
    versions = dict(table.manches.values_list("number", "version"))
    names = [seat.player.name for seat in table.seats.order_by("position").select_related("player")]
    fields = doubted_by_the_rules(fields_of(sheet), table.round.event, names, min(versions, default=1))
    return PaperSheet.objects.create(
        table=table,
        picture=jpeg(sheet.picture),
        width=sheet.picture.shape[1],
        height=sheet.picture.shape[0],
        fields=fields,
        source=source[:200],
        versions={str(number): version for number, version in versions.items()},
        read_by=user if getattr(user, "is_authenticated", False) else None,
    )


def paper_document(event: Event, names: list[str], paths: Mapping[str, object]) -> dict:
    """A manche's document from a paper sheet's fields (by path), in the event's variant (as the table's form sends
    it: a special diet's zones are scored as its grids)."""
    return {**event.game_bundle.sheet_from_paper(names, paths), "variant": event.effective_variant}


def doubted_by_the_rules(fields: list[dict], event: Event, names: list[str], first: int) -> list[dict]:
    """``fields`` with those the rules object to marked unsure too, so that a misread the rules catch is looked at
    before saving (``first``: the manche a one-manche sheet is taken for, only to check it)."""
    values = {item["name"]: item["value"] for item in fields}
    fake = PaperSheet(fields=fields)
    for number, paths in by_manche(fake, values, first).items():
        document = with_event_fields(event, paper_document(event, names, paths))
        try:
            scoring.score(document)
        except scoring.ScoreSheetError as error:
            for name in placed_errors(fake, number, error.problems):
                for item in fields:
                    if item["name"] == name:
                        item["unsure"] = item["doubted"] = True
    return fields


def fields_of(sheet: SheetRead) -> list[dict]:
    """The form's fields as read, for ``PaperSheet.fields``."""
    reading = sheet.reading()
    order = {id(read): index for index, read in enumerate(sheet.boxes)}
    fields = []
    for name, reads in sheet.fields().items():
        first = reads[0].box
        kind = field_kind(first)
        fields.append(
            {
                "name": name,
                "path": first.path,
                "manche": first.manche,
                "seat": first.seat,
                "label": first.label,
                "kind": kind,
                "value": reading[name],
                "unsure": any(read.unsure for read in reads),
                "boxes": [
                    {
                        "order": order[id(read)],
                        "at": [round(v, 1) for v in sheet.box_in_picture(read.box)],
                        "value": read.box.value,
                        "label": read.box.label,
                        "marked": bool(read.value) if read.box.kind == MARK else None,
                        "unsure": read.unsure,
                    }
                    for read in reads
                ],
            }
        )
        if first.kind == LETTER:
            fields[-1]["choices"] = first.choices()
    return fields


def field_kind(box) -> str:
    """How the form shows a field whose first box is ``box``: a number, a letter, a choice of ticks or a count."""
    return {DIGIT: "number", LETTER: "letter"}.get(box.kind) or ("choice" if box.value else "count")


class PaperRefused(Exception):
    """A checked sheet that cannot be saved; ``errors`` maps a field's name (or "" for the sheet) to messages."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__(errors)
        self.errors = errors


def posted_values(paper: PaperSheet, posted) -> tuple[dict[str, object], dict[str, list[str]]]:
    """Each field's value as the organiser left it (``posted``: a QueryDict), and the fields that hold no number
    (their text kept as typed, to be shown again)."""
    values: dict[str, object] = {}
    errors: dict[str, list[str]] = {}
    for item in paper.fields:
        name = item["name"]
        if item["kind"] == "choice":
            values[name] = chosen_values([box["value"] for box in item["boxes"]], posted.getlist(name))
            continue
        text = (posted.get(name) or "").strip()
        if item["kind"] == "letter":
            values[name] = text or None
            if text and text not in {meant for _written, meant in item.get("choices") or []}:
                errors[name] = [_("Choose one of the letters this box allows, or leave it empty.")]
        elif not text:
            values[name] = None
        elif text.isascii() and text.isdigit() and len(text) <= 3:
            values[name] = int(text)
        else:
            values[name] = text
            errors[name] = [_("Write a whole number, or leave the box empty.")]
    return values, errors


def chosen_values(allowed: list[str], chosen: list[str]) -> list[str]:
    """The ticked values the sheet has boxes for, each at most as often as it has boxes (three 1s of cheese)."""
    left = Counter(allowed)
    kept = []
    for value in chosen:
        if left[value] > 0:
            left[value] -= 1
            kept.append(value)
    return kept


def by_manche(paper: PaperSheet, values: Mapping[str, object], chosen: int | None) -> dict[int, dict[str, object]]:
    """The fields' values grouped by the manche they fill: a block's own manche where a sheet has a block per
    manche, else ``chosen``; manches where nothing was written are left out."""
    grouped: dict[int, dict[str, object]] = {}
    for item in paper.fields:
        number = item["manche"] or chosen
        if number is not None:
            grouped.setdefault(number, {})[item["path"]] = values.get(item["name"])
    return {number: paths for number, paths in grouped.items() if any(written(v) for v in paths.values())}


def written(value: object) -> bool:
    return bool(value) or value == 0


def save_paper_sheet(paper: PaperSheet, values: Mapping[str, object], chosen: int | None, user) -> list[int]:
    """Store the checked sheet as the organiser's entry from paper, each of its manches at once or none; returns
    the manches saved. Raises PaperRefused with the rules' messages at their fields, or when a manche changed
    since the sheet was read (a phone saved it meanwhile: nothing is overwritten)."""
    at = table_by_id(paper.table_id)
    if chosen is None and any(item["manche"] is None for item in paper.fields):
        raise PaperRefused({"manche": [_("Choose the game this sheet is for.")]})
    groups = by_manche(paper, values, chosen)
    if not groups:
        raise PaperRefused({"": [_("Nothing is written on this sheet yet.")]})
    author = Author(via=Via.PAPER, user=user)
    picture = bytes(paper.picture)
    with transaction.atomic():
        for number, paths in groups.items():
            document = paper_document(at.event, at.names, paths)
            based_on = paper.versions.get(str(number), 0)
            try:
                record_table_sheet(at, number, document, based_on=based_on, author=author, paper=picture)
            except scoring.ScoreSheetError as error:
                raise PaperRefused(placed_errors(paper, number, error.problems)) from error
            except StaleSheet as stale:
                raise PaperRefused({"": [changed_meanwhile(at, number)]}) from stale
            except NoSuchManche as missing:
                raise PaperRefused(
                    {"": [_("Table %(table)d has no game %(number)d.") % {"table": at.table.number, "number": number}]}
                ) from missing
        paper.delete()
    return sorted(groups)


def changed_meanwhile(at, number: int) -> str:
    return _(
        "Table %(table)d · game %(number)d was saved by someone else after this sheet was read: nothing was "
        "overwritten. Compare the two on the table's page, then correct it there."
    ) % {"table": at.table.number, "number": number}


def placed_errors(paper: PaperSheet, number: int, problems) -> dict[str, list[str]]:
    """The rules' messages at the fields whose path they point at, under or inside, else at the sheet."""
    fields = [item for item in paper.fields if (item["manche"] or number) == number]
    errors: dict[str, list[str]] = {}
    for problem in problems:
        target = next((item["name"] for item in fields if item["path"] == problem.path), None)
        if target is None and problem.path:
            target = next((item["name"] for item in fields if item["path"].startswith(problem.path)), None)
        if target is None and problem.path:
            inside = [item for item in fields if problem.path.startswith((item["path"] + "[", item["path"] + "."))]
            target = max(inside, key=lambda item: len(item["path"]))["name"] if inside else None
        errors.setdefault(target or "", []).append(translated(problem))
    return errors


def chosen_manche(paper: PaperSheet, posted: str | None) -> int | None:
    """The manche the organiser says a one-manche sheet is for, if the table has it."""
    numbers = set(paper.table.manches.values_list("number", flat=True))
    number = whole_number(posted, maximum=max(numbers, default=0))
    return number if number in numbers else None
