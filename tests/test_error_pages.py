"""The error pages: each status in the visitor's language, saying what probably happened and the way back; a table's
or a player's link that leads nowhere says which case it is, and no error page reads the database."""

from __future__ import annotations

import re

import pytest
from django.contrib import auth
from django.contrib.sessions.backends.db import SessionStore
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import include, path, reverse
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext, ngettext

from config.urls import handler400, handler403, handler404, handler500  # noqa: F401 (the test URLs' handlers)
from tests.factories import seat_by_hand
from tournaments import errors
from tournaments.edge import login_throttle, rate_limits
from tournaments.errors import LinkNotFound, Reason
from tournaments.models.rounds import RoundStatus

LANGUAGES = ["en", "es", "it"]
TITLES = {
    400: "This request could not be understood",
    403: "This page is for the tournament's organisers",
    404: "Page not found",
    429: "Too many requests",
    500: "Something went wrong",
}
WAY_BACK = "Find my tournament and table"
SAFE = (
    "Scores saved earlier are safe. If you were sending a sheet, go back and send it again in a moment: the browser "
    "usually keeps what you typed. If it keeps happening, tell the organiser."
)
REPRINTED = "This table's link no longer works"
LOCKED = "Too many attempts, try again in %(minutes)d minute."


def boom(request):
    raise RuntimeError("a bug")


def refused(request):
    raise PermissionDenied


def suspicious(request):
    raise SuspiciousOperation("a forged form")


def fine(request):
    return HttpResponse("fine")


#: This module is the URL configuration of the tests marked ``urls``: the app's, plus views that fail on purpose.
urlpatterns = [
    path("test-errors/boom/", boom),
    path("test-errors/refused/", refused),
    path("test-errors/suspicious/", suspicious),
    path("test-errors/fine/", fine),
    path("", include("config.urls")),
]

ASK_FOR_THE_SHEET = (
    "Ask the organiser for the new sheet and scan its QR code. The tournament's page also shows where everyone sits."
)
ASK_FOR_THE_LINK = "Ask the organiser for your new link. Meanwhile the tournament's page shows where you sit."


def translated(text: str, language: str) -> str:
    """``text`` as the catalogue of ``language`` has it (``{% translate %}`` shows it as it is)."""
    with translation.override(language):
        return gettext(text)


def explained(response) -> str:
    """The page's explanation: what is inside its main element."""
    return re.search(r"<main id=\"main\">(.*)</main>", response.content.decode(), re.S).group(1)


def assert_friendly(response, status: int, language: str) -> str:
    assert response.status_code == status
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    assert f"<h1>{translated(TITLES[status], language)}</h1>" in page
    assert translated(WAY_BACK, language) in page and 'href="/"' in page
    assert "no-store" in response["Cache-Control"]
    return page


@pytest.fixture
def event(make_event):
    return make_event("vegetables", players=8)


@pytest.fixture
def tables(event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return list(seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.order_by("number"))


@pytest.fixture
def fixed_clock(monkeypatch):
    """The rate limits' clock stands still, so a test's requests fall into one window."""

    class Clock:
        @staticmethod
        def time() -> float:
            return 60 * 31_666_666 + 20.0

    monkeypatch.setattr(rate_limits, "time", Clock)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unknown_address_gets_the_friendly_404(db, client, language):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    page = assert_friendly(response, 404, language)
    assert translated("Check the address, or start again from the list of tournaments.", language) in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_replaced_table_link_says_the_sheet_was_reprinted(client, tables, language):
    table = tables[0]
    old = reverse("tournaments:table", args=[table.token])
    table.new_token()
    table.save(update_fields=["token"])
    response = client.get(old, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404 and "no-store" in response["Cache-Control"]
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    assert f"<h1>{translated(REPRINTED, language)}</h1>" in page
    assert translated(ASK_FOR_THE_SHEET, language) in page
    assert translated(WAY_BACK, language) in page


def test_a_table_link_of_a_round_not_announced_reads_as_an_unknown_one(client, event, tables):
    """The page does not tell a table that exists (its round unpublished) from a link nobody has."""
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    hidden = seat_by_hand(event, 2, [ids[:4]])
    hidden.published = False
    hidden.save(update_fields=["published"])
    waiting = client.get(reverse("tournaments:table", args=[hidden.tables.get().token]))
    unknown = client.get(reverse("tournaments:table", args=["Zq3-xT9_kLmN2pQr5sUvWy"]))
    assert waiting.status_code == unknown.status_code == 404
    assert explained(waiting) == explained(unknown)
    assert "reprinted" in explained(unknown)


def test_a_replaced_table_link_typing_a_sheet_gets_the_reason_in_the_alert_area(client, tables):
    table = tables[0]
    check = reverse("tournaments:table_check", args=[table.token, 1])
    table.new_token()
    table.save(update_fields=["token"])
    response = client.post(check, {"seat": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 404
    assert response["HX-Retarget"] == "#alerts" and response["HX-Reswap"] == "innerHTML"
    fragment = response.content.decode()
    assert fragment.startswith('<div class="notice warning">') and "<html" not in fragment and "<h1>" not in fragment
    assert f"<strong>{REPRINTED}</strong>" in fragment


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_revoked_player_link_says_to_ask_for_the_new_one(client, tables, language):
    player = tables[0].seats.first().player
    old_home = reverse("tournaments:player_link", args=[player.token])
    old_table = reverse("tournaments:player_table", args=[player.token, tables[0].pk])
    player.new_token()
    player.save(update_fields=["token"])
    for address in (old_home, old_table):
        response = client.get(address, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 404 and "no-store" in response["Cache-Control"]
        page = response.content.decode()
        assert f"<h1>{translated('This player link no longer works', language)}</h1>" in page
        assert translated(ASK_FOR_THE_LINK, language) in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_link_on_a_table_it_does_not_sit_at_leads_to_the_players_page(client, tables, language):
    mine, theirs = tables
    player = mine.seats.first().player
    response = client.get(
        reverse("tournaments:player_table", args=[player.token, theirs.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 404 and "no-store" in response["Cache-Control"]
    page = response.content.decode()
    assert f"<h1>{translated('You do not sit at this table', language)}</h1>" in page
    own = reverse("tournaments:player_link", args=[player.token])
    assert f'href="{own}">{translated("Open my page", language)}</a>' in page
    assert client.get(own).status_code == 200


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_organisers_page_refused_offers_to_log_in(member, event, language):
    address = reverse("tournaments:players", args=[event.slug])
    response = member.get(address, HTTP_ACCEPT_LANGUAGE=language)
    page = assert_friendly(response, 403, language)
    assert f'href="/accounts/login/?next={address.replace("/", "%2F")}"' in page
    assert translated("Log in as an organiser", language) in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_request_not_understood_gets_the_friendly_400(db, language):
    response = Client().get("/", HTTP_HOST="intruder.example", HTTP_ACCEPT_LANGUAGE=language)
    assert_friendly(response, 400, language)


@pytest.mark.urls(__name__)
@pytest.mark.parametrize("language", LANGUAGES)
def test_handlers_answer_suspicious_and_refused_requests(db, language):
    client = Client()
    assert_friendly(client.get("/test-errors/suspicious/", HTTP_ACCEPT_LANGUAGE=language), 400, language)
    assert_friendly(client.get("/test-errors/refused/", HTTP_ACCEPT_LANGUAGE=language), 403, language)


@pytest.mark.urls(__name__)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_server_error_gets_a_page_of_its_own(db, language):
    response = Client(raise_request_exception=False).get("/test-errors/boom/", HTTP_ACCEPT_LANGUAGE=language)
    page = assert_friendly(response, 500, language)
    assert translated("Something went wrong", language) + " · Tablescore</title>" in page
    assert translated(SAFE, language) in page
    assert "csrfmiddlewaretoken" not in page


def test_a_broken_500_template_still_answers_500(db, monkeypatch):
    def broken(name):
        raise RuntimeError("no templates")

    monkeypatch.setattr(errors.loader, "get_template", broken)
    response = errors.server_error(RequestFactory().get("/"))
    assert response.status_code == 500 and b"Something went wrong" in response.content


@pytest.mark.cache
@pytest.mark.parametrize("language", LANGUAGES)
def test_too_many_links_that_lead_nowhere_get_the_friendly_429(client, tables, settings, fixed_clock, language):
    settings.NOT_FOUND_RATE_LIMIT = (2, 60)
    for n in range(2):
        assert client.get(f"/t/{'A' * 21}{n}/").status_code == 404
    address = reverse("tournaments:table", args=[tables[0].token])
    response = client.get(address, HTTP_ACCEPT_LANGUAGE=language)
    page = assert_friendly(response, 429, language)
    assert 1 <= int(response["Retry-After"]) <= 60
    assert f'href="{address}">{translated("Try again", language)}</a>' in page


def test_the_error_pages_read_neither_the_database_nor_the_session(db, django_assert_num_queries):
    """A visitor with a session: showing any error page asks the database nothing."""
    request = RequestFactory().get("/t/whatever/")
    request.session = SessionStore(session_key="k" * 32)
    request.user = SimpleLazyObject(lambda: auth.get_user(request))
    with django_assert_num_queries(0):
        answers = [
            errors.page_not_found(request, LinkNotFound(Reason.TABLE_LINK)),
            errors.page_not_found(request, LinkNotFound(Reason.NOT_AT_TABLE, player_token="Zq3-xT9_kLmN2pQr5sUvWy")),
            errors.permission_denied(request, PermissionDenied()),
            errors.bad_request(request, SuspiciousOperation()),
            errors.too_many_requests(request, "Wait.", 5),
            errors.server_error(request),
        ]
    assert [answer.status_code for answer in answers] == [404, 404, 403, 400, 429, 500]


@pytest.mark.cache
def test_a_lockout_away_from_the_login_form_gets_the_friendly_429(db):
    request = RequestFactory().post("/accounts/elsewhere/", HTTP_ACCEPT_LANGUAGE="it")
    request.resolver_match = None
    with translation.override("it"):
        response = login_throttle.login_lockout(request, credentials={"username": "boss"})
    page = assert_friendly(response, 429, "it")
    assert response["Retry-After"] == str(15 * 60)
    with translation.override("it"):
        message = ngettext(LOCKED, LOCKED.replace("minute.", "minutes."), 15) % {"minutes": 15}
    assert message in page and 'href="/accounts/elsewhere/"' not in page, "a form sent is not sent again by a link"
