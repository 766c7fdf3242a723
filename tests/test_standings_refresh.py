"""Standings that keep up: a save marks them out of date, a rebuild after the commit (one process at a time, spaced
by the interval, writing only what changed) counts every sheet, the last one included."""

from __future__ import annotations

import datetime
import json
import re
import threading
import time

import pytest
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory, TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import cheese_tallies, seat_by_hand
from tournaments import after_response
from tournaments.models import Event, Manche, Standing
from tournaments.models.rounds import RoundStatus
from tournaments.services.round_end import complete_round, reopen_round
from tournaments.services.sheets import Author, record_sheet
from tournaments.standings import live_render, refresh
from tournaments.standings.build import compute_standings, rebuild_standings, store_standings, stored_rows

LINK = Author(via="link")


@pytest.fixture
def timers():
    """The timers this process starts: none is left running (or holding a database connection) after a test."""
    yield refresh._timers
    with refresh._timers_lock:
        left = list(refresh._timers.values())
        refresh._timers.clear()
    for timer in left:
        timer.cancel()
        timer.join(timeout=10)


@pytest.fixture
def event(make_event):
    """Sixteen Cheese Rescue players at four tables of round 1, in play."""
    event = make_event("cheese-rescue", players=16, table_size=4, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[i : i + 4] for i in range(0, 16, 4)], RoundStatus.IN_PLAY)
    return event


def tables(event):
    return list(event.rounds.get(number=1).tables.order_by("number"))


def save(table, points: list[int], author: Author = LINK) -> Manche:
    """A table's phone saves its sheet on the version it has (in a test's transaction: as if it committed)."""
    manche = Manche.objects.select_related("table__round__event").get(table=table, number=1)
    names = [seat.player.name for seat in table.seats.select_related("player").order_by("position")]
    document = {"game": "cheese-rescue", "players": names, **cheese_tallies(points)}
    with TestCase.captureOnCommitCallbacks(execute=True):
        return record_sheet(manche, document, based_on=manche.version, author=author)


def bookkeeping(event) -> tuple:
    return refresh._bookkeeping(event.pk)


def from_scratch(event) -> dict[int, tuple]:
    return compute_standings(event)


def stored(event) -> dict[int, tuple]:
    return {player: values for player, (_pk, values) in stored_rows(event).items()}


def wait_until_counted(event, seconds: float) -> float:
    """Seconds until the event's standings count every sheet (nothing stale, nobody rebuilding); fails after
    ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        stale, lease, _built_at = bookkeeping(event)
        if not stale and lease is None:
            return time.monotonic() - start
        time.sleep(0.02)
    raise AssertionError(f"the standings still miss a sheet after {seconds} s: {bookkeeping(event)}")


# Every sheet counted -------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_after_a_burst_of_saves_the_standings_are_a_rebuild_from_scratch(event, settings, timers):
    settings.STANDINGS_REBUILD_INTERVAL = 0.3
    errors = []

    def phone(table, offset: int):
        try:
            for n in range(8):
                save(table, [(n + offset) % 11, (n * 3 + offset) % 11, n % 7, (offset + 5) % 11])
        except Exception as error:  # the test fails below, naming it
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(table, i)) for i, table in enumerate(tables(event))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert wait_until_counted(event, 5) < 2, "the last save is in the standings within 2 s"
    assert stored(event) == from_scratch(event)
    assert Manche.objects.filter(table__round__event=event, version=8).count() == 4


@pytest.mark.django_db
def test_a_sheet_saved_through_a_table_link_is_in_the_standings(event):
    first = tables(event)[0]
    save(first, [9, 6, 4, 1])
    ranks = {player: values[0] for player, values in stored(event).items()}
    leader = first.seats.get(position=1).player_id
    assert ranks[leader] == 1
    assert stored(event) == from_scratch(event)
    event.refresh_from_db()
    assert (event.standings_stale, event.standings_lease, event.standings_version) == (False, None, 1)
    assert event.standings_built_from <= event.standings_built_at


# One rebuild at a time -----------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_two_concurrent_rebuild_attempts_make_one_rebuild(event, monkeypatch, timers):
    save(tables(event)[0], [9, 6, 4, 1])
    Event.objects.filter(pk=event.pk).update(standings_stale=True, standings_built_at=None)
    computed = []
    real = refresh.compute_standings

    def slow_compute(event_id):
        computed.append(event_id)
        time.sleep(0.3)
        return real(event_id)

    monkeypatch.setattr(refresh, "compute_standings", slow_compute)
    barrier = threading.Barrier(2)
    outcomes = []

    def attempt():
        try:
            barrier.wait(timeout=10)
            outcomes.append(refresh._refresh(event.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == [False, True]
    assert computed == [event.pk], "the second attempt found the lease taken and left the rebuild to the first"
    assert bookkeeping(event)[:2] == (False, None)
    assert stored(event) == from_scratch(event)


@pytest.mark.django_db
def test_a_rebuild_whose_lease_was_voided_stores_nothing(event):
    save(tables(event)[0], [9, 6, 4, 1])
    Event.objects.filter(pk=event.pk).update(standings_stale=True, standings_built_at=None)
    started = timezone.now()
    lease = refresh._take_lease(event.pk, started)
    assert lease is not None and refresh._take_lease(event.pk, started) is None, "one lease at a time"
    save(tables(event)[1], [1, 4, 6, 9], author=Author(via="organiser"))  # rebuilt at once, the lease voided
    before = stored(event)
    with pytest.raises(refresh._LeaseLost):
        refresh._rebuild_leased(event.pk, lease, started)
    assert stored(event) == before == from_scratch(event)


@pytest.mark.django_db
def test_a_lease_left_by_a_rebuild_that_died_is_taken_once_it_ends(event):
    save(tables(event)[0], [9, 6, 4, 1])
    save(tables(event)[1], [8, 6, 4, 1])
    Standing.objects.filter(event=event).delete()
    soon = timezone.now() + datetime.timedelta(seconds=5)
    Event.objects.filter(pk=event.pk).update(standings_stale=False, standings_lease=soon)
    assert not refresh._refresh(event.pk), "still leased: its holder may yet store"
    assert not Standing.objects.filter(event=event).exists()
    Event.objects.filter(pk=event.pk).update(standings_lease=timezone.now() - datetime.timedelta(seconds=1))
    assert refresh._refresh(event.pk)
    assert stored(event) == from_scratch(event)
    assert bookkeeping(event)[:2] == (False, None)


# Only what changed ---------------------------------------------------------------------------------------------


def standing_writes(queries) -> list[str]:
    return [
        q["sql"].split(" ", 1)[0]
        for q in queries
        if '"tournaments_standing"' in q["sql"].split(" WHERE ")[0] and not q["sql"].startswith("SELECT")
    ]


@pytest.mark.django_db
def test_a_rebuild_writes_only_the_rows_that_changed(event):
    first, second, third, fourth = tables(event)
    for table, points in [(first, [9, 6, 4, 1]), (second, [8, 5, 3, 0]), (third, [7, 5, 2, 1]), (fourth, [6, 3, 2, 1])]:
        save(table, points)
    version = Event.objects.get(pk=event.pk).standings_version
    with CaptureQueriesContext(connection) as unchanged:
        assert rebuild_standings(event) == 0
    assert standing_writes(unchanged) == []
    assert Event.objects.get(pk=event.pk).standings_version == version, "nothing changed: the pages keep theirs"

    before = stored(event)
    manche = Manche.objects.get(table=fourth)
    document = {"game": "cheese-rescue", "players": manche.document["players"], **cheese_tallies([6, 3, 1, 2])}
    record_sheet(manche, document, based_on=manche.version, author=LINK)  # its commit's rebuild does not run here
    with CaptureQueriesContext(connection) as corrected:
        written = store_standings(event, compute_standings(event))
    after = stored(event)
    changed = {player for player in after if after[player] != before[player]}
    assert 0 < written == len(changed) < len(after)
    assert set(standing_writes(corrected)) == {"UPDATE"}, "the changed rows are updated, none deleted or added"
    assert after == from_scratch(event)


@pytest.mark.django_db
def test_players_without_a_stored_standing_get_one(event):
    save(tables(event)[0], [9, 6, 4, 1])
    Standing.objects.filter(event=event, rank__gt=2).delete()
    assert rebuild_standings(event) == 14
    assert stored(event) == from_scratch(event) and len(stored(event)) == 16


# The interval between rebuilds ---------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_within_the_interval_the_rebuild_waits_and_a_timer_does_it(event, settings, timers):
    settings.STANDINGS_REBUILD_INTERVAL = 0.5
    first, second = tables(event)[:2]
    save(first, [9, 6, 4, 1])
    assert not bookkeeping(event)[0]
    save(second, [1, 4, 6, 9])
    saved = time.monotonic()
    assert bookkeeping(event)[0], "within the interval: not rebuilt yet"
    assert refresh._scheduled(event.pk)
    assert stored(event) != from_scratch(event)
    waited = wait_until_counted(event, 5)
    assert time.monotonic() - saved < 1.5 and waited < 1.5
    assert stored(event) == from_scratch(event)
    assert not refresh._scheduled(event.pk)


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_a_rebuild_left_waiting_is_started_by_the_next_poll_of_the_live_standings(event, settings, client, timers):
    settings.STANDINGS_REBUILD_INTERVAL = 1.0  # long enough for the next poll to come within it on a busy machine
    first, second = tables(event)[:2]
    save(first, [9, 6, 4, 1])
    live = reverse("tournaments:standings_live", args=[event.slug])
    version = f"{Event.objects.get(pk=event.pk).standings_version}-live1"
    assert client.get(live, {"v": version}).status_code == 204
    save(second, [1, 4, 6, 9])
    for timer in list(timers.values()):  # as if the process that would have rebuilt went away
        timer.cancel()
    timers.clear()
    assert client.get(live, {"v": version}).status_code == 204, "within the interval: the standings as they are"
    assert refresh._scheduled(event.pk), "the poll set a timer for the end of the interval"
    for timer in list(timers.values()):
        timer.cancel()
    timers.clear()
    time.sleep(1.05)
    began = time.monotonic()
    assert client.get(live, {"v": version}).status_code == 204, "the poll answers at once, a timer rebuilds"
    assert wait_until_counted(event, 5) < 1.5 and time.monotonic() - began < 1.5
    pending = client.get(live, {"v": version})
    assert (pending.status_code, pending["HX-Trigger"]) == (204, "standings-pending"), "rendered after the answer"
    answer = client.get(live, {"v": version})
    assert answer.status_code == 200
    assert f'data-version="{int(version.split("-")[0]) + 1}-live1"' in answer.content.decode()
    assert stored(event) == from_scratch(event) and not bookkeeping(event)[0]


@pytest.mark.django_db(transaction=True)
def test_a_rebuild_left_waiting_is_done_by_the_next_save(event, settings, timers):
    settings.STANDINGS_REBUILD_INTERVAL = 0.3
    first, second, third = tables(event)[:3]
    save(first, [9, 6, 4, 1])
    save(second, [1, 4, 6, 9])
    for timer in list(timers.values()):
        timer.cancel()
    timers.clear()
    time.sleep(0.35)
    save(third, [5, 5, 5, 5])
    assert not bookkeeping(event)[0]
    assert stored(event) == from_scratch(event)


@pytest.mark.django_db(transaction=True)
def test_the_organisers_correction_is_counted_at_once_whatever_the_interval(event, settings, timers):
    settings.STANDINGS_REBUILD_INTERVAL = 30
    first, second, third = tables(event)[:3]
    save(first, [9, 6, 4, 1])
    save(second, [1, 4, 6, 9])
    assert bookkeeping(event)[0], "a table's save waits for the interval"
    save(third, [5, 5, 5, 5], author=Author(via="organiser"))
    assert bookkeeping(event)[:2] == (False, None)
    assert stored(event) == from_scratch(event)


@pytest.mark.django_db(transaction=True)
def test_completing_and_reopening_a_round_rebuild_at_once(event, settings, timers):
    settings.STANDINGS_REBUILD_INTERVAL = 30
    first, *others = tables(event)
    for table in [first, *others]:
        save(table, [9, 6, 4, 1])
    save(first, [1, 4, 6, 9])
    assert bookkeeping(event)[0]
    complete_round(event.rounds.get(number=1))
    assert bookkeeping(event)[:2] == (False, None)
    assert stored(event) == from_scratch(event)
    Standing.objects.filter(event=event).delete()
    reopen_round(event.rounds.get(number=1))
    assert stored(event) == from_scratch(event) and len(stored(event)) == 16


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", ["projector", "projector_next", "standings", "standings_live"])
def test_a_page_or_poll_shows_stale_standings_as_stored_and_they_are_rebuilt_after_its_answer(
    event, settings, client, timers, name
):
    settings.STANDINGS_REBUILD_INTERVAL = 30
    first, second = tables(event)[:2]
    save(first, [9, 6, 4, 1])
    save(second, [1, 4, 6, 10])  # within the interval: left to a timer, which goes away with its process
    for timer in list(timers.values()):
        timer.cancel()
    timers.clear()
    assert bookkeeping(event)[0] and stored(event) != from_scratch(event)
    settings.STANDINGS_REBUILD_INTERVAL = 0
    url = reverse(f"tournaments:{name}", args=[event.slug])
    shown = {} if name == "standings_live" else {"v": "0-live1"}  # a poll showing nothing yet renders it at once
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url, {**shown, "page": "1"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert 'data-version="1-live1"' in answer.content.decode(), "the standings as stored"
    assert standing_writes(queries) == [], "no standings written in the request"
    assert not [q["sql"] for q in queries if q["sql"].startswith("UPDATE")], "no lease taken in the request"
    assert wait_until_counted(event, 5) < 1.5, "rebuilt once the answer was sent"
    assert stored(event) == from_scratch(event)
    assert Event.objects.get(pk=event.pk).standings_version == 2


@pytest.mark.django_db
def test_a_page_of_the_live_standings_is_rendered_at_most_once_a_second_by_the_processes_sharing_the_cache(
    event, client, settings
):
    settings.LIVE_RENDER_SECONDS = 1.0
    first, second = tables(event)[:2]
    live = reverse("tournaments:standings_live", args=[event.slug])
    save(first, [9, 6, 4, 1])
    first_poll = client.get(live, {"v": "0-live1"})
    assert (first_poll.status_code, first_poll["HX-Trigger"]) == (204, "standings-pending"), "rendered after it"
    shown = re.search(r'data-version="([^"]+)"', client.get(live, {"v": "0-live1"}).content.decode()).group(1)
    assert shown == "1-live1", "the page asked again: here"
    save(second, [1, 4, 6, 9])
    behind = client.get(live, {"v": "0-live1"})
    assert 'data-version="1-live1"' in behind.content.decode(), "within the second: the newest rendered"
    showing = client.get(live, {"v": shown})
    assert showing.status_code == 204 and not showing.has_header("HX-Trigger"), "left to a poll a second later"
    time.sleep(1.05)
    showing = client.get(live, {"v": shown})
    assert (showing.status_code, showing["HX-Trigger"]) == (204, "standings-pending"), "rendered after this answer"
    assert 'data-version="2-live1"' in client.get(live, {"v": shown}).content.decode(), "the page asks again: here"


@pytest.mark.django_db
def test_a_page_rendered_after_a_poll_s_answer_is_in_the_poll_s_language(event, client, settings):
    settings.LIVE_RENDER_SECONDS = 0.0
    live = reverse("tournaments:standings_live", args=[event.slug])
    save(tables(event)[0], [9, 6, 4, 1])
    assert client.get(live, {"v": "0-live1"}, HTTP_ACCEPT_LANGUAGE="it").status_code == 204, "rendered after it"
    assert "Classifica" in client.get(live, {"v": "0-live1"}, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    save(tables(event)[1], [1, 4, 6, 9])
    pending = client.get(live, {"v": "1-live1"}, HTTP_ACCEPT_LANGUAGE="it")
    assert (pending.status_code, pending["HX-Trigger"]) == (204, "standings-pending")
    english = client.get(live, {"v": "1-live1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert (english.status_code, english["HX-Trigger"]) == (204, "standings-pending"), "another page, rendered after"
    english = client.get(live, {"v": "1-live1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200 and "Live standings" in english.content.decode()
    italian = client.get(live, {"v": "1-live1"}, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'data-version="2-live1"' in italian and "Classifica" in italian and "Live standings" not in italian


def test_while_a_thread_renders_a_page_no_poll_waits_for_it(settings):
    settings.LIVE_RENDER_SECONDS = 0.0
    page = "standings-live:test-waiting"
    assert live_render.live_partial(page, "1-live1", None, lambda: "<p>1</p>") == ("1-live1", "<p>1</p>", False)
    started, release = threading.Event(), threading.Event()

    def slow_render() -> str:
        started.set()
        release.wait(10)
        return "<p>2</p>"

    # Outside a request, the poll that claims the render does it before it returns (in a request: after its answer).
    renderer = threading.Thread(target=lambda: live_render.live_partial(page, "2-live1", "1-live1", slow_render))
    renderer.start()
    try:
        assert started.wait(10)
        began = time.monotonic()
        behind = live_render.live_partial(page, "2-live1", "0-live1", lambda: pytest.fail("rendered twice"))
        assert behind == ("1-live1", "<p>1</p>", True), "one version behind the newest: the newest rendered"
        showing = live_render.live_partial(page, "2-live1", "1-live1", lambda: pytest.fail("rendered twice"))
        assert showing == ("1-live1", "<p>1</p>", True), "showing the newest rendered: nothing newer yet, on its way"
        assert time.monotonic() - began < 1
    finally:
        release.set()
        renderer.join(10)
    assert live_render.live_partial(page, "2-live1", "1-live1", lambda: pytest.fail("rendered twice")) == (
        "2-live1",
        "<p>2</p>",
        False,
    )


def test_a_poll_that_finds_nothing_rendered_gets_nothing_and_a_page_asked_anew_is_rendered_first(settings):
    settings.LIVE_RENDER_SECONDS = 0.0
    page = "projector:test-nothing"
    done = []

    def render() -> str:
        done.append("rendered")
        return "<p>1</p>"

    answer = after_response.AfterResponseMiddleware(
        lambda _request: HttpResponse(repr(live_render.live_partial(page, "1-live1", "0-live1", render)))
    )(RequestFactory().get("/"))
    assert answer.content.decode() == repr(("0-live1", None, True)) and done == [], "nothing to send, on its way"
    answer.close()
    assert done == ["rendered"], "rendered once the answer was sent"
    assert live_render.live_partial(page, "1-live1", "0-live1", lambda: pytest.fail("rendered twice")) == (
        "1-live1",
        "<p>1</p>",
        False,
    )
    anew = live_render.live_partial("projector:test-anew", "1-live1", "0-live1", lambda: "<p>2</p>", anew=True)
    assert anew == ("1-live1", "<p>2</p>", False)


def test_a_page_another_process_renders_is_not_rendered_again(settings):
    settings.LIVE_RENDER_SECONDS = 0.0
    page = "standings-live:test-claimed"
    assert live_render.live_partial(page, "1-live1", None, lambda: "<p>1</p>") == ("1-live1", "<p>1</p>", False)
    assert cache.add(f"{page}:2-live1:claimed", True, live_render._CLAIMED), "another process claims it"
    behind = live_render.live_partial(page, "2-live1", "0-live1", lambda: pytest.fail("rendered twice"))
    assert behind == ("1-live1", "<p>1</p>", True)
    showing = live_render.live_partial(page, "2-live1", "1-live1", lambda: pytest.fail("rendered twice"))
    assert showing == ("1-live1", "<p>1</p>", True)


def test_a_render_that_fails_gives_its_claim_up(settings):
    settings.LIVE_RENDER_SECONDS = 0.0
    page = "standings-live:test-failed"
    live_render.live_partial(page, "1-live1", None, lambda: "<p>1</p>")

    def broken() -> str:
        raise RuntimeError("template error")

    with pytest.raises(RuntimeError):
        live_render.live_partial(page, "2-live1", "1-live1", broken)
    assert live_render.live_partial(page, "2-live1", "1-live1", lambda: "<p>2</p>") == ("1-live1", "<p>1</p>", True)
    assert live_render.live_partial(page, "2-live1", "1-live1", lambda: "<p>3</p>")[0] == "2-live1"


# What a save and a poll cost -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_save_through_the_api_and_a_poll_run_a_bounded_number_of_queries(
    event, client, django_assert_max_num_queries
):
    first = tables(event)[0]
    names = [seat.player.name for seat in first.seats.select_related("player").order_by("position")]
    url = reverse("tournaments:api_table_sheet", args=[first.token])
    for version, points in enumerate([[9, 6, 4, 1], [1, 4, 6, 9], [5, 5, 5, 5]]):
        body = {"manche": 1, "version": version, "document": {"players": names, **cheese_tallies(points)}}
        body["document"]["game"] = "cheese-rescue"
        # The table, its manche and seats; in the save's transaction (a savepoint here) the table's lock, its
        # manches, the sheet, its revision, the seats' results, the table's status (first save) and the event's flag.
        with django_assert_max_num_queries(12), TestCase.captureOnCommitCallbacks() as rebuilds:
            answer = client.put(url, json.dumps(body), content_type="application/json")
        assert answer.status_code == 200, answer.content
        assert len(rebuilds) == 1
        # The lease, the players, their results; in a short transaction (PostgreSQL: the writers' lock) the stored
        # rows, the changed ones, the bookkeeping; then whether a save came meanwhile.
        with django_assert_max_num_queries(10):
            rebuilds[0]()
    event.refresh_from_db()
    live = reverse("tournaments:standings_live", args=[event.slug])
    with django_assert_max_num_queries(2):
        assert client.get(live, {"v": f"{event.standings_version}-live1"}).status_code == 204


@pytest.mark.django_db
def test_saving_an_event_loaded_earlier_keeps_the_standings_bookkeeping(event):
    loaded = Event.objects.get(pk=event.pk)
    save(tables(event)[0], [9, 6, 4, 1])
    refresh.mark_stale(event.pk)
    loaded.venue = "Circolo"
    loaded.save()
    now = Event.objects.get(pk=event.pk)
    assert (now.venue, now.standings_stale, now.standings_version) == ("Circolo", True, 1)


@pytest.mark.parametrize("shown", ["²-live1", "٣-live1", "9" * 5000, "-1-live1", ""])
def test_a_poll_whose_shown_version_is_no_number_gets_the_newest_page(settings, shown):
    settings.LIVE_RENDER_SECONDS = 0.0
    page = "standings-live:test-odd-version"
    assert live_render.live_partial(page, "1-live1", None, lambda: "<p>1</p>") == ("1-live1", "<p>1</p>", False)
    version, html, _later = live_render.live_partial(page, "2-live1", shown, lambda: "<p>2</p>")
    assert (version, html) == ("1-live1", "<p>1</p>"), "the newest rendered, as for a poll showing nothing yet"
