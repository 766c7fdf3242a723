"""Crown Tricks: a game that exists only in the tests, whose rules live beside its bundle (``rules.py``).

It is added as the docs say a game is added and takes every default: the plain tally form and printed sheet, no
``document`` (a list of numbers per tally field), no options. It ranks without tournament points: by game score,
then by fewest penalty cards.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.games import DemoEvent, Game

from . import rules


class CrownTricks(Game):
    rules = rules.RULES
    order = 97
    ranking = ("score", "tiebreak")
    tiebreak_heading = _("Penalties")
    tiebreak_sign = -1  # the rules rank by minus the penalty cards
    demo = DemoEvent("Crown Tricks Club")

    def demo_sheet(self, rng, players, event):
        """Thirteen tricks dealt out among the players, a crown now and then, a few penalty cards."""
        tricks = [0] * len(players)
        for _trick in range(rules.LIMITS["tricks"]):
            tricks[rng.randrange(len(players))] += 1
        crowns = [min(rng.randint(0, 2), taken) for taken in tricks]
        return {"tricks": tricks, "crowns": crowns, "penalties": [rng.randint(0, 3) for _player in players]}


GAME = CrownTricks()
