"""Cheese Rescue in the players' words: the cards of the board and the order of the removals."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.cheese_rescue import CAT, DOG, MOUSE, START


def animals() -> dict[str, str]:
    """What each card code of the board that is not a cheese stands for."""
    return {DOG: _("dog"), CAT: _("cat"), MOUSE: _("mouse"), START: _("start card")}


def removal_steps() -> tuple[str, str, str]:
    """The three removals, in the order the rules make them."""
    return (_("Cats next to a dog"), _("Mice next to a cat still there"), _("Cheeses next to a mouse still there"))
