"""The address phones reach Tablescore at: in every QR code and printed link, and a warning when it is the laptop's
own name (127.0.0.1, localhost), with the laptop's network addresses to use instead."""

from __future__ import annotations

import io

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import seat_by_hand
from tests.test_printing import decode_qr, render, sheet_links
from tournaments import checks, public_address
from tournaments.public_address import AddressError, clean_public_url, is_loopback

LAN = "http://192.168.1.20:8000"
LOOPBACK_HOST = {"HTTP_HOST": "127.0.0.1:8000"}
WARNING = "Phones cannot open links to this laptop's own name"


@pytest.fixture
def laptop(monkeypatch):
    """A laptop on a venue's Wi-Fi at 192.168.1.20, its server answering there."""
    monkeypatch.setattr(public_address, "local_ips", lambda: ["192.168.1.20"])
    monkeypatch.setattr(public_address, "answers_at", lambda ip, port: True)


def seated(make_event, players: int = 8):
    event = make_event("cheese-rescue", players=players)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[i : i + 4] for i in range(0, len(ids), 4)])
    return event, round_


def links_of(round_, address: str) -> list[str]:
    """The table links of a round's score sheets, in table order, at ``address``."""
    return [f"{address}/t/{token}/" for token in round_.tables.order_by("number").values_list("token", flat=True)]


def first_page_qr(content: bytes, tmp_path, name: str) -> list[str]:
    return decode_qr(render(content, 1, tmp_path, name, dpi=200)).split("\n")


# The address as typed -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "cleaned"),
    [
        ("http://192.168.1.20:8000", LAN),
        ("http://192.168.1.20:8000/", LAN),
        ("  192.168.1.20:8000 ", LAN),
        ("HTTPS://Scores.Example.org", "https://scores.example.org"),
        ("http://[fe80::1]:8000/", "http://[fe80::1]:8000"),
        ("http://laptop.local:8000", "http://laptop.local:8000"),
        ("", ""),
    ],
)
def test_an_address_keeps_scheme_host_and_port(typed, cleaned):
    assert clean_public_url(typed) == cleaned


@pytest.mark.parametrize(
    "typed",
    [
        "http://192.168.1.20:8000/tablescore",
        "http://192.168.1.20:8000/?x=1",
        "http://192.168.1.20:8000/#top",
        "ftp://192.168.1.20",
        "http://",
        "http://bad host:8000",
        "http://192.168.1.20:99999",
        "http://192.168.1.20:0",
        "http://ada:secret@192.168.1.20",
        "javascript:alert(1)",
    ],
)
def test_an_address_with_more_or_less_is_refused(typed):
    with pytest.raises(AddressError):
        clean_public_url(typed)


def test_the_setting_is_checked_when_the_server_starts(settings, rf):
    settings.PUBLIC_URL = " 192.168.1.20:8000/ "
    assert checks.public_url(None) == []
    assert public_address.public_address(rf.get("/")).url == LAN
    settings.PUBLIC_URL = ""
    assert checks.public_url(None) == []
    settings.PUBLIC_URL = "http://192.168.1.20:8000/tablescore"
    [error] = checks.public_url(None)
    assert error.is_serious() and error.id == "tournaments.E001"
    assert "PUBLIC_URL" in error.msg and "/tablescore" in error.msg
    assert error in run_checks()


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.0.1.1:8000", True),
        ("http://localhost:8000", True),
        ("http://LOCALHOST.:8000", True),
        ("http://[::1]:8000", True),
        ("http://0.0.0.0:8000", True),
        ("http://app.localhost", True),
        (LAN, False),
        ("https://scores.example.org", False),
        ("10.0.0.7", False),
    ],
)
def test_loopback_addresses_are_recognised(address, loopback):
    assert is_loopback(address) is loopback


def test_only_private_ipv4_addresses_are_offered():
    keep = ["192.168.1.20", "10.0.0.7", "172.16.4.2"]
    refuse = ["127.0.0.1", "169.254.3.3", "0.0.0.0", "8.8.8.8", "::1", "fe80::1", None, "laptop"]
    assert all(public_address.private_ipv4(ip) for ip in keep)
    assert not any(public_address.private_ipv4(ip) for ip in refuse)


def test_the_laptops_addresses_come_from_its_route_and_name_each_once(monkeypatch):
    monkeypatch.setattr(public_address, "routed_address", lambda: "192.168.1.20")
    monkeypatch.setattr(public_address, "named_addresses", lambda: ["127.0.1.1", "10.0.0.7", "192.168.1.20"])
    assert public_address.lan_addresses(8000) == [LAN, "http://10.0.0.7:8000"]


def test_finding_the_laptops_addresses_contacts_no_one():
    """The UDP "connect" only picks a route: it works (or fails quietly) without any network traffic."""
    found = public_address.local_ips()
    assert all(public_address.private_ipv4(ip) for ip in found)


# Every QR code and printed link ---------------------------------------------------------------------------------


def test_score_sheets_carry_public_url(organiser_client, make_event, settings, tmp_path):
    settings.PUBLIC_URL = LAN
    event, round_ = seated(make_event)
    table = round_.tables.get(number=1)

    response = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]), **LOOPBACK_HOST)

    link = f"{LAN}/t/{table.token}/"
    assert link in PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert sheet_links(response.content, tmp_path) == links_of(round_, LAN)


def test_the_events_own_address_wins_over_public_url(organiser_client, make_event, settings, tmp_path):
    settings.PUBLIC_URL = "http://10.0.0.7:8000"
    event, round_ = seated(make_event)
    event.public_url = LAN
    event.save()

    response = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]), **LOOPBACK_HOST)

    assert sheet_links(response.content, tmp_path) == links_of(round_, LAN)


def test_seating_by_name_and_player_cards_carry_the_events_address(organiser_client, make_event, tmp_path):
    event, round_ = seated(make_event, players=4)
    event.public_url = LAN + "/"
    event.save()
    tokens = {f"{LAN}/p/{token}/" for token in event.players.values_list("token", flat=True)}

    seating = organiser_client.get(reverse("tournaments:print_seating", args=[event.slug, 1]), **LOOPBACK_HOST)
    cards = organiser_client.get(reverse("tournaments:print_player_cards", args=[event.slug]), **LOOPBACK_HOST)

    by_player = decode_qr(render(seating.content, 2, tmp_path, "seating", dpi=200)).split("\n")
    assert set(by_player) == tokens
    assert set(first_page_qr(cards.content, tmp_path, "cards")) == tokens


def test_without_any_address_links_follow_the_page(organiser_client, make_event, tmp_path):
    event, round_ = seated(make_event)

    response = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]))

    assert sheet_links(response.content, tmp_path) == links_of(round_, "http://testserver")


def test_the_desks_table_page_shows_the_public_link(organiser_client, make_event, settings):
    settings.PUBLIC_URL = LAN
    event, round_ = seated(make_event)
    table = round_.tables.get(number=1)

    page = organiser_client.get(reverse("tournaments:desk_table", args=[event.slug, table.pk]), **LOOPBACK_HOST)

    assert f'href="{LAN}/t/{table.token}/"' in page.content.decode()


def test_an_unusable_stored_address_is_passed_over(rf, make_event, settings):
    settings.PUBLIC_URL = LAN
    event = make_event("cheese-rescue", players=4, public_url="http://192.168.1.20:8000/old-path")
    request = rf.get("/", HTTP_HOST="127.0.0.1:8000")
    assert public_address.public_link(request, event, "/t/abc/") == f"{LAN}/t/abc/"


# The desk's warning ---------------------------------------------------------------------------------------------


def test_the_desk_warns_when_links_would_lead_to_127_0_0_1(organiser_client, make_event, laptop):
    event, _ = seated(make_event)

    page = organiser_client.get(
        reverse("tournaments:event_manage", args=[event.slug]), **LOOPBACK_HOST
    ).content.decode()

    assert WARNING in page
    assert "http://127.0.0.1:8000/" in page
    assert f'<input type="hidden" name="public_url" value="{LAN}">' in page
    assert "Use it for this tournament" in page
    assert reverse("tournaments:public_address", args=[event.slug]) in page


@pytest.mark.parametrize("host", ["localhost:8000", "[::1]:8000"])
def test_the_desk_warns_for_every_name_of_the_laptop(organiser_client, make_event, laptop, host):
    event, _ = seated(make_event)
    page = organiser_client.get(reverse("tournaments:event_manage", args=[event.slug]), HTTP_HOST=host)
    assert WARNING in page.content.decode()


def test_the_desk_says_where_links_lead_once_phones_can_follow(organiser_client, make_event, settings, laptop):
    settings.PUBLIC_URL = LAN
    event, _ = seated(make_event)

    page = organiser_client.get(
        reverse("tournaments:event_manage", args=[event.slug]), **LOOPBACK_HOST
    ).content.decode()

    assert WARNING not in page
    assert f"<code>{LAN}/</code>" in page


def test_a_server_listening_on_127_0_0_1_only_is_pointed_out(organiser_client, make_event, monkeypatch):
    monkeypatch.setattr(public_address, "local_ips", lambda: ["192.168.1.20"])
    monkeypatch.setattr(public_address, "answers_at", lambda ip, port: False)
    event, _ = seated(make_event)

    page = organiser_client.get(
        reverse("tournaments:event_manage", args=[event.slug]), **LOOPBACK_HOST
    ).content.decode()

    assert "start tablescore without --host 127.0.0.1" in page and "make run HOST=0.0.0.0" in page


def test_a_laptop_without_a_network_says_so(organiser_client, make_event, monkeypatch):
    monkeypatch.setattr(public_address, "local_ips", lambda: [])
    event, _ = seated(make_event)
    page = organiser_client.get(
        reverse("tournaments:event_manage", args=[event.slug]), **LOOPBACK_HOST
    ).content.decode()
    assert "no address on a local network" in page


def test_using_an_offered_address_sets_the_events_own(organiser_client, make_event, laptop):
    event, _ = seated(make_event)
    url = reverse("tournaments:public_address", args=[event.slug])

    response = organiser_client.post(url, {"public_url": LAN, "next": "desk"}, **LOOPBACK_HOST)

    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:event_manage", args=[event.slug])
    event.refresh_from_db()
    assert event.public_url == LAN
    page = organiser_client.get(response["Location"], **LOOPBACK_HOST).content.decode()
    assert WARNING not in page
    assert f"QR codes and printed links now lead to {LAN}/." in page


def test_the_address_page_explains_and_takes_another_address(organiser_client, make_event, laptop):
    event, _ = seated(make_event)
    url = reverse("tournaments:public_address", args=[event.slug])

    page = organiser_client.get(url, **LOOPBACK_HOST).content.decode()
    assert WARNING in page and LAN in page and "make run HOST=0.0.0.0" in page
    assert "the tablescore command does so by itself" in page

    refused = organiser_client.post(url, {"public_url": "http://192.168.1.20:8000/x"}, **LOOPBACK_HOST)
    assert refused.status_code == 400
    assert "nothing after the host and port" in refused.content.decode()

    saved = organiser_client.post(url, {"public_url": "10.0.0.7:8000"}, **LOOPBACK_HOST)
    assert saved["Location"] == url
    event.refresh_from_db()
    assert event.public_url == "http://10.0.0.7:8000"

    organiser_client.post(url, {"public_url": ""})
    event.refresh_from_db()
    assert event.public_url == ""


def test_the_address_page_is_the_organisers(client, make_event):
    event, _ = seated(make_event)
    url = reverse("tournaments:public_address", args=[event.slug])
    assert client.get(url).status_code == 302
    assert client.post(url, {"public_url": LAN}).status_code == 302
    event.refresh_from_db()
    assert event.public_url == ""


def test_the_event_form_takes_and_checks_the_address(organiser_client, make_event):
    from tests.test_event_setup import event_data

    event, _ = seated(make_event)
    url = reverse("tournaments:event_edit", args=[event.slug])
    assert 'name="public_url"' in organiser_client.get(url).content.decode()

    refused = organiser_client.post(url, event_data(public_url="http://192.168.1.20:8000/scores"))
    assert refused.status_code == 200
    assert "nothing after the host and port" in refused.content.decode()

    organiser_client.post(url, event_data(public_url="http://192.168.1.20:8000/"))
    event.refresh_from_db()
    assert event.public_url == LAN


# make run HOST=0.0.0.0 ------------------------------------------------------------------------------------------


def test_the_command_prints_the_address_for_phones_and_the_hosts_to_allow(laptop, settings, capsys):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

    call_command("network_addresses", "--port", "8000")
    assert capsys.readouterr().out == f"Phones: {LAN}/\n"
    call_command("network_addresses", "--allowed-hosts")
    assert capsys.readouterr().out == "127.0.0.1,localhost,192.168.1.20\n"
    call_command("network_addresses", "--public-url", "--port", "8001")
    assert capsys.readouterr().out == "http://192.168.1.20:8001\n"


def test_the_command_says_when_there_is_no_network(monkeypatch, capsys):
    monkeypatch.setattr(public_address, "local_ips", lambda: [])
    call_command("network_addresses")
    assert "no network address found" in capsys.readouterr().out


def test_templates_can_write_a_public_link(rf, make_event, settings):
    from django.template import Context, Template

    settings.PUBLIC_URL = LAN
    event = make_event("cheese-rescue", players=4)
    request = rf.get("/", HTTP_HOST="127.0.0.1:8000")
    html = Template("{% load desk %}{% public_link event path %}").render(
        Context({"request": request, "event": event, "path": "/p/abc/"})
    )
    assert html == f"{LAN}/p/abc/"
