"""Names as people type them: invisible formatting characters dropped, spacing tidied, something left to see."""

from __future__ import annotations

import unicodedata


def clean_text(value: str) -> str:
    """Typed or imported text tidied: Unicode format characters (zero-width spaces, joiners, right-to-left
    overrides and the like) dropped, and no leading, trailing or repeated blanks."""
    visible = "".join(char for char in value if unicodedata.category(char) != "Cf")
    return " ".join(visible.split())


def has_visible_character(value: str) -> bool:
    """True when ``value`` holds a letter, digit, punctuation mark or symbol: something a reader sees."""
    return any(unicodedata.category(char)[0] in "LNPS" for char in value)
