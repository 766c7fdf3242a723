"""A per-browser id in a signed cookie: which phone entered a sheet, so that phone cannot also confirm it.

The id names a browser, not a person; it is only compared with other ids, never shown in full.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core import signing

from .models.sheets import Via
from .services.audit import Author

COOKIE = "tablescore_device"
SALT = "tablescore.device"
MAX_AGE = 400 * 24 * 3600


def device_id(request) -> str:
    """This browser's id: from its signed cookie, or a new one the response will set."""
    known = getattr(request, "_device_id", None)
    if known:
        return known
    try:
        known = request.get_signed_cookie(COOKIE, salt=SALT)
    except (KeyError, signing.BadSignature):
        known = None
    if not known:
        known = secrets.token_urlsafe(16)
        request._new_device_id = True
    request._device_id = known
    return known


def short(device: str) -> str:
    """A few characters to tell devices apart in the audit trail without showing the id."""
    return device[:6] if device else ""


class DeviceCookieMiddleware:
    """Sets the device cookie on the response when a view gave this browser its id."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(request, "_new_device_id", False):
            response.set_signed_cookie(
                COOKIE,
                request._device_id,
                salt=SALT,
                max_age=MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=getattr(settings, "HTTPS", False),
            )
        return response


def organiser_author(request) -> Author:
    """The logged-in organiser at this browser, as the author of a change."""
    return Author(via=Via.ORGANISER, user=request.user, device=device_id(request))
