"""The plainest table form: for each of the rules' tally fields, one whole number per player."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext

from scoring.registry import TallyField

from .layouts import FormState, GameForm, Layout, Row


def tally_rows(fields: Sequence[TallyField], state: FormState) -> list[Row]:
    """A row per tally field, named ``key[seat]``, with the field's help under its label."""
    rows = []
    for tally in fields:
        label = gettext(tally.label)
        cells = [
            state.field(f"{tally.key}[{i}]", f"{label}: {player}", minimum=None)
            for i, player in enumerate(state.players)
        ]
        help_text = gettext(tally.help) if tally.help else ""
        rows.append(Row(label, tally.key, cells, state.errors.get(tally.key, []), help=help_text))
    return rows


def tally_form(fields: Sequence[TallyField]) -> GameForm:
    """The form of a game whose sheet is one list of whole numbers per tally field."""

    def layout(state: FormState) -> Layout:
        return Layout(tally_rows(fields, state))

    return GameForm(layout, tuple(tally.key for tally in fields))
