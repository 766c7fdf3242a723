"""Rendering the live standings partial as seldom as the polls allow (the truth stays in the database).

The HTML of one page at one standings version is kept in Django's cache (without CACHE_URL, files shared by the
processes of this machine; with it, Redis shared by every machine) and rendered by one thread of a process while
its others wait for it. A page is rendered at most every ``settings.LIVE_RENDER_SECONDS`` by all the processes
that share the cache; in between, and while a thread of any of them renders it, a poll that shows an older version
gets the newest rendered, the next poll a newer one.
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
#: How long a rendered page is kept (seconds): far longer than any poll is behind.
KEPT = 600
#: How long a process's claim to render a page keeps the others from rendering it too (seconds): longer than any
#: render, short enough that a claim left by a process that died holds nobody up for long.
CLAIMED = 10


def standings_number(version: str | None) -> int:
    """The stored standings' version in a live version (``12-live3``: 12); -1 for anything else."""
    number = (version or "").partition("-")[0]
    return int(number) if number.isdigit() and len(number) < 12 else -1


def rendered_once(key: str, render: Callable[[], str]) -> str:
    """The HTML under ``key``, rendered by ``render`` (the caller found it missing), once however many threads of
    this process ask at once."""
    with _rendering_guard:
        lock = _rendering.setdefault(key, threading.Lock())
    try:
        with lock:
            html = cache.get(key)
            if html is None:
                html = render()
                cache.set(key, html, KEPT)
    finally:
        with _rendering_guard:
            _rendering.pop(key, None)
    return html


def claimed(key: str, newest_at: float) -> bool:
    """Whether the page under ``key`` is left to be rendered later or by another thread (of any process); when not,
    the caller has claimed it and renders it."""
    if time.time() - newest_at < getattr(settings, "LIVE_RENDER_SECONDS", LIVE_RENDER_SECONDS) or key in _rendering:
        return True
    return not cache.add(f"{key}:claimed", True, CLAIMED)


def live_partial(page: str, version: str, shown: str | None, render: Callable[[], str]) -> tuple[str, str]:
    """The version and HTML of ``page`` to send to a poll that shows version ``shown``: ``version``'s (rendered by
    ``render`` if nobody has), or the newest rendered when the poll shows an older one and ``version``'s is left
    to later or to another thread."""
    key = f"{page}:{version}"
    html = cache.get(key)
    if html is not None:
        return version, html
    newest = cache.get(f"{page}:newest")
    if newest is not None and standings_number(newest[1]) > standings_number(shown) and claimed(key, newest[0]):
        html = cache.get(f"{page}:{newest[1]}")
        if html is not None:
            return newest[1], html
    html = rendered_once(key, render)
    cache.set(f"{page}:newest", (time.time(), version), KEPT)
    return version, html
