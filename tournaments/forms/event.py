"""Setting up an event: its game and rules, seating, sheets and printouts."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import scoring
from scoring.snack_match import MODIFIERS, SPECIAL_DIET

from ..models import Event, GameChoices
from ..models.event import SeatingMethod

#: What a new event of each game starts with.
GAME_DEFAULTS: dict[str, dict] = {
    GameChoices.VEGETABLES: {"table_size": 4, "manches_per_round": 4, "seating_method": SeatingMethod.MIXER},
    GameChoices.VEGGIES: {"table_size": 4, "manches_per_round": 1, "seating_method": SeatingMethod.MIXER},
    GameChoices.SNACK_MATCH: {"table_size": 4, "manches_per_round": 1, "seating_method": SeatingMethod.MIXER},
    GameChoices.CHEESE_RESCUE: {"table_size": 4, "manches_per_round": 1, "seating_method": SeatingMethod.MIXER},
}
DEFAULT_GAME = GameChoices.VEGETABLES

#: The Snack Match components of our rulebook, as sheets name them; an event may show other names.
SNACKS = {"sandwich": _("sandwich"), "donut": _("donut"), "sausage": _("sausage"), "soda": _("soda")}
CLOTHS = {"orange": _("orange tablecloth"), "green": _("green tablecloth")}
COMPONENTS = {**SNACKS, **CLOTHS}

MODIFIER_LABELS = {
    "fewest": _("fewest: +3 to whoever has the fewest"),
    "corners": _("corners: +1 per corner square"),
    "groups": _("groups: +1 per group"),
    "lines": _("lines: +2 per complete row or column"),
    "most": _("most: -3 to whoever has the most"),
    "isolated": _("isolated: -2 per lone square"),
    "center": _("center: -2 per middle square"),
    "pairs": _("pairs: -2 per group of two"),
}
DIET_CARDS = (1, 2)
DIET_NEEDED = _("The special diet needs two cards, each a component and a modifier.")

MAX_ROUNDS = 30
MAX_MANCHES = 12

#: Fields whose choices or defaults follow the game: the part of the form HTMX refreshes.
GAME_FIELDS = ("variant", "table_size", "manches_per_round", "seating_method")


def parse_points(text: str) -> list[int]:
    """``"4/2/1/0"``, ``"4, 2, 1, 0"`` or ``"4 2 1 0"`` as a list of whole numbers; empty text is []."""
    parts = [p for p in re.split(r"[\s/,;]+", text.strip()) if p]
    if not all(p.isdigit() for p in parts):
        raise forms.ValidationError(
            _("Write whole numbers from first place down, separated by / or commas, e.g. 4/2/1/0."),
            code="points",
        )
    return [int(p) for p in parts]


def format_points(points: list[int]) -> str:
    return "/".join(str(p) for p in points or [])


def game_of(data, instance: Event | None, initial: dict) -> str:
    """The game the form is about: as posted, else as asked for (or the event's), else the default."""
    for source in (data or {}, initial):
        game = source.get("game")
        if game in scoring.GAMES:
            return game
    if instance is not None and instance.game in scoring.GAMES:
        return instance.game
    return DEFAULT_GAME


class EventForm(forms.ModelForm):
    """An event's set-up; the variant and table size choices follow the chosen game."""

    variant = forms.CharField(label=_("Variant"), required=False, widget=forms.Select)
    rounds_planned = forms.IntegerField(label=_("Rounds planned"), min_value=1, max_value=MAX_ROUNDS)
    manches_per_round = forms.IntegerField(label=_("Manches per round"), min_value=1, max_value=MAX_MANCHES)
    table_size = forms.IntegerField(label=_("Table size"), min_value=2, widget=forms.Select)
    placement_points = forms.CharField(
        label=_("Placement points"),
        required=False,
        max_length=60,
        help_text=_("Tournament points for 1st, 2nd... at a full table, e.g. 4/2/1/0. Empty: 4/2/1/0."),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "date",
            "venue",
            "game",
            "variant",
            "rounds_planned",
            "manches_per_round",
            "table_size",
            "seating_method",
            "placement_points",
            "confirmation_required",
            "public",
            "language",
            "paper_size",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.game = game_of(
            self.data if self.is_bound else None, self.instance if self.instance.pk else None, self.initial
        )
        rules = scoring.GAMES[self.game]
        self.fields["variant"].widget.choices = [("", gettext("The game's default"))] + [
            (v.key, gettext(v.label)) for v in rules.variants
        ]
        self.fields["table_size"].widget.choices = [(n, str(n)) for n in rules.table_sizes]
        if self.instance.pk and self.instance.rounds.exists():
            self.fields["game"].disabled = True
            self.fields["game"].help_text = _("The game cannot change once a round is seated.")
        if isinstance(self.initial.get("placement_points"), list):
            self.initial["placement_points"] = format_points(self.initial["placement_points"])
        for key, label in COMPONENTS.items():
            self.fields[f"name_{key}"] = forms.CharField(
                label=gettext("Name shown for %(component)s") % {"component": label},
                required=False,
                max_length=40,
                initial=(self.instance.component_names or {}).get(key, ""),
            )
        cards = list(self.instance.diet or [])
        for n in DIET_CARDS:
            card = cards[n - 1] if len(cards) >= n else {}
            self.fields[f"diet_{n}_component"] = forms.ChoiceField(
                label=gettext("Diet card %(number)d: component") % {"number": n},
                required=False,
                choices=[("", "---------"), *COMPONENTS.items()],
                initial=card.get("component", ""),
            )
            self.fields[f"diet_{n}_modifier"] = forms.ChoiceField(
                label=gettext("Diet card %(number)d: modifier") % {"number": n},
                required=False,
                choices=[("", "---------")] + [(m, MODIFIER_LABELS.get(m, m)) for m in MODIFIERS],
                initial=card.get("modifier", ""),
            )

    @classmethod
    def for_game(cls, game: str, data=None, instance: Event | None = None) -> EventForm:
        """An unbound form showing ``data`` as typed, with the game's own defaults for its game fields."""
        initial = {key: value for key, value in (data or {}).items() if key not in GAME_FIELDS}
        initial["game"] = game if game in scoring.GAMES else DEFAULT_GAME
        initial.update(GAME_DEFAULTS[initial["game"]])
        initial["variant"] = ""
        if data and "name" in data:
            for name in ("confirmation_required", "public"):
                initial[name] = bool(data.get(name))
        return cls(initial=initial, instance=instance)

    @property
    def is_snack_match(self) -> bool:
        return self.game == GameChoices.SNACK_MATCH

    def game_fields(self) -> list:
        return [self[name] for name in GAME_FIELDS]

    def component_fields(self) -> list:
        return [self[f"name_{key}"] for key in COMPONENTS]

    def diet_fields(self) -> list[tuple]:
        return [(n, self[f"diet_{n}_component"], self[f"diet_{n}_modifier"]) for n in DIET_CARDS]

    def clean_placement_points(self) -> list[int]:
        return parse_points(self.cleaned_data.get("placement_points") or "")

    def clean(self):
        data = super().clean()
        game = data.get("game") or self.game
        self.instance.component_names = {}
        self.instance.diet = []
        if game != GameChoices.SNACK_MATCH:
            return data
        self.instance.component_names = {
            key: data[f"name_{key}"].strip() for key in COMPONENTS if data.get(f"name_{key}", "").strip()
        }
        if data.get("variant") == SPECIAL_DIET:
            self.instance.diet = self.clean_diet(data)
        return data

    def clean_diet(self, data) -> list[dict]:
        """The two component + modifier cards the special diet needs, with two different modifiers."""
        cards = []
        for n in DIET_CARDS:
            for part in ("component", "modifier"):
                if not data.get(f"diet_{n}_{part}"):
                    self.add_error(f"diet_{n}_{part}", DIET_NEEDED)
            cards.append({"component": data.get(f"diet_{n}_component"), "modifier": data.get(f"diet_{n}_modifier")})
        modifiers = [card["modifier"] for card in cards]
        if all(modifiers) and modifiers[0] == modifiers[1]:
            self.add_error("diet_2_modifier", _("The two diet cards need different modifiers."))
        return cards
