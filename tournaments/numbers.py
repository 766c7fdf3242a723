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
