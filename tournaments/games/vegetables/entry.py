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
    """The Modulo Segnapunti of one manche: pozzo (a button per value), crosses, bonuses, penalties, totals."""
    n = len(state.players)
    values = pozzo_values(n)
    labels = row_labels()
    options = {
        "pozzo": {"kind": "choice", "choices": [(str(v), str(v)) for v in values]},
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
    rows[0].check = pozzo_check(state, sum(values))
    rows[1].check = crosses_check(state)
    return Layout(rows, [player_total(state, i) for i in range(n)])


def player_total(state: FormState, i: int) -> str:
    """Player ``i``'s score for the manche as a save counts it (``manche_total``), once each of their four boxes
    holds a number the rules accept; blank until then."""
    names = [f"{BASE}.{key}[{i}]" for key in KEYS]
    parts = [state.number(name) for name in names]
    if None in parts or any(state.errors.get(name) for name in names):
        return ""
    return str(manche_total(*parts))


def typed_row(state: FormState, key: str) -> list[int | None]:
    return [state.number(f"{BASE}.{key}[{i}]") for i in range(len(state.players))]


def pozzo_check(state: FormState, most: int) -> Check:
    """What the pozzo adds up to: wrong as soon as it passes the most there is, right once everyone has theirs."""
    typed = typed_row(state, "pozzo")
    total = sum(value or 0 for value in typed)
    ok = False if total > most else (True if None not in typed else None)
    return Check(_("%(sum)d of at most %(max)d") % {"sum": total, "max": most}, ok)


def crosses_check(state: FormState) -> Check:
    """The crosses add up to 16 a manche: wrong past 16, or once every player's are typed and they do not."""
    typed = typed_row(state, "sequences")
    total = sum(value or 0 for value in typed)
    complete = None not in typed
    ok = None if not complete and total <= SEQUENCES_PER_MANCHE else total == SEQUENCES_PER_MANCHE
    return Check(_("%(sum)d of %(total)d") % {"sum": total, "total": SEQUENCES_PER_MANCHE}, ok)


FORM = GameForm(vegetables_layout, ("manches",))
