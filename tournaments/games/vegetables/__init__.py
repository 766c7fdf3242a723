"""VEGEtables (expert rules): the Modulo Segnapunti, one form and one sheet block per manche."""

from __future__ import annotations

from django.utils.translation import gettext

from scoring import vegetables

from ..base import DemoEvent, EventDefaults, Game
from . import demo, entry, labels, paper, printing, stats

#: Tournament rules play at least this many manches in a round.
TOURNAMENT_MANCHES = 4


class Vegetables(Game):
    rules = vegetables.RULES
    order = 10
    defaults = EventDefaults(table_size=4, manches_per_round=TOURNAMENT_MANCHES)
    min_manches = TOURNAMENT_MANCHES
    shows_round_totals = True
    demo = DemoEvent("Torneo VEGEtables d'autunno", table_size=4, manches_per_round=TOURNAMENT_MANCHES)

    def make_entry(self):
        return entry.FORM

    def manche_title(self, number: int) -> str:
        return gettext("Manche %(number)d") % {"number": number}

    def component_names(self):
        return labels.component_names()

    def sheet(self, event, seats):
        return printing.sheet(event, seats)

    def paper_document(self, sheet):
        return paper.finish(sheet)

    def demo_sheet(self, rng, players, event):
        return demo.demo_sheet(rng, players)

    def stats(self, sheets):
        return stats.stats(sheets)


GAME = Vegetables()
