"""The pictures in an uploaded file: a photo (JPEG, PNG, HEIF where Pillow reads it, ...) or a scanned PDF, as
grey pages, with the limits that keep one upload from taking the laptop down.

Nothing here speaks to the organiser: a file refused says why by a code and its figures (``Refused``), and the
web side words it, so that the pages can be drawn in a process of their own."""

from __future__ import annotations

import io
import math
import warnings

import numpy
import pypdfium2
from PIL import Image, ImageOps, UnidentifiedImageError
from reportlab.lib.pagesizes import A4

#: The most an uploaded file may weigh, pixels a picture may have, and pages a PDF may have.
MAX_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 40_000_000
MAX_PAGES = 100
#: A PDF's pages are drawn at this resolution (a scan's usual), fewer dots for a very large page.
PDF_DPI = 200
#: The fewest pixels a point of the sheet needs for its boxes to be read: below it a cross or a digit a few points
#: wide blurs into the paper. The smallest sheet printed is half an A4 page, as wide as the page, so a photo whose
#: longer side has fewer pixels than that width needs cannot hold a sheet.
MIN_PIXELS_PER_POINT = 1.5
MIN_PICTURE_SIDE = math.ceil(A4[0] * MIN_PIXELS_PER_POINT)

#: Why a file or a page is refused: heavier than ``MAX_BYTES``, no picture, a PDF that cannot be opened, more pages
#: than ``MAX_PAGES`` (``pages``), more pixels than ``MAX_PIXELS``, too small to hold a sheet (``width``,
#: ``height``), a page that cannot be drawn or read, a page that needs more memory than it may take.
HEAVY, NOT_PICTURE, NOT_PDF, MANY_PAGES, MANY_PIXELS, TOO_SMALL = (
    "heavy",
    "not-picture",
    "not-pdf",
    "many-pages",
    "many-pixels",
    "too-small",
)
MALFORMED, MEMORY = "malformed", "memory"


class Refused(ValueError):
    """A file or a page that cannot be read as pictures of sheets: ``code`` says why, ``details`` its figures."""

    def __init__(self, code: str, details: dict | None = None):
        super().__init__(code, details or {})
        self.code, self.details = code, details or {}


class PictureRefused(ValueError):
    """A file that cannot be read as pictures of sheets; ``message`` says why, for the organiser."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Pictures:
    """The pages of one file, each drawn as a grey picture when asked for (rows of 0-255 values, the right way up
    by its EXIF); a photo is one page. Refused at once when it weighs too much, is no picture or PDF, or has too
    many pages."""

    def __init__(self, data: bytes):
        if len(data) > MAX_BYTES:
            raise Refused(HEAVY)
        self.data = data
        self.is_pdf = data[:5] == b"%PDF-"
        self.document = None
        self.count = 1
        if self.is_pdf:
            try:
                self.document = pypdfium2.PdfDocument(data)
                self.count = len(self.document)
            except pypdfium2.PdfiumError as error:
                self.close()
                raise Refused(NOT_PDF) from error
            if self.count > MAX_PAGES:
                self.close()
                raise Refused(MANY_PAGES, {"pages": self.count})

    def page(self, index: int) -> numpy.ndarray:
        """Page ``index`` (from 0) as a grey picture."""
        if self.document is None:
            return photo(self.data)
        return pdf_page(self.document, index)

    def close(self) -> None:
        if self.document is not None:
            self.document.close()
            self.document = None


def photo(data: bytes) -> numpy.ndarray:
    """One picture, refused when it is not one, or has more than ``MAX_PIXELS`` (a decompression bomb too)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data)) as image:
                too_large(image.width * image.height)
                too_small(image.width, image.height)
                image.load()
                upright = ImageOps.exif_transpose(image)
                return numpy.asarray(upright.convert("L"))
        except Refused:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
            raise Refused(MANY_PIXELS) from error
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
            raise Refused(NOT_PICTURE) from error


def pdf_page(document: pypdfium2.PdfDocument, index: int) -> numpy.ndarray:
    """A PDF's page drawn at ``PDF_DPI`` (fewer dots where it would pass ``MAX_PIXELS``)."""
    page = document[index]
    try:
        width, height = page.get_size()
        scale = min(PDF_DPI / 72, (MAX_PIXELS / max(1.0, width * height)) ** 0.5)
        bitmap = page.render(scale=scale, grayscale=True)
        return numpy.asarray(bitmap.to_pil().convert("L"))
    finally:
        page.close()


def too_large(pixels: int) -> None:
    if pixels > MAX_PIXELS:
        raise Refused(MANY_PIXELS)


def too_small(width: int, height: int) -> None:
    """Refuse a picture whose longer side is under ``MIN_PICTURE_SIDE``: its sheet's boxes could not be read."""
    if max(width, height) < MIN_PICTURE_SIDE:
        raise Refused(TOO_SMALL, {"width": width, "height": height})
