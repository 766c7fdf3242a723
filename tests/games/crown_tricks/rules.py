"""The rules of Crown Tricks, a trick-taking game that exists only in the tests, as pure Python.

Each player writes the tricks they took, the crowns (bonus cards) among them and the penalty cards they hold. The
score is a point a trick and three a crown; penalties do not cost points but break ties: the fewer, the better.
"""

from __future__ import annotations

from scoring.errors import at
from scoring.registry import GameOutcome, GameRules, PlayerScore, TallyField, Variant
from scoring.values import read_int, read_list

KEY = "crown-tricks"
#: What one crown is worth, in points.
CROWN = 3
#: The most of each a player can write: tricks in a hand of thirteen, the deck's four crowns, nine penalty cards.
LIMITS = {"tricks": 13, "crowns": 4, "penalties": 9}


def crown_tricks_score(tricks: int, crowns: int) -> int:
    """A player's score: a point a trick, ``CROWN`` a crown."""
    return tricks + CROWN * crowns


def score_sheet(document, sheet, problems):
    """Each player's score from their tricks and crowns, the tiebreak minus their penalty cards."""
    count = len(sheet.players)
    columns: dict[str, list[int | None]] = {}
    for key, limit in LIMITS.items():
        values = read_list(document.get(key), key, problems, length=count)
        if values is not None:
            columns[key] = [read_int(v, at(key, i), problems, minimum=0, maximum=limit) for i, v in enumerate(values)]
    if problems:
        return None
    players = [
        PlayerScore(crown_tricks_score(tricks, crowns), (-penalties,), {"tricks": tricks, "crowns": crowns})
        for tricks, crowns, penalties in zip(columns["tricks"], columns["crowns"], columns["penalties"], strict=True)
    ]
    return GameOutcome(players)


RULES = GameRules(
    key=KEY,
    name="Crown Tricks",
    variants=(Variant("standard", "Standard", (3, 4, 5)),),
    tally_fields=(
        TallyField("tricks", "Tricks", "The tricks you took."),
        TallyField("crowns", "Crowns", "The crowns among your tricks."),
        TallyField("penalties", "Penalty cards"),
    ),
    scorer=score_sheet,
    default_variant=lambda count: "standard",
    table_sizes=(3, 4, 5),
    tiebreak_label="fewest penalty cards",
)
