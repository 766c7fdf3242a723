"""VEGEtables: the Modulo Segnapunti of one manche as a form."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.vegetables import FAMILIES, MAX_PENALTIES, SEQUENCES_PER_MANCHE, manche_total, pozzo_values

from ...entry.layouts import Check, FormState, GameForm, Layout, Row
from .labels import rows as row_labels

#: Each sheet holds one manche; its rows are at this path of the document.
BASE = "manches[0]"
KEYS = ("pozzo", "sequences", "family_bonuses", "penalties")


def vegetables_layout(state: FormState) -> Layout:
    """The Modulo Segnapunti of one manche: pozzo, crosses, bonuses, penalties, totals."""
    n = len(state.players)
    values = pozzo_values(n)
    labels = row_labels()
    options = {
        "pozzo": {"kind": "select", "choices": [("", "–")] + [(str(v), str(v)) for v in values]},
        "sequences": {"maximum": SEQUENCES_PER_MANCHE},
        "family_bonuses": {"maximum": FAMILIES},
        "penalties": {"maximum": MAX_PENALTIES},
    }
    rows = []
    for key in KEYS:
        path = f"{BASE}.{key}"
        label = labels[key]
        cells = [
            state.field(f"{path}[{i}]", f"{label.label}: {player}", **options[key])
            for i, player in enumerate(state.players)
        ]
        rows.append(Row(label.label, path, cells, state.errors.get(path, []), help=label.help))
    pozzo_sum = sum(state.number(f"{BASE}.pozzo[{i}]") or 0 for i in range(n))
    pozzo_max = sum(values)
    rows[0].check = Check(
        _("%(sum)d of at most %(max)d") % {"sum": pozzo_sum, "max": pozzo_max}, pozzo_sum <= pozzo_max
    )
    cross_sum = sum(state.number(f"{BASE}.sequences[{i}]") or 0 for i in range(n))
    rows[1].check = Check(
        _("%(sum)d of %(total)d") % {"sum": cross_sum, "total": SEQUENCES_PER_MANCHE},
        cross_sum == SEQUENCES_PER_MANCHE,
    )
    totals = []
    for i in range(n):
        parts = [state.number(f"{BASE}.{key}[{i}]") for key in KEYS]
        totals.append("" if None in parts else str(manche_total(*parts)))
    return Layout(rows, totals)


FORM = GameForm(vegetables_layout, ("manches",))
