"""Security: organiser pages behind login and CSRF, scorer links kept to their table, login throttling, rate
limits, security headers without inline code, oversized bodies and a busy database answered clearly."""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
import sys
import time
import uuid
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import InterfaceError, OperationalError
from django.db.models import F
from django.test import Client
from django.urls import URLPattern, reverse

from tests.factories import enter, seat_by_hand
from tournaments.edge import client_address, rate_limits
from tournaments.edge.body_size import RequestSizeLimitMiddleware
from tournaments.models import Manche, Table
from tournaments.models.rounds import RoundStatus
from tournaments.models.tokens import find_by_token
from tournaments.models.tokens import well_formed as well_formed_token
from tournaments.urls import urlpatterns

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a-long-test-password"
MANCHE = {
    "pozzo": [30, 0, 20, 10],
    "sequences": [6, 2, 5, 3],
    "family_bonuses": [1, 0, 0, 0],
    "penalties": [0, 1, 0, 0],
}
#: Every app URL that is not an organiser page, by who may use it: anyone, or the holder of a scorer link.
PUBLIC_URLS = {
    "home",
    "event",
    "find_table",
    "standings",
    "standings_live",
    "standings_csv",
    "standings_xlsx",
    "projector",
    "projector_next",
    "player",
    "api_openapi",
    "event_clock",
    "statistics",
    # A season's ladder: its club's organisers, and anyone once every event of the season is public (test_seasons).
    "season",
    "season_csv",
    "season_xlsx",
    "season_pdf",
    # The service worker's script: the same for everyone, it holds no data.
    "service_worker",
}
SCORER_URLS = {
    "table",
    "table_seat",
    "table_save",
    "table_confirm",
    "table_dispute",
    "table_check",
    "table_clock",
    "api_table_sheet",
}
PLAYER_URLS = {
    "player_link",
    "player_clock",
    "player_table",
    "player_table_save",
    "player_table_confirm",
    "player_table_dispute",
    "player_table_check",
}


@pytest.fixture(autouse=True)
def quick_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def event(make_event, organiser):
    event = make_event("vegetables", players=8)
    event.organisers.add(organiser)
    return event


@pytest.fixture
def tables(event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return list(seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY).tables.order_by("number"))


@pytest.fixture
def other_table(make_event):
    other = make_event("cheese-rescue", players=2, table_size=2, slug="other-night")
    ids = list(other.players.values_list("pk", flat=True))
    return seat_by_hand(other, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()


def organiser_patterns() -> list[URLPattern]:
    return [p for p in urlpatterns if "organiser/" in str(p.pattern)]


def organiser_urls(event, tables) -> list[str]:
    values = {
        "slug": event.slug,
        "number": 1,
        "table_id": tables[0].pk,
        "player_id": event.players.first().pk,
        "person_id": 1,
        "season_id": 1,
        "paper_id": 1,
        "revision_id": 1,
    }
    urls = []
    for pattern in organiser_patterns():
        kwargs = {name: values[name] for name in pattern.pattern.converters}
        urls.append(reverse(f"tournaments:{pattern.name}", kwargs=kwargs))
    return urls


def scorer_urls(table: Table) -> list[str]:
    return [
        reverse("tournaments:table", args=[table.token]),
        *(reverse(f"tournaments:{name}", args=[table.token, 1]) for name in ["table_save", "table_check"]),
        *(reverse(f"tournaments:{name}", args=[table.token, 1]) for name in ["table_confirm", "table_dispute"]),
        reverse("tournaments:table_seat", args=[table.token]),
        reverse("tournaments:api_table_sheet", args=[table.token]),
    ]


def is_login_redirect(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(reverse("login") + "?next=")


# Organiser pages: login and CSRF -------------------------------------------------------------------------------


def test_every_app_url_is_an_organiser_page_a_public_page_or_a_scorer_link():
    names = {p.name for p in urlpatterns}
    organiser = {p.name for p in organiser_patterns()}
    assert len(organiser) >= 20
    unclassified = names - organiser - PUBLIC_URLS - SCORER_URLS - PLAYER_URLS
    assert not unclassified, f"say who may use {sorted(unclassified)} (organiser/ in the path, or list it here)"
    token_routes = {p.name for p in urlpatterns if "<str:token>" in str(p.pattern)}
    assert token_routes == SCORER_URLS | PLAYER_URLS


def test_anonymous_visitors_are_sent_to_login_from_every_organiser_page(client, event, tables):
    for url in organiser_urls(event, tables):
        got, posted = client.get(url), client.post(url)
        assert is_login_redirect(posted), url
        assert is_login_redirect(got) or got.status_code == 405, url
        if got.status_code == 302:
            assert got["Location"].endswith("?next=" + url), url


def test_every_organiser_post_without_the_csrf_token_is_refused(event, tables, organiser):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    assert client.get(reverse("tournaments:event_manage", args=[event.slug])).status_code == 200
    for url in organiser_urls(event, tables):
        assert client.post(url, {"name": "x", "checked_in": "1"}).status_code == 403, url
    assert client.post(reverse("logout")).status_code == 403
    assert client.get(reverse("tournaments:dashboard")).status_code == 200


def test_a_user_who_does_not_run_the_event_gets_403(client, django_user_model, event, tables):
    client.force_login(django_user_model.objects.create_user("someone", password=PASSWORD))
    for url in organiser_urls(event, tables):
        if "/organiser/" in url and url.startswith("/e/"):
            assert client.post(url).status_code == 403, url


def test_the_admin_needs_a_staff_login_and_the_csrf_token(client, organiser):
    for url in ["/admin/", "/admin/tournaments/event/", "/admin/auth/user/"]:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/"), url
    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/admin/login/", {"username": "boss", "password": PASSWORD}).status_code == 403
    assert strict.post(reverse("login"), {"username": "boss", "password": PASSWORD}).status_code == 403
    strict.force_login(organiser)
    assert strict.post("/admin/tournaments/event/add/", {"name": "Forged"}).status_code == 403


# Scorer links --------------------------------------------------------------------------------------------------


def test_a_scorer_link_opens_its_table_and_nothing_of_another(client, event, tables, other_table):
    mine, theirs = tables
    assert client.get(scorer_urls(mine)[0]).status_code == 200
    saved = client.post(reverse("tournaments:table_save", args=[mine.token, 1]), scorer_post(seat=1))
    assert saved.status_code == 302
    assert Manche.objects.get(table=mine, number=1).version == 1
    assert set(Manche.objects.filter(table__in=[theirs, other_table]).values_list("version", flat=True)) == {0}
    names = [s.player.name for s in mine.seats.order_by("position")]
    body = {"manche": 2, "version": 0, "document": {"game": "vegetables", "players": names, "manches": [MANCHE]}}
    api = reverse("tournaments:api_table_sheet", args=[mine.token])
    assert client.put(api, json.dumps(body), content_type="application/json").status_code == 200
    assert Manche.objects.get(table=mine, number=2).version == 1
    sheet = client.get(reverse("tournaments:api_table_sheet", args=[mine.token])).json()
    assert sheet["players"] == names
    assert len(sheet["manches"]) == event.manches_per_round
    pages = "".join(client.get(url).content.decode() for url in scorer_urls(mine)[:1] + scorer_urls(mine)[-1:])
    for name in theirs.seats.values_list("player__name", flat=True):
        assert name not in pages
    assert theirs.token not in pages and other_table.token not in pages and "/organiser/" not in pages


def test_a_scorer_session_reaches_no_organiser_page_of_any_event(client, event, tables, other_table):
    client.get(scorer_urls(tables[0])[0])
    client.post(reverse("tournaments:table_save", args=[tables[0].token, 1]), scorer_post(seat=2))
    assert Manche.objects.get(table=tables[0], number=1).entered_seat == 2
    other_event = other_table.round.event
    for url in organiser_urls(event, tables) + organiser_urls(other_event, [other_table]):
        assert client.post(url).status_code == 302, url
    assert client.get("/admin/").status_code == 302


def test_the_seat_remembered_for_one_table_does_not_count_at_another(client, tables):
    client.post(reverse("tournaments:table_save", args=[tables[0].token, 1]), scorer_post(seat=1))
    response = client.post(reverse("tournaments:table_save", args=[tables[1].token, 1]), scorer_post(seat=None))
    assert response.status_code == 400 and "choose your seat" in response.content.decode()
    assert Manche.objects.get(table=tables[1], number=1).version == 0


def test_a_link_of_an_unpublished_round_opens_nothing(client, tables):
    round_ = tables[0].round
    round_.published = False
    round_.save()
    for url in scorer_urls(tables[0]):
        assert client.post(url, scorer_post(seat=1)).status_code == 404, url
        assert client.get(url).status_code in (404, 405), url
    assert Manche.objects.get(table=tables[0], number=1).version == 0


def test_tokens_are_128_bit_url_safe_and_well_formed(tables):
    for table in tables:
        assert re.fullmatch(r"[A-Za-z0-9_-]{22}", table.token)
        assert well_formed_token(table.token)


def test_a_case_changed_token_is_refused_even_when_the_database_matches_it(tables, monkeypatch):
    """On a database comparing text without regard to case, the constant-time check still refuses."""
    token = tables[0].token
    changed = token.swapcase()
    if changed == token:
        pytest.skip("this token has no letters")
    original = Table.objects.filter

    class CaseBlindTables:
        def filter(self, token):
            return original(token__iexact=token)

    assert original(token__iexact=changed).get() == tables[0]
    assert find_by_token(CaseBlindTables(), changed) is None
    assert find_by_token(CaseBlindTables(), token) == tables[0]


@pytest.mark.parametrize("bad", ["short", "x" * 40, "a" * 21 + "~", "aaaaaaaaaaaaaaaaaaaaaa"])
def test_bad_or_unknown_links_are_404_and_the_api_says_so_in_json(client, tables, bad):
    assert client.get(f"/t/{bad}/").status_code == 404
    assert client.post(f"/t/{bad}/manches/1/", scorer_post(seat=1)).status_code == 404
    response = client.get(f"/api/tables/{bad}/sheet")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert "check the table's link" in response.json()["errors"][0]["message"]


def scorer_post(seat: int | None, version: int = 0) -> dict:
    post = {"version": str(version)}
    if seat is not None:
        post["seat"] = str(seat)
    for key, values in MANCHE.items():
        for i, value in enumerate(values):
            post[f"manches[0].{key}[{i}]"] = str(value)
    return post


# Login throttling ----------------------------------------------------------------------------------------------


def login(client, username="boss", password="wrong-password", url=None, **extra):
    return client.post(url or reverse("login"), {"username": username, "password": password}, **extra)


def at(address: str, **extra) -> Client:
    return Client(REMOTE_ADDR=address, **extra)


def shift_failures(by: datetime.timedelta) -> None:
    """Moves the recorded login failures back in time, as if ``by`` had passed since."""
    from axes.models import AccessAttempt

    AccessAttempt.objects.update(attempt_time=F("attempt_time") - by)


@pytest.mark.cache
def test_five_failures_lock_that_user_name_at_that_address_with_a_clear_message(organiser):
    client = at("10.0.0.1")
    for _ in range(4):
        response = login(client)
        assert response.status_code == 200 and "correct username and password" in response.content.decode()
    response = login(client)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many attempts, try again in 15 minutes." in page
    assert 'value="boss"' in page
    assert 900 - 5 <= int(response["Retry-After"]) <= 900
    locked = login(client, password=PASSWORD)
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
    assert "Too many attempts" in locked.content.decode()


@pytest.mark.cache
def test_nobody_locks_the_organiser_out_from_another_address(organiser):
    for _ in range(5):
        login(at("203.0.113.66"))
    assert login(at("203.0.113.66"), password=PASSWORD).status_code == 429
    elsewhere = at("10.0.0.2")
    assert login(elsewhere, password=PASSWORD).status_code == 302
    assert elsewhere.session["_auth_user_id"] == str(organiser.pk)


@pytest.mark.cache
def test_one_address_does_not_lock_every_account_there(organiser, django_user_model):
    django_user_model.objects.create_user("scorer", password=PASSWORD)
    venue = at("10.0.0.1")
    statuses = [login(venue, username=f"guess{n % 7}").status_code for n in range(20)]
    assert statuses == [200] * 20
    for _ in range(5):
        login(venue, username="scorer")
    assert login(venue, username="scorer", password=PASSWORD).status_code == 429
    assert login(at("10.0.0.1"), password=PASSWORD).status_code == 302
    assert login(at("10.0.0.1"), username="boss").status_code == 200


@pytest.mark.cache
def test_the_lock_ends_with_the_cool_off_and_a_success_clears_the_count(organiser):
    client = at("10.0.0.1")
    for _ in range(5):
        login(client)
    assert login(client, password=PASSWORD).status_code == 429
    shift_failures(datetime.timedelta(minutes=14, seconds=30))
    almost = login(client, password=PASSWORD)
    assert "try again in 1 minute." in almost.content.decode() and 25 <= int(almost["Retry-After"]) <= 30
    shift_failures(datetime.timedelta(seconds=31))
    assert login(client, password=PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert login(client).status_code == 200
    assert login(client, password=PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert login(client).status_code == 200
    assert login(client, password=PASSWORD).status_code == 302


@pytest.mark.cache
def test_behind_a_proxy_the_last_forwarded_hop_is_the_address(settings, organiser):
    from axes.models import AccessAttempt

    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    proxy = at("10.0.0.100")
    for _ in range(5):
        login(proxy, HTTP_X_FORWARDED_FOR="1.2.3.4, 192.0.2.1")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"192.0.2.1"}
    assert login(proxy, password=PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.1").status_code == 429
    assert login(proxy, password=PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.9, 192.0.2.1").status_code == 429
    assert login(proxy, password=PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.1, 192.0.2.2").status_code == 302


def test_the_client_address_is_the_last_hop_when_it_is_an_address(rf, settings):
    request = rf.get("/", REMOTE_ADDR="10.0.0.100", HTTP_X_FORWARDED_FOR="198.51.100.1, 2001:DB8::1")
    assert client_address.client_ip(request) == "10.0.0.100"
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    assert client_address.client_ip(request) == "2001:db8::1"
    request.META["HTTP_X_FORWARDED_FOR"] = "198.51.100.1, not-an-address"
    assert client_address.client_ip(request) == "10.0.0.100"
    assert django_settings.AXES_CLIENT_IP_CALLABLE == "tournaments.edge.client_address.client_ip"


@pytest.mark.cache
def test_the_admin_login_is_throttled_too(organiser):
    client = at("10.0.0.1")
    for _ in range(5):
        response = login(client, url="/admin/login/")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    page = response.content.decode()
    assert "Too many attempts, try again in 15 minutes." in page and 'value="boss"' in page
    assert 'id="site-name"' in page
    assert login(client, url="/admin/login/", password=PASSWORD).status_code == 429
    assert login(client, password=PASSWORD).status_code == 429
    assert login(at("10.0.0.2"), url="/admin/login/", password=PASSWORD).status_code == 302


@pytest.mark.cache
def test_login_failures_are_rows_every_process_sees(organiser):
    from axes.models import AccessAttempt

    assert django_settings.AXES_HANDLER == "axes.handlers.database.AxesDatabaseHandler"
    for _ in range(3):
        login(at("10.0.0.1"))
    attempt = AccessAttempt.objects.get()
    assert (attempt.username, attempt.ip_address, attempt.failures_since_start) == ("boss", "10.0.0.1", 3)
    assert "wrong-password" not in attempt.post_data


# Rate limits ---------------------------------------------------------------------------------------------------


class Clock:
    """Stands in for the ``time`` module in tournaments.edge.rate_limits: the time is whatever the test sets."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    """A clock 20 seconds into a minute, so a test's requests all fall into one window of the limits."""
    fake = Clock(60 * 31_666_666 + 20.0)
    monkeypatch.setattr(rate_limits, "time", fake)
    return fake


@pytest.fixture
def real_limits(settings):
    """The rate limits the app is configured with, instead of the tests' generous ones."""
    from config import settings as configured

    for name in ["SAVE_RATE_LIMIT", "SAVE_RATE_LIMITS", "NOT_FOUND_RATE_LIMIT"]:
        setattr(settings, name, getattr(configured, name))
    assert settings.SAVE_RATE_LIMIT == (30, 60) and settings.NOT_FOUND_RATE_LIMIT == (60, 60)
    settings.NOT_FOUND_RATE_LIMIT = (20, 60)


def sheet_body(table: Table, version: int = 0) -> str:
    names = [s.player.name for s in table.seats.order_by("position")]
    document = {"game": "vegetables", "players": names, "manches": [MANCHE]}
    return json.dumps({"manche": 1, "version": version, "document": document})


def assert_too_many(response, api: bool) -> str:
    assert response.status_code == 429, response.status_code
    assert 1 <= int(response["Retry-After"]) <= 60
    if api:
        assert response["Content-Type"] == "application/json"
        [error] = response.json()["errors"]
        assert error["path"] == ""
        return error["message"]
    page = response.content.decode()
    assert "<h1>Too many requests</h1>" in page and inline_code(page).found == []
    return page


@pytest.mark.cache
def test_saves_through_one_link_are_limited_to_30_a_minute(client, tables, real_limits, clock):
    mine, theirs = tables
    save = reverse("tournaments:table_save", args=[mine.token, 1])
    api = reverse("tournaments:api_table_sheet", args=[mine.token])
    statuses = [client.post(save, scorer_post(seat=1)).status_code for _ in range(25)]
    statuses += [client.put(api, sheet_body(mine), content_type="application/json").status_code for _ in range(5)]
    assert 429 not in statuses and statuses[0] == 302
    refused = client.post(save, scorer_post(seat=1, version=1))
    assert "Too many saves through this link: nothing was saved." in assert_too_many(refused, api=False)
    refused = client.put(api, sheet_body(mine, version=1), content_type="application/json")
    assert "nothing was saved" in assert_too_many(refused, api=True)
    confirm = reverse("tournaments:table_confirm", args=[mine.token, 1])
    assert client.post(confirm, {"seat": "2", "version": "1"}).status_code == 429
    from_the_form = client.post(save, scorer_post(seat=1, version=1), HTTP_HX_REQUEST="true")
    assert from_the_form.status_code == 429 and from_the_form["HX-Retarget"] == "#alerts"
    assert "nothing was saved" in from_the_form.content.decode()
    assert Manche.objects.get(table=mine, number=1).version == 1
    assert client.get(reverse("tournaments:table", args=[mine.token])).status_code == 200
    assert client.get(api).status_code == 200
    other = reverse("tournaments:table_save", args=[theirs.token, 1])
    assert client.post(other, scorer_post(seat=1)).status_code == 302
    clock.now += 40
    assert client.post(save, scorer_post(seat=1, version=1)).status_code == 302
    assert Manche.objects.get(table=mine, number=1).version == 2


@pytest.mark.cache
def test_the_live_check_counts_apart_from_the_saves(client, tables, real_limits, clock, settings):
    token = tables[0].token
    save = reverse("tournaments:table_save", args=[token, 1])
    check = reverse("tournaments:table_check", args=[token, 1])
    for _ in range(31):
        client.post(save, scorer_post(seat=1))
    assert client.post(save, scorer_post(seat=1)).status_code == 429
    checks = [client.post(check, scorer_post(seat=1)).status_code for _ in range(40)]
    assert checks == [200] * 40
    settings.SAVE_RATE_LIMITS = {"tournaments:table_check": (5, 60)}
    assert_too_many(client.post(check, scorer_post(seat=1)), api=False)


@pytest.mark.cache
def test_guessed_links_are_refused_after_20_not_found_a_minute(client, tables, real_limits, clock):
    token = tables[0].token
    guesses = [f"/t/{'A' * 21}{n % 10}/" for n in range(12)]
    guesses += [f"/api/tables/{'B' * 21}{n}/sheet" for n in range(4)] + ["/p/guessed/", "/p/x/y/", "/t/x/", "/t/"]
    assert [client.get(url).status_code for url in guesses] == [404] * 20
    page = assert_too_many(client.get(reverse("tournaments:table", args=[token])), api=False)
    assert "Too many links that lead nowhere" in page
    assert_too_many(client.get(f"/api/tables/{token}/sheet"), api=True)
    assert_too_many(client.post(reverse("tournaments:table_save", args=[token, 1]), scorer_post(seat=1)), api=False)
    assert_too_many(client.get("/p/anything/"), api=False)
    assert Manche.objects.get(table=tables[0], number=1).version == 0
    assert client.get("/").status_code == 200
    assert client.get(tables[0].round.event.get_absolute_url()).status_code == 200
    assert at("10.0.0.2").get(reverse("tournaments:table", args=[token])).status_code == 200
    clock.now += 40
    assert client.get(reverse("tournaments:table", args=[token])).status_code == 200


@pytest.mark.cache
def test_not_found_elsewhere_is_not_counted(client, tables, real_limits, clock):
    for n in range(25):
        assert client.get(f"/e/no-such-event-{n}/").status_code == 404
    assert client.get(reverse("tournaments:table", args=[tables[0].token])).status_code == 200


@pytest.mark.cache
def test_behind_a_proxy_not_found_answers_count_per_forwarded_address(settings, tables, real_limits, clock):
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    proxy = at("10.0.0.100")
    for n in range(20):
        proxy.get(f"/t/{'A' * 21}{n % 10}/", HTTP_X_FORWARDED_FOR="192.0.2.1")
    table = reverse("tournaments:table", args=[tables[0].token])
    assert proxy.get(table, HTTP_X_FORWARDED_FOR="192.0.2.1").status_code == 429
    assert proxy.get(table, HTTP_X_FORWARDED_FOR="192.0.2.1, 192.0.2.2").status_code == 200


@pytest.mark.cache
def test_the_counts_are_shared_by_processes(client, tables, settings, tmp_path, clock):
    """Another process counts 20 "not found" for an address; this one then refuses that address."""
    from config.settings import cache_settings

    settings.CACHES = cache_settings(os.environ.get("CACHE_URL", ""), str(tmp_path / "ratelimit"))
    settings.NOT_FOUND_RATE_LIMIT = (20, 3600)
    address = f"2001:db8::{uuid.uuid4().hex[:4]}"
    script = (
        "import django; django.setup()\n"
        "from tournaments.edge.rate_limits import count_request\n"
        f"for _ in range(20): count_request('not-found', {address!r}, (20, 3600), now={clock.now})\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    environment.update(DJANGO_SETTINGS_MODULE="config.settings", RATELIMIT_CACHE_DIR=str(tmp_path / "ratelimit"))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    table = reverse("tournaments:table", args=[tables[0].token])
    assert at(address).get(table).status_code == 429
    assert at("2001:db8::1:1").get(table).status_code == 200


@pytest.mark.cache
def test_when_the_counts_cannot_be_reached_saves_still_go_through(client, tables, settings, tmp_path, caplog):
    redis = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": f"unix://{tmp_path}/none.sock"}
    settings.CACHES = {**settings.CACHES, "ratelimit": redis}
    settings.SAVE_RATE_LIMIT = settings.NOT_FOUND_RATE_LIMIT = (1, 60)
    save = reverse("tournaments:table_save", args=[tables[0].token, 1])
    assert client.post(save, scorer_post(seat=1)).status_code == 302
    assert client.post(save, scorer_post(seat=1, version=1)).status_code == 302
    assert client.get("/t/nothing-here/").status_code == 404
    assert client.get("/t/nothing-here/").status_code == 404
    assert "Rate limit counts unreachable" in caplog.text


@pytest.mark.cache
def test_the_caches_are_redis_when_cache_url_is_set():
    """``make test`` runs these tests against a Redis server too: that run must not fall back to local caches."""
    from django.core.cache.backends.filebased import FileBasedCache
    from django.core.cache.backends.redis import RedisCache

    if os.environ.get("CACHE_URL"):
        assert isinstance(caches["default"], RedisCache) and isinstance(caches["ratelimit"], RedisCache)
        assert caches["ratelimit"]._cache.get_client().ping()
    else:
        assert isinstance(caches["default"], FileBasedCache) and isinstance(caches["ratelimit"], FileBasedCache)
    assert rate_limits.count_request("check", "one", (1, 60)) == 0
    assert rate_limits.count_request("check", "one", (1, 60)) > 0
    assert caches["ratelimit"].get(rate_limits.window_key("check", "one", (1, 60), time.time())[0]) == 2


# Headers and inline code ---------------------------------------------------------------------------------------

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
    "base-uri": "'self'",
}


def policy_of(response) -> dict[str, str]:
    parts = (part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    return dict(parts)


def test_pages_and_the_api_send_the_security_headers(client, tables):
    for url in ["/", reverse("tournaments:table", args=[tables[0].token]), f"/api/tables/{tables[0].token}/sheet"]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert policy_of(response) == POLICY
        assert response["X-Frame-Options"] == "DENY"
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"


#: Pages and downloads no browser or proxy may keep, as (who asks, address of the event, its first table and a player
#: there): the organiser's logged in, a table's or player's link by whoever holds it (but the pages a phone keeps for
#: when its network is gone, in test_service_worker).
PRIVATE_PAGES = {
    "backup.json": ("organiser", lambda event, table, player: reverse("tournaments:event_export", args=[event.slug])),
    "players.csv": ("organiser", lambda event, table, player: reverse("tournaments:players_csv", args=[event.slug])),
    "sheets.pdf": ("organiser", lambda event, table, player: reverse("tournaments:print_sheets", args=[event.slug, 1])),
    "desk": ("organiser", lambda event, table, player: reverse("tournaments:event_manage", args=[event.slug])),
    "player links": ("organiser", lambda event, table, player: reverse("tournaments:players", args=[event.slug])),
    "table links": ("organiser", lambda event, table, player: reverse("tournaments:round", args=[event.slug, 1])),
    "dashboard": ("organiser", lambda event, table, player: reverse("tournaments:dashboard")),
    "admin": ("organiser", lambda event, table, player: "/admin/tournaments/event/"),
    "table clock": ("anyone", lambda event, table, player: reverse("tournaments:table_clock", args=[table.token])),
    "table api": ("anyone", lambda event, table, player: reverse("tournaments:api_table_sheet", args=[table.token])),
    "player clock": (
        "anyone",
        lambda event, table, player: reverse("tournaments:player_clock", args=[player.token, table.pk]),
    ),
}
#: Public pages, as anyone sees them: caches may keep them.
PUBLIC_PAGES = ["event", "standings", "projector", "event_clock"]


@pytest.mark.parametrize("page", PRIVATE_PAGES)
def test_private_pages_and_downloads_are_never_stored(client, organiser, event, tables, page):
    who, address = PRIVATE_PAGES[page]
    table = tables[0]
    if who == "organiser":
        client.force_login(organiser)
    response = client.get(address(event, table, table.seats.first().player))
    assert response.status_code == 200
    assert "no-store" in response.get("Cache-Control", "")


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_public_pages_may_be_stored(client, event, tables, name):
    response = client.get(reverse(f"tournaments:{name}", args=[event.slug]))
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


class InlineCode(HTMLParser):
    """Finds what the policy would block: inline scripts and styles, on* handlers, javascript: links."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.htmx_config: dict | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "script" and not attributes.get("src"):
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"<{tag} {name}=...>")
            if value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")
            if name.startswith("hx-on"):
                self.found.append(f"<{tag} {name}> (needs eval)")
        if tag == "meta" and attributes.get("name") == "htmx-config":
            self.htmx_config = json.loads(attributes["content"])


def inline_code(html: str) -> InlineCode:
    parser = InlineCode()
    parser.feed(html)
    return parser


TEMPLATE_RULES = {
    "inline <script>": re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I),
    "<style> element": re.compile(r"<style[\s>]", re.I),
    "style attribute": re.compile(r"\sstyle\s*=", re.I),
    "on* handler": re.compile(r"\son[a-z]+\s*=", re.I),
    "javascript: link": re.compile(r"javascript:", re.I),
    "hx-on (eval)": re.compile(r"\shx-on", re.I),
}


def test_no_template_holds_code_or_styles_the_policy_would_block():
    files = sorted((ROOT / "templates").rglob("*.html")) + sorted((ROOT / "tournaments").rglob("templates/**/*.html"))
    assert len(files) > 20
    found = [
        f"{path.relative_to(ROOT)}: {rule}"
        for path in files
        for rule, pattern in TEMPLATE_RULES.items()
        if pattern.search(path.read_text())
    ]
    assert found == []


def test_rendered_pages_have_no_inline_code_and_htmx_injects_no_styles(client, organiser, event, tables):
    enter(tables[0], {"manches": [MANCHE]})
    player = event.players.first()
    public = [
        "/",
        event.get_absolute_url(),
        reverse("tournaments:standings", args=[event.slug]),
        reverse("tournaments:projector", args=[event.slug]),
        reverse("tournaments:player", args=[event.slug, player.pk]),
        reverse("tournaments:table", args=[tables[0].token]),
        reverse("login"),
    ]
    pages = {url: client.get(url) for url in public}
    client.force_login(organiser)
    for url in [*organiser_urls(event, tables), "/admin/", "/admin/tournaments/event/"]:
        response = client.get(url)
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            pages[url] = response
    assert len(pages) >= 15
    for url, response in pages.items():
        assert response.status_code == 200, url
        body = response.content.decode()
        parsed = inline_code(body)
        assert parsed.found == [], url
        if not url.startswith("/admin/") and "<html" in body:
            assert parsed.htmx_config["includeIndicatorStyles"] is False, url
            assert parsed.htmx_config["allowEval"] is False, url


def test_htmx_indicator_styles_come_from_the_stylesheet():
    css = (ROOT / "static/css/tablescore.css").read_text()
    assert re.search(r"\.htmx-indicator\s*\{[^}]*opacity:\s*0", css)
    assert re.search(r"\.htmx-request \.htmx-indicator[^{]*\{[^}]*opacity:\s*1", css)


# Oversized bodies ----------------------------------------------------------------------------------------------


def test_an_oversized_api_body_gets_413_with_the_error_document(client, tables):
    body = json.dumps({"version": 0, "manche": 1, "padding": "x" * 300_000})
    response = client.put(f"/api/tables/{tables[0].token}/sheet", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["errors"][0]["message"] == "This request is too large: send at most 256 kB."
    assert Manche.objects.get(table=tables[0], number=1).version == 0


def test_an_oversized_table_form_gets_413_with_a_plain_message(client, tables):
    data = {**scorer_post(seat=1), "note": "x" * 300_000}
    response = client.post(reverse("tournaments:table_save", args=[tables[0].token, 1]), data)
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/plain")
    assert "too large: at most 256 kB" in response.content.decode()


def test_the_player_list_import_takes_up_to_2_mb(organiser_client, event):
    url = reverse("tournaments:players_import", args=[event.slug])
    big = SimpleUploadedFile("players.csv", b"Name;Club\n" + b"A player;A club\n" * 60_000, "text/csv")
    response = organiser_client.post(url, {"file": big})
    assert response.status_code == 400 and "too large" in response.content.decode()
    huge = SimpleUploadedFile("players.csv", b"A player;A club\n" * 160_000, "text/csv")
    response = organiser_client.post(url, {"file": huge})
    assert response.status_code == 413 and "at most 2048 kB" in response.content.decode()


class UnreadableStream:
    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


def test_the_size_is_judged_from_content_length_before_the_body_is_read(rf, tables):
    request = rf.put(f"/api/tables/{tables[0].token}/sheet", b"", content_type="application/json")
    request.META["CONTENT_LENGTH"] = str(10 * 1024 * 1024)
    request._stream = UnreadableStream()
    middleware = RequestSizeLimitMiddleware(lambda request: pytest.fail("the view was called"))
    response = middleware(request)
    assert response.status_code == 413 and json.loads(response.content)["errors"]
    small = rf.post("/t/x/", {"a": "b"})
    assert RequestSizeLimitMiddleware(lambda request: "passed on")(small) == "passed on"


# A busy database -----------------------------------------------------------------------------------------------


def locked(*args, **kwargs):
    raise OperationalError("database is locked")


def test_a_locked_database_gives_the_api_503_with_retry_after(client, tables, monkeypatch, caplog):
    monkeypatch.setattr("tournaments.views.api.record_table_sheet", locked)
    names = [s.player.name for s in tables[0].seats.order_by("position")]
    body = {"version": 0, "manche": 1, "document": {"game": "vegetables", "players": names, "manches": [MANCHE]}}
    response = client.put(f"/api/tables/{tables[0].token}/sheet", json.dumps(body), content_type="application/json")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert "busy" in response.json()["errors"][0]["message"]
    assert "database is locked" in caplog.text


@pytest.mark.parametrize("htmx", [False, True])
def test_a_locked_database_gives_the_table_form_a_short_503_page(client, tables, monkeypatch, htmx):
    monkeypatch.setattr("tournaments.pages.manche_page.record_table_sheet", locked)
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(reverse("tournaments:table_save", args=[tables[0].token, 1]), scorer_post(seat=1), **extra)
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    page = response.content.decode()
    assert "send it again in a few seconds" in page and inline_code(page).found == []
    if htmx:
        assert response["HX-Retarget"] == "#alerts" and "<h1>" not in page
    else:
        assert "<h1>Busy for a moment</h1>" in page


def test_an_unreachable_database_on_an_organiser_page_is_503_too(organiser_client, event, monkeypatch):
    def unreachable(*args, **kwargs):
        raise InterfaceError("connection already closed")

    monkeypatch.setattr("tournaments.views.players.service.players_of", unreachable)
    response = organiser_client.get(reverse("tournaments:players", args=[event.slug]))
    assert response.status_code == 503 and response["Retry-After"]


def test_the_file_counts_add_in_place_and_keep_their_expiry(tmp_path):
    """Without CACHE_URL a count changes in its file (no new file, the folder not listed), under the file's lock."""
    from tournaments.ratelimit_files import CountsFileBasedCache

    counts = CountsFileBasedCache(str(tmp_path), {})
    with pytest.raises(ValueError):
        counts.incr("missing")
    counts.add("saves", 0, timeout=30)
    (path,) = tmp_path.iterdir()
    inode = path.stat().st_ino
    assert [counts.incr("saves") for _ in range(12)] == list(range(1, 13))
    assert path.stat().st_ino == inode and list(tmp_path.iterdir()) == [path]
    assert counts.get("saves") == 12
    counts.set("gone", 5, timeout=-1)
    with pytest.raises(ValueError):
        counts.incr("gone")
