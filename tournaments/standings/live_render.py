"""Rendering the live standings partial as seldom as the polls allow (per process; the truth stays in the database).

The HTML of one page at one standings version is kept in Django's cache (each process's own by default, one
shared by every process with CACHE_URL) and rendered by one thread while the process's others wait for it. A
process renders one page at most every ``settings.LIVE_RENDER_SECONDS``; in between, a poll that shows an older
version gets the newest this process rendered, the next poll a newer one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache

#: The default of ``settings.LIVE_RENDER_SECONDS``.
LIVE_RENDER_SECONDS = 1.0

_rendering: dict[str, threading.Lock] = {}
_rendering_guard = threading.Lock()
#: The newest partial this process rendered for each page: when, version, HTML.
_newest: dict[str, tuple[float, str, str]] = {}


def standings_number(version: str | None) -> int:
    """The stored standings' version in a live version (``12-live3``: 12); -1 for anything else."""
    number = (version or "").partition("-")[0]
    return int(number) if number.isdigit() and len(number) < 12 else -1


def rendered_once(key: str, render: Callable[[], str]) -> str:
    """The cached HTML under ``key``, rendered by ``render`` when missing, once however many threads ask at once."""
    html = cache.get(key)
    if html is not None:
        return html
    with _rendering_guard:
        lock = _rendering.setdefault(key, threading.Lock())
    try:
        with lock:
            html = cache.get(key)
            if html is None:
                html = render()
                cache.set(key, html, 600)
    finally:
        with _rendering_guard:
            _rendering.pop(key, None)
    return html


def live_partial(page: str, version: str, shown: str | None, render: Callable[[], str]) -> tuple[str, str]:
    """The version and HTML of ``page`` to send to a poll that shows version ``shown``: ``version``'s (rendered by
    ``render`` if no process has), or within the render interval the newest this process rendered."""
    key = f"{page}:{version}"
    html = cache.get(key)
    if html is not None:
        return version, html
    newest = _newest.get(page)
    if (
        newest is not None
        and time.monotonic() - newest[0] < getattr(settings, "LIVE_RENDER_SECONDS", LIVE_RENDER_SECONDS)
        and standings_number(newest[1]) > standings_number(shown)
    ):
        return newest[1], newest[2]
    html = rendered_once(key, render)
    _newest[page] = (time.monotonic(), version, html)
    return version, html


def forget() -> None:
    """Drop what this process rendered last (its events' ids may be given again, as in a test database)."""
    _newest.clear()
