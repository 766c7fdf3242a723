"""Which keys of a score-sheet document the rules read, and the document cut down to them.

Each game module describes its own fields (``GameRules.document``) with four kinds of shape:

- a dict names the keys of a JSON object, each with the shape of its value; other keys are dropped;
- a one-item list is a JSON list whose items all have that shape;
- ``Each(shape)`` is a JSON object whose keys are data (the goods of a stand, the names of snacks):
  every key is kept, each value cut to ``shape``;
- ``ANY`` is a value the rules read whole (a number, a name, a row of numbers), kept as it is.

``cut`` keeps what a shape names and drops everything else, at any depth. A value of another type than
its shape expects is kept as it is: the rules refuse it and say why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: A value the rules read whole.
ANY = None


@dataclass(frozen=True)
class Each:
    """A JSON object whose keys are data: every key kept, each value cut to ``shape``."""

    shape: Any


#: The common fields of every document (``engine.read_sheet``).
COMMON: dict[str, Any] = {"game": ANY, "variant": ANY, "players": ANY}


def cut(value: Any, shape: Any) -> Any:
    """``value`` with only what ``shape`` names, at any depth; a new value, ``value`` is not changed."""
    if shape is ANY:
        return value
    if isinstance(shape, Each):
        if not isinstance(value, dict):
            return value
        return {key: cut(item, shape.shape) for key, item in value.items()}
    if isinstance(shape, list):
        return [cut(item, shape[0]) for item in value] if isinstance(value, list) else value
    if not isinstance(value, dict):
        return value
    return {key: cut(item, shape[key]) for key, item in value.items() if key in shape}
