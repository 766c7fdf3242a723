"""A confirmation that needs a second person: every door tried, by the one who entered the sheet and by others.

By default a sheet is confirmed by another player's own link (player card or seating list) or by the organiser;
the shared table link enters and corrects, never confirms. In honour mode a second phone through the table link
is enough, and everything that shows the confirmation says it is not verified.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from tests import test_player_links
from tests.test_player_links import MANCHE, fields, manche, seated, table_confirm, table_save
from tournaments.devices import COOKIE
from tournaments.models import AuditEntry
from tournaments.models.audit import Action

pytestmark = pytest.mark.django_db

ENTERED_HERE = "This phone entered the sheet"
USE_YOUR_CARD = "To confirm, another player opens their own link"


event, tables = test_player_links.event, test_player_links.tables


def honour_mode(event) -> None:
    event.confirmation = "phone"
    event.save(update_fields=["confirmation"])


def player_post(client, name: str, table, position: int, data: dict, number: int = 1):
    player = seated(table, position)
    url = reverse(f"tournaments:{name}", args=[player.token, table.pk, number])
    return client.post(url, data, HTTP_HX_REQUEST="true")


def player_confirm(client, table, position: int, version: int = 1):
    return player_post(client, "player_table_confirm", table, position, {"version": str(version)})


def api_put(client, table, **extra):
    names = [seat.player.name for seat in table.seats.order_by("position")]
    document = {"game": "vegetables", "players": names, "manches": [MANCHE]}
    url = reverse("tournaments:api_table_sheet", args=[table.token])
    body = {"manche": 1, "version": 0, "document": document}
    return client.put(url, body, content_type="application/json", **extra)


def not_confirmed(table) -> bool:
    return manche(table).confirmed_at is None


def test_the_table_link_never_confirms_whatever_phone_or_seat_it_claims(tables):
    table = tables[0]
    phone = Client()
    assert table_save(phone, table, seat=1).status_code == 302
    same = table_confirm(phone, table, seat=2)
    assert same.status_code == 403 and ENTERED_HERE in same.content.decode()
    cleared = table_confirm(Client(), table, seat=2)
    assert cleared.status_code == 403 and USE_YOUR_CARD in cleared.content.decode()
    assert not_confirmed(table)


def test_a_forged_or_tampered_device_cookie_is_a_new_phone_with_no_more_rights(tables):
    table = tables[0]
    phone = Client()
    table_save(phone, table, seat=1)
    entered_on = manche(table).entered_device
    for forged in (entered_on, f"{entered_on}:forged", signing.get_cookie_signer(salt="other").sign(entered_on)):
        tampered = Client()
        tampered.cookies[COOKIE] = forged
        refused = table_confirm(tampered, table, seat=3)
        assert refused.status_code == 403 and USE_YOUR_CARD in refused.content.decode()
    assert not_confirmed(table)


def test_an_api_save_is_confirmed_by_another_players_own_link_and_not_by_the_table_link(tables):
    table = tables[0]
    script = Client()
    assert api_put(script, table).status_code == 200
    assert manche(table).entered_via == "api"
    assert table_confirm(script, table, seat=2).status_code == 403
    assert table_confirm(Client(), table, seat=3).status_code == 403
    assert not_confirmed(table)
    assert player_confirm(Client(), table, 2).status_code == 200
    confirmed = manche(table)
    assert confirmed.confirmed_via == "player" and confirmed.confirmed_player == seated(table, 2)
    assert not confirmed.confirmed_on_phone


def test_an_api_save_from_a_phones_page_keeps_that_phone_from_confirming(tables):
    table = tables[0]
    phone = Client()
    phone.get(reverse("tournaments:table", args=[table.token]))
    assert COOKIE in phone.cookies
    assert api_put(phone, table).status_code == 200
    assert manche(table).entered_device
    refused = player_confirm(phone, table, 2)
    assert refused.status_code == 403 and ENTERED_HERE in refused.content.decode()
    assert not_confirmed(table)


def test_a_player_who_entered_confirms_neither_with_their_own_link_nor_with_another_on_the_same_phone(tables):
    table = tables[0]
    phone = Client()
    saved = player_post(phone, "player_table_save", table, 1, fields())
    assert saved.status_code == 200 and manche(table).entered_player == seated(table, 1)
    assert player_confirm(phone, table, 1).status_code == 403
    assert player_confirm(Client(), table, 1).status_code == 403, "their own link on another phone"
    held_by_one = player_confirm(phone, table, 3)
    assert held_by_one.status_code == 403 and ENTERED_HERE in held_by_one.content.decode()
    assert not_confirmed(table)
    assert player_confirm(Client(), table, 3).status_code == 200


def test_the_seat_the_table_link_named_does_not_confirm_through_its_player_link(tables):
    table = tables[0]
    table_save(Client(), table, seat=2)
    refused = player_confirm(Client(), table, 2)
    assert refused.status_code == 403 and "not the one who entered it" in refused.content.decode()
    assert player_confirm(Client(), table, 4).status_code == 200


def test_a_player_link_opens_only_its_own_table(tables):
    table_save(Client(), tables[0], seat=1)
    stranger = seated(tables[1], 1)
    url = reverse("tournaments:player_table_confirm", args=[stranger.token, tables[0].pk, 1])
    assert Client().post(url, {"version": "1"}).status_code == 404
    assert not_confirmed(tables[0])


def test_the_organiser_confirms_any_sheet(organiser_client, event, tables):
    table = tables[0]
    table_save(Client(), table, seat=1)
    url = reverse("tournaments:desk_table_confirm", args=[event.slug, table.pk, 1])
    assert organiser_client.post(url, {"version": "1"}).status_code == 302
    confirmed = manche(table)
    assert confirmed.confirmed_via == "organiser" and not confirmed.confirmed_on_phone


def test_a_player_link_shows_the_sheet_waiting_for_that_player_on_any_phone(tables):
    table = tables[0]
    table_save(Client(), table, seat=1)
    entered_by = seated(table, 1)
    other = seated(table, 2)
    page = Client().get(reverse("tournaments:player_link", args=[other.token])).content.decode()
    assert "A sheet of your table waits for you to check and confirm it." in page
    assert reverse("tournaments:player_table", args=[other.token, table.pk]) + "#manche-1" in page
    own = Client().get(reverse("tournaments:player_link", args=[entered_by.token])).content.decode()
    assert "waits for you" not in own
    player_confirm(Client(), table, 2)
    page = Client().get(reverse("tournaments:player_link", args=[other.token])).content.decode()
    assert "waits for you" not in page


def test_in_honour_mode_a_second_phone_confirms_and_says_it_is_not_verified(organiser_client, event, tables):
    honour_mode(event)
    table = tables[0]
    phone = Client()
    table_save(phone, table, seat=1)
    assert table_confirm(phone, table, seat=2).status_code == 403, "never the phone that entered"
    assert table_confirm(Client(), table, seat=1).status_code == 403, "never the seat that entered"
    confirmed_here = table_confirm(Client(), table, seat=2)
    assert confirmed_here.status_code == 200
    assert "Confirmed on a second phone, not verified" in confirmed_here.content.decode()
    confirmed = manche(table)
    assert confirmed.confirmed_on_phone
    assert AuditEntry.objects.get(manche=confirmed).action == Action.CONFIRM_ON_PHONE

    desk = organiser_client.get(reverse("tournaments:desk_table", args=[event.slug, table.pk])).content.decode()
    assert "confirmed a sheet on a second phone, not verified" in desk
    assert "(on a second phone, not verified)" in desk
    round_page = organiser_client.get(reverse("tournaments:round", args=[event.slug, 1])).content.decode()
    assert "1 on a second phone, not verified" in round_page
    download = organiser_client.get(reverse("tournaments:sheets_csv", args=[event.slug]))
    rows = list(csv.reader(io.StringIO(download.content.decode("utf-8-sig"))))
    first = next(row for row in rows[1:] if row[:3] == ["1", "1", "1"])
    assert first[5] == "confirmed on a second phone, not verified"


def test_in_honour_mode_a_sheet_the_organiser_entered_is_confirmed_on_a_phone(organiser_client, event, tables):
    honour_mode(event)
    table = tables[0]
    url = reverse("tournaments:desk_table_save", args=[event.slug, table.pk, 1])
    assert organiser_client.post(url, fields()).status_code == 302
    assert table_confirm(Client(), table, seat=2).status_code == 200
    assert manche(table).confirmed_on_phone


def test_in_honour_mode_a_sheet_that_came_without_a_phone_waits_for_a_players_own_link(event, tables):
    honour_mode(event)
    table = tables[0]
    api_put(Client(), table)
    refused = table_confirm(Client(), table, seat=2)
    assert refused.status_code == 403 and USE_YOUR_CARD in refused.content.decode()
    assert player_confirm(Client(), table, 2).status_code == 200


def test_the_sheets_download_is_the_organisers_and_says_who_confirmed(organiser_client, event, tables):
    table = tables[0]
    table_save(Client(), table, seat=1)
    player_confirm(Client(), table, 3)
    url = reverse("tournaments:sheets_csv", args=[event.slug])
    assert Client().get(url).status_code == 302, "to the login page"
    rows = list(csv.reader(io.StringIO(organiser_client.get(url).content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Round", "Table", "Manche"]
    first = next(row for row in rows[1:] if row[:3] == ["1", "1", "1"])
    assert first[5] == "confirmed" and seated(table, 3).name in first[7]
    names = [seat.player.name for seat in table.seats.order_by("position")]
    scores = {player["name"]: str(player["score"]) for player in manche(table).result["players"]}
    assert first[3:5] == [" · ".join(names), " · ".join(scores[name] for name in names)], "both in seat order"
    assert "table link" in first[6] and "seat 1" in first[6]


CONFIRM_BUTTON = "Confirm this result as"
WAITING = "Waiting for another player at the table to confirm."


def player_page(client, table, position: int, **headers) -> str:
    player = seated(table, position)
    return client.get(reverse("tournaments:player_table", args=[player.token, table.pk]), **headers).content.decode()


def test_the_seat_that_entered_through_the_table_link_is_not_offered_confirm_on_its_own_link(tables):
    table = tables[0]
    table_save(Client(), table, seat=2)
    own = player_page(Client(), table, 2)
    assert CONFIRM_BUTTON not in own and WAITING in own
    other = player_page(Client(), table, 3)
    assert CONFIRM_BUTTON in other and WAITING not in other


def test_a_player_who_entered_on_their_own_link_is_told_the_sheet_waits_for_another_player(tables):
    table = tables[0]
    player_post(Client(), "player_table_save", table, 1, fields())
    own = player_page(Client(), table, 1)
    assert CONFIRM_BUTTON not in own and WAITING in own


def test_a_refused_confirmation_is_an_error_and_no_longer_offers_the_button(tables):
    table = tables[0]
    table_save(Client(), table, seat=2)
    player = seated(table, 2)
    url = reverse("tournaments:player_table_confirm", args=[player.token, table.pk, 1])
    refused = Client().post(url, {"version": "1"}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es")
    page = refused.content.decode()
    assert refused.status_code == 403
    assert '<p class="error" role="alert">La hoja la confirma otro jugador' in page
    assert 'class="notice" role="status"' not in page
    assert 'class="confirm"' not in page
    assert not_confirmed(table)
