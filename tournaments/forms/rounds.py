"""The organiser's choices for a round: how to seat it, and which two players swap seats."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..collation import alphabetical
from ..models.event import SeatingMethod


class RoundForm(forms.Form):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class SeatRoundForm(RoundForm):
    method = forms.ChoiceField(label=_("Seating method"), choices=SeatingMethod.choices)


class SwapSeatsForm(RoundForm):
    """Two players of the round, picked from its seats, who exchange table and position."""

    player_a = forms.TypedChoiceField(label=_("Player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("swaps seats with"), coerce=int)

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "---------")] + [
            (
                seat.player_id,
                _("%(name)s (table %(table)d, seat %(seat)d)")
                % {"name": seat.player.name, "table": seat.table.number, "seat": seat.position},
            )
            for seat in alphabetical(seats, key=lambda s: s.player.name)
        ]
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("player_a") is not None and data.get("player_a") == data.get("player_b"):
            self.add_error("player_b", _("Choose two different players to swap."))
        return data
