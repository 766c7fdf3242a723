"""From what a paper sheet's boxes say (a value per document path) to the score-sheet document of a manche."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .. import games

STEP = re.compile(r"\.?([A-Za-z_][\w-]*)|\[(\d+)\]")


def steps(path: str) -> list[str | int]:
    """``stands[1].goods.grapes.largest`` as ["stands", 1, "goods", "grapes", "largest"]."""
    return [name if name else int(index) for name, index in STEP.findall(path)]


def put(document: dict, path: str, value: object) -> None:
    """Set ``path`` in ``document``, making the lists and objects on the way (lists padded with None)."""
    parts = steps(path)
    here: dict | list = document
    for part, following in zip(parts, parts[1:]):
        empty: dict | list = [] if isinstance(following, int) else {}
        if isinstance(part, int):
            assert isinstance(here, list)
            here.extend([None] * (part + 1 - len(here)))
            if here[part] is None:
                here[part] = empty
            here = here[part]
        else:
            assert isinstance(here, dict)
            here = here.setdefault(part, empty)
    last = parts[-1]
    if isinstance(last, int):
        assert isinstance(here, list)
        here.extend([None] * (last + 1 - len(here)))
        here[last] = value
    else:
        assert isinstance(here, dict)
        here[last] = value


def document(game: str, players: list[str], values: Mapping[str, object]) -> dict:
    """The manche's document from its fields' values (``values``: path -> value as read or corrected), made whole
    by its game (``Game.paper_document``)."""
    sheet: dict = {"game": game, "players": list(players)}
    for path, value in values.items():
        put(sheet, path, value)
    bundle = games.find_game(game)
    return bundle.paper_document(sheet) if bundle else sheet
