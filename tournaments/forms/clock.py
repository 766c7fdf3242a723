"""What the desk sends the round clock: an action, with the minutes for a new length or the seconds to add."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..services.clock import ACTIONS, MAX_MINUTES


class ClockForm(forms.Form):
    action = forms.ChoiceField(choices=[(key, key) for key in ACTIONS])
    minutes = forms.IntegerField(label=_("Round length (minutes)"), min_value=1, max_value=MAX_MINUTES, required=False)
    seconds = forms.IntegerField(min_value=-MAX_MINUTES * 60, max_value=MAX_MINUTES * 60, required=False)

    def clean(self):
        data = super().clean()
        if data.get("action") == "set" and data.get("minutes") is None and "minutes" not in self.errors:
            self.add_error("minutes", _("Give the round's length in minutes."))
        if data.get("action") == "add" and not data.get("seconds") and "seconds" not in self.errors:
            self.add_error("seconds", _("Say how much time to add."))
        return data

    @property
    def amount(self) -> int | None:
        """Minutes for a new length, seconds to add; None for the other actions."""
        action = self.cleaned_data["action"]
        return {"set": self.cleaned_data.get("minutes"), "add": self.cleaned_data.get("seconds")}.get(action)

    def problem(self) -> str:
        """The first thing wrong, in words."""
        for errors in self.errors.values():
            return str(errors[0])
        return ""
