"""Cheese Rescue: each player's cheeses left on the board, or the board itself."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..layouts import FormState, GameForm, Layout, Row


def cheese_rescue_layout(state: FormState) -> Layout:
    """Each player's cheese points and cheese cards left on the board."""
    rows = []
    for key, label, maximum in (
        ("cheese_points", _("Cheese points left"), 10),
        ("cheese_cards", _("Cheese cards left"), 6),
    ):
        cells = [
            state.field(f"tallies[{i}].{key}", f"{label}: {player}", maximum=maximum)
            for i, player in enumerate(state.players)
        ]
        rows.append(Row(label, f"tallies.{key}", cells))
    return Layout(rows)


FORM = GameForm(cheese_rescue_layout, ("tallies", "board"))
