"""Cheese Rescue in the players' words: the cards of the board and the order of the removals."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.cheese_rescue import CAT, CHEESE, DOG, MOUSE, START


def animals() -> dict[str, str]:
    """What each card code of the board that is not a cheese stands for."""
    return {DOG: _("dog"), CAT: _("cat"), MOUSE: _("mouse"), START: _("start card")}


def letters() -> dict[str, str]:
    """The letter each animal card (and the start card) shows on the board in the active language; the codes
    themselves when the language's letters are not all different. The form posts the codes either way."""
    shown = {
        # Translators: one-letter abbreviation of "dog" in a square of the Cheese Rescue board; the four letters
        # (dog, cat, mouse, start card) must be different.
        DOG: pgettext("cheese rescue board letter", "D"),
        # Translators: one-letter abbreviation of "cat" in a square of the Cheese Rescue board.
        CAT: pgettext("cheese rescue board letter", "C"),
        # Translators: one-letter abbreviation of "mouse" in a square of the Cheese Rescue board.
        MOUSE: pgettext("cheese rescue board letter", "M"),
        # Translators: one-letter abbreviation of "start card" in a square of the Cheese Rescue board.
        START: pgettext("cheese rescue board letter", "S"),
    }
    return shown if len(set(shown.values())) == len(shown) else {code: code for code in shown}


def card_letters() -> dict[str, str]:
    """The letter a player writes for each card of the board on the printed sheet: the animals' and the start
    card's (``letters``), then the cheese's; all the codes when the cheese's letter is one of the others."""
    shown = {
        **letters(),
        # Translators: one-letter abbreviation of "cheese" written in a square of the printed Cheese Rescue board;
        # it must differ from the letters of dog, cat, mouse and start card.
        CHEESE: pgettext("cheese rescue board letter", "Q"),
    }
    return shown if len(set(shown.values())) == len(shown) else {code: code for code in shown}


def card_names() -> dict[str, str]:
    """What each letter of the printed board stands for: the animals, the start card and a cheese."""
    return {**animals(), CHEESE: _("cheese")}


def removal_steps() -> tuple[str, str, str]:
    """The three removals, in the order the rules make them."""
    return (_("Cats next to a dog"), _("Mice next to a cat still there"), _("Cheeses next to a mouse still there"))
