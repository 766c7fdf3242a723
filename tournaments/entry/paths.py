"""Form fields named by their path in the score-sheet document, e.g. ``manches[0].pozzo[2]``.

``document_from_fields`` builds the document part from posted fields; ``fields_from_document`` flattens
a stored document back into field values, so a form shows exactly what was typed or saved.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

STEP = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)|\[(\d{1,3})\]")
PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*(?:\[\d{1,3}\]|\.[A-Za-z_][A-Za-z0-9_-]*)*$")
INTEGER = re.compile(r"^[+-]?\d{1,9}$")
#: Index steps above this are refused, so a forged field name cannot make a huge list.
MAX_INDEX = 64


def steps_of(path: str) -> list[str | int] | None:
    """``manches[0].pozzo[2]`` -> ``["manches", 0, "pozzo", 2]``; None for anything else."""
    if not PATH.match(path):
        return None
    steps: list[str | int] = []
    for name, index in STEP.findall(path):
        if name:
            steps.append(name)
        else:
            if int(index) > MAX_INDEX:
                return None
            steps.append(int(index))
    return steps


def typed(value: str) -> Any:
    """Whole numbers become integers, blanks None, and anything else stays text."""
    value = value.strip()
    if value == "":
        return None
    if INTEGER.match(value):
        return int(value)
    return value


def place(document: dict, steps: list[str | int], value: Any) -> None:
    """Put ``value`` at ``steps`` in ``document``, making the dicts and lists on the way."""
    node: Any = document
    for step, following in zip(steps, steps[1:]):
        empty: Any = [] if isinstance(following, int) else {}
        if isinstance(step, int):
            if not isinstance(node, list):
                return
            node.extend([None] * (step + 1 - len(node)))
            if node[step] is None:
                node[step] = empty
            node = node[step]
        else:
            if not isinstance(node, dict):
                return
            node = node.setdefault(step, empty)
    last = steps[-1]
    if isinstance(last, int) and isinstance(node, list):
        node.extend([None] * (last + 1 - len(node)))
        node[last] = value
    elif isinstance(last, str) and isinstance(node, dict):
        node[last] = value


def put(document: dict, path: str, value: Any) -> None:
    """Put ``value`` at the document path ``path`` (``stands[1].goods.grapes.largest``); a path that is not one
    is ignored."""
    steps = steps_of(path)
    if steps:
        place(document, steps, value)


def document_from_fields(fields: Iterable[tuple[str, str]], roots: Iterable[str]) -> dict[str, Any]:
    """The document part made of the posted ``fields`` whose paths start with one of ``roots``."""
    allowed = set(roots)
    document: dict[str, Any] = {}
    for name, value in fields:
        steps = steps_of(name)
        if steps and steps[0] in allowed:
            place(document, steps, typed(value))
    return document


def fields_from_document(value: Any, path: str = "") -> dict[str, str]:
    """Every leaf of ``value`` by its path, as the text a form field shows."""
    flat: dict[str, str] = {}
    if isinstance(value, Mapping):
        for key, item in value.items():
            flat.update(fields_from_document(item, f"{path}.{key}" if path else str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            flat.update(fields_from_document(item, f"{path}[{index}]"))
    elif value is not None:
        flat[path] = str(value)
    return flat
