"""What the app needs to know of each game: names, variants, player counts, tally fields."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import Problems
from .shape import ANY, COMMON


@dataclass(frozen=True)
class PlayerScore:
    """One player's outcome: the score, the tiebreak values (larger is better), how it was made."""

    score: int
    tiebreak: tuple[int, ...] = ()
    breakdown: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TeamScore:
    """A team's outcome in a team variant; ``players`` are names from the document."""

    players: tuple[str, ...]
    score: int
    tiebreak: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameOutcome:
    """What a game module returns: one PlayerScore per seat, and teams for team variants."""

    players: list[PlayerScore]
    teams: list[TeamScore] | None = None


@dataclass(frozen=True)
class Sheet:
    """The common fields of a document, already checked."""

    game: str
    variant: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class Variant:
    key: str
    label: str
    player_counts: tuple[int, ...]


@dataclass(frozen=True)
class TallyField:
    """One number a player writes on the paper sheet (per player, or per player per manche)."""

    key: str
    label: str
    help: str = ""


Scorer = Callable[[dict, Sheet, Problems], "GameOutcome | None"]


@dataclass(frozen=True)
class GameRules:
    key: str
    name: str
    variants: tuple[Variant, ...]
    tally_fields: tuple[TallyField, ...]
    scorer: Scorer
    default_variant: Callable[[int], str]
    #: Tables of how many players this game is played at in a tournament.
    table_sizes: tuple[int, ...]
    #: The tiebreak after the score, as players know it ("fewest mice"); empty when there is none.
    tiebreak_label: str = ""
    #: Several manches per round are added up (VEGEtables); the others score each manche alone.
    has_manches: bool = False
    #: The game's own fields of a document and what each holds, as ``shape`` describes them: the keys the
    #: scorer reads. None for a game whose sheet is one list of numbers per tally field.
    document: dict[str, Any] | None = None

    @property
    def document_shape(self) -> dict[str, Any]:
        """The shape of this game's documents: the common fields and the game's own; other keys are dropped."""
        own = self.document if self.document is not None else {tally.key: ANY for tally in self.tally_fields}
        return {**COMMON, **own}

    def variant(self, key: str) -> Variant | None:
        return next((v for v in self.variants if v.key == key), None)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted({n for v in self.variants for n in v.player_counts}))

    @property
    def min_players(self) -> int:
        return min(self.player_counts)

    @property
    def max_players(self) -> int:
        return max(self.player_counts)


#: Placement points by table size when an event sets none: first of 4/2/1/0 for as many seats.
DEFAULT_PLACEMENT_POINTS = (4, 2, 1, 0)


def default_placement_points(table_size: int) -> tuple[int, ...]:
    """4/2/1/0 at four, 4/2/1 at three, 4/2 at two; zero for any seat past the fourth."""
    points = DEFAULT_PLACEMENT_POINTS[:table_size]
    return points + (0,) * (table_size - len(points))
