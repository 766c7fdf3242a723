"""Readers for the JSON values of a document: each checks a type and reports a problem."""

from __future__ import annotations

from typing import Any

from .errors import Listing, Problems
from .i18n import _

#: Numbers beyond this are never meaningful on a score sheet; refusing them keeps arithmetic cheap.
MAX_NUMBER = 10**6


def is_int(value: Any) -> bool:
    """True for JSON integers: ``3`` but not ``3.0``, ``true`` or ``"3"``."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_int(
    value: Any,
    path: str,
    problems: Problems,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int | None:
    """The integer at ``path``, or None after reporting why it is not acceptable."""
    if not is_int(value):
        problems.add(path, _("Write a whole number here."))
        return None
    if abs(value) > MAX_NUMBER:
        problems.add(path, _("This number is far too large for a score sheet."))
        return None
    if minimum is not None and value < minimum:
        problems.add(path, _("This must be at least {minimum}; it is {value}."), minimum=minimum, value=value)
        return None
    if maximum is not None and value > maximum:
        problems.add(path, _("This must be at most {maximum}; it is {value}."), maximum=maximum, value=value)
        return None
    return value


def read_list(value: Any, path: str, problems: Problems, *, length: int | None = None) -> list | None:
    """The list at ``path`` (of ``length`` items when given), or None after reporting."""
    if not isinstance(value, list):
        problems.add(path, _("A list is expected here."))
        return None
    if length is not None and len(value) != length:
        problems.add(
            path,
            _("There must be one entry per player ({expected}); there are {actual}."),
            expected=length,
            actual=len(value),
        )
        return None
    return value


def read_object(value: Any, path: str, problems: Problems) -> dict | None:
    """The JSON object at ``path``, or None after reporting."""
    if not isinstance(value, dict):
        problems.add(path, _("An object with named fields is expected here."))
        return None
    return value


def read_str(value: Any, path: str, problems: Problems, choices: tuple[str, ...] | Listing | None = None) -> str | None:
    """A non-empty string, one of ``choices`` when given (keys, or a listing of the components they name)."""
    if not isinstance(value, str) or not value.strip():
        problems.add(path, _("A text value is expected here."))
        return None
    listing = choices if choices is None or isinstance(choices, Listing) else Listing(tuple(choices))
    if listing is not None and value not in {str(item) for item in listing.items}:
        problems.add(path, _("'{value}' is not one of: {choices}."), value=value[:40], choices=listing)
        return None
    return value
