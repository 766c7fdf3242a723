"""The error pages: what probably happened and what to do next, in the visitor's language, with a way back.

They read nothing from the database or the session, so showing an error cannot fail in its turn; the 500 page is
rendered without the request at all. A table's or a player's link that leads nowhere raises ``LinkNotFound``, so
its page says which case it is. A request made by HTMX gets the same words in the page's alert area instead.
"""

from __future__ import annotations

import logging
from enum import StrEnum

from django.http import Http404, HttpResponse, HttpResponseServerError
from django.template import loader
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import get_language

logger = logging.getLogger(__name__)

#: What the 500 page says when even its template cannot be shown.
BARE_SERVER_ERROR = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Server error</title></head>'
    "<body><h1>Something went wrong</h1><p>Scores saved earlier are safe. Try again in a moment.</p>"
    '<p><a href="/">Tablescore</a></p></body></html>'
)


class Reason(StrEnum):
    """Why a table's or a player's link leads nowhere, as far as the page may tell."""

    #: No published table has this link: the sheet was reprinted, the round re-seated or not yet announced.
    TABLE_LINK = "table-link"
    #: No player has this link: it was replaced (which turns the old one off) or is incomplete.
    PLAYER_LINK = "player-link"
    #: The player's link is good, but it does not seat them at this table in a published round.
    NOT_AT_TABLE = "not-at-table"


class LinkNotFound(Http404):
    """404 for a table's or a player's link that leads nowhere, naming which case it is."""

    def __init__(self, reason: Reason, player_token: str = ""):
        super().__init__(reason.value)
        self.reason = reason
        self.player_token = player_token


def error_response(request, status: int, context: dict | None = None) -> HttpResponse:
    """The friendly page ``<status>.html``, or for HTMX the same explanation in the alert area; never stored."""
    context = {"status": status, **(context or {})}
    if request.headers.get("HX-Request"):
        explanation = render_to_string(f"tournaments/errors/_{status}.html", {**context, "alert": True})
        response = HttpResponse(format_html('<div class="notice warning">{}</div>', explanation), status=status)
        response["HX-Retarget"] = "#alerts"
        response["HX-Reswap"] = "innerHTML"
    else:
        response = HttpResponse(loader.render_to_string(f"{status}.html", context, request), status=status)
    patch_cache_control(response, private=True, no_store=True)
    return response


def again(request) -> str:
    """The address to try again: this one for a page that was only looked at, none for a form that was sent."""
    return request.get_full_path() if request.method in ("GET", "HEAD") else ""


def page_not_found(request, exception=None) -> HttpResponse:
    """``handler404``: the case of a table's or player's link that leads nowhere, else a plain "not found"."""
    reason = getattr(exception, "reason", "")
    context = {"reason": str(reason)}
    if reason == Reason.NOT_AT_TABLE:
        context["own_page"] = reverse("tournaments:player_link", args=[exception.player_token])
    return error_response(request, 404, context)


def permission_denied(request, exception=None) -> HttpResponse:
    """``handler403``: an organiser's page opened by someone who does not run the event."""
    login = f"{reverse('login')}?{urlencode({'next': request.get_full_path()})}"
    return error_response(request, 403, {"login": login})


def bad_request(request, exception=None) -> HttpResponse:
    """``handler400``: an address or form that could not be understood."""
    return error_response(request, 400, {"again": again(request)})


def too_many_requests(request, message: str, wait: int) -> HttpResponse:
    """429 with Retry-After: ``message`` (what was refused and for how long) and a way to try again."""
    response = error_response(request, 429, {"message": message, "again": again(request)})
    response["Retry-After"] = str(wait)
    return response


def server_error(request) -> HttpResponse:
    """``handler500``: a page of its own (no base template, no request, no database), in the visitor's language."""
    try:
        home = reverse("tournaments:home")
    except NoReverseMatch:
        home = "/"
    try:
        html = loader.get_template("500.html").render({"home": home, "language": get_language() or "en"})
    except Exception:
        logger.exception("The 500 page could not be rendered")
        html = BARE_SERVER_ERROR
    response = HttpResponseServerError(html)
    patch_cache_control(response, private=True, no_store=True)
    return response
