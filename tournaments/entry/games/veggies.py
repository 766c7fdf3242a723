"""veggies: the table form (to be drawn)."""

from __future__ import annotations

from ..layouts import FormState, GameForm, Layout


def layout(state: FormState) -> Layout:
    return Layout([])


FORM = GameForm(layout, ("stands", "teams"))
