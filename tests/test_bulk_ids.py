"""Ids posted or asked in an address are ASCII digits within a row id's range: anything else (``²``, ``٣``, a
30-digit or a 5,000-digit number) selects nobody, answers without a 5xx and changes nothing, on GET and POST."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import AuditEntry, Player
from tournaments.numbers import MAX_ID, record_id
from tournaments.services.players import BULK_ACTIONS

pytestmark = pytest.mark.django_db

#: Arabic-Indic digits: ``str.isdigit`` takes them and ``int`` reads them as 0 to 9.
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def bad_ids(pk: int) -> dict[str, str]:
    """Values that are not a row's id, some of them written with the digits of a real player's ``pk``."""
    return {
        "superscript-two": "²",
        "superscript": str(pk).translate(SUPERSCRIPT),
        "arabic-indic": str(pk).translate(ARABIC_INDIC),
        "thirty-digits": "9" * 30,
        "five-thousand-digits": "7" * 5000,
        "just-past-the-range": str(MAX_ID + 1),
        "zero": "0",
        "negative": f"-{pk}",
        "underscored": f"{pk}_0",
    }


@pytest.fixture
def desk(organiser) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    return client


@pytest.fixture
def event(make_event):
    event = make_event("cheese-rescue", players=4)
    event.players.filter(name="Player 01").update(checked_in=True)
    return event


def state(event) -> list[tuple]:
    players = Player.objects.filter(event=event).order_by("pk")
    return [*players.values_list("pk", "checked_in", "active"), AuditEntry.objects.count()]


@pytest.mark.parametrize("field, confirm", [("player", False), ("players", True)], ids=["asked", "confirmed"])
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("action", BULK_ACTIONS)
def test_a_bulk_action_with_an_id_that_is_not_one_changes_nothing(desk, event, action, method, field, confirm):
    player = event.players.get(name="Player 01" if action == "out" else "Player 02")
    url = reverse("tournaments:players_bulk", args=[event.slug])
    for kind, value in bad_ids(player.pk).items():
        before = state(event)
        response = getattr(desk, method)(url, {"do": action, field: value, **({"confirm": "1"} if confirm else {})})
        assert response.status_code == 302, (kind, response.status_code)
        assert state(event) == before, kind
        page = desk.get(response["Location"]).content.decode()
        assert "Select players in the list first" in page, kind


def test_an_arabic_indic_id_beside_a_good_one_selects_only_the_good_one(desk, event):
    first, second = event.players.filter(checked_in=False).order_by("pk")[:2]
    ids = ",".join([str(first.pk), str(second.pk).translate(ARABIC_INDIC)])
    desk.post(reverse("tournaments:players_bulk", args=[event.slug]), {"do": "in", "players": ids, "confirm": "1"})
    first.refresh_from_db(), second.refresh_from_db()
    assert first.checked_in and not second.checked_in


@pytest.mark.parametrize(
    "text, expected",
    [("1", 1), ("0042", 42), (str(MAX_ID), MAX_ID), ("0", None), (str(MAX_ID + 1), None), ("", None), (" 3", None)]
    + [(value, None) for value in ("²", "٣", "３", "-3", "+3", "3_0", "3.0", "9" * 30, "7" * 5000)],
)
def test_a_record_id_is_ascii_digits_within_the_range_of_a_row_id(text, expected):
    assert record_id(text) == expected


def test_a_record_id_is_never_anything_but_text():
    assert record_id(None) is None and record_id(3) is None and record_id(b"3") is None


@pytest.mark.parametrize("name", ["delete", "edit", "check_in", "drop", "reinstate", "new_link"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_player_address_with_a_number_past_any_id_is_not_found(desk, event, name, method):
    before = state(event)
    for number in ("9" * 30, "7" * 5000, str(MAX_ID + 1)):
        url = reverse(f"tournaments:players_{name}", args=[event.slug, 1]).replace("/1/", f"/{number}/")
        response = getattr(desk, method)(url, {"confirm": "1"})
        assert response.status_code in (404, 405), (number[:40], response.status_code)
    assert state(event) == before
