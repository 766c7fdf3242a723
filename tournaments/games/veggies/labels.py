"""Veggies in the players' words: the goods, the spaces of a stand's grid, mice."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.veggies import CELL_CODES, EMPTY, GOOD_OF_CELL, GOODS, MOUSE


def goods() -> dict[str, str]:
    """Each good's name, by its key, in the order of the rules."""
    names = {
        "strawberries": _("Strawberries"),
        "bananas": _("Bananas"),
        "grapes": _("Grapes"),
        "carrots": _("Carrots"),
        "mushrooms": _("Mushrooms"),
    }
    return {good: names[good] for good in GOODS}


def component_names() -> dict[str, dict[str, str]]:
    """The components the rules' messages name, by kind: the goods."""
    return {"good": goods()}


def cells() -> dict[str, str]:
    """What each code of a stand's grid stands for."""
    names = goods()
    return {
        **{code: names[good].lower() for code, good in GOOD_OF_CELL.items()},
        EMPTY: _("empty space"),
        MOUSE: _("mouse"),
    }


def letters() -> dict[str, str]:
    """The letter each code of a stand's grid shows in the active language (the code stays what the form posts);
    the codes themselves when the language's letters are not all different."""
    shown = {
        # Translators: one-letter abbreviation of "Strawberries" in a square of the stand's grid; every letter of the
        # grid (strawberries, bananas, grapes, carrots, mushrooms, empty space, mouse) must be different.
        "S": pgettext("veggies grid letter", "S"),
        # Translators: one-letter abbreviation of "Bananas" in a square of the stand's grid.
        "B": pgettext("veggies grid letter", "B"),
        # Translators: one-letter abbreviation of "Grapes" in a square of the stand's grid.
        "G": pgettext("veggies grid letter", "G"),
        # Translators: one-letter abbreviation of "Carrots" in a square of the stand's grid.
        "C": pgettext("veggies grid letter", "C"),
        # Translators: one-letter abbreviation of "Mushrooms" in a square of the stand's grid.
        "M": pgettext("veggies grid letter", "M"),
        # Translators: one-letter abbreviation of "empty space" in a square of the stand's grid.
        EMPTY: pgettext("veggies grid letter", "E"),
        # Translators: one-letter abbreviation of "mouse" in a square of the stand's grid.
        MOUSE: pgettext("veggies grid letter", "X"),
    }
    shown = {code: shown[code] for code in CELL_CODES}
    return shown if len(set(shown.values())) == len(shown) else {code: code for code in CELL_CODES}


def legend() -> str:
    """The grid's letters as one line: "S strawberries · B bananas · … · – no card"."""
    shown = letters()
    parts = [f"{shown[code]} {meaning}" for code, meaning in cells().items()]
    return " · ".join([*parts, _("– no card")])
