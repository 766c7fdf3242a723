"""What a game bundle is: everything the app knows of one game, besides its pure rules, in one object.

A bundle names the game's rules (``scoring``), the defaults of a new event, the translated labels of its
components, its per-event options, how its sheet is entered at the table and printed, and the sheet of the
demo. The rest of the app reads games only through the registry (``tournaments.games``) and these hooks.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext

import scoring

from ..entry.layouts import GameForm
from ..entry.paths import put
from ..entry.tally import tally_form

if TYPE_CHECKING:
    from reportlab.platypus import Flowable

    from ..plots import Plot
    from ..plots.sheets import StoredSheet
    from ..printing.common import SeatLine


@dataclass(frozen=True)
class EventDefaults:
    """What a new event of the game starts with on the set-up form."""

    table_size: int = 4
    manches_per_round: int = 1
    seating_method: str = "mixer"


@dataclass(frozen=True)
class DemoEvent:
    """The demo's event of this game."""

    name: str
    table_size: int = 4
    manches_per_round: int = 1
    seating_method: str = "mixer"
    options: Mapping[str, Any] = field(default_factory=dict)


class OptionsForm(forms.Form):
    """The set-up form's part that a game owns; ``groups`` lay its fields out under headings."""

    #: (heading, help text, field names) for each group of fields shown on the set-up form.
    groups: Sequence[tuple[str, str, Sequence[str]]] = ()

    def __init__(self, *args, variant: str = "", **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.variant = variant

    def shown_groups(self) -> list[dict[str, Any]]:
        return [
            {"title": title, "help": help_text, "fields": [self[name] for name in names]}
            for title, help_text, names in self.groups
        ]

    def options(self) -> dict[str, Any]:
        """The event's options from the cleaned data."""
        return {}


class Game:
    """One game as the app knows it. Subclasses set ``rules`` and override what differs."""

    rules: scoring.GameRules
    defaults = EventDefaults()
    #: Tournament rules never play fewer manches in a round.
    min_manches = 1
    #: Place among the games in lists (set-up form, demo).
    order = 100
    #: Whether the table page ends with each player's total over the round's sheets so far and their place at the
    #: table, as the last lines of a paper sheet of several manches do.
    shows_round_totals = False
    #: The set-up form's part for this game's event options; None when it has none.
    options_form: type[OptionsForm] | None = None
    #: The tiebreak after the game score, as players say it (translated); by default the rules' own words.
    #: What the standings rank by, in order of precedence: keys of ``standings.metrics.METRICS``. A game whose
    #: tables give places and nothing else ranks by ``("points",)``; a column not named here is not shown.
    ranking: tuple[str, ...] = ("points", "score", "tiebreak", "buchholz")
    tiebreak_label: Any = ""
    #: The standings' column of the tiebreak: a short heading (translated, e.g. "Mice"), by default the label;
    #: ``tiebreak_sign`` -1 when the rules store the tiebreak negated (fewest mice is minus the mice), so the column
    #: shows the count itself.
    tiebreak_heading: Any = ""
    tiebreak_sign = 1
    #: One line under the standings saying what the column decides (translated, e.g. "Ties broken by fewest mice").
    tiebreak_legend: Any = ""

    def __init__(self) -> None:
        self.entry = self.make_entry()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}>"

    @property
    def key(self) -> str:
        return self.rules.key

    @property
    def template_dir(self) -> Path:
        """The folder of the game's own templates: ``templates`` beside the module that defines the game."""
        return Path(inspect.getfile(type(self))).resolve().parent / "templates"

    @property
    def name(self) -> str:
        """The game's own name, the same in every language."""
        return self.rules.name

    def tiebreak_name(self) -> str:
        """The tiebreak's name in the active language; empty when the game has none."""
        if self.tiebreak_label:
            return str(self.tiebreak_label)
        return capfirst(gettext(self.rules.tiebreak_label)) if self.rules.tiebreak_label else ""

    def tiebreak_column(self) -> str:
        """The heading of the standings' tiebreak column in the active language; empty when the game has none."""
        return str(self.tiebreak_heading) if self.tiebreak_heading else self.tiebreak_name()

    def tiebreak_value(self, stored: int) -> int:
        """The tiebreak as the standings show it: the count players know, never the rules' negated value."""
        return stored * self.tiebreak_sign

    def tiebreak_explained(self) -> str:
        """The standings' one-line legend of the tiebreak; empty when the game has none."""
        if self.tiebreak_legend:
            return str(self.tiebreak_legend)
        name = self.tiebreak_name()
        return gettext("Ties broken by: %(tiebreak)s") % {"tiebreak": name} if name else ""

    # Variants and manches

    def variant_label(self, key: str) -> str:
        variant = self.rules.variant(key)
        return gettext(variant.label) if variant else key

    def default_variants(self) -> dict[str, list[int]]:
        """The rules' default variant at each table size the game is played at: the sizes by variant."""
        sizes: dict[str, list[int]] = {}
        for size in self.rules.table_sizes:
            sizes.setdefault(self.rules.default_variant(size), []).append(size)
        return sizes

    def fixed_default_variant(self) -> str:
        """The rules' default variant when it is the same at every table size; empty when the size decides."""
        defaults = self.default_variants()
        return next(iter(defaults)) if len(defaults) == 1 else ""

    def variant_choices(self) -> list[tuple[str, str]]:
        """The set-up form's variants, each once. A default the same at every table size comes first, named as
        the default; a default that the table size decides is the empty choice, named after the variant of most
        sizes with the others' sizes: "Standard (Two players at 2)"."""
        fixed = self.fixed_default_variant()
        choices = [(variant.key, self.variant_label(variant.key)) for variant in self.rules.variants]
        if fixed:
            default = gettext("%(variant)s (the game's default)") % {"variant": self.variant_label(fixed)}
            return [(fixed, default)] + [choice for choice in choices if choice[0] != fixed]
        main, *others = sorted(self.default_variants().items(), key=lambda item: -len(item[1]))
        at_sizes = "; ".join(
            gettext("%(variant)s at %(sizes)s")
            % {"variant": self.variant_label(key), "sizes": ", ".join(str(size) for size in sizes)}
            for key, sizes in others
        )
        label = gettext("%(variant)s (%(others)s)") % {"variant": self.variant_label(main[0]), "others": at_sizes}
        return [("", label)] + choices

    def manche_title(self, number: int) -> str:
        """The heading of one manche of a round's sheet."""
        return gettext("Game %(number)d") % {"number": number}

    def clean_event(self, event) -> dict[str, Any]:
        """Errors by field name of an event's set-up that this game's tournament rules do not allow."""
        errors: dict[str, Any] = {}
        if event.manches_per_round < self.min_manches:
            message = gettext("Tournament rules of %(game)s play at least %(count)d manches a round.")
            errors["manches_per_round"] = message % {
                "game": self.name,
                "count": self.min_manches,
            }
        return errors

    # Per-event options

    def clean_options(self, value: Any, variant: str) -> dict[str, Any]:
        """The event's options checked and normalised; raises ValidationError naming what is wrong."""
        if value in (None, {}):
            return {}
        raise ValidationError(gettext("%(game)s has no options to set.") % {"game": self.name}, code="options")

    def initial_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options form's initial values for an event's stored options."""
        return {}

    def document_fields(self, event) -> dict[str, Any]:
        """Fields of every sheet that the event decides rather than the table (none by default)."""
        return {}

    # Entry, printing and the demo

    def make_entry(self) -> GameForm:
        """How the table enters a sheet; by default one number per player for each of the rules' tally fields."""
        return tally_form(self.rules.tally_fields)

    def sheet(self, event, seats: Sequence[SeatLine]) -> Flowable:
        """The game's part of a printed score sheet; by default a row per tally field and a total."""
        from ..printing.tally import TallySheet

        return TallySheet(self.rules.tally_fields, seats)

    def sheet_from_paper(self, players: Sequence[str], values: Mapping[str, object]) -> dict[str, Any]:
        """The manche's document from its read boxes (``values``: document path -> value as read or corrected), made
        whole by ``paper_document``."""
        sheet: dict[str, Any] = {"game": self.key, "players": list(players)}
        for path, value in values.items():
            put(sheet, path, value)
        return self.paper_document(sheet)

    def paper_document(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """A document put together from a paper sheet's boxes, made whole as the printed sheet means it (a blank box
        that means none, ticks that stand for a tally); by default as it is."""
        return sheet

    demo: DemoEvent | None = None

    def demo_sheet(self, rng: random.Random, players: Sequence[str], event) -> dict[str, Any]:
        """The game's own fields of a plausible sheet for the demo."""
        raise NotImplementedError

    # Statistics

    def stats(self, sheets: Sequence[StoredSheet]) -> list[Plot]:
        """The game's own story of an event as plots, from its stored sheets (none by default)."""
        return []

    # The components the rules' messages name

    def component_names(self) -> Mapping[str, Mapping[str, str]]:
        """The components the rules' messages name (goods, rows...), by kind and key, in the active language."""
        return {}

    def component_label(self, kind: str, key: str) -> str:
        """One component of the game (``scoring.errors.Component``) as players read it; else its key.

        Variants are named by their label; every other kind by ``component_names``.
        """
        if kind == "variant":
            return self.variant_label(key)
        return self.component_names().get(kind, {}).get(key, key)
