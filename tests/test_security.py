"""Security: organiser pages behind login and CSRF, scorer links kept to their table, login throttling,
security headers without inline code, oversized bodies and a busy database answered clearly."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import InterfaceError, OperationalError
from django.test import Client
from django.urls import URLPattern, reverse

import tournaments.security as security
from tests.factories import enter, seat_by_hand
from tournaments.models import Manche, Table
from tournaments.models.tokens import well_formed as well_formed_token
from tournaments.security import RequestSizeLimitMiddleware, table_by_token
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
    "standings",
    "standings_live",
    "standings_csv",
    "projector",
    "projector_next",
    "player",
    "api_openapi",
}
SCORER_URLS = {"table", "table_save", "table_confirm", "table_dispute", "table_check", "api_table_sheet"}


@pytest.fixture(autouse=True)
def own_throttle_cache(settings, tmp_path):
    """Each test counts login failures in its own folder, as the deployed file cache does (and hashes quickly)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CACHES = {
        **settings.CACHES,
        "ratelimit": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "ratelimit"),
        },
    }
    return tmp_path / "ratelimit"


@pytest.fixture
def event(make_event, organiser):
    event = make_event("vegetables", players=8)
    event.organisers.add(organiser)
    return event


@pytest.fixture
def tables(event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return list(seat_by_hand(event, 1, [ids[:4], ids[4:]]).tables.order_by("number"))


@pytest.fixture
def other_table(make_event):
    other = make_event("cheese-rescue", players=2, table_size=2, slug="other-night")
    ids = list(other.players.values_list("pk", flat=True))
    return seat_by_hand(other, 1, [ids]).tables.get()


def organiser_patterns() -> list[URLPattern]:
    return [p for p in urlpatterns if "organiser/" in str(p.pattern)]


def organiser_urls(event, tables) -> list[str]:
    values = {"slug": event.slug, "number": 1, "table_id": tables[0].pk, "player_id": event.players.first().pk}
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
        reverse("tournaments:api_table_sheet", args=[table.token]),
    ]


def is_login_redirect(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(reverse("login") + "?next=")


# Organiser pages: login and CSRF -------------------------------------------------------------------------------


def test_every_app_url_is_an_organiser_page_a_public_page_or_a_scorer_link():
    names = {p.name for p in urlpatterns}
    organiser = {p.name for p in organiser_patterns()}
    assert len(organiser) >= 20
    unclassified = names - organiser - PUBLIC_URLS - SCORER_URLS
    assert not unclassified, f"say who may use {sorted(unclassified)} (organiser/ in the path, or list it here)"
    token_routes = {p.name for p in urlpatterns if "<str:token>" in str(p.pattern)}
    assert token_routes == SCORER_URLS


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
    assert client.session.get(f"seat-{tables[0].pk}") == 2
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


@pytest.mark.parametrize(
    "token",
    ["", "short", "x" * 21, "x" * 23, "x" * 200, "a" * 21 + "!", "a" * 21 + "=", "é" * 22, "a" * 21 + " ", None, 12],
)
def test_malformed_tokens_are_refused_before_any_query(token, tables, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert table_by_token(token) is None


def test_table_by_token_finds_exactly_its_table_and_compares_in_constant_time(tables, monkeypatch):
    compared = []

    def compare_digest(a, b):
        compared.append((a, b))
        return a == b

    monkeypatch.setattr(security.hmac, "compare_digest", compare_digest)
    assert table_by_token(tables[1].token) == tables[1]
    assert compared == [(tables[1].token.encode(), tables[1].token.encode())]
    unknown = ("B" if tables[0].token[0] == "A" else "A") + tables[0].token[1:]
    assert table_by_token(unknown) is None


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
    assert table_by_token(changed, CaseBlindTables()) is None
    assert table_by_token(token, CaseBlindTables()) == tables[0]


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


def test_five_failures_for_a_username_lock_it_with_a_clear_message(client, organiser):
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
    other_address = login(Client(REMOTE_ADDR="10.9.9.9"), password=PASSWORD)
    assert other_address.status_code == 429


def test_the_lock_ends_with_the_window_and_a_success_clears_the_count(client, organiser, monkeypatch):
    now = security.time.time()
    for _ in range(5):
        login(client)
    assert login(client, password=PASSWORD).status_code == 429
    monkeypatch.setattr(security.time, "time", lambda: now + 14 * 60 + 30)
    assert "try again in 1 minute." in login(client, password=PASSWORD).content.decode()
    monkeypatch.setattr(security.time, "time", lambda: now + 15 * 60 + 1)
    assert login(client, password=PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert login(client).status_code == 200
    assert login(client, password=PASSWORD).status_code == 302


def test_twenty_failures_from_one_address_lock_that_address(organiser):
    client = Client(REMOTE_ADDR="10.0.0.1")
    statuses = [login(client, username=f"guess{n % 7}").status_code for n in range(20)]
    assert statuses[:19] == [200] * 19 and statuses[19] == 429
    assert login(client, password=PASSWORD).status_code == 429
    assert login(Client(REMOTE_ADDR="10.0.0.2"), password=PASSWORD).status_code == 302


def test_behind_a_proxy_the_forwarded_address_is_counted(settings, organiser):
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    client = Client(REMOTE_ADDR="10.0.0.100")
    for n in range(20):
        login(client, username=f"guess{n % 7}", HTTP_X_FORWARDED_FOR=f"1.2.3.4, 192.0.2.{n % 2}")
    assert login(client, password=PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.0").status_code == 302


def test_the_admin_login_is_throttled_too(client, organiser):
    for _ in range(5):
        response = login(client, url="/admin/login/")
    assert response.status_code == 429
    assert "Too many attempts, try again in 15 minutes." in response.content.decode()
    assert login(client, url="/admin/login/", password=PASSWORD).status_code == 429
    assert login(client, password=PASSWORD).status_code == 429


def test_the_failure_counts_are_shared_by_processes_through_files(client, organiser, own_throttle_cache):
    assert django_settings.CACHES["ratelimit"]["BACKEND"].endswith("FileBasedCache")
    from config import settings as project_settings

    assert project_settings.CACHES["ratelimit"]["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache"
    script = (
        "import django; django.setup()\n"
        "from tournaments.security import record_login_failure\n"
        "for _ in range(5): record_login_failure('boss', '203.0.113.7')\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    environment.update(DJANGO_SETTINGS_MODULE="config.settings", RATELIMIT_CACHE_DIR=str(own_throttle_cache))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert any(own_throttle_cache.iterdir())
    assert login(client, password=PASSWORD).status_code == 429
    assert caches.create_connection("ratelimit").get(security.throttle_keys("boss", None)[0][0])


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
        parsed = inline_code(response.content.decode())
        assert parsed.found == [], url
        if not url.startswith("/admin/"):
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
    monkeypatch.setattr("tournaments.views.api.record_sheet", locked)
    names = [s.player.name for s in tables[0].seats.order_by("position")]
    body = {"version": 0, "manche": 1, "document": {"game": "vegetables", "players": names, "manches": [MANCHE]}}
    response = client.put(f"/api/tables/{tables[0].token}/sheet", json.dumps(body), content_type="application/json")
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert "busy" in response.json()["errors"][0]["message"]
    assert "database is locked" in caplog.text


@pytest.mark.parametrize("htmx", [False, True])
def test_a_locked_database_gives_the_table_form_a_short_503_page(client, tables, monkeypatch, htmx):
    monkeypatch.setattr("tournaments.entry.manche_page.record_sheet", locked)
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(reverse("tournaments:table_save", args=[tables[0].token, 1]), scorer_post(seat=1), **extra)
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    page = response.content.decode()
    assert "<h1>Busy for a moment</h1>" in page and "send it again in a few seconds" in page
    assert inline_code(page).found == []


def test_an_unreachable_database_on_an_organiser_page_is_503_too(organiser_client, event, monkeypatch):
    def unreachable(*args, **kwargs):
        raise InterfaceError("connection already closed")

    monkeypatch.setattr("tournaments.views.players.service.players_of", unreachable)
    response = organiser_client.get(reverse("tournaments:players", args=[event.slug]))
    assert response.status_code == 503 and response["Retry-After"]
