"""VEGEtables in the players' words: the rows of the Modulo Segnapunti, on screen and on paper."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.vegetables import (
    FAMILY_BONUS_POINTS,
    PENALTY_POINTS,
    POZZO_STEP,
    SEQUENCE_POINTS,
    SEQUENCES_PER_MANCHE,
)

from ...formatting import signed


@dataclass(frozen=True)
class RowLabel:
    """A row of the sheet: its name on screen, a line of help, and its shorter name on paper."""

    label: str
    help: str
    short: str


def component_names() -> dict[str, dict[str, str]]:
    """The components the rules' messages name, by kind: the rows of a manche."""
    return {"row": {key: row.label for key, row in rows().items()}}


def rows() -> dict[str, RowLabel]:
    """The rows of one manche by the key of the sheet's document, in the active language."""
    bonus = {"points": signed(FAMILY_BONUS_POINTS)}
    penalty = {"points": signed(-PENALTY_POINTS)}
    return {
        "pozzo": RowLabel(
            _("Pozzo"),
            _("%(points)d points per opponent who has not collected theirs yet.") % {"points": POZZO_STEP},
            _("Pozzo"),
        ),
        "sequences": RowLabel(
            _("Sequences (crosses)"),
            _("Closed sequences; who empties their hand also gets the open ones: %(count)d in all.")
            % {"count": SEQUENCES_PER_MANCHE},
            _("Crosses ×%(points)d") % {"points": SEQUENCE_POINTS},
        ),
        "family_bonuses": RowLabel(
            _("Family bonuses (%(points)s)") % bonus, _("Colour families completed."), bonus["points"]
        ),
        "penalties": RowLabel(
            _("Paid penalties (%(points)s)") % penalty, _("Passes without playing that were paid."), penalty["points"]
        ),
    }
