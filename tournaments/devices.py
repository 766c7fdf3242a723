"""What a browser carries in signed cookies: its id (which phone entered a sheet, so that phone cannot also confirm
it) and the seat it said it is at each table ("I am ...").

The id names a browser, not a person; it is only compared with other ids, never shown in full. Neither needs the
database, so a phone's save writes no session.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core import signing

COOKIE = "tablescore_device"
SALT = "tablescore.device"
MAX_AGE = 400 * 24 * 3600
#: The seat a browser said it is at one table: a cookie per table, kept for a tournament day.
SEAT_COOKIE = "tablescore_seat_{table}"
SEAT_SALT = "tablescore.seat"
SEAT_MAX_AGE = 24 * 3600


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


def known_device_id(request) -> str:
    """This browser's id when it has one already (a script on a phone's page sends its cookies), else ""."""
    try:
        return request.get_signed_cookie(COOKIE, salt=SALT) or ""
    except (KeyError, signing.BadSignature):
        return ""


def remembered_seat(request, table_id: int) -> int | None:
    """The seat this browser last said it is at the table, or None."""
    chosen = getattr(request, "_seats", {})
    if table_id in chosen:
        return chosen[table_id]
    try:
        return int(request.get_signed_cookie(SEAT_COOKIE.format(table=table_id), salt=SEAT_SALT))
    except (KeyError, ValueError, signing.BadSignature):
        return None


def remember_seat(request, table_id: int, seat: int) -> None:
    """Remember the seat this browser says it is at the table (the response sets the cookie when it changed)."""
    if remembered_seat(request, table_id) != seat:
        request._seats = {**getattr(request, "_seats", {}), table_id: seat}


def short(device: str) -> str:
    """A few characters to tell devices apart in the audit trail without showing the id."""
    return device[:6] if device else ""


class DeviceCookieMiddleware:
    """Sets the device cookie on the response when a view gave this browser its id, and the seat cookies of the
    tables where it said who it is."""

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
        for table_id, seat in getattr(request, "_seats", {}).items():
            response.set_signed_cookie(
                SEAT_COOKIE.format(table=table_id),
                str(seat),
                salt=SEAT_SALT,
                max_age=SEAT_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=getattr(settings, "HTTPS", False),
            )
        return response
