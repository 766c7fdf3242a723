"""Work left until the response is sent: a table's phone gets its save's answer before the standings rebuild that
the save starts, and the rebuild still counts the sheet."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse

from tests.factories import cheese_tallies, seat_by_hand
from tournaments import after_response
from tournaments.models import Event
from tournaments.models.rounds import RoundStatus
from tournaments.standings import refresh
from tournaments.standings.build import compute_standings, stored_rows


def test_outside_a_request_the_work_runs_at_once():
    done = []
    after_response.after_response(lambda: done.append("now"))
    assert done == ["now"]


def test_inside_a_request_the_work_waits_for_the_response_and_one_failure_stops_no_other(caplog):
    done = []

    def fails():
        raise RuntimeError("broken")

    def view(_request):
        after_response.after_response(lambda: done.append("first"))
        after_response.after_response(fails)
        after_response.after_response(lambda: done.append("third"))
        return HttpResponse("answer")

    response = after_response.AfterResponseMiddleware(view)(RequestFactory().get("/"))
    assert done == [], "nothing runs before the response is sent"
    after_response.after_response(lambda: done.append("outside"))
    assert done == ["outside"], "once the request is handled, work runs at once again"
    response.close()
    assert done == ["outside", "first", "third"]
    assert "Work left until after the response failed" in caplog.text


def test_the_outermost_middleware_is_the_one_that_runs_the_work():
    assert settings.MIDDLEWARE[0] == "tournaments.after_response.AfterResponseMiddleware"


@pytest.mark.django_db(transaction=True)
def test_the_phone_has_its_answer_before_the_rebuild_its_save_starts(live_server, make_event, monkeypatch):
    event = make_event("cheese-rescue", players=4, table_size=4, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids], RoundStatus.IN_PLAY).tables.get()
    names = [seat.player.name for seat in table.seats.select_related("player").order_by("position")]
    answered, rebuilt = threading.Event(), threading.Event()
    waited = []
    rebuild = refresh._refresh

    def rebuild_once_answered(event_id, **options):
        waited.append(answered.wait(timeout=10))
        try:
            return rebuild(event_id, **options)
        finally:
            rebuilt.set()

    monkeypatch.setattr(refresh, "_refresh", rebuild_once_answered)
    body = {"manche": 1, "version": 0, "document": {"game": "cheese-rescue", "players": names}}
    body["document"].update(cheese_tallies([9, 6, 4, 1]))
    request = urllib.request.Request(
        live_server.url + reverse("tournaments:api_table_sheet", args=[table.token]),
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="PUT",
    )
    start = time.monotonic()
    with urllib.request.urlopen(request, timeout=30) as response:
        status = response.status
    seconds = time.monotonic() - start
    answered.set()
    assert status == 200
    assert seconds < 5, "the answer did not wait for the rebuild"
    assert rebuilt.wait(timeout=30)
    assert waited == [True]
    event = Event.objects.get(pk=event.pk)
    assert (event.standings_stale, event.standings_version) == (False, 1)
    assert {player: values for player, (_pk, values) in stored_rows(event.pk).items()} == compute_standings(event.pk)
