"""A sixth game that exists only in the tests: each table writes only who finished where.

A sheet is one place per player (1 is first; tied players share a place). The rules turn a place into a score
(the number of players minus the place), so the table's ranks are the places written; the standings rank by the
tournament points those places earn and nothing else (``ranking``), so no game score or tiebreak column is shown.
"""

from __future__ import annotations

from scoring.errors import at
from scoring.registry import GameOutcome, GameRules, PlayerScore, TallyField, Variant
from scoring.values import read_int, read_list
from tournaments.games import DemoEvent, Game

KEY = "placings"


def score_sheet(document, sheet, problems):
    """Each player's place as written, scored as the number of players at the table minus the place."""
    count = len(sheet.players)
    places = read_list(document.get("places"), "places", problems, length=count)
    if places is None:
        return None
    values = [read_int(v, at("places", i), problems, minimum=1, maximum=count) for i, v in enumerate(places)]
    if None in values:
        return None
    return GameOutcome([PlayerScore(count - place, (), {"place": place}) for place in values])


RULES = GameRules(
    key=KEY,
    name="Placings",
    variants=(Variant("standard", "Standard", (3, 4, 5)),),
    tally_fields=(TallyField("places", "Place"),),
    scorer=score_sheet,
    default_variant=lambda count: "standard",
    table_sizes=(3, 4, 5),
)


class Placings(Game):
    rules = RULES
    order = 95
    ranking = ("points",)
    demo = DemoEvent("Placings Evening")

    def demo_sheet(self, rng, players, event):
        """A finishing order at random, the last two sharing their place now and then."""
        places = list(range(1, len(players) + 1))
        if rng.random() < 0.3:
            places[-1] = places[-2]
        rng.shuffle(places)
        return {"places": places}


GAME = Placings()
