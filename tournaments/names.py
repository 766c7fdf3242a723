"""Names as people type them: invisible formatting and control characters dropped, spacing tidied, something left to
see."""

from __future__ import annotations

import unicodedata


def is_invisible(char: str) -> bool:
    """A Unicode format character, or a control character other than a blank (tab, newline and the like)."""
    category = unicodedata.category(char)
    return category == "Cf" or (category == "Cc" and not char.isspace())


def clean_text(value: str) -> str:
    """Typed or imported text tidied: format characters (zero-width spaces, joiners, right-to-left overrides and the
    like) and control characters (escape, delete...) dropped, and no leading, trailing or repeated blanks."""
    visible = "".join(char for char in value if not is_invisible(char))
    return " ".join(visible.split())


def has_visible_character(value: str) -> bool:
    """True when ``value`` holds a letter, digit, punctuation mark or symbol: something a reader sees."""
    return any(unicodedata.category(char)[0] in "LNPS" for char in value)
