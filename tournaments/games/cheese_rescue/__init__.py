"""Cheese Rescue: each player's cheeses left, or the final board with the removals worked out."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring import cheese_rescue

from ..base import DemoEvent, Game
from . import demo, entry, paper, printing, stats


class CheeseRescue(Game):
    rules = cheese_rescue.RULES
    order = 40
    tiebreak_label = _("Most cheese cards left")
    tiebreak_heading = _("Cheese cards left")
    tiebreak_legend = _("Ties broken by most cheese cards left")
    demo = DemoEvent("Cheese Rescue Night", table_size=3)

    def make_entry(self):
        return entry.FORM

    def sheet(self, event, seats):
        return printing.sheet(event, seats)

    def paper_document(self, sheet):
        return paper.finish(sheet)

    def demo_sheet(self, rng, players, event):
        return demo.demo_sheet(rng, players)

    def stats(self, sheets):
        return stats.stats(sheets)


GAME = CheeseRescue()
