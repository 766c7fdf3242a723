"""Setting up an event: its game and rules, seating, sheets and printouts; the game's own options beside them."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import games
from ..access import clubs_of
from ..collation import alphabetical
from ..models import Club, Event
from ..models.event import MAX_PLACEMENT_POINTS, MAX_PLACES, Confirmation
from ..names import clean_text, has_visible_character
from ..numbers import DIGITS
from .address import address_field, cleaned_address

MAX_ROUNDS = 30
#: The most manches a round of an event may have (a sheet may carry more: the rules bound those).
MAX_MANCHES_PER_ROUND = 12

#: Fields whose choices or defaults follow the game: the part of the form HTMX refreshes.
GAME_FIELDS = ("variant", "table_size", "manches_per_round", "seating_method")


def parse_points(text: str) -> list[int]:
    """``"4/2/1/0"``, ``"4, 2, 1, 0"`` or ``"4 2 1 0"`` as a list of whole numbers; empty text is [].

    Only the digits 0-9 count (``str.isdigit`` would take ``²``); each number is at most
    ``MAX_PLACEMENT_POINTS`` and there are at most ``MAX_PLACES`` of them.
    """
    parts = [p for p in re.split(r"[\s/,;]+", text.strip()) if p]
    if not all(DIGITS.fullmatch(p) for p in parts):
        raise forms.ValidationError(
            _("Write whole numbers from first place down, separated by / or commas, e.g. 4/2/1/0."),
            code="points",
        )
    if len(parts) > MAX_PLACES:
        raise forms.ValidationError(
            _("Give points for at most %(places)d places."), code="points_places", params={"places": MAX_PLACES}
        )
    points = [int(p) for p in parts]
    if max(points, default=0) > MAX_PLACEMENT_POINTS:
        raise forms.ValidationError(
            _("A place earns at most %(maximum)d points."),
            code="points_maximum",
            params={"maximum": MAX_PLACEMENT_POINTS},
        )
    return points


def format_points(points: list[int]) -> str:
    return "/".join(str(p) for p in points or [])


def game_of(data, instance: Event | None, initial: dict) -> games.Game:
    """The game the form is about: as posted, else as asked for (or the event's), else the first game."""
    for source in (data or {}, initial):
        game = games.find_game(source.get("game"))
        if game is not None:
            return game
    if instance is not None:
        game = games.find_game(instance.game)
        if game is not None:
            return game
    return games.default_game()


class EventForm(forms.ModelForm):
    """An event's set-up; the variant and table size choices follow the chosen game, and so do its options."""

    game = forms.ChoiceField(label=_("Game"))
    variant = forms.CharField(label=_("Variant"), required=False, widget=forms.Select)
    rounds_planned = forms.IntegerField(label=_("Rounds planned"), min_value=1, max_value=MAX_ROUNDS)
    manches_per_round = forms.IntegerField(label=_("Manches per round"), min_value=1, max_value=MAX_MANCHES_PER_ROUND)
    table_size = forms.IntegerField(label=_("Table size"), min_value=2, widget=forms.Select)
    placement_points = forms.CharField(
        label=_("Placement points"),
        required=False,
        max_length=60,
        help_text=_("Tournament points for 1st, 2nd... at a full table, e.g. 4/2/1/0. Empty: 4/2/1/0."),
    )

    public_url = address_field()
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Club.objects.none(),
        required=False,
        empty_label=_("None: the tournament stands alone"),
        help_text=_("The club's people and ratings count this tournament's results."),
    )
    new_club = forms.CharField(
        label=_("Or a new club"),
        required=False,
        max_length=120,
        help_text=_("Its name; you become its organiser."),
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
            "confirmation",
            "public",
            "language",
            "paper_size",
            "public_url",
            "club",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, user=None, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.user = user
        clubs = clubs_of(user) if user is not None else Club.objects.none()
        if self.instance.club_id:
            clubs = clubs | Club.objects.filter(pk=self.instance.club_id)
        self.fields["club"].queryset = clubs.distinct()
        self.fields["club"].choices = [("", self.fields["club"].empty_label)] + [
            (club.pk, club.name) for club in alphabetical(clubs.distinct(), key=lambda club: club.name)
        ]
        self.game = game_of(
            self.data if self.is_bound else None, self.instance if self.instance.pk else None, self.initial
        )
        self.fields["game"].choices = games.game_choices()
        self.fields["confirmation"].required = False
        self.fields["confirmation"].widget = forms.RadioSelect(choices=Confirmation.choices)
        self.fields["variant"].widget.choices = self.game.variant_choices()
        if not self.initial.get("variant"):
            self.initial["variant"] = self.game.fixed_default_variant()
        self.fields["table_size"].widget.choices = [(n, str(n)) for n in self.game.rules.table_sizes]
        if self.instance.pk and self.instance.rounds.exists():
            self.fields["game"].disabled = True
            self.fields["game"].help_text = _("The game cannot change once a round is seated.")
        if isinstance(self.initial.get("placement_points"), list):
            self.initial["placement_points"] = format_points(self.initial["placement_points"])
        self.options_form = self.make_options_form()

    def make_options_form(self):
        """The game's own part of the form, bound to the same data; None when the game has no options."""
        form_class = self.game.options_form
        if form_class is None:
            return None
        variant = (self.data.get("variant") if self.is_bound else self.initial.get("variant")) or ""
        if self.is_bound:
            return form_class(self.data, variant=variant)
        stored = self.instance.options if self.instance.pk and self.instance.game == self.game.key else {}
        return form_class(initial={**self.game.initial_options(stored or {}), **self.initial}, variant=variant)

    @classmethod
    def for_game(cls, game: str, data=None, instance: Event | None = None, user=None) -> EventForm:
        """An unbound form showing ``data`` as typed, with the game's own defaults for its game fields."""
        chosen = games.find_game(game) or games.default_game()
        initial = {key: value for key, value in (data or {}).items() if key not in GAME_FIELDS}
        defaults = chosen.defaults
        initial.update(
            game=chosen.key,
            variant="",
            table_size=defaults.table_size,
            manches_per_round=defaults.manches_per_round,
            seating_method=defaults.seating_method,
        )
        if data and "name" in data:
            for name in ("confirmation_required", "public"):
                initial[name] = bool(data.get(name))
        return cls(initial=initial, instance=instance, user=user)

    def game_fields(self) -> list:
        return [self[name] for name in GAME_FIELDS]

    def clean_name(self) -> str:
        name = clean_text(self.cleaned_data["name"])
        if not has_visible_character(name):
            raise forms.ValidationError(_("A name needs at least one letter or digit."), code="invisible")
        return name

    def clean_venue(self) -> str:
        return clean_text(self.cleaned_data["venue"])

    def clean_public_url(self) -> str:
        return cleaned_address(self.cleaned_data.get("public_url") or "")

    def clean_placement_points(self) -> list[int]:
        return parse_points(self.cleaned_data.get("placement_points") or "")

    def has_errors(self) -> bool:
        """Whether this form or the game's part of it has anything to correct."""
        return bool(self.errors) or (self.options_form is not None and bool(self.options_form.errors))

    def is_valid(self) -> bool:
        valid = super().is_valid()
        return (self.options_form is None or self.options_form.is_valid()) and valid

    def clean_confirmation(self) -> str:
        """A form sent without the choice keeps the stricter default: another player's own link."""
        return self.cleaned_data.get("confirmation") or Confirmation.PLAYER_LINK

    def clean_new_club(self) -> str:
        return clean_text(self.cleaned_data.get("new_club") or "")

    def save(self, commit: bool = True) -> Event:
        """The event, in the new club when one is named (its organiser the user who creates it)."""
        name = self.cleaned_data.get("new_club")
        if name:
            club = Club.objects.create(name=name)
            if self.user is not None:
                club.organisers.add(self.user)
            self.instance.club = club
        return super().save(commit)

    def clean(self):
        data = super().clean()
        if data.get("club") and data.get("new_club"):
            self.add_error("new_club", _("Choose a club or name a new one, not both."))
        form = self.options_form
        self.instance.options = form.options() if form is not None and form.is_valid() else {}
        return data
