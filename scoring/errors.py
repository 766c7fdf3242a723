"""The error document: every problem found in a score sheet, each with its path."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .i18n import _

Translate = Callable[[str], str]


def untranslated(message: str) -> str:
    return message


@dataclass(frozen=True)
class Component:
    """A component of a game that a message names (a good, a cheese card, a variant...): never an English word.

    ``game`` is the rules' key, ``kind`` what sort of component it is, ``key`` the word sheets use for it;
    plain text shows the key, as the command line does, and an app shows the game's own label for it.
    """

    game: str
    kind: str
    key: str

    def __str__(self) -> str:
        return self.key


#: A component as an app shows it: its label in the reader's language (``None``: its key).
Namer = Callable[[Component], str]

#: How a listing closes with its last item: "strawberries and grapes".
AND = _("{items} and {last}")


@dataclass(frozen=True)
class Listing:
    """Several values named in one message: "a, b, c" (``separator``), or "a, b and c" with ``last``.

    Items are components, other listings or plain values; each is shown as a message shows a parameter.
    """

    items: tuple[Any, ...]
    separator: str = ", "
    last: str = ""

    def render(self, translate: Translate = untranslated, name: Namer | None = None) -> str:
        shown = [str(shown_value(item, translate, name)) for item in self.items]
        if self.last and len(shown) > 1:
            return translate(self.last).format(items=self.separator.join(shown[:-1]), last=shown[-1])
        return self.separator.join(shown)

    def __str__(self) -> str:
        return self.render()


def components(game: str, kind: str, keys: Iterable[str], **listing: str) -> Listing:
    """A listing of the components ``keys`` of one kind: ``components("veggies", "good", GOODS)``."""
    return Listing(tuple(Component(game, kind, key) for key in keys), **listing)


def shown_value(value: Any, translate: Translate = untranslated, name: Namer | None = None) -> Any:
    """A message's parameter as the message shows it: a component by its name, a listing item by item."""
    if isinstance(value, Component):
        return name(value) if name is not None else value.key
    if isinstance(value, Listing):
        return value.render(translate, name)
    return value


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a document: where (``path``) and what (``msgid`` with ``params``).

    A parameter that names part of the game is a ``Component`` (or a ``Listing`` of them), so that an app can
    show it in the reader's words; plain text shows its key.
    """

    path: str
    msgid: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, translate: Translate = untranslated, name: Namer | None = None) -> str:
        params = {key: shown_value(value, translate, name) for key, value in self.params.items()}
        return translate(self.msgid).format(**params)

    @property
    def message(self) -> str:
        return self.render()

    def as_dict(self, translate: Translate = untranslated, name: Namer | None = None) -> dict[str, str]:
        return {"path": self.path, "message": self.render(translate, name)}


class ScoreSheetError(ValueError):
    """Raised for a document that breaks the rules or the format; ``.errors`` is the error list."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(f"{p.path or '(document)'}: {p.message}" for p in self.problems))

    @property
    def errors(self) -> list[dict[str, str]]:
        return [p.as_dict() for p in self.problems]

    def document(self, translate: Translate = untranslated, name: Namer | None = None) -> dict[str, Any]:
        return {"errors": [p.as_dict(translate, name) for p in self.problems]}


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
