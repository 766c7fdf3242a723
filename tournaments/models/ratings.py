"""Ratings of a club's people, one per game, rebuilt from the placements of completed rounds."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """A person's rating at one game: openskill's mu and sigma, and the ordinal shown (mu - 3 sigma)."""

    person = models.ForeignKey("tournaments.Person", on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=20)
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    ordinal = models.FloatField(_("rating"))
    #: The ordinal before the person's latest event: the trend is ``ordinal - previous_ordinal``.
    previous_ordinal = models.FloatField(_("rating before the latest event"))
    rounds = models.PositiveIntegerField(_("rounds rated"), default=0)
    events = models.PositiveIntegerField(_("events rated"), default=0)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["game", "-ordinal"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["person", "game"], name="one_rating_per_person_and_game")]
        indexes = [models.Index(fields=["game", "ordinal"], name="rating_game_ordinal")]

    def __str__(self) -> str:
        return f"{self.person} · {self.game} {self.ordinal:.1f}"

    @property
    def trend(self) -> float:
        return self.ordinal - self.previous_ordinal


class RatingChange(models.Model):
    """What one completed round did to one person's rating: the history of a rating, round by round."""

    person = models.ForeignKey("tournaments.Person", on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(_("game"), max_length=20)
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="rating_changes")
    round_number = models.PositiveSmallIntegerField(_("round"))
    table_number = models.PositiveSmallIntegerField(_("table"))
    rank = models.PositiveSmallIntegerField(_("place at the table"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["person", "game", "pk"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["person", "game", "event", "round_number"], name="one_rating_change_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} · {self.event} · {self.round_number}"
