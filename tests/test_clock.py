"""The round clock: set, started, paused, resumed and given more time from the desk; time left on the projector,
a table's page and a player's page; kept in the database, so a reload or a restart finds it as it was."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import seat_by_hand
from tournaments.models import AuditEntry, Round
from tournaments.models.audit import Action
from tournaments.models.rounds import RoundStatus
from tournaments.services import clock
from tournaments.services.audit import Author
from tournaments.services.clock import MAX_MINUTES, MAX_SECONDS, ClockRefused, State, format_clock, remaining, state
from tournaments.services.clock_display import clock_display, suggested_minutes

T0 = datetime(2026, 11, 21, 15, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parent.parent


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def bare_round(**fields) -> Round:
    """A round in memory only: the clock's logic needs no database."""
    return Round(number=1, **fields)


# The logic ------------------------------------------------------------------------------------------------------


def test_a_round_without_a_length_has_no_clock():
    round_ = bare_round()
    assert state(round_) == State.OFF
    assert remaining(round_, at()) is None
    with pytest.raises(ClockRefused):
        clock.start(round_, at())


def test_a_set_clock_waits_for_its_start_then_counts_down():
    round_ = bare_round()
    clock.set_length(round_, 50, at())
    assert state(round_) == State.READY
    assert remaining(round_, at(10)) == 50 * 60

    clock.start(round_, at(1))
    assert state(round_) == State.RUNNING
    assert remaining(round_, at(11)) == 40 * 60
    assert clock.deadline(round_) == at(51)
    with pytest.raises(ClockRefused):
        clock.start(round_, at(12))


def test_a_paused_clock_keeps_its_time_and_resumes_where_it_stopped():
    round_ = bare_round(clock_seconds=3000)
    clock.start(round_, at(0))
    clock.pause(round_, at(10, 20))
    assert state(round_) == State.PAUSED
    assert round_.clock_elapsed == 620
    assert remaining(round_, at(30)) == 3000 - 620
    assert clock.deadline(round_) is None
    with pytest.raises(ClockRefused):
        clock.pause(round_, at(31))

    clock.start(round_, at(40))
    assert remaining(round_, at(50)) == 3000 - 620 - 600
    assert clock.deadline(round_) == at(40) + timedelta(seconds=3000 - 620)


def test_time_added_or_taken_moves_the_end():
    round_ = bare_round(clock_seconds=3000)
    clock.start(round_, at(0))
    clock.add_time(round_, 300, at(45))
    assert remaining(round_, at(45)) == 10 * 60
    clock.add_time(round_, -60, at(45))
    assert remaining(round_, at(45)) == 9 * 60
    clock.add_time(round_, -3600, at(45))
    assert round_.clock_seconds == 0
    with pytest.raises(ClockRefused):
        clock.add_time(bare_round(), 300, at())
    with pytest.raises(ClockRefused):
        clock.add_time(round_, 0, at())


def test_past_zero_the_round_is_in_overtime():
    round_ = bare_round(clock_seconds=3000)
    clock.start(round_, at(0))
    left = remaining(round_, at(52, 13))
    assert left == -133
    assert format_clock(left) == "+2:13 over"
    assert clock.is_late(round_, at(52, 13))


def test_reset_and_remove():
    round_ = bare_round(clock_seconds=3000, clock_elapsed=100)
    clock.start(round_, at())
    clock.reset(round_, at(5))
    assert (state(round_), remaining(round_, at(9))) == (State.READY, 3000)
    clock.remove(round_, at(9))
    assert state(round_) == State.OFF


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (3000, "50:00"),
        (59.2, "1:00"),
        (0.4, "0:01"),
        (0, "0:00"),
        (3723, "1:02:03"),
        (-0.5, "+0:00 over"),
        (-133, "+2:13 over"),
        (-3725, "+1:02:05 over"),
    ],
)
def test_time_is_shown_in_minutes_and_seconds(seconds, text):
    assert format_clock(seconds) == text


def test_the_last_quarter_is_late():
    round_ = bare_round(clock_seconds=4000)
    assert not clock.is_late(round_, at(59))  # never started
    clock.start(round_, at(0))
    assert not clock.is_late(round_, at(seconds=2999))
    assert clock.is_late(round_, at(seconds=3001))


@pytest.mark.parametrize("minutes", [0, -5, 601])
def test_a_length_must_be_sensible(minutes):
    with pytest.raises(ClockRefused):
        clock.set_length(bare_round(), minutes, at())


# Saved, audited, shown ------------------------------------------------------------------------------------------


@pytest.fixture
def playing(make_event):
    """An event with round 1 seated, published and in play."""
    event = make_event("cheese-rescue", players=8)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY)
    return event, round_


def post_clock(client, event, action: str, htmx: bool = True, **data):
    url = reverse("tournaments:round_clock", args=[event.slug, 1])
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "desk-clock"} if htmx else {}
    return client.post(url, {"action": action, **data}, **headers)


def test_every_clock_action_from_the_desk_is_saved_and_audited(organiser_client, organiser, playing):
    event, round_ = playing

    assert post_clock(organiser_client, event, "set", minutes=50).status_code == 200
    started = post_clock(organiser_client, event, "start")
    post_clock(organiser_client, event, "pause")
    post_clock(organiser_client, event, "start")
    post_clock(organiser_client, event, "add", seconds=300)

    round_.refresh_from_db()
    assert round_.clock_seconds == 55 * 60
    assert round_.clock_started_at is not None
    assert 'data-deadline="' in started.content.decode()
    entries = list(AuditEntry.objects.filter(event=event, action=Action.CLOCK).order_by("pk"))
    assert [entry.details["clock"] for entry in entries] == ["set", "start", "pause", "resume", "add"]
    assert all(entry.round == round_ and entry.user == organiser for entry in entries)
    assert entries[0].details == {"clock": "set", "length": 3000, "left": 3000, "amount": 50}
    assert entries[-1].details["amount"] == 300


def test_the_desks_clock_section_follows_the_state(organiser_client, playing):
    event, _ = playing
    desk = reverse("tournaments:event_manage", args=[event.slug])

    page = organiser_client.get(desk).content.decode()
    assert "Round 1 clock" in page and "Set the clock" in page and "Start the clock" not in page

    page = post_clock(organiser_client, event, "set", minutes=45).content.decode()
    assert "Start the clock" in page and "45:00" in page and "not started yet" in page

    page = post_clock(organiser_client, event, "start").content.decode()
    assert "Pause" in page and "+5 min" in page and "Resume" not in page

    page = post_clock(organiser_client, event, "pause").content.decode()
    assert "Resume" in page and "paused" in page


def test_without_htmx_the_desk_page_comes_back(organiser_client, playing):
    event, round_ = playing
    response = post_clock(organiser_client, event, "set", htmx=False, minutes=40)
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:event_manage", args=[event.slug])
    refused = post_clock(organiser_client, event, "pause", htmx=False)
    page = organiser_client.get(refused["Location"]).content.decode()
    assert "The clock is not running." in page


def test_refusals_say_why(organiser_client, playing):
    event, round_ = playing
    response = post_clock(organiser_client, event, "start")
    assert response.status_code == 400
    assert "Set the round&#x27;s length first." in response.content.decode()
    assert post_clock(organiser_client, event, "set").status_code == 400
    assert post_clock(organiser_client, event, "explode").status_code == 400
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.COMPLETE)
    assert "This round is complete" in post_clock(organiser_client, event, "set", minutes=5).content.decode()
    assert not AuditEntry.objects.filter(action=Action.CLOCK).exists()


def test_only_the_events_organisers_set_the_clock(client, django_user_model, playing):
    event, round_ = playing
    assert post_clock(client, event, "set", minutes=50).status_code == 302
    client.force_login(django_user_model.objects.create_user("visitor", password="a-long-test-password"))
    assert post_clock(client, event, "set", minutes=50).status_code == 403
    assert client.get(reverse("tournaments:round_clock", args=[event.slug, 1])).status_code in (403, 405)
    round_.refresh_from_db()
    assert round_.clock_seconds is None


def running_for(round_: Round, length: int, ran: timedelta) -> None:
    """The clock of ``round_`` as if started ``ran`` ago: what a restarted server reads back."""
    from django.utils import timezone

    Round.objects.filter(pk=round_.pk).update(clock_seconds=length, clock_started_at=timezone.now() - ran)


def clock_text(html: str) -> str:
    found = re.search(r"data-clock-time>([^<]*)<", html)
    return found[1] if found else ""


def test_the_projector_shows_the_clock_above_the_standings(client, playing):
    event, round_ = playing
    running_for(round_, 3000, timedelta(minutes=10, seconds=0.5))

    page = client.get(reverse("tournaments:projector", args=[event.slug])).content.decode()

    assert clock_text(page) in ("40:00", "39:59")
    assert page.index("data-clock-time") < page.index("projector-table")
    assert 'role="timer"' in page and "js/clock.js" in page
    assert f'hx-get="/e/{event.slug}/clock/?v=' in page


def test_the_clock_survives_a_reload_and_counts_from_the_database(client, playing):
    event, round_ = playing
    running_for(round_, 3000, timedelta(minutes=52, seconds=13.5))
    fragment = client.get(reverse("tournaments:event_clock", args=[event.slug]), HTTP_HX_REQUEST="true")
    html = fragment.content.decode()
    assert clock_text(html) in ("+2:13 over", "+2:14 over")
    assert "js/clock.js" not in html
    server_now = int(re.search(r'data-server-now="(\d+)"', html)[1])
    deadline = int(re.search(r'data-deadline="(\d+)"', html)[1])
    assert -135_000 < deadline - server_now < -132_000
    assert 'data-over-text="+{time} over"' in html
    assert "over" in re.search(r'class="round-clock ([^"]*)"', html)[1]


def test_a_paused_clock_shows_its_time_without_a_deadline(client, playing):
    event, round_ = playing
    Round.objects.filter(pk=round_.pk).update(clock_seconds=3000, clock_elapsed=1234)
    html = client.get(reverse("tournaments:event_clock", args=[event.slug])).content.decode()
    assert clock_text(html) == "29:26" and "paused" in html and "data-deadline" not in html


def test_without_a_clock_the_pages_wait_for_one_quietly(client, playing):
    event, _ = playing
    html = client.get(reverse("tournaments:event_clock", args=[event.slug])).content.decode()
    assert " hidden" in html and "hx-get" in html and "data-clock-time" not in html


def test_the_table_page_shows_time_left_in_its_header(client, playing):
    event, round_ = playing
    running_for(round_, 3000, timedelta(minutes=20, seconds=0.5))
    table = round_.tables.get(number=1)

    page = client.get(reverse("tournaments:table", args=[table.token])).content.decode()

    header = page[page.index('<header class="table-head">') : page.index("</header>", page.index("table-head"))]
    assert clock_text(header) in ("30:00", "29:59")
    assert reverse("tournaments:table_clock", args=[table.token]) in header
    fragment = client.get(reverse("tournaments:table_clock", args=[table.token])).content.decode()
    assert clock_text(fragment) in ("30:00", "29:59", "29:58")


def test_the_player_page_and_player_table_page_show_time_left(client, playing):
    event, round_ = playing
    running_for(round_, 3000, timedelta(minutes=45, seconds=0.5))
    seat = round_.seats.select_related("player", "table").first()
    player, table = seat.player, seat.table

    home = client.get(reverse("tournaments:player_link", args=[player.token])).content.decode()
    at_table = client.get(reverse("tournaments:player_table", args=[player.token, table.pk])).content.decode()

    for page in (home, at_table):
        assert clock_text(page) in ("5:00", "4:59")
        assert reverse("tournaments:player_clock", args=[player.token, table.pk]) in page
        assert "late" in re.search(r'class="round-clock ([^"]*)"', page)[1]
    assert table.token not in at_table, "a player's page never shows the table's own link"
    fragment = client.get(reverse("tournaments:player_clock", args=[player.token, table.pk]))
    assert fragment.status_code == 200


def test_clock_fragments_of_unknown_links_are_not_found(client, playing):
    event, round_ = playing
    other = round_.tables.get(number=2)
    player = round_.tables.get(number=1).seats.first().player
    assert client.get(reverse("tournaments:table_clock", args=["x" * 22])).status_code == 404
    assert client.get(reverse("tournaments:player_clock", args=["x" * 22, other.pk])).status_code == 404
    assert client.get(reverse("tournaments:player_clock", args=[player.token, other.pk])).status_code == 404


def test_a_complete_round_shows_no_clock(client, playing):
    event, round_ = playing
    Round.objects.filter(pk=round_.pk).update(clock_seconds=3000, status=RoundStatus.COMPLETE)
    table = round_.tables.get(number=1)
    page = client.get(reverse("tournaments:table", args=[table.token])).content.decode()
    assert "round-clock" not in page


def test_a_private_events_clock_is_its_organisers(organiser_client, playing):
    event, _ = playing
    event.public = False
    event.save()
    url = reverse("tournaments:event_clock", args=[event.slug])
    assert Client().get(url).status_code == 404
    assert organiser_client.get(url).status_code == 200


def test_change_clock_records_who_and_what(playing, organiser):
    event, round_ = playing
    author = Author(via="organiser", user=organiser)
    clock.change_clock(round_, "set", author, 30, now=at())
    clock.change_clock(round_, "start", author, now=at(1))
    clock.change_clock(round_, "pause", author, now=at(11))
    round_.refresh_from_db()
    assert (round_.clock_seconds, round_.clock_elapsed, round_.clock_started_at) == (1800, 600, None)
    latest = AuditEntry.objects.filter(action=Action.CLOCK).first()
    assert latest.details == {"clock": "pause", "length": 1800, "left": 1200}


def test_the_countdown_script_is_a_static_file_without_inline_code():
    script = (ROOT / "static" / "js" / "clock.js").read_text()
    assert "data-deadline" in script or "dataset.deadline" in script
    template = (ROOT / "templates" / "tournaments" / "_clock.html").read_text()
    assert "<script>" not in template and "style=" not in template and "onclick" not in template


def test_a_clock_paused_at_once_is_paused_not_new():
    round_ = bare_round(clock_seconds=3000)
    clock.start(round_, at())
    clock.pause(round_, at(seconds=0.2))
    assert state(round_) == State.PAUSED


# Stored beyond the clock's own limits (an old database, a crafted backup) ---------------------------------------

HUGE = 10**15


@pytest.mark.parametrize(
    "fields",
    [
        {"clock_seconds": HUGE, "clock_started_at": T0},
        {"clock_seconds": HUGE, "clock_elapsed": 5},
        {"clock_seconds": 3000, "clock_elapsed": HUGE, "clock_started_at": T0},
        {"clock_seconds": 3000, "clock_started_at": datetime(9999, 12, 31, 23, 59, tzinfo=UTC)},
        {"clock_seconds": 3000, "clock_started_at": datetime(1, 1, 1, tzinfo=UTC), "clock_elapsed": HUGE},
    ],
)
def test_the_clocks_arithmetic_never_overflows(fields):
    round_ = bare_round(**fields)
    shown = clock_display(round_, at(1))
    assert shown.text and shown.length_minutes <= MAX_SECONDS // 60 and shown.late_below <= MAX_SECONDS
    assert shown.deadline_ms is None or isinstance(shown.deadline_ms, int)
    assert suggested_minutes(round_) <= MAX_MINUTES


def test_a_huge_stored_length_counts_as_the_longest_clock():
    round_ = bare_round(clock_seconds=HUGE, clock_started_at=at())
    assert remaining(round_, at()) == MAX_SECONDS
    assert clock.deadline(round_) == at(seconds=MAX_SECONDS)
    clock.pause(round_, at(1))
    assert round_.clock_elapsed == 60
    clock.add_time(round_, 60, at(1))
    assert round_.clock_seconds == MAX_SECONDS


@pytest.mark.parametrize("running", [True, False])
def test_the_clock_projector_and_desk_pages_show_a_round_of_a_huge_length(organiser_client, playing, running):
    event, round_ = playing
    started = timezone.now() - timedelta(minutes=3) if running else None
    stored = min(HUGE, connection.ops.integer_field_range("PositiveIntegerField")[1])
    Round.objects.filter(pk=round_.pk).update(clock_seconds=stored, clock_started_at=started, clock_elapsed=7)
    clock_page = reverse("tournaments:event_clock", args=[event.slug])
    projector = reverse("tournaments:projector", args=[event.slug])
    desk = reverse("tournaments:event_manage", args=[event.slug])
    table = reverse("tournaments:table_clock", args=[round_.tables.get(number=1).token])
    for url in (clock_page, projector, desk, table):
        assert organiser_client.get(url).status_code == 200, url
    offered = re.search(r'id="clock-minutes"[^>]*value="(\d+)"', organiser_client.get(desk).content.decode())
    assert offered[1] == str(MAX_MINUTES)
