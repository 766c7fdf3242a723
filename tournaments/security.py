"""Defences at the edge: scorer tokens, login throttling, security headers, oversized bodies, a busy database.

The login throttle keeps its counts in the ``ratelimit`` cache (``settings.CACHES``), a folder of files that
every process of one machine shares; a deployment on several machines points that alias at a shared cache.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.conf import settings
from django.contrib.admin import site as admin_site
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import caches
from django.db import InterfaceError, OperationalError
from django.forms.utils import ErrorDict
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import Resolver404, resolve
from django.utils.html import format_html
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .models import Table
from .models.tokens import find_by_token

logger = logging.getLogger(__name__)

# Scorer tokens -------------------------------------------------------------------------------------------------


def table_by_token(token, tables=None) -> Table | None:
    """The table whose scorer token is ``token`` (from ``tables``, a queryset), or None."""
    return find_by_token(Table.objects if tables is None else tables, token)


# Login throttling ----------------------------------------------------------------------------------------------

LOGIN_VIEWS = frozenset({"login", "admin:login"})


def throttle_cache():
    return caches[getattr(settings, "LOGIN_THROTTLE_CACHE", "ratelimit")]


def failure_window() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_WINDOW", 15 * 60))


def failure_limits() -> dict[str, int]:
    return {"username": 5, "ip": 20, **getattr(settings, "LOGIN_FAILURE_LIMITS", {})}


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or the last hop of ``settings.CLIENT_IP_HEADER`` behind a proxy."""
    header = getattr(settings, "CLIENT_IP_HEADER", "")
    if header:
        forwarded = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR", "")


def throttle_keys(username: str | None, ip: str | None) -> list[tuple[str, int]]:
    """The cache keys counting failures for this username and this address, each with its limit."""
    limits = failure_limits()
    keys = []
    if username:
        digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()
        keys.append((f"login-failures:user:{digest}", limits["username"]))
    if ip:
        keys.append((f"login-failures:ip:{hashlib.sha256(ip.encode()).hexdigest()}", limits["ip"]))
    return keys


def recent_failures(key: str, now: float) -> list[float]:
    """The times of the failures under ``key`` still inside the window."""
    stored = throttle_cache().get(key) or []
    return [moment for moment in stored if now - moment < failure_window()]


def record_login_failure(username: str | None, ip: str | None) -> None:
    now = time.time()
    for key, limit in throttle_keys(username, ip):
        failures = [*recent_failures(key, now), now][-limit:]
        throttle_cache().set(key, failures, timeout=failure_window())


def lockout_seconds(username: str | None, ip: str | None) -> int:
    """How long this username or address must wait before trying again; 0 when it may try now."""
    now = time.time()
    wait = 0.0
    for key, limit in throttle_keys(username, ip):
        failures = recent_failures(key, now)
        if len(failures) >= limit:
            wait = max(wait, failures[-limit] + failure_window() - now)
    return math.ceil(wait)


def forget_login_failures(username: str | None) -> None:
    for key, _limit in throttle_keys(username, None):
        throttle_cache().delete(key)


def on_login_failed(sender, credentials, request=None, **kwargs) -> None:
    ip = client_ip(request) if request is not None else None
    record_login_failure(credentials.get("username"), ip)
    if request is not None:
        request.login_failed = True


def on_logged_in(sender, request, user, **kwargs) -> None:
    forget_login_failures(user.get_username())


user_login_failed.connect(on_login_failed, dispatch_uid="tablescore-login-throttle-failed")
user_logged_in.connect(on_logged_in, dispatch_uid="tablescore-login-throttle-success")


def too_many_attempts(request, wait: int) -> HttpResponse:
    """The login form again, with what was typed and the wait, as 429 Too Many Requests."""
    minutes = max(1, math.ceil(wait / 60))
    message = ngettext(
        "Too many attempts, try again in %(minutes)d minute.",
        "Too many attempts, try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    admin = request.resolver_match.view_name == "admin:login"
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


class LoginThrottleMiddleware:
    """Refuses login attempts (429) after too many recent failures for the username or from the address."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(request, "login_failed", False):
            wait = lockout_seconds(request.POST.get("username"), client_ip(request))
            if wait:
                return too_many_attempts(request, wait)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method != "POST" or request.resolver_match.view_name not in LOGIN_VIEWS:
            return None
        wait = lockout_seconds(request.POST.get("username"), client_ip(request))
        return too_many_attempts(request, wait) if wait else None


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
    else:
        response = short_page(
            _("Busy for a moment"),
            _("The scores database is busy. Nothing was saved: go back and send it again in a few seconds."),
            503,
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
