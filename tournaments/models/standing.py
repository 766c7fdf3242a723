"""Stored standings: rebuilt once per change so a page view never scores anything."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Standing(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField(_("rank"))
    #: The rank after ``previous_round``, the round before the latest one with results; empty when the player
    #: had no result by then (or there is no such round).
    previous_rank = models.PositiveIntegerField(_("previous rank"), null=True, blank=True)
    previous_round = models.PositiveSmallIntegerField(_("round of the previous rank"), null=True, blank=True)
    points = models.DecimalField(_("tournament points"), max_digits=8, decimal_places=2, default=0)
    score = models.IntegerField(_("game score"), default=0)
    tiebreak = models.IntegerField(_("game tiebreak"), default=0)
    buchholz = models.DecimalField(_("opponents' points"), max_digits=10, decimal_places=2, default=0)
    rounds_played = models.PositiveSmallIntegerField(_("rounds played"), default=0)

    class Meta:
        ordering = ["event", "rank", "player__name"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="one_standing_per_player")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player}"

    @property
    def movement(self) -> int:
        """Places gained (positive) or lost since ``previous_round``; 0 without a previous rank."""
        return 0 if self.previous_rank is None else self.previous_rank - self.rank
