"""A club's season: some of its events, and the rule that turns their final standings into a ladder."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

#: The most events a "best N" season may count.
MAX_BEST = 99


class PointsRule(models.TextChoices):
    ALL = "all", _("Every tournament counts")
    BEST = "best", _("Only each person's best results count")


class Season(models.Model):
    """Events of one club ranked together: each event gives season points by final place, N players -> N..1."""

    club = models.ForeignKey("tournaments.Club", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    events = models.ManyToManyField(
        "tournaments.Event", blank=True, related_name="seasons", verbose_name=_("tournaments")
    )
    rule = models.CharField(_("points rule"), max_length=4, choices=PointsRule.choices, default=PointsRule.ALL)
    best = models.PositiveSmallIntegerField(
        _("results counted"),
        null=True,
        blank=True,
        help_text=_("With the best results rule: how many of each person's tournaments count."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rule="all") | models.Q(best__gte=1), name="season_best_counts_at_least_one"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:season", kwargs={"slug": self.club.slug, "season_id": self.pk})

    @property
    def counted(self) -> int | None:
        """How many results of each person count; None: all of them."""
        return self.best if self.rule == PointsRule.BEST else None

    def clean(self) -> None:
        if self.rule == PointsRule.BEST and not self.best:
            raise ValidationError({"best": _("Say how many results of each person count.")})
        if self.best and not 1 <= self.best <= MAX_BEST:
            raise ValidationError({"best": _("Between 1 and %(most)d.") % {"most": MAX_BEST}})
        if self.rule == PointsRule.ALL:
            self.best = None
