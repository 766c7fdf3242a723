"""A busy database: 503 with Retry-After instead of a 500 page, and the API's "not found" as its error document."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _

from .answers import api_error, is_api, page_alert, short_page

logger = logging.getLogger(__name__)

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
