"""Defences at the edge: scorer tokens, the client's address, login throttling (django-axes: the page it shows),
rate limits, security headers, oversized bodies, a busy database."""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from functools import cache

from django.conf import settings
from django.contrib.admin import site as admin_site
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import caches
from django.db import InterfaceError, OperationalError, connection
from django.db.models import Max
from django.forms.utils import ErrorDict
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .joined_rows import Joined, column_sql, table_sql
from .models import Event, Round, Table
from .models.tokens import verified, well_formed

logger = logging.getLogger(__name__)

# Scorer tokens -------------------------------------------------------------------------------------------------


#: A table with its round and event, read at every request of a table link.
TABLE_ROUND_EVENT = Joined((Table, "t"), (Round, "r"), (Event, "e"))


@cache
def table_by_token_sql(vendor: str) -> str:
    """The statement of ``table_by_token`` for this kind of database."""
    column = column_sql
    return (
        f"SELECT {TABLE_ROUND_EVENT.columns()} FROM {table_sql(Table)} t "
        f"JOIN {table_sql(Round)} r ON r.{column(Round, 'id')} = t.{column(Table, 'round')} "
        f"JOIN {table_sql(Event)} e ON e.{column(Event, 'id')} = r.{column(Round, 'event')} "
        f"WHERE t.{column(Table, 'token')} = %s"
    )


def table_by_token(token) -> Table | None:
    """The table whose scorer token is ``token``, with its round and event, or None.

    One hand-written join (see ``joined_rows``); the unique index finds the row and the token is then compared
    in constant time (``tokens.verified``). Anything not shaped like a token never reaches the database.
    """
    if not well_formed(token):
        return None
    with connection.cursor() as cursor:
        cursor.execute(table_by_token_sql(connection.vendor), [token])
        row = cursor.fetchone()
    if row is None:
        return None
    [(table, round_, event)] = TABLE_ROUND_EVENT.instances([row])
    round_.event, table.round = event, round_
    return verified(table, token)


# The client's address ------------------------------------------------------------------------------------------


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or the last hop of ``settings.CLIENT_IP_HEADER`` behind a proxy.

    The last hop is the one the proxy itself added; earlier ones come from the client and may be forged. A last
    hop that is not an address (a proxy set up wrongly) counts for nothing, and REMOTE_ADDR is used.
    """
    header = getattr(settings, "CLIENT_IP_HEADER", "")
    if header:
        forwarded = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            try:
                return str(ipaddress.ip_address(hops[-1]))
            except ValueError:
                pass
    return request.META.get("REMOTE_ADDR", "")


# Login throttling ----------------------------------------------------------------------------------------------
# django-axes counts the failures (settings: AXES_*); these are the wait it announces and the page it shows.


def lockout_seconds(request, credentials=None) -> int:
    """How long this user name must wait at this address: the cool-off from its latest recorded failure."""
    from axes.handlers.proxy import AxesProxyHandler
    from axes.helpers import get_cool_off

    cool_off = get_cool_off(request)
    if cool_off is None:
        return 0
    AxesProxyHandler.update_request(request)
    handler = AxesProxyHandler.get_implementation()
    since = timezone.now()
    if hasattr(handler, "get_user_attempts"):  # the database handler: each failure's time is kept
        latest = [
            attempts.aggregate(t=Max("attempt_time"))["t"]
            for attempts in handler.get_user_attempts(request, credentials)
        ]
        since = max((moment for moment in latest if moment is not None), default=since)
    return max(1, math.ceil((since + cool_off - timezone.now()).total_seconds()))


def login_lockout(request, original_response=None, credentials=None) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the login form again, with what was typed and the wait, as 429 with Retry-After."""
    wait = lockout_seconds(request, credentials)
    minutes = max(1, math.ceil(wait / 60))
    message = ngettext(
        "Too many attempts, try again in %(minutes)d minute.",
        "Too many attempts, try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    view_name = request.resolver_match.view_name if request.resolver_match else ""
    if view_name not in {"login", "admin:login"}:
        response = short_page(_("Too many attempts"), message, 429)
        response["Retry-After"] = str(wait)
        return response
    admin = view_name == "admin:login"
    form = (AdminAuthenticationForm if admin else AuthenticationForm)(request, data=request.POST)
    form._errors = ErrorDict({"__all__": form.error_class([message])})
    form.cleaned_data = {}
    next_url = request.POST.get(REDIRECT_FIELD_NAME, request.GET.get(REDIRECT_FIELD_NAME, ""))
    context = {"form": form, REDIRECT_FIELD_NAME: next_url}
    if admin:
        context.update(admin_site.each_context(request), title=_("Log in"), app_path=request.get_full_path())
    template = "admin/login.html" if admin else "registration/login.html"
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(wait)
    return response


# Rate limits ---------------------------------------------------------------------------------------------------
# Counted in the ``ratelimit`` cache, one count per subject and fixed window: a folder of files that the processes
# of one machine share, or with CACHE_URL a Redis server that every machine shares.

SAVE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def rate_cache():
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
    if is_api(request):
        response = api_error(message, 429)
    elif request.headers.get("HX-Request"):
        response = page_alert(message, 429)
    else:
        response = short_page(_("Too many requests"), message, 429)
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


# Security headers ----------------------------------------------------------------------------------------------

DEFAULT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'self'"
)


class SecurityHeadersMiddleware:
    """Adds the Content-Security-Policy (no inline scripts or styles) to every response."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault(
            "Content-Security-Policy", getattr(settings, "CONTENT_SECURITY_POLICY", DEFAULT_POLICY)
        )
        return response


# Error answers -------------------------------------------------------------------------------------------------


def is_api(request) -> bool:
    return request.path_info.startswith("/api/")


def api_error(message: str, status: int) -> JsonResponse:
    """The API's error document, shaped as the score sheet's errors are."""
    return JsonResponse({"errors": [{"path": "", "message": message}]}, status=status)


def short_page(title: str, message: str, status: int) -> HttpResponse:
    """A small HTML page that needs neither the database nor the session."""
    html = format_html(
        '<!DOCTYPE html><html lang="{}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>{}</title>'
        '<link rel="stylesheet" href="{}"></head><body><main id="main"><h1>{}</h1><p>{}</p></main></body></html>',
        get_language() or settings.LANGUAGE_CODE,
        title,
        static("css/tablescore.css"),
        title,
        message,
    )
    return HttpResponse(html, status=status)


def page_alert(message: str, status: int) -> HttpResponse:
    """For a request made by HTMX: the message in the page's alert area, leaving what was typed in place."""
    response = HttpResponse(format_html('<p class="notice warning">{}</p>', message), status=status)
    response["HX-Retarget"] = "#alerts"
    response["HX-Reswap"] = "innerHTML"
    return response


# Oversized bodies ----------------------------------------------------------------------------------------------


def body_limit(request) -> int:
    """The largest body this URL accepts: ``REQUEST_BODY_LIMIT``, or more for the views of ``REQUEST_BODY_LIMITS``."""
    limit = int(getattr(settings, "REQUEST_BODY_LIMIT", 256 * 1024))
    larger = getattr(settings, "REQUEST_BODY_LIMITS", {})
    if larger:
        try:
            view_name = resolve(request.path_info).view_name
        except Resolver404:
            return limit
        limit = max(limit, larger.get(view_name, limit))
    return limit


def content_length(request) -> int:
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0


class RequestSizeLimitMiddleware:
    """Answers 413 from the Content-Length header alone, before anything reads an oversized body."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = content_length(request)
        if length and length > int(getattr(settings, "REQUEST_BODY_LIMIT", 256 * 1024)):
            limit = body_limit(request)
            if length > limit:
                return too_large(request, limit)
        return self.get_response(request)


def too_large(request, limit: int) -> HttpResponse:
    size = math.ceil(limit / 1024)
    if is_api(request):
        return api_error(_("This request is too large: send at most %(size)d kB.") % {"size": size}, 413)
    message = _("What you sent is too large: at most %(size)d kB. Send less at once.") % {"size": size}
    return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")


# A busy database -----------------------------------------------------------------------------------------------

RETRY_AFTER_SECONDS = 5


class DatabaseUnavailableMiddleware:
    """A database that is locked or out of reach for a moment gets 503 with Retry-After, not a 500 page.

    It also answers the API's "not found" with the API's error document.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OperationalError | InterfaceError):
            logger.error("Database unavailable for %s %s", request.method, request.path, exc_info=exception)
            return database_busy(request)
        if isinstance(exception, Http404) and is_api(request):
            return api_error(_("Nothing is found at this address: check the table's link with the organiser."), 404)
        return None


def database_busy(request) -> HttpResponse:
    if is_api(request):
        response = api_error(_("The database is busy. Send the same request again in a few seconds."), 503)
    elif request.headers.get("HX-Request"):
        response = page_alert(_("The scores database is busy. Nothing was saved: send it again in a few seconds."), 503)
    else:
        response = short_page(
            _("Busy for a moment"),
            _("The scores database is busy. Nothing was saved: go back and send it again in a few seconds."),
            503,
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
