"""Words the games' own stories and the event's statistics share."""

from __future__ import annotations

from django.utils.translation import gettext as _


def round_label(number: int) -> str:
    """A round's short name under a plot (``R3``)."""
    return _("R%(number)d") % {"number": number}


def strip_headings() -> list[str]:
    """The headings of the table under a plot of values per round (``plots.strips``)."""
    return [_("Round"), _("Players"), _("Fewest"), _("Median"), _("Most")]
