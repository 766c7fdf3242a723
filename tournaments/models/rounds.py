"""Rounds, the tables of a round and the seats at each table."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .tokens import new_token, validate_token


class RoundStatus(models.TextChoices):
    SEATED = "seated", _("Seated")
    IN_PLAY = "in_play", _("In play")
    COMPLETE = "complete", _("Complete")


class TableStatus(models.TextChoices):
    EMPTY = "empty", _("Empty")
    IN_PROGRESS = "in_progress", _("In progress")
    ENTERED = "entered", _("Entered")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")


#: The longest reason a dispute gives: a few words the organiser reads at the desk.
DISPUTE_REASON_MAX = 200


class Round(models.Model):
    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=10, choices=RoundStatus.choices, default=RoundStatus.SEATED)
    published = models.BooleanField(_("seating published"), default=False)
    seating_method = models.CharField(_("seating method"), max_length=10, blank=True)
    seating_quality = models.JSONField(_("seating quality"), default=dict, blank=True)
    clock_seconds = models.PositiveIntegerField(
        _("round length"), null=True, blank=True, help_text=_("The round clock's length in seconds; empty: no clock.")
    )
    clock_started_at = models.DateTimeField(_("clock running since"), null=True, blank=True)
    clock_elapsed = models.PositiveIntegerField(
        _("clock seconds run"), default=0, help_text=_("Seconds the clock ran before it was last started.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique_in_event"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event.name} · {_('round')} {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"))
    token = models.CharField(
        _("scorer token"), max_length=32, unique=True, default=new_token, editable=False, validators=[validate_token]
    )
    status = models.CharField(_("status"), max_length=12, choices=TableStatus.choices, default=TableStatus.EMPTY)
    locked = models.BooleanField(_("locked"), default=False)
    dispute_reason = models.CharField(
        _("dispute reason"),
        max_length=DISPUTE_REASON_MAX,
        blank=True,
        help_text=_("What the player who disputed the table's sheet said is wrong; empty once settled."),
    )

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique_in_round"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{_('table')} {self.number} ({_('round')} {self.round.number})"

    def new_token(self) -> None:
        """Revoke the scorer link and issue another."""
        self.token = new_token()


class Seat(models.Model):
    """A player's place at a table, with the player's result of the round once sheets are in."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats", editable=False)
    player = models.ForeignKey("tournaments.Player", on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    score = models.IntegerField(_("game score"), null=True, blank=True)
    tiebreak = models.JSONField(_("tiebreak"), default=list, blank=True)
    rank = models.PositiveSmallIntegerField(_("place at the table"), null=True, blank=True)
    placement_points = models.DecimalField(
        _("tournament points"), max_digits=6, decimal_places=2, null=True, blank=True
    )

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="one_seat_per_player_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique_at_table"),
            models.CheckConstraint(condition=models.Q(position__gte=1), name="seat_position_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.table} #{self.position}"

    def save(self, *args, **kwargs) -> None:
        self.round_id = self.table.round_id
        super().save(*args, **kwargs)
