"""Veggies: market stands as counts per good or as grids, the declared goods, and mice."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring import veggies

from ..base import DemoEvent, Game
from . import demo, entry, labels, paper, printing, stats


class Veggies(Game):
    rules = veggies.RULES
    order = 20
    tiebreak_label = _("Fewest mice")
    tiebreak_heading = _("Mice")
    tiebreak_sign = -1  # the rules rank by minus the mice
    tiebreak_legend = _("Ties broken by fewest mice")
    demo = DemoEvent("Veggies Market Cup")

    def make_entry(self):
        return entry.FORM

    def sheet(self, event, seats):
        return printing.sheet(event, seats)

    def paper_document(self, sheet):
        return paper.finish(sheet)

    def demo_sheet(self, rng, players, event):
        return demo.demo_sheet(rng, players, event.effective_variant)

    def component_names(self):
        return labels.component_names()

    def stats(self, sheets):
        return stats.stats(sheets)


GAME = Veggies()
