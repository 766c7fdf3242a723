"""VEGEtables: the Modulo Segnapunti of one manche as a form."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.vegetables import manche_total

from ..layouts import Check, FormState, GameForm, Layout, Row


def vegetables_layout(state: FormState) -> Layout:
    """The Modulo Segnapunti of one manche: pozzo, crosses, bonuses, penalties, totals."""
    n = len(state.players)
    base = "manches[0]"
    pozzo_values = [10 * k for k in range(n - 1, -1, -1)]
    choices = [("", "–")] + [(str(v), str(v)) for v in pozzo_values]
    rows = []
    specs = [
        (
            "pozzo",
            _("Pozzo"),
            _("30 to the first to collect it, then 20, 10, 0."),
            {"kind": "select", "choices": choices},
        ),
        ("sequences", _("Sequences (crosses)"), _("Every manche has 16 crosses in all."), {"maximum": 16}),
        ("family_bonuses", _("Family bonuses (+30)"), _("Colour families completed."), {"maximum": 4}),
        ("penalties", _("Paid penalties (-50)"), _("Passes without playing that were paid."), {"maximum": 40}),
    ]
    specs[0][3]["choices"] = choices
    for key, label, help_text, options in specs:
        path = f"{base}.{key}"
        cells = [state.field(f"{path}[{i}]", f"{label}: {player}", **options) for i, player in enumerate(state.players)]
        rows.append(Row(label, path, cells, state.errors.get(path, []), help=help_text))
    pozzo = [state.number(f"{base}.pozzo[{i}]") for i in range(n)]
    crosses = [state.number(f"{base}.sequences[{i}]") for i in range(n)]
    pozzo_max = sum(pozzo_values)
    pozzo_sum = sum(v or 0 for v in pozzo)
    rows[0].check = Check(
        _("%(sum)d of at most %(max)d") % {"sum": pozzo_sum, "max": pozzo_max}, pozzo_sum <= pozzo_max
    )
    cross_sum = sum(v or 0 for v in crosses)
    rows[1].check = Check(_("%(sum)d of 16") % {"sum": cross_sum}, cross_sum == 16)
    totals = []
    for i in range(n):
        parts = [state.number(f"{base}.{key}[{i}]") for key in ("pozzo", "sequences", "family_bonuses", "penalties")]
        totals.append("" if None in parts else str(manche_total(*parts)))
    return Layout(rows, totals)


FORM = GameForm(vegetables_layout, ("manches",))
