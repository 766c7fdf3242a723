"""Organiser download: every score sheet of the event, with who entered and who confirmed it."""

from __future__ import annotations

from django.urls import path

from ..access import organiser_event
from ..csv_export import csv_response
from ..services.sheet_list import sheet_rows


def sheets_csv(request, slug: str):
    event = organiser_event(request, slug)
    return csv_response(sheet_rows(event), f"{event.slug}-sheets.csv")


urlpatterns = [
    path("e/<slug:slug>/organiser/sheets.csv", sheets_csv, name="sheets_csv"),
]
