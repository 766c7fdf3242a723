"""The pictures in an uploaded file: a photo (JPEG, PNG, HEIF where Pillow reads it, ...) or a scanned PDF, as
grey pages, with the limits that keep one upload from taking the laptop down."""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Iterator

import numpy
import pypdfium2
from django.utils.translation import gettext as _
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


class PictureRefused(ValueError):
    """A file that cannot be read as pictures of sheets; ``message`` says why, for the organiser."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def pages(data: bytes, name: str = "") -> Iterator[numpy.ndarray]:
    """Each page of ``data`` as a grey picture (rows of 0-255 values, the right way up by its EXIF)."""
    if len(data) > MAX_BYTES:
        raise PictureRefused(too_heavy(name))
    if data[:5] == b"%PDF-":
        yield from pdf_pages(data, name)
    else:
        yield photo(data, name)


def photo(data: bytes, name: str) -> numpy.ndarray:
    """One picture, refused when it is not one, or has more than ``MAX_PIXELS`` (a decompression bomb too)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data)) as image:
                too_large(image.width * image.height, name)
                too_small(image.width, image.height, name)
                image.load()
                upright = ImageOps.exif_transpose(image)
                return numpy.asarray(upright.convert("L"))
        except PictureRefused:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
            raise PictureRefused(many_pixels(name)) from error
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
            raise PictureRefused(
                _("%(file)s is neither a picture nor a PDF this page can read.") % {"file": name or _("The file")}
            ) from error


def pdf_pages(data: bytes, name: str) -> Iterator[numpy.ndarray]:
    """A PDF's pages drawn at ``PDF_DPI`` (fewer dots where a page would pass ``MAX_PIXELS``)."""
    try:
        document = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError as error:
        raise PictureRefused(
            _("%(file)s is not a PDF this page can read.") % {"file": name or _("The file")}
        ) from error
    try:
        if len(document) > MAX_PAGES:
            raise PictureRefused(
                _("%(file)s has %(pages)d pages; at most %(most)d are read at once.")
                % {"file": name or _("The file"), "pages": len(document), "most": MAX_PAGES}
            )
        for page in document:
            width, height = page.get_size()
            scale = min(PDF_DPI / 72, (MAX_PIXELS / max(1.0, width * height)) ** 0.5)
            bitmap = page.render(scale=scale, grayscale=True)
            yield numpy.asarray(bitmap.to_pil().convert("L"))
    finally:
        document.close()


def too_heavy(name: str) -> str:
    return _("%(file)s is larger than %(size)d MB.") % {"file": name or _("The file"), "size": MAX_BYTES // 2**20}


def too_large(pixels: int, name: str) -> None:
    if pixels > MAX_PIXELS:
        raise PictureRefused(many_pixels(name))


def too_small(width: int, height: int, name: str) -> None:
    """Refuse a picture whose longer side is under ``MIN_PICTURE_SIDE``: its sheet's boxes could not be read."""
    if max(width, height) >= MIN_PICTURE_SIDE:
        return
    size = {"file": name, "width": width, "height": height}
    if name:
        raise PictureRefused(_("The picture %(file)s is too small (%(width)d × %(height)d): photograph closer.") % size)
    raise PictureRefused(_("The picture is too small (%(width)d × %(height)d): photograph closer.") % size)


def many_pixels(name: str) -> str:
    return _("%(file)s has more than %(megapixels)d megapixels.") % {
        "file": name or _("The picture"),
        "megapixels": MAX_PIXELS // 1_000_000,
    }
