"""Score entry at the table: the link, the VEGEtables sheet, checks, confirmation, concurrency, audit, API, and the
page as a phone shows it (a card per player, one "I am", the status kept current)."""

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
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
    positions = [page.index(f"<span>{name}</span></label></li>") for name in names]
    assert positions == sorted(positions)
    radios = re.findall(r'<input type="radio" [^>]*name="manches\[0\]\.pozzo\[(\d)\]" value="(\d+)"', page)
    assert len(radios) == 4 * 4 * event.manches_per_round, "a button per pozzo value, per player, per manche"
    assert {value for _seat, value in radios} == {"30", "20", "10", "0"}
    assert tables[1].seats.first().player.name not in page


def cards(html: str, number: int = 1) -> list[str]:
    """Each player's card of manche ``number``, in seat order."""
    found = re.findall(
        rf'<div class="player-card [^"]*" id="card-{number}-\d".*?(?=<div class="player-card |</form>)', html, re.S
    )
    assert found, "no card"
    return found


def test_each_player_has_a_card_headed_with_their_name_and_their_fields(client, tables):
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    names = [s.player.name for s in tables[0].seats.order_by("position")]
    first = cards(page)
    assert len(first) == 4
    for i, (card, name) in enumerate(zip(first, names)):
        assert re.search(rf'<h3 class="player-name" id="card-1-{i}-name">{name}</h3>', card)
        for key in ("pozzo", "sequences", "family_bonuses", "penalties"):
            assert f'name="manches[0].{key}[{i}]"' in card
        assert f'name="manches[0].sequences[{(i + 1) % 4}]"' not in card
    assert re.search(r'for="f-1-manches0sequences2">Sequences \(crosses\)</label>', page)
    assert f'aria-label="Sequences (crosses): {names[2]}"' in page and f'aria-label="Pozzo: {names[3]}"' in page
    assert 'inputmode="numeric"' in first[0]


def test_a_pozzo_left_unchosen_is_asked_for_on_that_player_s_card(client, tables):
    data = {"seat": "1", "version": "0", **fields()}
    del data["manches[0].pozzo[3]"]
    data["manches[0].pozzo[3]"] = ""
    response = client.post(reverse("tournaments:table_save", args=[tables[0].token, 1]), data)
    assert response.status_code == 400
    fourth = cards(response.content.decode())[3]
    assert 'id="e-1-manches0pozzo3" role="alert"' in fourth and 'class="line line-choice has-error"' in fourth


def test_an_empty_sheet_shows_its_checks_neutral(client, tables):
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    checks = page[page.index('id="checks-1"') : page.index("</div>", page.index('id="checks-1"'))]
    assert '<span class="check pending">Sequences (crosses): 0 of 16</span>' in checks
    assert '<span class="check pending">Pozzo: 0 of at most 60</span>' in checks
    assert "✗" not in page and 'class="check bad"' not in page
    assert "Filled in:" in page and "progress-done" not in page


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
    row_errors = body[body.index('<ul class="errorlist" role="alert">') :]
    assert "<strong>Sequences (crosses)</strong>: A manche has 16 sequences; these add up to 15." in row_errors
    assert '<span class="check bad">Sequences (crosses): 15 of 16 ✗</span>' in body
    for i, value in enumerate([6, 2, 5, 2]):
        assert re.search(rf'name="manches\[0\]\.sequences\[{i}\]" value="{value}"', body)
    assert re.search(r'name="manches\[0\]\.pozzo\[2\]" value="20" checked', body), "the buttons chosen stay chosen"
    assert Manche.objects.get(table=tables[0], number=1).version == 0


def test_errors_point_at_the_field_or_row_the_path_names(client, tables):
    body = save(client, tables[0], pozzo=[30, 30, 0, 0]).content.decode()
    row = re.search(r'<ul class="errorlist" role="alert"><li><strong>Pozzo</strong>: Only one player gets 30', body)
    assert row, "the pozzo row's error is listed above the cards, with the row's name"
    body = save(client, tables[0], penalties=[0, -1, 0, 0]).content.decode()
    field = re.search(r'id="f-1-manches0penalties1"[^>]*aria-invalid="true"', body)
    assert field, "the second player's penalty field is marked invalid"
    assert re.search(r'id="e-1-manches0penalties1" role="alert">Write how many penalties the player paid', body)
    second = cards(body)[1]
    assert 'class="line has-error"' in second and "Write how many penalties" in second
    assert "Write how many penalties" not in cards(body)[0]
    assert 'class="progress-problem"' in body, "the progress line marks the card to check"


def test_the_live_check_adds_up_rows_as_they_are_typed(client, tables):
    url = reverse("tournaments:table_check", args=[tables[0].token, 1])
    body = client.post(url, fields(sequences=[6, 2, 5, 2]), HTTP_HX_REQUEST="true").content.decode()
    assert body.startswith('<div id="checks-1"') and "15 of 16 ✗" in body and "60 of at most 60 ✓" in body
    assert "<input" not in body, "nothing typed is redrawn while typing"
    body = client.post(url, fields(), HTTP_HX_REQUEST="true").content.decode()
    assert "16 of 16 ✓" in body
    scores = re.findall(
        r'<div id="live-1-(\d)" class="card-live" hx-swap-oob="true">.*?Score: <strong>(-?\d+)</strong>', body, re.S
    )
    assert scores == [("0", "120"), ("1", "-30"), ("2", "70"), ("3", "40")]
    progress = body[body.index('<p id="progress-1" class="progress" hx-swap-oob="true">') :]
    assert progress.count('class="progress-done"') == 4


def live_card(body: str, seat: int) -> str:
    start = body.index(f'<div id="live-1-{seat}"')
    return body[start : body.index("</div>", start)]


def test_the_live_check_refuses_a_negative_penalty_as_the_save_does(client, tables):
    url = reverse("tournaments:table_check", args=[tables[0].token, 1])
    body = client.post(url, fields(penalties=[0, -2, 0, 0]), HTTP_HX_REQUEST="true").content.decode()
    second = live_card(body, 1)
    assert "Paid penalties (−50): Write how many penalties the player paid, 0 or more; this says -2." in second
    assert "Score: <strong>–</strong>" in second, "no total counted from a penalty the save refuses"
    assert 'href="#card-1-1" class="progress-problem"' in body
    assert "Score: <strong>120</strong>" in live_card(body, 0)
    saved = save(client, tables[0], htmx=True, penalties=[0, -2, 0, 0])
    assert saved.status_code == 400
    assert "Write how many penalties the player paid, 0 or more; this says -2." in saved.content.decode()


def test_the_live_check_refuses_a_negative_penalty_before_its_row_is_complete(client, tables):
    url = reverse("tournaments:table_check", args=[tables[0].token, 1])
    one = {f"manches[0].{key}[1]": str(values[1]) for key, values in MANCHE.items()}
    body = client.post(url, {**one, "manches[0].penalties[1]": "-2"}, HTTP_HX_REQUEST="true").content.decode()
    second = live_card(body, 1)
    assert "Paid penalties (−50): This must be at least 0; it is -2." in second
    assert "Score: <strong>–</strong>" in second
    body = client.post(url, one, HTTP_HX_REQUEST="true").content.decode()
    assert "Score: <strong>-30</strong>" in live_card(body, 1) and "error" not in live_card(body, 1)


def test_the_progress_line_names_each_player_in_full(client, tables):
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    progress = page[page.index('<p id="progress-1"') : page.index("</p>", page.index('<p id="progress-1"'))]
    for seat in tables[0].seats.select_related("player"):
        name = seat.player.name
        assert f'title="{name}"><span class="progress-name">{name}</span>' in progress


def test_checks_stay_neutral_until_a_row_is_complete_and_turn_red_past_the_total(client, tables):
    url = reverse("tournaments:table_check", args=[tables[0].token, 1])
    half = {"manches[0].sequences[0]": "6", "manches[0].sequences[1]": "2"}
    body = client.post(url, half, HTTP_HX_REQUEST="true").content.decode()
    assert '<span class="check pending">Sequences (crosses): 8 of 16</span>' in body
    assert body.count('class="progress-partial"') == 2 and body.count('class="progress-empty"') == 2
    over = {**half, "manches[0].sequences[2]": "9"}
    body = client.post(url, over, HTTP_HX_REQUEST="true").content.decode()
    assert '<span class="check bad">Sequences (crosses): 17 of 16 ✗</span>' in body


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


def honour_mode(table) -> None:
    """The table's event lets a second phone confirm through the table link (no player cards)."""
    table.round.event.confirmation = "phone"
    table.round.event.save(update_fields=["confirmation"])


def test_confirmation_by_the_seat_that_entered_is_refused_by_the_server(client, tables):
    honour_mode(tables[0])
    save(client, tables[0], seat=2)
    url = reverse("tournaments:table_confirm", args=[tables[0].token, 1])
    refused = Client().post(url, {"seat": "2", "version": "1"})
    assert refused.status_code == 403
    assert Manche.objects.get(table=tables[0], number=1).confirmed_at is None
    accepted = Client().post(url, {"seat": "3", "version": "1"})
    assert accepted.status_code == 302
    manche = Manche.objects.get(table=tables[0], number=1)
    assert manche.confirmed_seat == 3 and manche.confirmed_on_phone


def test_table_status_follows_the_sheets(client, event, tables):
    table = tables[0]
    save(client, table)
    table.refresh_from_db()
    assert table.status == TableStatus.IN_PROGRESS
    for number in range(2, event.manches_per_round + 1):
        save(client, table, number=number)
    table.refresh_from_db()
    assert table.status == TableStatus.ENTERED
    client.post(reverse("tournaments:table_dispute", args=[table.token, 1]), {"reason": "Ada's score is wrong"})
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
    organiser_client.post(reverse("tournaments:desk_table_new_link", args=[event.slug, tables[0].pk]), {"confirm": "1"})
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


def manche_part(body: str) -> str:
    """The manche section of an HTMX answer, without the parts swapped elsewhere on the page."""
    return body[: body.index("</section>")]


def test_one_i_am_per_page_kept_after_saving(client, tables):
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    assert page.count('id="i-am"') == 1 and page.count('name="seat"') == 4, "one choice: a button per player"
    assert page.count('hx-include="#i-am"') == 4, "each manche's form sends the page's one choice"
    body = save(client, tables[0], seat=3, htmx=True).content.decode()
    assert 'name="seat"' not in manche_part(body)
    oob = body[body.index('<fieldset class="seat-choice" id="i-am" aria-describedby="i-am-hint" hx-swap-oob="true">') :]
    assert oob.count('name="seat"') == 4 and 'name="seat" value="3" checked' in oob
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    assert page.count('id="i-am"') == 1 and 'name="seat" value="3" checked' in page, "remembered"


def test_saving_brings_the_page_status_and_manche_links_up_to_date(client, tables):
    honour_mode(tables[0])
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    assert '<span id="table-status" class="status status-empty">Empty</span>' in page
    start = page.index('<nav id="manche-nav"')
    nav = page[start : page.index("</nav>", start)]
    assert nav.count("status-empty") == 4 and '<a href="#manche-3">Manche 3 ' in nav
    body = save(client, tables[0], number=2, htmx=True).content.decode()
    assert body.startswith('<section id="manche-2"')
    assert '<span id="table-status" class="status status-in_progress" hx-swap-oob="true">In progress</span>' in body
    nav = body[body.index('<nav id="manche-nav" class="manche-nav"') :]
    assert re.search(r'href="#manche-2">Manche 2 <span class="status status-entered">Entered</span>', nav)
    assert nav.count("status-empty") == 3
    confirmed = (
        Client()
        .post(
            reverse("tournaments:table_confirm", args=[tables[0].token, 2]),
            {"seat": "2", "version": "1"},
            HTTP_HX_REQUEST="true",
        )
        .content.decode()
    )
    assert re.search(r'href="#manche-2">Manche 2 <span class="status status-confirmed">Confirmed</span>', confirmed)
    badge = '<span class="status status-confirmed unverified">Confirmed on a second phone, not verified</span>'
    assert badge in manche_part(confirmed), "honour mode says what the confirmation proves"


def test_confirming_without_saying_who_marks_the_one_i_am(client, tables):
    save(client, tables[0])
    url = reverse("tournaments:table_confirm", args=[tables[0].token, 1])
    response = Client().post(url, {"version": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    body = response.content.decode()
    oob = body[body.index('id="i-am"') :]
    assert 'aria-describedby="i-am-error"' in oob and "Say who you are: choose your seat." in oob
    assert Manche.objects.get(table=tables[0], number=1).confirmed_at is None


def test_an_entered_sheet_shows_its_result_first_and_its_form_folded(client, tables):
    honour_mode(tables[0])
    save(client, tables[0])
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    first = page[page.index('<section id="manche-1"') : page.index('<section id="manche-2"')]
    assert first.index("Result at the table") < first.index('<details class="sheet-fold"><summary>Change this sheet')
    assert 'name="manches[0].sequences[3]" value="3"' in first
    second = page[page.index('<section id="manche-2"') :]
    assert "sheet-fold" not in second[: second.index("</section>")]
    body = save(client, tables[0], version=1, penalties=[0, 0, 0, 0], htmx=True).content.decode()
    assert "sheet-fold" not in manche_part(body), "just saved: the form stays open where the player is"
    url = reverse("tournaments:table_confirm", args=[tables[0].token, 1])
    body = Client().post(url, {"seat": "2", "version": "2"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Confirmed. Thank you!" in body and '<details class="sheet-fold">' in manche_part(body)


def test_the_table_page_asks_the_database_as_often_with_every_sheet_entered(
    client, event, tables, django_assert_max_num_queries
):
    url = reverse("tournaments:table", args=[tables[0].token])
    with django_assert_max_num_queries(5):
        assert client.get(url).status_code == 200
    for number in range(1, event.manches_per_round + 1):
        save(client, tables[0], number=number)
    with django_assert_max_num_queries(5):
        assert "Result at the table" in client.get(url).content.decode()


def test_the_desk_shows_the_cards_without_i_am_and_the_status_current(organiser_client, event, tables):
    url = reverse("tournaments:desk_table", args=[event.slug, tables[0].pk])
    page = organiser_client.get(url).content.decode()
    assert 'name="seat"' not in page and 'hx-include="#i-am"' not in page
    assert len(cards(page)) == 4 and '<nav id="manche-nav"' in page
    assert page.count("<section") == 4 + 2, "the manches, the changes and the other actions, once each"
    save_url = reverse("tournaments:desk_table_save", args=[event.slug, tables[0].pk, 1])
    body = organiser_client.post(save_url, {"version": "0", **fields()}, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="table-status" class="status status-in_progress" hx-swap-oob="true"' in body
    assert 'id="i-am"' not in body


def test_the_player_and_desk_table_pages_ask_the_database_as_often_with_every_sheet_entered(
    organiser_client, event, tables
):
    me = tables[0].seats.get(position=2).player
    player_page = reverse("tournaments:player_table", args=[me.token, tables[0].pk])
    desk_page = reverse("tournaments:desk_table", args=[event.slug, tables[0].pk])

    def queries() -> list[int]:
        counts = []
        for url, client in ((player_page, Client()), (desk_page, organiser_client)):
            with CaptureQueriesContext(connection) as done:
                assert client.get(url).status_code == 200
            counts.append(len(done))
        return counts

    empty = queries()
    for number in range(1, event.manches_per_round + 1):
        url = reverse("tournaments:desk_table_save", args=[event.slug, tables[0].pk, number])
        organiser_client.post(url, {"version": "0", **fields()})
        confirm = reverse("tournaments:player_table_confirm", args=[me.token, tables[0].pk, number])
        assert Client().post(confirm, {"version": "1"}).status_code == 302
    assert queries() == empty
    page = Client().get(player_page).content.decode()
    assert f'{me.name} <span class="you">you</span>' in page
    assert page.count('class="player-card progress-done mine"') == event.manches_per_round


@pytest.mark.parametrize("htmx", [True, False])
def test_i_am_is_remembered_as_soon_as_it_is_chosen(client, tables, htmx):
    url = reverse("tournaments:table_seat", args=[tables[0].token])
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(url, {"seat": "4"}, **extra)
    assert response.status_code == (204 if htmx else 302)
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    assert 'name="seat" value="4" checked' in page
    data = {"version": "0", **fields()}
    assert client.post(reverse("tournaments:table_save", args=[tables[0].token, 1]), data).status_code == 302
    assert Manche.objects.get(table=tables[0], number=1).entered_seat == 4
    assert client.post(url, {"seat": "9"}, **extra).status_code in (204, 302)
    page = client.get(reverse("tournaments:table", args=[tables[0].token])).content.decode()
    assert 'name="seat" value="4" checked' in page, "a seat nobody sits in is not remembered"
    assert "sessionid" not in client.cookies, "a phone's choice of seat writes no session"


def test_the_phone_that_entered_the_sheet_is_told_another_confirms_it_instead_of_a_button(client, tables):
    table = tables[0]
    assert save(client, table, htmx=True).status_code == 200
    page = client.get(reverse("tournaments:table", args=[table.token])).content.decode()
    assert "This phone entered the sheet: another player confirms it on their own phone." in page
    assert "Confirm this result" not in page

    other_phone = Client()
    page = other_phone.get(reverse("tournaments:table", args=[table.token])).content.decode()
    assert "Confirm this result" not in page and "This phone entered the sheet" not in page
    assert "To confirm, another player opens their own link: the QR code on their player card" in page

    honour_mode(table)
    page = other_phone.get(reverse("tournaments:table", args=[table.token])).content.decode()
    assert "Confirm this result" in page and "To confirm, another player" not in page
