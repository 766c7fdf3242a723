"""Disputes: a player says what is wrong (a short reason, required), every phone of the table shows it and nobody
confirms until the organiser settles it at the desk (by correcting or confirming a sheet, or "Dispute settled")."""

from __future__ import annotations

import json

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from tests.factories import seat_by_hand
from tests.test_backup import wipe
from tests.test_player_links import fields, manche, player_url, seated, table_confirm, table_save
from tournaments.models import AuditEntry, Event, Table
from tournaments.models.audit import Action
from tournaments.models.rounds import DISPUTE_REASON_MAX, RoundStatus, TableStatus
from tournaments.services.alerts import desk_alerts
from tournaments.services.backup import export_event_json, import_event
from tournaments.services.sheets import (
    Author,
    ConfirmationRefused,
    InvalidReason,
    confirm_sheet,
    dispute_sheet,
    record_sheet,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
REASON = "Player 02 counted the pozzo twice"
SHOWN = f"Disputed: {REASON}; the organiser will settle it."


@pytest.fixture
def event(make_event):
    return make_event("vegetables", players=8, confirmation_required=True)


@pytest.fixture
def table(event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY)
    table = round_.tables.get(number=1)
    table_save(Client(), table, seat=1)
    return table


def by_player(table, position: int) -> Author:
    return Author(via="player", player=seated(table, position), seat=position, device=f"phone-{position}")


def dispute_url(table) -> str:
    return reverse("tournaments:table_dispute", args=[table.token, 1])


def disputed(table, reason: str = REASON) -> Table:
    dispute_sheet(manche(table), by_player(table, 3), reason=reason)
    table.refresh_from_db()
    return table


# The service ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("reason", ["", "   \n\t ", "\x00\x01"])
def test_a_dispute_without_a_reason_is_refused_and_names_the_field(table, reason):
    with pytest.raises(InvalidReason, match=r"^Reason: say in a few words what is wrong"):
        dispute_sheet(manche(table), by_player(table, 3), reason=reason)
    table.refresh_from_db()
    assert table.status == TableStatus.IN_PROGRESS and table.dispute_reason == ""
    assert not AuditEntry.objects.filter(action=Action.DISPUTE).exists()


def test_a_reason_longer_than_the_most_is_refused_with_both_lengths(table):
    with pytest.raises(InvalidReason) as refused:
        dispute_sheet(manche(table), by_player(table, 3), reason="x" * (DISPUTE_REASON_MAX + 1))
    assert str(refused.value) == f"Reason: at most {DISPUTE_REASON_MAX} characters; this one has 201 characters."
    disputed(table, "y" * DISPUTE_REASON_MAX)
    assert table.dispute_reason == "y" * DISPUTE_REASON_MAX


def test_the_reason_is_stored_on_one_line_and_kept_in_the_audit_trail(table):
    disputed(table, f"  {REASON.replace(' ', chr(10), 1)}  ")
    assert table.status == TableStatus.DISPUTED and table.dispute_reason == REASON
    entry = AuditEntry.objects.get(action=Action.DISPUTE)
    assert entry.details == {"reason": REASON} and entry.player == seated(table, 3) and entry.manche.number == 1


def test_a_manche_without_a_sheet_cannot_be_disputed(table):
    empty = table.manches.get(number=2)
    with pytest.raises(ConfirmationRefused, match="no sheet to dispute"):
        dispute_sheet(empty, by_player(table, 3), reason=REASON)


def test_no_player_confirms_while_the_table_is_disputed(table):
    disputed(table)
    with pytest.raises(ConfirmationRefused) as refused:
        confirm_sheet(manche(table), version=1, author=by_player(table, 2))
    assert str(refused.value) == f"{SHOWN} Nobody confirms it until then."
    assert manche(table).confirmed_at is None


def test_the_organisers_confirmation_settles_the_dispute(table, organiser):
    disputed(table)
    confirm_sheet(manche(table), version=1, author=Author(via="organiser", user=organiser))
    table.refresh_from_db()
    assert table.status == TableStatus.IN_PROGRESS, "as its sheets say: one manche of four entered"
    assert table.dispute_reason == "" and manche(table).confirmed_at is not None
    settled = AuditEntry.objects.get(action=Action.RESOLVE)
    assert settled.details == {"reason": REASON} and settled.user == organiser


def test_the_organisers_correction_settles_the_dispute_a_players_does_not(table, organiser):
    disputed(table)
    sheet = manche(table)
    changed = {**sheet.document, "penalties": [0, 0, 0, 0]}
    sheet = record_sheet(sheet, changed, based_on=sheet.version, author=by_player(table, 2))
    table.refresh_from_db()
    assert table.status == TableStatus.DISPUTED and table.dispute_reason == REASON
    with TestCase.captureOnCommitCallbacks(execute=True):
        record_sheet(sheet, sheet.document, based_on=sheet.version, author=Author(via="organiser", user=organiser))
    table.refresh_from_db()
    assert table.status == TableStatus.IN_PROGRESS and table.dispute_reason == ""
    assert AuditEntry.objects.filter(action=Action.RESOLVE).count() == 1


def test_the_reason_survives_a_backup_round_trip(table):
    event = table.round.event
    disputed(table)
    text = export_event_json(event)
    assert json.loads(text)["rounds"][0]["tables"][0]["dispute_reason"] == REASON
    wipe(event)
    imported = import_event(json.loads(text))
    again = Table.objects.get(round__event=imported, number=1)
    assert again.status == TableStatus.DISPUTED and again.dispute_reason == REASON
    assert AuditEntry.objects.get(event=imported, action=Action.DISPUTE).details == {"reason": REASON}


def test_a_backup_without_the_reason_still_imports(table):
    event = table.round.event
    document = json.loads(export_event_json(event))
    del document["rounds"][0]["tables"][0]["dispute_reason"]
    wipe(event)
    assert Table.objects.get(round__event=import_event(document), number=1).dispute_reason == ""


# The pages ------------------------------------------------------------------------------------------------------


def test_disputing_without_a_reason_shows_the_error_at_the_field(table):
    response = Client().post(dispute_url(table), {"seat": "3", "reason": " "}, **HTMX)
    assert response.status_code == 400
    page = response.content.decode()
    assert '<details class="dispute" open>' in page
    assert 'name="reason" value=" " maxlength="200" required' in page and 'aria-invalid="true"' in page
    assert 'role="alert">Reason: say in a few words what is wrong; a dispute needs one.</p>' in page
    table.refresh_from_db()
    assert table.status == TableStatus.IN_PROGRESS


def test_a_too_long_reason_is_shown_again_with_its_error(table):
    long = "z" * 250
    page = Client().post(dispute_url(table), {"seat": "3", "reason": long}, **HTMX).content.decode()
    assert f'value="{long}"' in page and "this one has 250 characters" in page


def test_a_dispute_shows_on_every_phone_of_the_table_and_confirm_is_gone(table):
    me = seated(table, 3)
    response = Client().post(player_url("player_table_dispute", me, table, 1), {"reason": REASON}, **HTMX)
    assert response.status_code == 200
    answer = response.content.decode()
    assert "The organiser has been told" in answer
    notice = '<div id="table-notice" class="table-notice" hx-swap-oob="true"><p class="table-alert disputed">'
    assert f"{notice}{SHOWN}</p></div>" in answer
    assert 'class="status status-disputed" hx-swap-oob="true">Disputed</span>' in answer
    other = seated(table, 2)
    for page in (
        Client().get(reverse("tournaments:table", args=[table.token])).content.decode(),
        Client().get(player_url("player_table", other, table)).content.decode(),
    ):
        assert f'<p class="table-alert disputed">{SHOWN}</p>' in page
        assert "nobody confirms its sheets" in page
        assert "Confirm this result" not in page and "/confirm/" not in page
        assert '<span class="status status-disputed">Disputed</span>' in page


def test_a_confirmation_sent_while_disputed_is_refused_in_words(table):
    disputed(table)
    other = seated(table, 2)
    response = Client().post(player_url("player_table_confirm", other, table, 1), {"version": "1"}, **HTMX)
    assert response.status_code == 403
    page = response.content.decode()
    assert f"{SHOWN} Nobody confirms it until then." in page
    assert "Confirmed. Thank you!" not in page
    assert table_confirm(Client(), table, seat=2).status_code == 403
    assert manche(table).confirmed_at is None


def test_the_desk_shows_the_reason_in_its_alerts_and_on_the_tables_page(organiser_client, table):
    event = table.round.event
    disputed(table)
    alerts = organiser_client.get(reverse("tournaments:desk_alerts", args=[event.slug]), **HTMX).content.decode()
    assert f"a player disputes a sheet: “{REASON}”. Go to the table" in alerts
    page = organiser_client.get(reverse("tournaments:desk_table", args=[event.slug, table.pk])).content.decode()
    assert f'<p class="table-alert disputed">Disputed: {REASON}. Correcting or confirming' in page
    assert f"disputed a sheet: “{REASON}”" in page
    assert "Dispute settled" in page


def test_the_alerts_change_version_when_a_reason_changes(table):
    event = table.round.event
    first = desk_alerts(Event.objects.get(pk=event.pk)).version
    disputed(table)
    second = desk_alerts(Event.objects.get(pk=event.pk)).version
    disputed(table, "Another reason")
    assert len({first, second, desk_alerts(Event.objects.get(pk=event.pk)).version}) == 3


def test_dispute_settled_at_the_desk_clears_the_reason_and_confirm_comes_back(organiser_client, table):
    event = table.round.event
    disputed(table)
    response = organiser_client.post(reverse("tournaments:desk_table_resolve", args=[event.slug, table.pk]))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == TableStatus.IN_PROGRESS and table.dispute_reason == ""
    assert AuditEntry.objects.get(action=Action.RESOLVE).details == {"reason": REASON}
    organiser_client.post(reverse("tournaments:desk_table_resolve", args=[event.slug, table.pk]))
    assert AuditEntry.objects.filter(action=Action.RESOLVE).count() == 1, "a second press settles nothing"
    page = Client().get(player_url("player_table", seated(table, 2), table)).content.decode()
    assert "table-alert" not in page and "Confirm this result as Player 01" in page


def test_a_correction_at_the_desk_settles_the_dispute(organiser_client, table):
    event = table.round.event
    disputed(table)
    url = reverse("tournaments:desk_table_save", args=[event.slug, table.pk, 1])
    response = organiser_client.post(url, fields(version=1), **HTMX)
    assert response.status_code == 200
    assert '<div id="table-notice" class="table-notice" hx-swap-oob="true" hidden></div>' in response.content.decode()
    table.refresh_from_db()
    assert table.status == TableStatus.IN_PROGRESS and table.dispute_reason == ""


def test_a_confirmation_at_the_desk_settles_the_dispute(organiser_client, table):
    event = table.round.event
    disputed(table)
    url = reverse("tournaments:desk_table_confirm", args=[event.slug, table.pk, 1])
    response = organiser_client.post(url, {"version": "1"}, **HTMX)
    assert response.status_code == 200 and "Confirmed. Thank you!" in response.content.decode()
    table.refresh_from_db()
    assert table.dispute_reason == "" and manche(table).confirmed_at is not None


def test_a_sheet_sent_by_the_api_does_not_settle_a_dispute(table):
    disputed(table)
    body = {"version": 1, "manche": 1, "document": manche(table).document}
    url = reverse("tournaments:api_table_sheet", args=[table.token])
    assert Client().put(url, json.dumps(body), content_type="application/json").status_code == 200
    assert manche(table).version == 2
    table.refresh_from_db()
    assert table.status == TableStatus.DISPUTED and table.dispute_reason == REASON


def test_a_disputed_table_page_asks_the_database_as_often(table, django_assert_max_num_queries):
    disputed(table)
    with django_assert_max_num_queries(5):
        page = Client().get(reverse("tournaments:table", args=[table.token])).content.decode()
    assert SHOWN in page
