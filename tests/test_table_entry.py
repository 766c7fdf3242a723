"""Score entry at the table: the link, the VEGEtables sheet, checks, confirmation, concurrency, audit, API."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import seat_by_hand
from tournaments.models import Manche, SheetRevision
from tournaments.models.rounds import RoundStatus, TableStatus

pytestmark = pytest.mark.django_db

MANCHE = {
    "pozzo": [30, 0, 20, 10],
    "sequences": [6, 2, 5, 3],
    "family_bonuses": [1, 0, 0, 0],
    "penalties": [0, 1, 0, 0],
}


@pytest.fixture
def event(make_event):
    return make_event("vegetables", players=8)


@pytest.fixture
def tables(event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return list(seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.order_by("number"))


def fields(manche=MANCHE, **changes) -> dict:
    post = {}
    for key, values in {**manche, **changes}.items():
        for i, value in enumerate(values):
            post[f"manches[0].{key}[{i}]"] = str(value)
    return post


def save(client, table, number=1, seat=1, version=0, htmx=False, **changes):
    data = {"seat": str(seat), "version": str(version), **fields(**changes)}
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("tournaments:table_save", args=[table.token, number]), data, **extra)


def test_the_link_shows_event_round_table_and_players_in_seat_order(client, event, tables):
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    assert event.name in page and "Table 1" in page and "Round 1" in page
    names = [s.player.name for s in tables[0].seats.order_by("position")]
    positions = [page.index(f"<li>{name}</li>") for name in names]
    assert positions == sorted(positions)
    assert page.count('name="manches[0].pozzo[') == 4 * event.manches_per_round
    assert tables[1].seats.first().player.name not in page


def test_a_valid_manche_is_saved_and_ranked(client, tables):
    response = save(client, tables[0], htmx=True)
    assert response.status_code == 200
    manche = Manche.objects.get(table=tables[0], number=1)
    assert [p["score"] for p in manche.result["players"]] == [120, -30, 70, 40]
    body = response.content.decode()
    assert "Result at the table" in body
    assert re.search(r'<td class="number">1</td><td>[^<]+</td><td class="number">120</td>', body)


def test_fifteen_crosses_are_refused_at_the_field_and_nothing_typed_is_lost(client, tables):
    response = save(client, tables[0], sequences=[6, 2, 5, 2])
    assert response.status_code == 400
    body = response.content.decode()
    assert "A manche has 16 sequences; these add up to 15." in body
    assert "Sequences (crosses): 15 of 16 ✗" in body
    for i, value in enumerate([6, 2, 5, 2]):
        assert re.search(rf'name="manches\[0\]\.sequences\[{i}\]" value="{value}"', body)
    assert Manche.objects.get(table=tables[0], number=1).version == 0


def test_errors_point_at_the_field_or_row_the_path_names(client, tables):
    body = save(client, tables[0], pozzo=[30, 30, 0, 0]).content.decode()
    row = re.search(r'<tr class="has-error">\s*<th scope="row">Pozzo.*?Only one player gets 30', body, re.S)
    assert row, "the pozzo row carries its error"
    body = save(client, tables[0], penalties=[0, -1, 0, 0]).content.decode()
    field = re.search(r'id="f-1-manches0penalties1"[^>]*aria-invalid="true"', body)
    assert field, "the second player's penalty field is marked invalid"
    assert re.search(r'id="e-1-manches0penalties1" role="alert">Write how many penalties the player paid', body)


def test_the_live_check_adds_up_rows_as_they_are_typed(client, tables):
    url = reverse("tournaments:table_check", args=[tables[0].token, 1])
    body = client.post(url, fields(sequences=[6, 2, 5, 2]), HTTP_HX_REQUEST="true").content.decode()
    assert 'id="checks-1"' in body and "15 of 16 ✗" in body and "60 of at most 60 ✓" in body
    body = client.post(url, fields(), HTTP_HX_REQUEST="true").content.decode()
    assert "16 of 16 ✓" in body and "120 · -30 · 70 · 40" in body


def test_who_is_entering_is_required(client, tables):
    response = client.post(reverse("tournaments:table_save", args=[tables[0].token, 1]), {"version": "0", **fields()})
    assert response.status_code == 400
    assert "choose your seat" in response.content.decode()


def test_a_stale_save_is_refused_and_the_other_change_shown(client, tables):
    assert save(client, tables[0]).status_code == 302
    other = Client()
    response = save(other, tables[0], version=0, penalties=[0, 0, 0, 0], htmx=True)
    assert response.status_code == 409
    body = response.content.decode()
    assert "Someone else saved this manche meanwhile" in body
    assert "The sheet saved meanwhile says" in body and ">-30<" in body
    assert re.search(r'name="manches\[0\]\.penalties\[1\]" value="0"', body), "what was typed is kept"
    manche = Manche.objects.get(table=tables[0], number=1)
    assert manche.version == 1 and manche.document["manches"][0]["penalties"] == [0, 1, 0, 0]


def test_confirmation_by_the_seat_that_entered_is_refused_by_the_server(client, tables):
    save(client, tables[0], seat=2)
    url = reverse("tournaments:table_confirm", args=[tables[0].token, 1])
    refused = Client().post(url, {"seat": "2", "version": "1"})
    assert refused.status_code == 403
    assert Manche.objects.get(table=tables[0], number=1).confirmed_at is None
    accepted = Client().post(url, {"seat": "3", "version": "1"})
    assert accepted.status_code == 302
    manche = Manche.objects.get(table=tables[0], number=1)
    assert manche.confirmed_seat == 3


def test_table_status_follows_the_sheets(client, event, tables):
    table = tables[0]
    save(client, table)
    table.refresh_from_db()
    assert table.status == TableStatus.IN_PROGRESS
    for number in range(2, event.manches_per_round + 1):
        save(client, table, number=number)
    table.refresh_from_db()
    assert table.status == TableStatus.ENTERED
    client.post(reverse("tournaments:table_dispute", args=[table.token, 1]))
    table.refresh_from_db()
    assert table.status == TableStatus.DISPUTED


def test_every_change_is_in_the_audit_trail(client, tables):
    save(client, tables[0], seat=1)
    save(client, tables[0], seat=2, version=1, penalties=[0, 0, 0, 0])
    revisions = list(SheetRevision.objects.filter(manche__table=tables[0]).order_by("version"))
    assert [(r.version, r.via, r.seat) for r in revisions] == [(1, "link", 1), (2, "link", 2)]
    assert revisions[0].before is None
    assert revisions[1].before["manches"][0]["penalties"] == [0, 1, 0, 0]
    assert revisions[1].after["manches"][0]["penalties"] == [0, 0, 0, 0]


def test_a_token_opens_only_its_own_table(client, make_event, tables):
    other_event = make_event("vegetables", players=4)
    other_ids = list(other_event.players.values_list("pk", flat=True))
    other_table = seat_by_hand(other_event, 1, [other_ids], status=RoundStatus.IN_PLAY).tables.get()
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    assert tables[1].token not in page and other_table.token not in page
    save(client, tables[0])
    assert not Manche.objects.filter(table=tables[1], version__gt=0).exists()
    assert not Manche.objects.filter(table=other_table, version__gt=0).exists()
    assert client.get(f"/t/{tables[0].token[:-1]}x/").status_code == 404
    desk = client.get(reverse("tournaments:desk_table", args=[tables[0].round.event.slug, tables[0].pk]))
    assert desk.status_code == 302 and "/accounts/login/" in desk["Location"]


def test_form_posts_need_the_csrf_token(tables):
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("tournaments:table", args=[tables[0].token]))
    assert save(client, tables[0]).status_code == 403
    assert Manche.objects.get(table=tables[0], number=1).version == 0


def test_unpublished_rounds_and_locked_tables(client, tables):
    round_ = tables[0].round
    round_.published = False
    round_.save()
    assert client.get(reverse("tournaments:table", args=[tables[0].token])).status_code == 404
    round_.published = True
    round_.save()
    tables[0].locked = True
    tables[0].save()
    assert save(client, tables[0]).status_code == 403
    assert Manche.objects.get(table=tables[0], number=1).version == 0


def test_the_organiser_corrects_a_completed_round_and_it_is_marked(organiser_client, event, tables):
    save(Client(), tables[0])
    round_ = tables[0].round
    round_.status = RoundStatus.COMPLETE
    round_.save()
    assert save(Client(), tables[0], version=1).status_code == 403
    url = reverse("tournaments:desk_table_save", args=[event.slug, tables[0].pk, 1])
    response = organiser_client.post(url, {"version": "1", **fields(penalties=[0, 0, 0, 0])})
    assert response.status_code == 302
    revision = SheetRevision.objects.filter(manche__table=tables[0]).latest("version")
    assert revision.after_completion and revision.via == "organiser" and revision.user.username == "boss"
    page = organiser_client.get(reverse("tournaments:desk_table", args=[event.slug, tables[0].pk])).content.decode()
    assert "correction after the round was complete" in page
    assert "&quot;penalties&quot;: [" in page, "the audit trail shows the sheets as JSON"


def test_revoking_the_link_closes_the_old_one(organiser_client, event, tables):
    old = tables[0].token
    organiser_client.post(reverse("tournaments:desk_table_new_link", args=[event.slug, tables[0].pk]))
    tables[0].refresh_from_db()
    assert tables[0].token != old
    assert organiser_client.get(reverse("tournaments:table", args=[old])).status_code == 404
    assert organiser_client.get(reverse("tournaments:table", args=[tables[0].token])).status_code == 200


def api(client, table, body, method="put"):
    url = reverse("tournaments:api_table_sheet", args=[table.token])
    return getattr(client, method)(url, json.dumps(body), content_type="application/json")


def test_api_get_and_put(client, tables):
    names = [s.player.name for s in tables[0].seats.order_by("position")]
    document = {"game": "vegetables", "players": names, "manches": [MANCHE]}
    sheet = client.get(reverse("tournaments:api_table_sheet", args=[tables[0].token])).json()
    assert sheet["players"] == names and sheet["manches"][0]["version"] == 0
    saved = api(client, tables[0], {"manche": 1, "version": 0, "document": document})
    assert saved.status_code == 200
    assert [p["score"] for p in saved.json()["players"]] == [120, -30, 70, 40] and saved.json()["version"] == 1
    stale = api(client, tables[0], {"manche": 1, "version": 0, "document": document})
    assert stale.status_code == 409 and stale.json()["current"]["version"] == 1
    bad = {**document, "manches": [{**MANCHE, "sequences": [6, 2, 5, 2]}]}
    refused = api(client, tables[0], {"manche": 1, "version": 1, **bad})
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["path"] == "manches[0].sequences"
    assert api(client, tables[0], "[not an object").status_code == 400
    assert client.delete(reverse("tournaments:api_table_sheet", args=[tables[0].token])).status_code == 405
