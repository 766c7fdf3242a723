"""Players of an event and the teams some of them form."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from ..names import clean_text, has_visible_character
from .tokens import new_token, validate_token


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
    token = models.CharField(
        _("player link token"),
        max_length=32,
        unique=True,
        default=new_token,
        editable=False,
        validators=[validate_token],
        help_text=_("The secret of the player's own link; a new one revokes the old link."),
    )
    person = models.ForeignKey(
        "tournaments.Person",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("person"),
        help_text=_("Who this player is across the club's events."),
    )
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

    def clean(self) -> None:
        self.name, self.club = clean_text(self.name), clean_text(self.club)
        if not has_visible_character(self.name):
            raise ValidationError({"name": _("A name needs at least one letter or digit.")})

    def new_token(self) -> None:
        """Revoke the player's link and issue another."""
        self.token = new_token()
