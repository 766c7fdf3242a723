"""Whole numbers typed by people or sent in addresses: ASCII digits only, with a bound, never an exception.

``str.isdigit`` and ``int`` accept far more than ``0-9`` (``²``, ``٣``, ``1_000``, surrounding spaces), and an
unbounded number overflows the database; every number read from a request goes through here.
"""

from __future__ import annotations

import re

#: One to nine ASCII digits: more than any bound the app uses, small enough for ``int`` to be instant.
DIGITS = re.compile(r"[0-9]{1,9}")


def whole_number(text: object, maximum: int, minimum: int = 0) -> int | None:
    """``text`` read as a whole number from ``minimum`` to ``maximum``; None for anything else."""
    if not isinstance(text, str) or DIGITS.fullmatch(text) is None:
        return None
    number = int(text)
    return number if minimum <= number <= maximum else None


#: Up to eighteen ASCII digits: any count a device sends (milliseconds since 1970 have thirteen).
LONG_DIGITS = re.compile(r"[0-9]{1,18}")


def clipped_number(text: object, maximum: int) -> int | None:
    """``text`` read as a whole number, ``maximum`` when it is larger; None for anything else."""
    if not isinstance(text, str) or LONG_DIGITS.fullmatch(text) is None:
        return None
    return min(int(text), maximum)


#: The largest id a row can have: a BigAutoField's, a signed 64-bit integer in SQLite and PostgreSQL alike.
MAX_ID = 2**63 - 1
#: Up to nineteen ASCII digits: as many as MAX_ID has.
ID_DIGITS = re.compile(r"[0-9]{1,19}")


def record_id(text: object) -> int | None:
    """``text`` read as a row's id, posted or in an address: ASCII digits from 1 to MAX_ID; None for anything else,
    which selects no row."""
    if not isinstance(text, str) or ID_DIGITS.fullmatch(text) is None:
        return None
    number = int(text)
    return number if 1 <= number <= MAX_ID else None
