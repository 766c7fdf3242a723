"""Veggies in the players' words: the goods, the spaces of a stand's grid, mice."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.veggies import EMPTY, GOOD_OF_CELL, GOODS, MOUSE


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


def legend() -> str:
    """The grid's codes as one line: "S strawberries · B bananas · … · – no card"."""
    parts = [f"{code} {meaning}" for code, meaning in cells().items()]
    return " · ".join([*parts, _("– no card")])
