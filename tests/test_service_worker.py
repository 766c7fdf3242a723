"""The service worker's script, and who is given it: the table and player pages register it, for a copy of
themselves that opens without network; organiser pages never do. The pages it may keep say so in their
Cache-Control; every other private answer, a turned-off link's among them, says ``no-store``."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.test_table_entry import event, tables  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def test_the_script_is_served_at_the_root_as_javascript_and_never_kept(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    script = response.content.decode()
    assert 'const STATIC_PREFIX = "/static/";' in script
    assert "/^\\/[tp]\\//" in script, "it answers only for the table and player pages"


def test_the_script_keeps_only_whole_answers_that_may_be_kept_and_asks_the_server_first(client):
    script = client.get("/sw.js").content.decode()
    assert 'directive.trim() === "no-store"' in script, "an answer sent no-store is never kept"
    assert 'response.status !== 200 || response.type !== "basic" || response.redirected' in script
    assert "Promise.race([network, late])" in script, "the network answers first; the copy only when it cannot"
    assert "response.status === 404 || response.status === 410" in script, "a link that is gone loses its copies"
    assert "const KEPT_MARK = 'data-kept-at=\"\"';" in script


def test_the_script_takes_no_post(client):
    assert client.post("/sw.js").status_code == 405


def test_the_table_and_player_pages_carry_the_kept_sheets_and_the_script(client, tables):  # noqa: F811
    me = tables[0].seats.get(position=2).player
    pages = [
        reverse("tournaments:table", args=[tables[0].token]),
        reverse("tournaments:player_table", args=[me.token, tables[0].pk]),
        reverse("tournaments:player_link", args=[me.token]),
    ]
    for page in pages:
        body = client.get(page).content.decode()
        assert "data-outbox hidden" in body and 'data-worker="/sw.js"' in body, page
        assert "js/outbox.js" in body, page
        assert "Saved on this phone, not sent yet ({count})" in body, page


def test_the_desk_table_page_keeps_nothing_on_the_laptop(organiser_client, event, tables):  # noqa: F811
    response = organiser_client.get(reverse("tournaments:desk_table", args=[event.slug, tables[0].pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Changes to this table's sheets" in body
    assert "data-outbox" not in body and "js/outbox.js" not in body


def test_every_page_says_when_the_server_does_not_answer(client):
    body = client.get("/").content.decode()
    assert "js/network.js" in body
    assert 'class="connection" data-connection role="status" hidden' in body


def link_pages(table, me) -> list[str]:
    return [
        reverse("tournaments:table", args=[table.token]),
        reverse("tournaments:player_table", args=[me.token, table.pk]),
        reverse("tournaments:player_link", args=[me.token]),
    ]


def test_the_pages_a_phone_keeps_may_be_kept_on_the_phone_alone_and_are_asked_for_again(client, tables):  # noqa: F811
    for page in link_pages(tables[0], tables[0].seats.get(position=2).player):
        response = client.get(page)
        assert response.status_code == 200, page
        control = {directive.strip() for directive in response["Cache-Control"].split(",")}
        assert {"private", "no-cache"} <= control and "no-store" not in control, (page, control)


def test_their_parts_sent_to_htmx_and_their_other_pages_are_never_stored(client, tables):  # noqa: F811
    table = tables[0]
    me = table.seats.get(position=2).player
    partial = client.get(reverse("tournaments:table", args=[table.token]), HTTP_HX_REQUEST="true")
    assert "no-store" in partial["Cache-Control"]
    for page in [
        reverse("tournaments:table_clock", args=[table.token]),
        reverse("tournaments:player_clock", args=[me.token, table.pk]),
    ]:
        response = client.get(page)
        assert response.status_code == 200, page
        assert "no-store" in response["Cache-Control"], page


def test_a_turned_off_links_answer_is_never_stored(client, tables):  # noqa: F811
    table = tables[0]
    me = table.seats.get(position=2).player
    old_pages = link_pages(table, me)
    table.new_token()
    table.save(update_fields=["token"])
    me.new_token()
    me.save(update_fields=["token"])
    for page in old_pages:
        response = client.get(page)
        assert response.status_code == 404, page
        assert "no-store" in response["Cache-Control"] and "no-cache" not in response["Cache-Control"], page
    elsewhere = client.get(reverse("tournaments:player_table", args=[me.token, tables[1].pk]))
    assert elsewhere.status_code == 404 and "no-store" in elsewhere["Cache-Control"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Offline: this page was kept on this phone at {time} and may be out of date."),
        ("es", "Sin conexión: esta página se guardó en este teléfono a las {time} y puede estar desactualizada."),
        ("it", "Senza rete: questa pagina è stata salvata su questo telefono alle {time} e potrebbe non essere"),
    ],
)
def test_a_kept_copy_can_say_when_it_was_kept_in_the_visitors_language(client, tables, language, words):  # noqa: F811
    page = reverse("tournaments:table", args=[tables[0].token])
    body = client.get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert body.count('data-kept-at=""') == 1, "the one mark the service worker fills in a copy it shows"
    assert f'data-kept-copy="{words}' in body
