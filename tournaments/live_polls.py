"""How every live part of a page keeps up to date: one convention, whatever the part.

The part carries the version of what it shows and asks again every few seconds with it: ``hx-get`` of its address
with ``v=<version>``, as the ``live_poll`` template tag writes it. The answer is 204, nothing to swap, while that is
the version of now; else the part drawn again, carrying the new version. Where every viewer sees the same (the
standings, the projector's pages) the drawing is shared (``standings.live_render``); where each sees their own (the
desk's alerts, board and rounds, a clock) it is drawn for the request. A clock's version is its state: its seconds
tick in the browser (``static/js/clock.js``), and the server is asked only whether the clock was set, started,
paused or changed.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse

#: The query parameter carrying the version a part shows.
VERSION = "v"


def shown_version(request: HttpRequest) -> str:
    """The version the asking part shows ("" when it sent none: a first load)."""
    return request.GET.get(VERSION, "")


def unchanged() -> HttpResponse:
    """The answer to a part that shows the version of now: nothing to swap."""
    return HttpResponse(status=204)


def poll(request: HttpRequest, version: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """204 when the part shows ``version`` already, else what ``render`` draws for this request."""
    return unchanged() if shown_version(request) == version else render()


def poll_address(url: str, version: str, **params: object) -> str:
    """``url`` as a live part asks it: the version first, then ``params`` that have a value."""
    return f"{url}?{urlencode({VERSION: version, **{k: v for k, v in params.items() if v not in ('', None)}})}"
