"""A club's season: its name, its points rule and which of the club's tournaments it counts."""

from __future__ import annotations

from django import forms
from django.utils import formats
from django.utils.translation import gettext_lazy as _

from ..models import Club, Event, Season
from ..names import clean_text, has_visible_character


class EventChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, event: Event) -> str:
        return f"{event.name} · {event.game_name} · {formats.date_format(event.date, 'DATE_FORMAT')}"


class SeasonForm(forms.ModelForm):
    events = EventChoiceField(
        queryset=Event.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Tournaments of the season"),
    )

    class Meta:
        model = Season
        fields = ["name", "rule", "best", "events"]
        widgets = {"rule": forms.RadioSelect, "best": forms.NumberInput(attrs={"min": 1, "inputmode": "numeric"})}

    def __init__(self, *args, club: Club, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.instance.club = club
        self.fields["name"].label = _("Season name")
        self.fields["events"].queryset = club.events.order_by("-date", "name")

    def clean_name(self) -> str:
        name = clean_text(self.cleaned_data["name"])
        if not has_visible_character(name):
            raise forms.ValidationError(_("A name needs at least one letter or digit."))
        return name
