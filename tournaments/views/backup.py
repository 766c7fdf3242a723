"""Organiser pages: backup of a whole event as one JSON file."""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import path

from ..access import organiser_event
from ..services.backup import backup_filename, export_event_json


def event_export(request, slug: str):
    """The event's backup as a JSON download, for one of its organisers."""
    event = organiser_event(request, slug)
    response = HttpResponse(export_event_json(event), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{backup_filename(event)}"'
    return response


urlpatterns = [
    path("e/<slug:slug>/organiser/backup.json", event_export, name="event_export"),
]
