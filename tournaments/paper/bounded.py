"""Pages read in a process of their own, so that whatever a file holds the web worker's time and memory stay
bounded: the process draws a page, finds its QR codes, asks the web side for their tables' layouts (the database
stays there), reads the sheets and sends them back. A page that takes longer than its time ends the process, and a
new one goes on with the next page; where the system allows it, the process cannot take more than its memory.

The process is started afresh ("spawn", as on every system) and knows nothing of Django: it answers with sheets
read and with codes for what it refused, which the web side words in the organiser's language."""

from __future__ import annotations

import multiprocessing
import os
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy
import pypdfium2

from ..printing.boxes import TableLayout
from .geometry import affine, project
from .images import MALFORMED, MEMORY, Pictures, Refused
from .reader import Code, SheetRead, codes, read_sheet

#: How far outside a picture (a share of its longer side) a point placed by another sheet's QR code may fall and still
#: be taken as in it: the code is small, so a point placed far from it drifts with the camera's tilt.
PLACING_SLACK = 0.1
#: How long an ended process is waited for before it is left to the system.
END_SECONDS = 2.0
#: A page that took longer than its time.
SLOW = "slow"

#: What the web side answers for the texts of a page's QR codes: each one's layout (None for a code of no table it
#: knows), and for each layout the other tables printed on its page.
Answer = Callable[[list[str]], tuple[list[TableLayout | None], dict[str, list[TableLayout]]]]


@dataclass
class PageRead:
    """One page as read: its number (from 1), its sheets, the tables printed beside them whose QR code it shows
    no sign of though it holds their sheet; or why it was not read (``failure``, an ``images`` code or ``SLOW``)."""

    number: int
    sheets: list[SheetRead] = field(default_factory=list)
    uncoded: list[TableLayout] = field(default_factory=list)
    failure: str | None = None
    details: dict = field(default_factory=dict)


class OutOfTime(Exception):
    """The reading's time ran out while page ``number`` was read (or before it began)."""

    def __init__(self, number: int):
        super().__init__(number)
        self.number = number


def read_page(picture: numpy.ndarray, answer: Answer) -> tuple[list[SheetRead], list[TableLayout]]:
    """The sheets whose QR code ``answer`` knows in ``picture``, read (each table once); and the tables printed
    beside them whose code was not found (``uncoded``)."""
    found = codes(picture)
    layouts, beside = answer([code.text for code in found])
    grey = picture.astype(numpy.float32)
    squares: dict[str, numpy.ndarray] = {}
    known: dict[str, tuple[Code, TableLayout]] = {}
    for code, layout in zip(found, layouts):
        if layout is not None:
            known.setdefault(layout.link, (code, layout))
    sheets = [read_sheet(grey, code, layout, squares) for code, layout in known.values()]
    return sheets, uncoded(picture, list(known.values()), beside)


def uncoded(
    picture: numpy.ndarray, known: list[tuple[Code, TableLayout]], beside: dict[str, list[TableLayout]]
) -> list[TableLayout]:
    """The tables printed on the same page as a sheet found in ``picture`` whose QR code was not found, though the
    picture holds their sheet (its four corner marks, placed by the found sheet's code): covered, folded or out of
    focus. A picture of one sheet of the page says nothing of the other."""
    found = {layout.link for _code, layout in known}
    corners = {layout.link: code.corners for code, layout in known}
    others = {
        other.link: (layout, other)
        for _code, layout in known
        for other in beside.get(layout.link, [])
        if other.link not in found
    }
    missing = []
    for placed_by, other in others.values():
        marks = project(affine(placed_by.qr.corners(), corners[placed_by.link]), [m.centre for m in other.marks])
        if holds(picture, marks):
            missing.append(other)
    return missing


def holds(picture: numpy.ndarray, points: numpy.ndarray) -> bool:
    """Whether every one of ``points`` (pixels, x and y) is in ``picture``, give or take ``PLACING_SLACK``."""
    height, width = picture.shape[:2]
    slack = PLACING_SLACK * max(height, width)
    xs, ys = points[:, 0], points[:, 1]
    return bool(
        (xs >= -slack).all() and (xs <= width + slack).all() and (ys >= -slack).all() and (ys <= height + slack).all()
    )


class Reader:
    """A process reading the pages of files, started when first needed and started again after a page ended it.
    ``page_seconds`` bounds each page, ``until`` (``time.monotonic()``) the whole reading; ``memory_bytes`` is how
    much memory the process may take beyond what it holds once started, where the system can hold it to that."""

    def __init__(self, until: float, page_seconds: float, memory_bytes: int):
        self.until, self.page_seconds, self.memory_bytes = until, page_seconds, memory_bytes
        self.process = None
        self.connection = None
        self.opened: bytes | None = None
        self.failure: str | None = None

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def pages(self, data: bytes, answer: Answer) -> Iterator[PageRead]:
        """Each page of ``data`` read, in turn. Raises ``Refused`` for a file that holds no pages to read, and
        ``OutOfTime`` when the reading's time runs out."""
        count = self.open(data, 1)
        for index in range(count):
            if time.monotonic() >= self.until:
                raise OutOfTime(index + 1)
            if self.opened is not data:
                self.open(data, index + 1)
            yield self.page(index, answer)

    def open(self, data: bytes, number: int) -> int:
        """Open ``data`` in the process (started if need be): its number of pages."""
        self.start(number)
        reply = self.ask(("open", data), min(self.until, time.monotonic() + self.page_seconds))
        if reply is None:
            if time.monotonic() >= self.until:
                raise OutOfTime(number)
            raise Refused(self.failure or SLOW)
        if reply[0] == "refused":
            raise Refused(reply[1], reply[2])
        self.opened = data
        return reply[1]

    def page(self, index: int, answer: Answer) -> PageRead:
        number = index + 1
        stop = min(self.until, time.monotonic() + self.page_seconds)
        question = ("page", index)
        while True:
            reply = self.ask(question, stop)
            if reply is None:
                if self.failure is None and stop >= self.until:
                    raise OutOfTime(number)
                return PageRead(number, failure=self.failure or SLOW)
            if reply[0] != "codes":
                break
            asked = time.monotonic()
            question = answer(reply[1])
            stop = min(self.until, stop + time.monotonic() - asked)
        if reply[0] == "read":
            return reply[1]
        return PageRead(number, failure=MALFORMED)

    def start(self, number: int) -> None:
        if self.process is not None:
            return
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=serve, args=(theirs, self.memory_bytes), daemon=True)
        self.process.start()
        theirs.close()
        if self.receive(self.until) is None:
            if self.failure is None:
                raise OutOfTime(number)
            raise RuntimeError("The process reading the pages did not start.")

    def ask(self, question: tuple, until: float) -> tuple | None:
        """Send ``question`` to the process and receive its answer (``receive``)."""
        try:
            self.connection.send(question)
        except OSError:
            self.end()
            self.failure = MALFORMED
            return None
        return self.receive(until)

    def receive(self, until: float) -> tuple | None:
        """The process' next message; None when it does not come before ``until`` or the process died, which is
        then ended (``failure``: None for the time, else why it died)."""
        self.failure = None
        left = until - time.monotonic()
        try:
            if left > 0 and self.connection.poll(left):
                return self.connection.recv()
        except (EOFError, OSError):
            self.failure = MALFORMED
        self.end()
        return None

    def end(self) -> None:
        """End the process now, whatever it is doing."""
        if self.process is None:
            return
        self.process.kill()
        self.process.join(END_SECONDS)
        self.connection.close()
        self.process = self.connection = self.opened = None

    def close(self) -> None:
        """Let the process finish by itself (its pipe closed), ended if it does not."""
        if self.process is None:
            return
        self.connection.close()
        self.process.join(END_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(END_SECONDS)
        self.process = self.connection = self.opened = None


def serve(connection, memory_bytes: int) -> None:
    """The reading process: opens the files and reads the pages the web side asks for, until its pipe closes."""
    hold_memory(memory_bytes)
    connection.send(("ready",))
    pictures = None

    def answer(texts: list[str]):
        connection.send(("codes", texts))
        return connection.recv()

    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message[0] == "open":
            if pictures is not None:
                pictures.close()
            pictures, reply = opened(message[1])
        else:
            reply = ("read", page_read(pictures, message[1], answer))
        connection.send(reply)


def opened(data: bytes) -> tuple[Pictures | None, tuple]:
    try:
        pictures = Pictures(data)
    except Refused as refused:
        return None, ("refused", refused.code, refused.details)
    except MemoryError:
        return None, ("refused", MEMORY, {})
    return pictures, ("opened", pictures.count)


def page_read(pictures: Pictures, index: int, answer: Answer) -> PageRead:
    """Page ``index`` drawn and read, or why it was not: what a malformed page makes the libraries raise is told as
    such, with the trace for the web side's log (anything else ends the process, which says as much)."""
    number = index + 1
    try:
        sheets, missing = read_page(pictures.page(index), answer)
    except Refused as refused:
        return PageRead(number, failure=refused.code, details=refused.details)
    except MemoryError:
        return PageRead(number, failure=MEMORY)
    except (ValueError, ArithmeticError, pypdfium2.PdfiumError):
        return PageRead(number, failure=MALFORMED, details={"trace": traceback.format_exc(limit=8)})
    return PageRead(number, sheets, missing)


def read_here(data: bytes, answer: Answer) -> Iterator[PageRead]:
    """Each page of ``data`` read in this process, without bounds: for a file at hand (a command's, a test's).
    Raises ``Refused`` for a file that holds no pages to read."""
    pictures = Pictures(data)
    try:
        for index in range(pictures.count):
            yield page_read(pictures, index, answer)
    finally:
        pictures.close()


def hold_memory(extra: int) -> bool:
    """Hold this process to ``extra`` bytes more address space than it has, where the system allows it (POSIX with
    ``/proc``); whether it is held."""
    try:
        import resource
    except ImportError:
        return False
    try:
        with open("/proc/self/statm") as statm:
            size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = size + extra if hard == resource.RLIM_INFINITY else min(size + extra, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (OSError, ValueError, IndexError):
        return False
    return True
