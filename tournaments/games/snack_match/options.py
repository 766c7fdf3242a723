"""What a Snack Match event decides: the names its edition prints, and the special diet's two cards.

Stored as the event's options: ``{"names": {"snacks": {key: name}, "cloths": {...}}, "diet": [card, card]}``,
each diet card ``{"kind": "snack" | "cloth", "component": key, "modifier": key}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.snack_match import MAX_NAME_LENGTH, MODIFIERS, SPECIAL_DIET, TALLY_KEYS

from ..base import OptionsForm
from .labels import KEY, KIND_OF, RULEBOOK, components, modifiers

DIET_CARDS = (1, 2)


def clean_options(value: Any, variant: str) -> dict[str, Any]:
    """The options checked and normalised (empty parts left out); ValidationError names what is wrong."""
    if value in (None, {}):
        return {}
    if not isinstance(value, dict) or not set(value) <= {"names", "diet"}:
        raise ValidationError(gettext("Snack Match options are the components' names and the diet cards."))
    options: dict[str, Any] = {}
    names = clean_names(value.get("names") or {})
    if names:
        options["names"] = names
    diet = clean_diet(value.get("diet") or [], variant, components(options))
    if diet:
        options["diet"] = diet
    return options


def clean_names(value: Any) -> dict[str, dict[str, str]]:
    if not isinstance(value, dict) or not set(value) <= set(RULEBOOK):
        raise ValidationError(gettext("Name the snacks and tablecloths under “snacks” and “cloths”."))
    names = {}
    for kind, named in value.items():
        if not isinstance(named, dict) or len(named) > 16:
            raise ValidationError(gettext("Give at most 16 names of each kind, each by its key."))
        cleaned = {}
        for key, name in named.items():
            if not KEY.match(str(key)) or not isinstance(name, str) or len(name.strip()) > MAX_NAME_LENGTH:
                raise ValidationError(
                    gettext("A component's key is a short word and its name at most %(count)d characters.")
                    % {"count": MAX_NAME_LENGTH}
                )
            if name.strip():
                cleaned[key] = name.strip()
        if cleaned:
            names[kind] = cleaned
    return names


def clean_diet(value: Any, variant: str, kinds: dict[str, dict[str, str]]) -> list[dict[str, str]]:
    """No card outside the special diet; in it, none yet or two cards with two different modifiers."""
    if not value:
        return []
    if variant != SPECIAL_DIET:
        raise ValidationError(gettext("Only the special diet variant has diet cards."))
    if not isinstance(value, list) or len(value) != len(DIET_CARDS):
        raise ValidationError(gettext("The special diet needs two cards, each a component and a modifier."))
    cards = [clean_card(card, kinds) for card in value]
    if cards[0]["modifier"] == cards[1]["modifier"]:
        raise ValidationError(gettext("The two diet cards need different modifiers."))
    return cards


def clean_card(card: Any, kinds: dict[str, dict[str, str]]) -> dict[str, str]:
    """One card: a component of the event (its kind told, or found) and a modifier."""
    if not isinstance(card, dict) or card.get("modifier") not in MODIFIERS:
        raise ValidationError(gettext("Each diet card has a component and one of the modifiers."))
    component = card.get("component")
    found = [kind for kind, tally in TALLY_KEYS.items() if component in kinds[tally]]
    kind = card.get("kind") or (found[0] if len(found) == 1 else None)
    if kind not in found:
        raise ValidationError(
            gettext("“%(component)s” is not one of this event's snacks or tablecloths.") % {"component": component}
        )
    return {"kind": kind, "component": component, "modifier": card["modifier"]}


class SnackMatchOptions(OptionsForm):
    """The names of the rulebook's components, and the special diet's two cards."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "---------")] + [
            (key, title(kind, label)) for kind, named in RULEBOOK.items() for key, label in named.items()
        ]
        for kind, named in RULEBOOK.items():
            for key, label in named.items():
                self.fields[f"name_{key}"] = forms.CharField(
                    label=gettext("Name shown for %(component)s") % {"component": title(kind, label)},
                    required=False,
                    max_length=MAX_NAME_LENGTH,
                )
        for n in DIET_CARDS:
            self.fields[f"diet_{n}_component"] = forms.ChoiceField(
                label=gettext("Diet card %(number)d: component") % {"number": n}, required=False, choices=choices
            )
            self.fields[f"diet_{n}_modifier"] = forms.ChoiceField(
                label=gettext("Diet card %(number)d: modifier") % {"number": n},
                required=False,
                choices=[("", "---------"), *modifiers().items()],
            )
        self.groups = (
            (
                gettext("Snack Match components"),
                gettext("Optional: the names your edition prints, shown instead of ours."),
                [f"name_{key}" for named in RULEBOOK.values() for key in named],
            ),
            (
                gettext("Special diet cards"),
                gettext("Only for the special diet variant: two cards, each a component and a modifier."),
                [f"diet_{n}_{part}" for n in DIET_CARDS for part in ("component", "modifier")],
            ),
        )

    def clean(self):
        data = super().clean()
        if self.variant != SPECIAL_DIET:
            return data
        for n in DIET_CARDS:
            for part in ("component", "modifier"):
                if not data.get(f"diet_{n}_{part}"):
                    self.add_error(
                        f"diet_{n}_{part}", _("The special diet needs two cards, each a component and a modifier.")
                    )
        modifiers_chosen = [data.get(f"diet_{n}_modifier") for n in DIET_CARDS]
        if all(modifiers_chosen) and modifiers_chosen[0] == modifiers_chosen[1]:
            self.add_error("diet_2_modifier", _("The two diet cards need different modifiers."))
        return data

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        names = {
            kind: {key: data[f"name_{key}"].strip() for key in named if data.get(f"name_{key}", "").strip()}
            for kind, named in RULEBOOK.items()
        }
        options: dict[str, Any] = {"names": {kind: named for kind, named in names.items() if named}}
        if self.variant == SPECIAL_DIET:
            options["diet"] = [
                {
                    "kind": KIND_OF[next(kind for kind, named in RULEBOOK.items() if component in named)],
                    "component": component,
                    "modifier": data[f"diet_{n}_modifier"],
                }
                for n in DIET_CARDS
                if (component := data.get(f"diet_{n}_component"))
            ]
        return options


def title(kind: str, label: Any) -> str:
    return gettext("%(name)s (tablecloth)") % {"name": label} if kind == "cloths" else str(label)


def initial_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The form's values for stored options: the rulebook's names the event changed, and the diet cards."""
    initial = {}
    for kind, named in (options.get("names") or {}).items():
        for key, name in named.items():
            if key in RULEBOOK.get(kind, {}):
                initial[f"name_{key}"] = name
    for n, card in zip(DIET_CARDS, options.get("diet") or []):
        initial[f"diet_{n}_component"] = card.get("component", "")
        initial[f"diet_{n}_modifier"] = card.get("modifier", "")
    return initial
