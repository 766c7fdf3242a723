"""The error document: every problem found in a score sheet, each with its path."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a document: where (``path``) and what (``msgid`` with ``params``)."""

    path: str
    msgid: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
        return translate(self.msgid).format(**self.params)

    @property
    def message(self) -> str:
        return self.render()

    def as_dict(self, translate: Callable[[str], str] = lambda s: s) -> dict[str, str]:
        return {"path": self.path, "message": self.render(translate)}


class ScoreSheetError(ValueError):
    """Raised for a document that breaks the rules or the format; ``.errors`` is the error list."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(f"{p.path or '(document)'}: {p.message}" for p in self.problems))

    @property
    def errors(self) -> list[dict[str, str]]:
        return [p.as_dict() for p in self.problems]

    def document(self, translate: Callable[[str], str] = lambda s: s) -> dict[str, Any]:
        return {"errors": [p.as_dict(translate) for p in self.problems]}


class Problems:
    """Collects problems while a document is checked, so all of them are reported at once."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, path: str, msgid: str, **params: Any) -> None:
        self.items.append(Problem(path, msgid, params))

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise ScoreSheetError(self.items)


def at(path: str, key: str | int) -> str:
    """The path of ``key`` inside ``path``: ``at("manches", 1)`` is ``manches[1]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key
