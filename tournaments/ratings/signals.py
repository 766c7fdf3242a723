"""A deleted event takes its results out of its club's ratings (from the admin, a script or a test alike)."""

from __future__ import annotations

from django.db.models.signals import post_delete
from django.dispatch import receiver

from ..models import Club, Event
from .build import rebuild_ratings


@receiver(post_delete, sender=Event, dispatch_uid="ratings-after-event-deleted")
def event_deleted(sender, instance: Event, **kwargs) -> None:
    if instance.club_id is None:
        return
    club = Club.objects.filter(pk=instance.club_id).first()
    if club is not None:
        rebuild_ratings(club, instance.game)
