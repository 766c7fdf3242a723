"""Snack Match in the players' words: the rulebook's snacks and tablecloths, the event's own names, the diet."""

from __future__ import annotations

import re
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.snack_match import KINDS, MODIFIERS, TALLY_KEYS

from ...collation import alphabetical

#: A component key usable as a step of a field's path (and inside a "snack/cloth" square).
KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,39}$")

#: The rulebook's components by kind (the tally's key) and by the key sheets use, with their shown names.
RULEBOOK = {
    "snacks": {
        "sandwich": gettext_lazy("sandwich"),
        "donut": gettext_lazy("donut"),
        "sausage": gettext_lazy("sausage"),
        "soda": gettext_lazy("soda"),
    },
    "cloths": {"orange": gettext_lazy("orange"), "green": gettext_lazy("green")},
}
#: Marks that tell the rulebook's squares apart in a narrow select (its text is cut after a few letters).
MARKS = {"sandwich": "🥪", "donut": "🍩", "sausage": "🌭", "soda": "🥤", "orange": "🟧", "green": "🟩"}
#: The kind of a diet card's component (``scoring``'s word) by the tally's key for that kind.
KIND_OF = {TALLY_KEYS[kind]: kind for kind in KINDS}


def kinds() -> dict[str, str]:
    """The two kinds of component (``scoring``'s words), as players say them."""
    return {"snack": _("snack"), "cloth": _("tablecloth")}


def component_names() -> dict[str, dict[str, str]]:
    """The components the rules' messages name, by kind: the rulebook's snacks and tablecloths (a "component"
    is either), the modifier cards and the kinds themselves."""
    rulebook = components(None)
    by_kind = {kind: rulebook[TALLY_KEYS[kind]] for kind in KINDS}
    either = {key: name for kind in reversed(KINDS) for key, name in by_kind[kind].items()}
    return {**by_kind, "component": either, "modifier": modifiers(), "kind": kinds()}


def modifiers() -> dict[str, str]:
    """Each modifier card, as the organiser and the players read it."""
    labels = {
        "fewest": _("fewest: +3 to whoever has the fewest"),
        "corners": _("corners: +1 per corner square"),
        "groups": _("groups: +1 per group"),
        "lines": _("lines: +2 per complete row or column"),
        "most": _("most: -3 to whoever has the most"),
        "isolated": _("isolated: -2 per lone square"),
        "center": _("center: -2 per middle square"),
        "pairs": _("pairs: -2 per group of two"),
    }
    return {key: labels.get(key, key) for key in MODIFIERS}


def components(options: Mapping[str, Any] | None) -> dict[str, dict[str, str]]:
    """The event's snacks and tablecloths by kind and key, with their shown names.

    ``options["names"][kind]`` either renames the rulebook's components of that kind (only their keys) or,
    naming any other key, lists the kind's components of the event's own edition, in alphabetical order of their
    names (PostgreSQL keeps a JSON object's keys in an order of its own, so the order they were typed in is lost).
    """
    names = (options or {}).get("names") or {}
    chosen = {}
    for kind, rulebook in RULEBOOK.items():
        own = names.get(kind) or {}
        if any(key not in rulebook for key in own):
            chosen[kind] = dict(alphabetical(((key, str(name or key)) for key, name in own.items()), key=itemgetter(1)))
        else:
            chosen[kind] = {key: str(own.get(key) or label) for key, label in rulebook.items()}
    return chosen


def component_title(kind: str, name: str) -> str:
    """A component as a row of the sheet names it: "Snack: sandwich", "Tablecloth: orange"."""
    if kind == "snacks":
        return _("Snack: %(name)s") % {"name": name}
    return _("Tablecloth: %(name)s") % {"name": name}


def card_title(card: Mapping[str, Any], kinds: dict[str, dict[str, str]]) -> str:
    """A diet card's component, with its kind: "Tablecloth: green"."""
    kind = TALLY_KEYS.get(card.get("kind", ""), "")
    key = str(card.get("component", ""))
    if not kind:
        kind = next((k for k, named in kinds.items() if key in named), "snacks")
    return component_title(kind, kinds.get(kind, {}).get(key, key))
