"""Names that may be one player written two ways: with accents and without ("Malgorzata", "Małgorzata"), or with a
letter lost when a file was saved in an encoding that lacks it ("Ma?gorzata": Windows-1252 has no Ł, so Excel writes
"?"; a reader that cannot decode a letter shows U+FFFD). Case and spacing never make two players (``name_key``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..names import clean_text
from .find_table import folded

T = TypeVar("T")

#: What a file shows where a letter was lost: a question mark, or the replacement character.
LOST_MARKS = "?\ufffd"
LOST_RUN = re.compile(f"([{LOST_MARKS}]+)")


def lost_mark(name: str) -> str:
    """The first mark in ``name`` that may stand for a lost letter; empty when there is none."""
    return next((char for char in name if char in LOST_MARKS), "")


def fold(name: str) -> str:
    """``name`` as look-alikes compare it: lower case, without accents, spaced once."""
    return folded(clean_text(name))


def pattern(name: str) -> re.Pattern | None:
    """What the names ``name`` may have been match, folded: a run of marks stands for as many letters or half as many
    (a letter of two bytes may have become two marks), none of them a space; None for a name without marks."""
    parts = LOST_RUN.split(fold(name))
    if len(parts) == 1:
        return None
    regex = "".join(
        rf"\S{{{max(1, len(part) // 2)},{len(part)}}}" if index % 2 else re.escape(part)
        for index, part in enumerate(parts)
    )
    return re.compile(regex)


@dataclass
class LookAlikes(Generic[T]):
    """Names kept with what to say of each (``T``: the name itself, a line number...), to find one a name looks like."""

    by_fold: dict[str, tuple[str, T]] = field(default_factory=dict)
    with_marks: list[tuple[re.Pattern, str, T]] = field(default_factory=list)

    def add(self, name: str, item: T) -> None:
        self.by_fold.setdefault(fold(name), (name, item))
        if (found := pattern(name)) is not None:
            self.with_marks.append((found, name, item))

    def find(self, name: str) -> T | None:
        """What was kept with a name that differs from ``name`` only by accents or lost letters, on either side; None
        when there is none (a name equal but for case and spacing is the same name, not a look-alike)."""
        key, own = fold(name), clean_text(name).casefold()
        candidates = [self.by_fold.get(key)]
        if (found := pattern(name)) is not None:
            candidates += [kept for folded_name, kept in self.by_fold.items() if found.fullmatch(folded_name)]
        candidates += [(kept, item) for regex, kept, item in self.with_marks if regex.fullmatch(key)]
        for kept in candidates:
            if kept is not None and clean_text(kept[0]).casefold() != own:
                return kept[1]
        return None
