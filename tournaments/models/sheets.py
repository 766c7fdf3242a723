"""Manches and their score sheets, with every change kept."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Via(models.TextChoices):
    """The door a change came through."""

    LINK = "link", _("table link")
    PLAYER = "player", _("player link")
    API = "api", _("JSON API")
    ORGANISER = "organiser", _("organiser")
    PAPER = "paper", _("paper sheet, read by the organiser")
    ADMIN = "admin", _("admin")


class Manche(models.Model):
    """One manche (a deal, or one game) at one table; holds its score sheet.

    ``document`` is the score-sheet document (shared/spec: scoresheet-json), ``result`` what the
    scoring engine made of it, ``version`` counts accepted changes so stale saves can be refused.
    """

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="manches")
    number = models.PositiveSmallIntegerField(_("number"))
    document = models.JSONField(_("score sheet"), null=True, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_seat = models.PositiveSmallIntegerField(_("entered by seat"), null=True, blank=True)
    entered_via = models.CharField(_("entered through"), max_length=12, blank=True, choices=Via.choices)
    entered_player = models.ForeignKey(
        "tournaments.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_device = models.CharField(_("entered on device"), max_length=64, blank=True)
    entered_at = models.DateTimeField(_("entered at"), null=True, blank=True)
    confirmed_seat = models.PositiveSmallIntegerField(_("confirmed by seat"), null=True, blank=True)
    confirmed_via = models.CharField(_("confirmed through"), max_length=12, blank=True, choices=Via.choices)
    confirmed_player = models.ForeignKey(
        "tournaments.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_device = models.CharField(_("confirmed on device"), max_length=64, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("manche")
        verbose_name_plural = _("manches")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="manche_number_unique_at_table"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="manche_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {_('manche')} {self.number}"

    @property
    def confirmed_on_phone(self) -> bool:
        """Confirmed through the table link (an event in honour mode): a second phone agreed, no player's own
        link vouches for it."""
        return self.confirmed_at is not None and self.confirmed_via == Via.LINK


#: The most a change's copy of its paper sheet (a JPEG) may weigh.
PAPER_COPY_BYTES = 400_000


class SheetRevision(models.Model):
    """One accepted change of a manche's sheet: before, after, when, and through what.

    ``changed_at`` is when the server received it; ``entered_at`` when it was saved where it was typed, earlier when
    a phone kept it through a network drop. ``key`` is the phone's own name for that save: sent again, it is
    recognised rather than stored twice. ``paper`` is a small copy of the photographed sheet a change was read from.
    """

    manche = models.ForeignKey(Manche, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField(_("version"))
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    via = models.CharField(_("through"), max_length=40, choices=Via.choices)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    player = models.ForeignKey("tournaments.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    device = models.CharField(_("device"), max_length=64, blank=True)
    after_completion = models.BooleanField(_("correction after the round was complete"), default=False)
    entered_at = models.DateTimeField(_("entered at"), null=True, blank=True)
    key = models.CharField(_("save key"), max_length=64, blank=True)
    paper = models.BinaryField(_("photo of the paper sheet"), max_length=PAPER_COPY_BYTES, null=True, blank=True)

    class Meta:
        ordering = ["manche", "version"]
        verbose_name = _("sheet change")
        verbose_name_plural = _("sheet changes")
        constraints = [
            models.UniqueConstraint(fields=["manche", "version"], name="one_revision_per_version"),
            models.UniqueConstraint(fields=["manche", "key"], condition=~models.Q(key=""), name="one_revision_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.manche} v{self.version}"

    @property
    def kept_on_phone(self) -> bool:
        """Received a while after it was entered: a phone kept it through a network drop."""
        return self.entered_at is not None and self.changed_at - self.entered_at >= KEPT_NOTICED


#: How much later than its entry a change must arrive for the audit trail to show both times.
KEPT_NOTICED = timedelta(seconds=30)
