"""Rate limits: saves through one link and "not found" answers to one address, each past its limit answered 429."""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse
from django.utils.translation import ngettext

from ..errors import too_many_requests as too_many_requests_page
from .answers import api_error, is_api, page_alert
from .client_address import client_ip

logger = logging.getLogger(__name__)

SAVE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def rate_cache():
    """Where the counts are, one per subject and fixed window: a folder of files that the processes of one machine
    share, or with CACHE_URL a Redis server that every machine shares."""
    return caches[getattr(settings, "RATE_LIMIT_CACHE", "ratelimit")]


def window_key(kind: str, subject: str, rate: tuple[int, int], now: float) -> tuple[str, int]:
    """The cache key counting ``kind`` for ``subject`` in the window holding ``now``, and the seconds it has left."""
    seconds = rate[1]
    start = int(now // seconds) * seconds
    digest = hashlib.sha256(subject.encode()).hexdigest()[:32]
    return f"{kind}:{digest}:{seconds}:{start}", max(1, math.ceil(start + seconds - now))


def count_request(kind: str, subject: str, rate: tuple[int, int] | None, now: float | None = None) -> int:
    """Counts one more request; the seconds left in the window once past ``rate`` (requests, seconds), else 0.

    When the counts cannot be reached (the Redis server is down, the folder unwritable) the request goes through:
    an event goes on without its limits rather than without its score entry.
    """
    if not rate:
        return 0
    key, left = window_key(kind, subject, rate, time.time() if now is None else now)
    cache = rate_cache()
    try:
        cache.add(key, 0, timeout=left + 60)
        try:
            count = cache.incr(key)
            cache.touch(key, timeout=left + 60)  # the file cache's incr writes the entry with its default timeout
        except ValueError:  # gone between add and incr
            count = 1
            cache.set(key, count, timeout=left + 60)
    except Exception:
        logger.exception("Rate limit counts unreachable; %s not counted", kind)
        return 0
    return left if count > rate[0] else 0


def used_up(kind: str, subject: str, rate: tuple[int, int] | None, now: float | None = None) -> int:
    """The seconds left in the window when ``subject`` already used up ``rate`` in it, else 0 (counts nothing)."""
    if not rate:
        return 0
    key, left = window_key(kind, subject, rate, time.time() if now is None else now)
    try:
        count = rate_cache().get(key) or 0
    except Exception:
        logger.exception("Rate limit counts unreachable; %s not checked", kind)
        return 0
    return left if count >= rate[0] else 0


def too_many_requests(request, wait: int, saves: bool) -> HttpResponse:
    if saves:
        message = ngettext(
            "Too many saves through this link: nothing was saved. Send it again in %(seconds)d second.",
            "Too many saves through this link: nothing was saved. Send it again in %(seconds)d seconds.",
            wait,
        ) % {"seconds": wait}
    else:
        message = ngettext(
            "Too many links that lead nowhere were opened from your network. Try again in %(seconds)d second, "
            "and check the link with the organiser.",
            "Too many links that lead nowhere were opened from your network. Try again in %(seconds)d seconds, "
            "and check the link with the organiser.",
            wait,
        ) % {"seconds": wait}
    if not is_api(request) and not request.headers.get("HX-Request"):
        return too_many_requests_page(request, message, wait)
    response = api_error(message, 429) if is_api(request) else page_alert(message, 429)
    response["Retry-After"] = str(wait)
    return response


class RateLimitMiddleware:
    """429 with Retry-After past a rate limit, before the view runs.

    Saves (POST, PUT, PATCH, DELETE) to a view whose URL holds a ``token`` (a table's or a player's link) are
    counted per token: ``SAVE_RATE_LIMIT``, or the view's own count and limit in ``SAVE_RATE_LIMITS``. Answers
    "not found" under ``NOT_FOUND_PREFIXES`` are counted per client address: past ``NOT_FOUND_RATE_LIMIT`` that
    address gets 429 for everything there until the window ends, so links cannot be found by guessing.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        rate = getattr(settings, "NOT_FOUND_RATE_LIMIT", None)
        guarded = rate and request.path_info.startswith(tuple(getattr(settings, "NOT_FOUND_PREFIXES", ())))
        if guarded:
            wait = used_up("not-found", client_ip(request), rate)
            if wait:
                return too_many_requests(request, wait, saves=False)
        response = self.get_response(request)
        if guarded and response.status_code == 404:
            count_request("not-found", client_ip(request), rate)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        token = view_kwargs.get("token")
        if token is None or request.method not in SAVE_METHODS:
            return None
        view_name = request.resolver_match.view_name
        own = getattr(settings, "SAVE_RATE_LIMITS", {})
        if view_name in own:
            wait = count_request(f"save:{view_name}", str(token), own[view_name])
        else:
            wait = count_request("save", str(token), getattr(settings, "SAVE_RATE_LIMIT", None))
        return too_many_requests(request, wait, saves=True) if wait else None
