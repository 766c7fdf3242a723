"""QR codes of printed links, from zxing-cpp's encoder (compiled, a fraction of a millisecond a code).

Codes are made at error correction level M, so a sheet's code still reads when a corner is creased or stained.
"""

from __future__ import annotations

import re

import zxingcpp
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

#: The encoder's image has 0 for a dark module and 255 for a light one; the rows here are b"1" and b"0".
AS_DIGITS = bytes.maketrans(b"\x00\xff", b"10")
DARK_RUN = re.compile(rb"1+")


def modules(url: str) -> tuple[int, bytes]:
    """The symbol of ``url``: its size n, and its rows of b"0" (light) and b"1" (dark), top row first, each
    followed by one b"0" so that no run of dark modules goes on from one row to the next."""
    symbol = zxingcpp.create_barcode(url, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    image = symbol.to_image(scale=1, add_quiet_zones=False)
    n = image.shape[0]
    flat = bytes(memoryview(image)).translate(AS_DIGITS)
    return n, b"".join(flat[row : row + n] + b"0" for row in range(0, n * n, n))


def matrix_rows(url: str) -> list[bytes]:
    """The symbol of ``url`` as rows of b"0" (light) and b"1" (dark), top row first."""
    n, flat = modules(url)
    return [flat[r * (n + 1) : r * (n + 1) + n] for r in range(n)]


def dark_spans(flat: bytes) -> list[tuple[int, int]]:
    """Where each run of dark modules starts and ends in ``modules``' rows."""
    return list(map(re.Match.span, DARK_RUN.finditer(flat)))


#: Light modules kept around a code on screen, as the standard asks.
QUIET_ZONE = 4


def svg(url: str, label: str) -> SafeString:
    """The QR code of ``url`` as an inline ``<svg role="img">`` named ``label``: one path of dark modules on a
    white square, quiet zone included, sharp at any size (safe: numbers and the escaped label only)."""
    n, flat = modules(url)
    size = n + 2 * QUIET_ZONE
    row_length = n + 1
    path = "".join(
        f"M{start % row_length + QUIET_ZONE} {start // row_length + QUIET_ZONE}h{end - start}v1h-{end - start}z"
        for start, end in dark_spans(flat)
    )
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" role="img" class="qr-code"'
        f' aria-label="{escape(label)}" shape-rendering="crispEdges" focusable="false">'
        f'<rect width="{size}" height="{size}" fill="#fff"/><path d="{path}" fill="#000"/></svg>'
    )
