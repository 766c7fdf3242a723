"""How a save reached the server: a phone that kept a sheet through a network drop sends it later, maybe twice.

The phone names each save with a key of its own, says how long it kept the sheet, and lists the keys of its
earlier saves of the same sheet that never heard back. A save sent again is then recognised rather than stored
twice, and a save that follows the phone's own unanswered one is not taken for somebody else's change.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..numbers import clipped_number

#: What a phone's key for a save looks like: letters, digits, dashes, 8 to 64 of them.
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: Longer than any evening: a sheet kept longer than this is dated as kept this long.
LONGEST_KEPT = timedelta(days=2)
#: No phone keeps more unanswered saves of one sheet than this; more are ignored.
MOST_REPLACED = 16


@dataclass(frozen=True)
class Delivery:
    """``key``: the phone's name for this save ("" when it gave none); ``kept_for``: how long the phone held it
    before this send; ``replaces``: the keys of its earlier saves of the same sheet that got no answer."""

    key: str = ""
    kept_for: timedelta = timedelta(0)
    replaces: frozenset[str] = field(default_factory=frozenset)

    def entered_at(self, received: datetime) -> datetime:
        """When the sheet was saved on the phone, by the phone's own count of time since (its clock may be off)."""
        return received - self.kept_for


def key_of(text: object) -> str:
    """``text`` when it is a well-formed key, else ""."""
    return text if isinstance(text, str) and KEY.fullmatch(text) else ""


def delivery_from(posted: Mapping) -> Delivery:
    """The delivery a form's post describes (``key``, ``kept_ms``, ``replaces``); anything malformed is left out,
    so an old page or a forged field saves as a plain save would."""
    kept_ms = clipped_number(posted.get("kept_ms"), maximum=LONGEST_KEPT // timedelta(milliseconds=1))
    kept_for = timedelta(milliseconds=kept_ms or 0)
    replaced = str(posted.get("replaces") or "").split(",")[:MOST_REPLACED]
    replaces = frozenset(filter(None, map(key_of, replaced)))
    key = key_of(posted.get("key"))
    return Delivery(key=key, kept_for=kept_for, replaces=replaces - {key})
