"""Each player's own link, and a confirmation that needs a second person: never the phone that entered the sheet."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import seat_by_hand
from tests.test_printing import decode_qr, pages_text, render
from tournaments.models import AuditEntry, Manche, Player
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
    return make_event("vegetables", players=8, confirmation_required=True)


@pytest.fixture
def tables(event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return list(seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.order_by("number"))


def seated(table, position: int) -> Player:
    return table.seats.get(position=position).player


def fields(version: int = 0, **extra) -> dict:
    post = {"version": str(version), **extra}
    for key, values in MANCHE.items():
        for i, value in enumerate(values):
            post[f"manches[0].{key}[{i}]"] = str(value)
    return post


def table_save(client, table, seat=1):
    return client.post(reverse("tournaments:table_save", args=[table.token, 1]), fields(seat=str(seat)))


def table_confirm(client, table, seat, version=1):
    url = reverse("tournaments:table_confirm", args=[table.token, 1])
    return client.post(url, {"seat": str(seat), "version": str(version)}, HTTP_HX_REQUEST="true")


def player_url(name: str, player: Player, table, *numbers) -> str:
    return reverse(f"tournaments:{name}", args=[player.token, table.pk, *numbers])


def manche(table) -> Manche:
    return Manche.objects.get(table=table, number=1)


def test_the_phone_that_entered_cannot_confirm_by_switching_its_seat(tables):
    phone = Client()
    assert table_save(phone, tables[0], seat=1).status_code == 302
    refused = table_confirm(phone, tables[0], seat=2)
    assert refused.status_code == 403
    assert "This phone entered the sheet" in refused.content.decode()
    assert manche(tables[0]).confirmed_at is None
    tables[0].round.event.confirmation = "phone"
    tables[0].round.event.save()
    assert table_confirm(Client(), tables[0], seat=2).status_code == 200, "honour mode: a second phone"
    confirmed = manche(tables[0])
    assert confirmed.confirmed_at is not None and confirmed.confirmed_via == "link" and confirmed.confirmed_on_phone
    assert confirmed.confirmed_device and confirmed.confirmed_device != confirmed.entered_device


def test_a_sheet_saved_through_the_api_records_where_it_came_from(client, tables):
    table = tables[0]
    names = [s.player.name for s in table.seats.order_by("position")]
    document = {"game": "vegetables", "players": names, "manches": [MANCHE]}
    url = reverse("tournaments:api_table_sheet", args=[table.token])
    response = client.put(url, {"manche": 1, "version": 0, "document": document}, content_type="application/json")
    assert response.status_code == 200
    saved = manche(table)
    assert saved.entered_via == "api" and saved.entered_device == "", "a script without the page's cookie"
    assert saved.revisions.get().via == "api"


@pytest.mark.parametrize("closing", ["lock", "complete"])
def test_confirm_and_dispute_are_refused_once_the_table_is_closed(tables, closing):
    table = tables[0]
    table_save(Client(), table)
    if closing == "lock":
        table.locked = True
        table.save()
    else:
        table.round.status = RoundStatus.COMPLETE
        table.round.save()
    refused = table_confirm(Client(), table, seat=2)
    assert refused.status_code == 403
    assert "scores can no longer be changed here" in refused.content.decode()
    url = reverse("tournaments:table_dispute", args=[table.token, 1])
    dispute = Client().post(url, {"reason": "Wrong total"}, HTTP_HX_REQUEST="true")
    assert dispute.status_code == 403
    table.refresh_from_db()
    assert table.status != TableStatus.DISPUTED
    assert manche(table).confirmed_at is None


def test_the_organiser_still_confirms_a_locked_table(organiser_client, event, tables):
    table = tables[0]
    table_save(Client(), table)
    table.locked = True
    table.save()
    url = reverse("tournaments:desk_table_confirm", args=[event.slug, table.pk, 1])
    assert organiser_client.post(url, {"version": "1"}).status_code == 302
    confirmed = manche(table)
    assert confirmed.confirmed_via == "organiser" and confirmed.confirmed_by.username == "boss"


def test_the_player_page_shows_the_table_now_and_only_published_rounds(event, tables):
    me = seated(tables[1], 3)
    page = Client().get(reverse("tournaments:player_link", args=[me.token])).content.decode()
    assert "Your table now: 2, seat 3" in page
    assert seated(tables[1], 1).name in page
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    hidden = seat_by_hand(event, 2, [ids[4:], ids[:4]])
    hidden.published = False
    hidden.save()
    page = Client().get(reverse("tournaments:player_link", args=[me.token])).content.decode()
    assert "Round 2" not in page


def test_a_revoked_player_link_finds_nobody(organiser_client, event, tables):
    me = seated(tables[0], 1)
    old = me.token
    url = reverse("tournaments:players_new_link", args=[event.slug, me.pk])
    asked = organiser_client.post(url)
    assert asked.status_code == 200 and "will stop working" in asked.content.decode()
    me.refresh_from_db()
    assert me.token == old
    response = organiser_client.post(url, {"confirm": "1"})
    assert response.status_code == 302
    me.refresh_from_db()
    assert me.token != old
    assert Client().get(reverse("tournaments:player_link", args=[old])).status_code == 404
    assert Client().get(reverse("tournaments:player_link", args=[me.token])).status_code == 200
    assert AuditEntry.objects.filter(subject=me, action="player-link", user__username="boss").exists()


def test_a_player_reaches_only_their_own_tables(tables):
    me, elsewhere = seated(tables[0], 1), tables[1]
    assert Client().get(player_url("player_table", me, tables[0])).status_code == 200
    assert Client().get(player_url("player_table", me, elsewhere)).status_code == 404
    post = Client().post(player_url("player_table_save", me, elsewhere, 1), fields())
    assert post.status_code == 404
    assert manche(elsewhere).document is None


def test_confirmation_needs_another_player_of_the_table(organiser_client, event, tables):
    table = tables[0]
    first, second, stranger = seated(table, 1), seated(table, 2), seated(tables[1], 1)
    assert Client().post(player_url("player_table_save", first, table, 1), fields()).status_code == 302
    saved = manche(table)
    assert saved.entered_via == "player" and saved.entered_player == first and saved.entered_seat == 1
    own = Client().post(player_url("player_table_confirm", first, table, 1), {"version": "1"}, HTTP_HX_REQUEST="true")
    assert own.status_code == 403
    assert "You entered this sheet" in own.content.decode()
    assert Client().post(player_url("player_table_confirm", stranger, table, 1), {"version": "1"}).status_code == 404
    assert manche(table).confirmed_at is None
    confirm = Client().post(player_url("player_table_confirm", second, table, 1), {"version": "1"})
    assert confirm.status_code == 302
    done = manche(table)
    assert done.confirmed_player == second and done.confirmed_via == "player"
    desk = organiser_client.get(reverse("tournaments:desk_table", args=[event.slug, table.pk])).content.decode()
    assert f"player link · {first.name}" in desk and f"player link · {second.name}" in desk
    assert AuditEntry.objects.get(action="confirm").player == second


def test_a_player_disputes_as_themselves(event, tables):
    table = tables[0]
    table_save(Client(), table)
    me = seated(table, 4)
    url = player_url("player_table_dispute", me, table, 1)
    response = Client().post(url, {"reason": "Wrong total"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.status == TableStatus.DISPUTED
    assert AuditEntry.objects.get(action="dispute").player == me


def test_player_cards_carry_each_players_own_link_as_a_qr_code(organiser_client, event, tables, tmp_path):
    response = organiser_client.get(reverse("tournaments:print_player_cards", args=[event.slug]))
    assert response.status_code == 200
    text = " ".join(pages_text(response.content))
    players = list(event.players.all())
    assert all(player.name in text for player in players)
    found = set(decode_qr(render(response.content, 1, tmp_path, "cards")).split("\n"))
    expected = {f"http://testserver{reverse('tournaments:player_link', args=[p.token])}" for p in players}
    assert found == expected


def test_the_seating_by_name_carries_each_players_own_link(organiser_client, event, tables, tmp_path):
    response = organiser_client.get(reverse("tournaments:print_seating", args=[event.slug, 1]))
    found = set(decode_qr(render(response.content, 2, tmp_path, "seating", dpi=300)).split("\n"))
    assert {f"http://testserver/p/{p.token}/" for p in event.players.all()} <= found


def test_the_player_page_asks_the_database_a_fixed_number_of_times(event, tables, django_assert_max_num_queries):
    me = seated(tables[0], 1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    for number in (2, 3):
        seat_by_hand(event, number, [ids[number - 1 :: 2][:4], [i for i in ids if i not in ids[number - 1 :: 2][:4]]])
    with django_assert_max_num_queries(6):
        response = Client().get(reverse("tournaments:player_link", args=[me.token]))
    assert response.status_code == 200
    assert "Next rounds" in response.content.decode()


def test_the_public_player_page_hides_an_unpublished_round(client, event, tables):
    me = seated(tables[0], 1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    hidden = seat_by_hand(event, 2, [ids[::2], ids[1::2]])
    hidden.published = False
    hidden.save()
    assert me.pk == ids[0]
    only_in_round_2 = Player.objects.get(pk=ids[4]).name
    page = client.get(reverse("tournaments:player", args=[event.slug, me.pk])).content.decode()
    assert seated(tables[0], 2).name in page
    assert only_in_round_2 not in page
