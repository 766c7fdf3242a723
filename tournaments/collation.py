"""Alphabetical order as readers expect it in any of the app's languages, the same on every database.

The Unicode Collation Algorithm (pyuca, with the default table) orders names by their letters first, then
accents, then case: Íñigo sorts beside Inés, Łukasz beside Lucas, "Núria de la Fuente" before "Núria Sánchez".
Databases collate by their own rules (SQLite by code point), so names are ordered here, in Python.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import TypeVar

from pyuca import Collator

T = TypeVar("T")


@cache
def collator() -> Collator:
    """The collation table, read once per process (it is the same for every process)."""
    return Collator()


def sort_key(text: str) -> tuple:
    """A key that orders texts alphabetically; the text itself breaks exact ties so the order is total."""
    return (collator().sort_key(text), text)


def alphabetical(items: Iterable[T], key: Callable[[T], str] = str) -> list[T]:
    """``items`` in alphabetical order of ``key(item)``."""
    return sorted(items, key=lambda item: sort_key(key(item)))
