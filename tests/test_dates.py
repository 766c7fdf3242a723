"""Dates in each language's own style: Spanish "22 de noviembre de 2026", Italian "22 novembre 2026"."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import formats, timezone, translation

DAY = datetime.date(2026, 11, 22)


@pytest.mark.parametrize(
    ("language", "long", "short"),
    [
        ("es", "22 de noviembre de 2026", "22/11/2026"),
        ("it", "22 novembre 2026", "22/11/2026"),
        ("en", "Nov. 22, 2026", "11/22/2026"),
    ],
)
def test_a_date_in_each_language(language, long, short):
    with translation.override(language):
        assert formats.date_format(DAY, "DATE_FORMAT") == long
        assert formats.date_format(DAY, "SHORT_DATE_FORMAT") == short


def test_italian_months_are_lower_case_all_year_and_days_have_no_leading_zero():
    with translation.override("it"):
        shown = [formats.date_format(datetime.date(2026, month, 5), "DATE_FORMAT") for month in range(1, 13)]
        moment = formats.date_format(datetime.datetime(2026, 3, 5, 18, 5), "DATETIME_FORMAT")
    assert shown[0] == "5 gennaio 2026" and shown[7] == "5 agosto 2026"
    assert all(text == text.lower() for text in shown)
    assert moment == "5 marzo 2026, 18:05"


def test_italian_dates_are_still_read_as_italians_type_them():
    with translation.override("it"):
        assert "%d/%m/%Y" in formats.get_format("DATE_INPUT_FORMATS")


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "shown"), [("it", "21 novembre 2026"), ("es", "21 de noviembre de 2026")])
def test_the_players_page_dates_the_event_in_the_readers_language(organiser_client, make_event, language, shown):
    event = make_event("veggies", players=4)
    response = organiser_client.get(
        reverse("tournaments:players", args=[event.slug]), headers={"accept-language": language}
    )
    assert response.status_code == 200
    assert shown in response.content.decode()


@pytest.mark.django_db
def test_a_players_history_is_dated_as_every_other_page_dates_a_moment(organiser_client, make_event):
    """One style of date across the app: a player's history says "22 novembre 2026, 18:05", not "22/11/2026"."""
    event = make_event("veggies", players=4)
    player = event.players.order_by("pk").first()
    url = reverse("tournaments:players_edit", args=[event.slug, player.pk])
    organiser_client.post(url, {"name": player.name, "club": "Nuovo Club", "team": "", "active": "on"})
    page = organiser_client.get(url, headers={"accept-language": "it"}).content.decode()
    entry = player.audit_about.get()
    with translation.override("it"):
        moment = formats.date_format(timezone.localtime(entry.at), "DATETIME_FORMAT")
        short = formats.date_format(timezone.localtime(entry.at), "SHORT_DATETIME_FORMAT")
    assert moment in page and short not in page
