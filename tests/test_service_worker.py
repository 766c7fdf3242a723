"""The service worker's script, and who is given it: the table and player pages register it, for a copy of
themselves that opens without network; organiser pages never do."""

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
