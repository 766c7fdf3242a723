"""The set-up forms' own checks of the values a backup holds, beside the models' rules an import applies anyway."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from ..models import Club, Event, Round
from ..services.backup import FieldChecks
from .address import cleaned_address
from .clubs import ClubForm
from .event import EventForm, format_points, parse_points
from .rounds import SeatRoundForm


def placement_points(points):
    """A scheme of whole numbers as the set-up form reads it typed; anything else is left to the model to refuse."""
    if isinstance(points, list) and all(type(p) is int for p in points):
        return parse_points(format_points(points))
    return points


def public_address(address: str) -> str:
    return cleaned_address(EventForm.base_fields["public_url"].clean(address))


def seating_method(method: str) -> str:
    """A round's seating method as the round page offers them; empty for a round seated by hand."""
    return SeatRoundForm.base_fields["method"].clean(method) if method else method


def club_name(name: str) -> str:
    """The name of a club the import creates, as the club form takes it."""
    form = ClubForm(data={"name": name})
    if not form.is_valid():
        raise ValidationError([error for errors in form.errors.as_data().values() for error in errors])
    return form.cleaned_data["name"]


#: Each model's fields and the form check a backup's value goes through before the model's own rules.
FORM_CHECKS: FieldChecks = {
    Event: {
        "rounds_planned": EventForm.base_fields["rounds_planned"].clean,
        "manches_per_round": EventForm.base_fields["manches_per_round"].clean,
        "table_size": EventForm.base_fields["table_size"].clean,
        "placement_points": placement_points,
        "public_url": public_address,
    },
    Round: {"seating_method": seating_method},
    Club: {"name": club_name},
}
