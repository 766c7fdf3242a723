"""Paper sheets read from a photo or a scan, waiting for the organiser to check and save them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .sheets import PAPER_COPY_BYTES


class PaperSheet(models.Model):
    """One table's sheet found on a photo: the picture of it set straight, and what was read from its boxes.

    ``fields`` lists the form's fields as read: each one's name (``Box.field``), document path, manche, seat,
    label, kind (number, count or choice), value as read (a number, a count, the marked boxes' values, or None for
    empty boxes), whether the reader is unsure of it, and its boxes (where they are in the picture, and a choice's
    value and label). It is deleted once saved: the picture then stays with the changes it made
    (``SheetRevision.paper``).
    """

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="paper_sheets")
    picture = models.BinaryField(_("picture"), max_length=PAPER_COPY_BYTES)
    width = models.PositiveIntegerField(_("width"))
    height = models.PositiveIntegerField(_("height"))
    fields = models.JSONField(_("what was read"), default=list)
    source = models.CharField(_("file"), max_length=200, blank=True)
    versions = models.JSONField(_("versions of the manches when read"), default=dict)
    read_at = models.DateTimeField(_("read at"), auto_now_add=True)
    read_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)

    class Meta:
        ordering = ["table__number", "pk"]
        verbose_name = _("paper sheet")
        verbose_name_plural = _("paper sheets")

    def __str__(self) -> str:
        return f"{self.table} · {self.source}"
