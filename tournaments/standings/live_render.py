"""Rendering a live partial (a page of the standings page's, a projector page) as seldom as the polls allow; the
truth stays in the database. Pages use it through ``refresh.live_partial``.

The HTML of one page at one standings version is kept in Django's cache (without CACHE_URL, files shared by the
processes of this machine; with it, Redis shared by every machine). A poll never waits for a render: it gets the
newest rendered (or nothing), and the first poll to find the version of now missing renders it after its answer is
sent. A page is rendered at most every ``settings.LIVE_RENDER_SECONDS`` by all the processes
that share the cache. A poll told that the version of now is on its way asks again a second later.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial

from django.conf import settings
from django.core.cache import cache

from ..after_response import after_response
from ..numbers import whole_number

#: The default of ``settings.LIVE_RENDER_SECONDS``.
LIVE_RENDER_SECONDS = 1.0
#: The event a poll's answer raises on a live page when the version of now is on its way (the page asks again).
STANDINGS_PENDING = "standings-pending"
#: How long a rendered page is kept (seconds): far longer than any poll is behind.
_KEPT = 600
#: How long a process's claim to render a page keeps the others from rendering it too (seconds): longer than any
#: render, short enough that a claim left by a process that died holds nobody up for long.
_CLAIMED = 10
#: The largest stored standings' version read from a live version: nine digits, more than any evening counts.
_MAX_VERSION = 999_999_999

_rendering: dict[str, threading.Lock] = {}
_rendering_guard = threading.Lock()


def live_partial(
    page: str, version: str, shown: str | None, render: Callable[[], str], *, anew: bool = False, now: bool = False
) -> tuple[str, str | None, bool]:
    """What to send a request of ``page`` that shows version ``shown``: a version, its HTML (None: nothing to send),
    and whether ``version``'s own is on its way when it is not sent.

    ``version``'s when rendered; else the newest rendered (the same as ``shown`` or newer), and ``version``'s is
    rendered after the answer (see ``_render_soon``). A poll that finds neither gets nothing (``shown``, None) and
    ``version``'s is rendered after its answer: no poll waits for a render. Only a request that shows nothing of the
    page yet (no ``shown``, or ``anew``: a page asked for anew) renders it first; so does one that must show
    ``version`` itself (``now``: a projector sent back to its first page by a change).
    """
    key = f"{page}:{version}"
    html = cache.get(key)
    if html is not None:
        return version, html, False
    if now:
        return version, _render_now(page, key, version, render), False
    newest = cache.get(f"{page}:newest")
    if newest is not None and _standings_number(newest[1]) >= _standings_number(shown):
        html = cache.get(f"{page}:{newest[1]}")
        if html is not None:
            return newest[1], html, _render_soon(page, key, version, newest[0], render)
    if shown and not anew:
        return shown, None, _render_soon(page, key, version, 0.0, render)
    return version, _render_now(page, key, version, render), False


def _standings_number(version: str | None) -> int:
    """The stored standings' version in a live version (``12-live3``: 12); -1 for anything else."""
    number = whole_number((version or "").partition("-")[0], maximum=_MAX_VERSION)
    return -1 if number is None else number


def _rendered_once(key: str, render: Callable[[], str]) -> str:
    """The HTML under ``key``, rendered by ``render`` (the caller found it missing), once however many threads of
    this process ask at once."""
    with _rendering_guard:
        lock = _rendering.setdefault(key, threading.Lock())
    try:
        with lock:
            html = cache.get(key)
            if html is None:
                html = render()
                cache.set(key, html, _KEPT)
    finally:
        with _rendering_guard:
            _rendering.pop(key, None)
    return html


def _render_soon(page: str, key: str, version: str, newest_at: float, render: Callable[[], str]) -> bool:
    """Whether the page under ``key`` is on its way: being rendered by another thread (of any process), or claimed
    now by this one, which renders it once its answer is sent. False while the newest rendered is too recent:
    a later poll asks again."""
    if time.time() - newest_at < getattr(settings, "LIVE_RENDER_SECONDS", LIVE_RENDER_SECONDS):
        return False
    if key not in _rendering and cache.add(f"{key}:claimed", True, _CLAIMED):
        after_response(partial(_render_claimed, page, key, version, render))
    return True


def _render_now(page: str, key: str, version: str, render: Callable[[], str]) -> str:
    """Render the page under ``key`` (once however many threads of this process ask) and make it the newest."""
    html = _rendered_once(key, render)
    cache.set(f"{page}:newest", (time.time(), version), _KEPT)
    return html


def _render_claimed(page: str, key: str, version: str, render: Callable[[], str]) -> None:
    """Render a page this process claimed; when that fails, give the claim up so that another poll can take it."""
    try:
        _render_now(page, key, version, render)
    except BaseException:
        cache.delete(f"{key}:claimed")
        raise
