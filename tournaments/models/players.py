"""Players of an event and the teams some of them form."""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Team(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=100)

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="team_name_unique_in_event")]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=100)
    club = models.CharField(_("club"), max_length=100, blank=True)
    team = models.ForeignKey(Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="players")
    active = models.BooleanField(_("active"), default=True, help_text=_("A dropped player is never seated again."))
    checked_in = models.BooleanField(_("checked in"), default=False)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(Lower("name"), "event", name="player_name_unique_in_event"),
        ]

    def __str__(self) -> str:
        return self.name
