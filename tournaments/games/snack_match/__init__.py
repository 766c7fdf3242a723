"""Snack Match: picnic zones as group sizes or 4 x 4 grids, the edition's names, the special diet."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring import snack_match

from ..base import DemoEvent, Game
from . import demo, entry, options, paper, printing, stats
from .labels import component_names


class SnackMatch(Game):
    rules = snack_match.RULES
    order = 30
    #: A table's tie goes to the largest group (the rules); the standings add up each round's largest group.
    tiebreak_label = _("Largest groups, summed over rounds")
    tiebreak_heading = _("Σ largest group")
    tiebreak_legend = _("Ties broken by the largest group of each round, summed over the rounds")
    options_form = options.SnackMatchOptions
    demo = DemoEvent("Copa Snack Match", seating_method="swiss")

    def make_entry(self):
        return entry.FORM

    def clean_options(self, value, variant):
        return options.clean_options(value, variant)

    def initial_options(self, stored):
        return options.initial_options(stored)

    def document_fields(self, event):
        """The special diet's cards come from the event, whatever the table posts."""
        diet = (event.options or {}).get("diet")
        return {"diet": diet} if diet and event.effective_variant == snack_match.SPECIAL_DIET else {}

    def sheet(self, event, seats):
        return printing.sheet(event, seats)

    def paper_document(self, sheet):
        return paper.finish(sheet)

    def demo_sheet(self, rng, players, event):
        return demo.demo_sheet(rng, players)

    def component_names(self):
        return component_names()

    def stats(self, sheets):
        return stats.stats(sheets)


GAME = SnackMatch()
