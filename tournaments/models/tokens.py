"""The secrets of table and player links: 128 random bits, URL-safe, never guessable."""

from __future__ import annotations

import hmac
import re
import secrets

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: What ``secrets.token_urlsafe(16)`` makes: 22 characters of the URL-safe base64 alphabet.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}")
#: A random token of 22 characters nearly always shows 15 or more different ones; fewer means it was made up.
MIN_DISTINCT_CHARACTERS = 12


def new_token() -> str:
    """An unguessable link secret: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def well_formed(token: object) -> bool:
    return isinstance(token, str) and TOKEN_PATTERN.fullmatch(token) is not None


def is_weak(token: str) -> bool:
    """True for a well-formed token that no random draw makes in practice (``aaaaaaaaaaaaaaaaaaaaaa``)."""
    return len(set(token)) < MIN_DISTINCT_CHARACTERS


def validate_token(token: object) -> None:
    if not well_formed(token):
        raise ValidationError(_("A link token is 22 letters, digits, “-” or “_”."), code="token")


def find_by_token(objects, token: object):
    """The row of ``objects`` (a queryset) whose ``token`` is ``token``, or None.

    The unique index finds the row; the token is then compared in constant time, which also holds on a
    database whose string comparison ignores case. Anything not shaped like a token never reaches the database.
    """
    if not well_formed(token):
        return None
    return verified(objects.filter(token=token).first(), token)


def verified(found, token: str):
    """``found`` (a row or None) if its token is ``token``, compared in constant time; None otherwise."""
    if found is None or not hmac.compare_digest(found.token.encode(), token.encode()):
        return None
    return found
