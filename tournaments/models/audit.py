"""What happened at an event besides sheet changes: confirmations, disputes, links revoked, who did it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .sheets import Via


class Action(models.TextChoices):
    CONFIRM = "confirm", _("confirmed a sheet")
    CONFIRM_ON_PHONE = "confirm-phone", _("confirmed a sheet on a second phone, not verified")
    DISPUTE = "dispute", _("disputed a sheet")
    RESOLVE = "resolve", _("settled a dispute")
    PLAYER_LINK = "player-link", _("issued a new player link")
    TABLE_LINK = "table-link", _("issued a new table link")
    LOCK = "lock", _("locked a table")
    UNLOCK = "unlock", _("unlocked a table")
    PLAYER_EDIT = "player-edit", _("changed a player")
    PLAYER_DELETE = "player-delete", _("deleted a player who was never seated")
    CHECK_IN = "check-in", _("changed check-in")
    DROP = "drop", _("dropped a player")
    REINSTATE = "reinstate", _("reinstated a player")
    SEAT = "seat", _("seated a round")
    RESEAT = "reseat", _("seated a round again")
    PUBLISH = "publish", _("published a round")
    UNPUBLISH = "unpublish", _("took back a round's seating")
    START = "start", _("started a round")
    COMPLETE = "complete", _("completed a round")
    REOPEN = "reopen", _("reopened a round")
    CLOCK = "clock", _("changed the round clock")
    PERSON_LINK = "person-link", _("linked a player to a person")
    PERSON_UNLINK = "person-unlink", _("unlinked a player from a person")
    PERSON_MERGE = "person-merge", _("merged two people")


class AuditEntry(models.Model):
    """One action, with the door it came through and who stood behind it (account, player link, device)."""

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="audit_entries")
    round = models.ForeignKey(
        "tournaments.Round", on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries"
    )
    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    manche = models.ForeignKey(
        "tournaments.Manche", on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    subject = models.ForeignKey(
        "tournaments.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_about"
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    via = models.CharField(_("through"), max_length=12, choices=Via.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_by"
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    device = models.CharField(_("device"), max_length=64, blank=True)
    version = models.PositiveIntegerField(_("sheet version"), null=True, blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"
