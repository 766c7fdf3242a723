"""A fifth game that exists only in the tests: each player writes one score, the highest wins.

It is registered like the real games (``settings.EXTRA_GAMES``) and brings only its rules and what the
base game offers: the plain tally form, the plain printed sheet, and a demo sheet.
"""

from __future__ import annotations

from scoring.errors import at
from scoring.registry import GameOutcome, GameRules, PlayerScore, TallyField, Variant
from scoring.values import read_int, read_list
from tournaments.games import DemoEvent, Game

KEY = "high-score"
MAX_SCORE = 999


def score_sheet(document, sheet, problems):
    """Each player's score as written: the larger score wins, equal scores share the place."""
    scores = read_list(document.get("scores"), "scores", problems, length=len(sheet.players))
    if scores is None:
        return None
    values = [read_int(v, at("scores", i), problems, minimum=0, maximum=MAX_SCORE) for i, v in enumerate(scores)]
    if None in values:
        return None
    return GameOutcome([PlayerScore(value, (), {"score": value}) for value in values])


RULES = GameRules(
    key=KEY,
    name="High Score",
    variants=(Variant("standard", "Standard", (2, 3, 4)),),
    tally_fields=(TallyField("scores", "Score", "The number on your card."),),
    scorer=score_sheet,
    default_variant=lambda count: "standard",
    table_sizes=(2, 3, 4),
)


class HighScore(Game):
    rules = RULES
    order = 90
    demo = DemoEvent("High Score Night")

    def demo_sheet(self, rng, players, event):
        return {"scores": [rng.randint(0, MAX_SCORE) for _player in players]}


GAME = HighScore()
