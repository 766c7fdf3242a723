"""PDFs made to hurt a reader, written byte by byte: drawings nested so deep that one small page takes minutes (and
memory) to draw, a page tree that loops, pages of no width or no height."""

from __future__ import annotations


def pdf(objects: list[bytes]) -> bytes:
    """A PDF of ``objects`` (object 1 the catalogue), numbered from 1, with its cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def stream(dictionary: bytes, content: bytes) -> bytes:
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"


def one_page(page: bytes, *others: bytes) -> bytes:
    """A PDF of one page (object 3, ``page`` its dictionary's entries) and ``others`` from object 4 on."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R " + page + b" >>",
            *others,
        ]
    )


def nested_drawings(depth: int, copies: int = 10) -> bytes:
    """An A4 page that draws a drawing that draws ``copies`` times the drawing below it, ``depth`` times over: one
    filled square ``copies ** depth`` times, from a file of a few kilobytes."""
    first = 4
    forms = [stream(b"/Type /XObject /Subtype /Form /BBox [0 0 10 10]", b"0 0 10 10 re f")]
    for level in range(1, depth + 1):
        below = b"/F%d" % (level - 1)
        draws = b" ".join(b"q 0.9 0 0 0.9 %d %d cm %s Do Q" % (i % 3, i % 5, below) for i in range(copies))
        resources = b"/Resources << /XObject << %s %d 0 R >> >>" % (below, first + level - 1)
        forms.append(stream(b"/Type /XObject /Subtype /Form /BBox [0 0 10 10] " + resources, draws))
    top = first + depth
    page = b"/MediaBox [0 0 595 842] /Resources << /XObject << /F%d %d 0 R >> >> /Contents %d 0 R" % (
        depth,
        top,
        top + 1,
    )
    content = stream(b"", b"q 50 0 0 50 20 20 cm /F%d Do Q" % depth)
    return one_page(page, *forms, content)


def looping_page_tree() -> bytes:
    """A PDF whose page tree's node holds a node that holds the first again."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>",
        ]
    )


def page_of(width: float, height: float) -> bytes:
    """A PDF of one empty page ``width`` by ``height`` points."""
    return one_page(
        b"/MediaBox [0 0 %s %s] /Contents 4 0 R" % (str(width).encode(), str(height).encode()), stream(b"", b"")
    )


def slow_shading(depth: int, copies: int = 10, steps: int = 100) -> bytes:
    """An A4 page whose drawing draws ``copies`` times the one below it, ``depth`` times over, down to a shading
    whose grey is worked out for each of its pixels by a program of ``steps`` steps: seconds of drawing for each
    shading (minutes at two levels), in little memory."""
    program = b"{ add 20 div " + b"dup mul 0.5 add 2 div " * steps + b"}"
    function = stream(b"/FunctionType 4 /Domain [0 10 0 10] /Range [0 1]", program)
    shading = b"<< /ShadingType 1 /ColorSpace /DeviceGray /Domain [0 10 0 10] /Function 4 0 R >>"
    bbox = b"/Type /XObject /Subtype /Form /BBox [0 0 10 10] "
    forms = [stream(bbox + b"/Resources << /Shading << /Sh0 5 0 R >> >>", b"/Sh0 sh")]
    for level in range(1, depth + 1):
        below = b"/F%d" % (level - 1)
        resources = b"/Resources << /XObject << %s %d 0 R >> >>" % (below, 6 + level - 1)
        forms.append(stream(bbox + resources, b" ".join(b"q %s Do Q" % below for _copy in range(copies))))
    top = 6 + depth
    page = b"/MediaBox [0 0 595 842] /Resources << /XObject << /F%d %d 0 R >> >> /Contents %d 0 R" % (
        depth,
        top,
        top + 1,
    )
    return one_page(page, function, shading, *forms, stream(b"", b"q 50 0 0 50 20 20 cm /F%d Do Q" % depth))
