"""A stored sheet as the plots read it: plain data, so a game's story is a pure function of its sheets."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class StoredSheet:
    round: int
    #: The rules' result: ``players``, each with ``score``, ``rank`` and the game's ``breakdown``.
    result: dict[str, Any]

    def breakdowns(self) -> Iterator[dict[str, Any]]:
        """Each player's breakdown of this sheet, in seat order."""
        for player in self.result.get("players", []):
            yield player.get("breakdown") or {}
