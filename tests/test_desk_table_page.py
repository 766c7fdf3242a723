"""The desk's page of one table: its link's QR code on screen, a new link only once confirmed, and that table's
own score sheet to reprint."""

from __future__ import annotations

import io
import re
import subprocess

import pytest
import zxingcpp
from django.test import Client
from django.urls import reverse
from PIL import Image, ImageDraw
from pypdf import PdfReader

from tests.factories import seat_by_hand
from tournaments.models import AuditEntry
from tournaments.models.audit import Action
from tournaments.models.rounds import RoundStatus
from tournaments.printing.qr import svg

pytestmark = pytest.mark.django_db

MODULE_PX = 8


@pytest.fixture
def event(make_event):
    return make_event("vegetables", players=8)


@pytest.fixture
def tables(event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return list(seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.order_by("number"))


def desk_url(event, table) -> str:
    return reverse("tournaments:desk_table", args=[event.slug, table.pk])


def new_link_url(event, table) -> str:
    return reverse("tournaments:desk_table_new_link", args=[event.slug, table.pk])


def sheet_url(event, table) -> str:
    return reverse("tournaments:print_table_sheet", args=[event.slug, table.pk])


def table_address(table) -> str:
    return "http://testserver" + reverse("tournaments:table", args=[table.token])


def svg_image(markup: str) -> Image.Image:
    """The inline SVG's code drawn as a picture, from its viewBox and its path of one-module-high rectangles."""
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', markup).group(1))
    image = Image.new("L", (size * MODULE_PX, size * MODULE_PX), 255)
    draw = ImageDraw.Draw(image)
    for x, y, width in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", re.search(r' d="([^"]*)"', markup).group(1)):
        left, top = int(x) * MODULE_PX, int(y) * MODULE_PX
        draw.rectangle([left, top, left + int(width) * MODULE_PX - 1, top + MODULE_PX - 1], fill=0)
    return image


def decoded(image: Image.Image) -> list[str]:
    return [code.text for code in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCodeModel2)]


def test_the_svg_code_reads_back_as_its_address_and_names_itself():
    url = "http://192.168.1.20:8000/t/AbC-123_xyz/"
    markup = svg(url, 'QR code of "table 1"')
    assert decoded(svg_image(markup)) == [url]
    assert 'role="img"' in markup and 'aria-label="QR code of &quot;table 1&quot;"' in markup


def test_the_desk_page_shows_the_table_links_qr_code_and_the_ways_to_reprint_or_renew(organiser_client, event, tables):
    page = organiser_client.get(desk_url(event, tables[0])).content.decode()
    markup = re.search(r'<svg[^>]*class="qr-code".*?</svg>', page, re.DOTALL).group(0)
    assert decoded(svg_image(markup)) == [table_address(tables[0])]
    assert f'<a href="{table_address(tables[0])}">' in page
    assert f'href="{sheet_url(event, tables[0])}">Print this table\'s sheet (PDF)</a>' in page
    assert f'href="{new_link_url(event, tables[0])}">Revoke the link and issue a new one</a>' in page


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_new_link_asks_first_and_says_what_stops_working(organiser_client, event, tables, method):
    old = tables[0].token
    response = getattr(organiser_client, method)(new_link_url(event, tables[0]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Phones holding the old link of table 1, and the QR code printed on its sheet, will stop working." in page
    assert "Then reprint this table&#x27;s sheet" in page
    assert f'action="{new_link_url(event, tables[0])}"' in page and 'name="confirm"' in page
    assert f'href="{desk_url(event, tables[0])}">Cancel</a>' in page
    tables[0].refresh_from_db()
    assert tables[0].token == old
    assert not AuditEntry.objects.filter(action=Action.TABLE_LINK).exists()


def test_the_confirmed_new_link_closes_the_old_one_and_leads_to_the_new_qr_code(organiser_client, event, tables):
    old = tables[0].token
    response = organiser_client.post(new_link_url(event, tables[0]), {"confirm": "1"}, follow=True)
    assert response.redirect_chain == [(desk_url(event, tables[0]) + "#table-link", 302)]
    tables[0].refresh_from_db()
    assert tables[0].token != old
    assert Client().get(reverse("tournaments:table", args=[old])).status_code == 404
    page = response.content.decode()
    assert "The old table link no longer works; print this table&#x27;s sheet or show its new QR code." in page
    markup = re.search(r'<svg[^>]*class="qr-code".*?</svg>', page, re.DOTALL).group(0)
    assert decoded(svg_image(markup)) == [table_address(tables[0])]
    assert AuditEntry.objects.get(action=Action.TABLE_LINK).table == tables[0]


def test_one_tables_sheet_is_one_page_with_its_players_and_its_new_link(organiser_client, event, tables, tmp_path):
    organiser_client.post(new_link_url(event, tables[1]), {"confirm": "1"})
    tables[1].refresh_from_db()
    response = organiser_client.get(sheet_url(event, tables[1]))
    assert response["Content-Type"] == "application/pdf"
    assert f"{event.slug}-round-1-table-2-sheet.pdf" in response["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Round 1 · table 2 · score sheet" in text and table_address(tables[1]) in text
    names = [seat.player.name for seat in tables[1].seats.order_by("position")]
    others = [seat.player.name for seat in tables[0].seats.all()]
    assert all(name in text for name in names) and not any(name in text for name in others)
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(response.content)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", pdf, tmp_path / "sheet"], check=True)
    assert decoded(Image.open(tmp_path / "sheet.png")) == [table_address(tables[1])]


def test_another_events_table_has_no_sheet_or_new_link_here(organiser_client, make_event, event, tables):
    other = make_event("vegetables", players=4)
    assert organiser_client.get(sheet_url(other, tables[0])).status_code == 404
    assert organiser_client.post(new_link_url(other, tables[0]), {"confirm": "1"}).status_code == 404


def test_the_sheet_and_the_new_link_need_the_events_organiser(client, event, tables):
    old = tables[0].token
    for url in (sheet_url(event, tables[0]), new_link_url(event, tables[0])):
        assert client.get(url).status_code in (302, 403)
    client.post(new_link_url(event, tables[0]), {"confirm": "1"})
    tables[0].refresh_from_db()
    assert tables[0].token == old


@pytest.mark.parametrize(
    ("language", "moment"),
    [
        ("it", r"\d{1,2} [a-z]+ 2026, \d{2}:\d{2}"),
        ("es", r"\d{1,2} de [a-z]+ de 2026 a las \d{2}:\d{2}"),
        ("en", r"[A-Z][a-z]+\.? \d{1,2}, 2026, (\d{1,2}(:\d{2})? [ap]\.m\.|midnight|noon)"),
    ],
)
def test_the_desk_page_dates_its_changes_as_the_other_pages_date_the_event(
    organiser_client, event, tables, language, moment
):
    organiser_client.post(new_link_url(event, tables[0]), {"confirm": "1"})
    page = organiser_client.get(desk_url(event, tables[0]), headers={"accept-language": language}).content.decode()
    assert re.search(rf"<tr><td>{moment}</td>", page), "written out in the reader's language, with the time"
    assert not re.search(r"\d{1,2}/\d{1,2}/\d{4}", page), "no short numeric date beside the long ones"
