"""Once the event is finished (its last round complete), every view of the standings says they are final."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Event
from tournaments.models.event import EventStatus
from tournaments.models.rounds import RoundStatus
from tournaments.services.round_end import complete_round, reopen_round
from tournaments.standings.stage import Stage, stage_of

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages)


@pytest.fixture
def finished(make_event):
    event = make_event("cheese-rescue", players=4, manches_per_round=1, rounds_planned=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY)
    enter(round_.tables.get(), cheese_tallies([6, 4, 2, 1]))
    complete_round(round_)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    return event


def test_the_stage_is_final_only_when_the_event_is_finished_and_no_round_is_in_play():
    complete = [(1, RoundStatus.COMPLETE, True)]
    assert stage_of(complete, finished=True) == Stage(1, final=True)
    assert Stage(1, final=True).title == "Final standings" and Stage(1, final=True).key == "final1"
    assert stage_of(complete).title == "Standings after round 1"
    assert stage_of([(1, RoundStatus.IN_PLAY, True)], finished=True).title == "Live standings, round 1"


def test_every_view_of_a_finished_event_s_standings_says_final(client, organiser_client, finished):
    slug = finished.slug
    assert "Final standings" in client.get(reverse("tournaments:standings", args=[slug])).content.decode()
    projector = client.get(reverse("tournaments:projector", args=[slug])).content.decode()
    assert "Final standings" in projector and "after round 1" not in projector
    printed = organiser_client.get(reverse("tournaments:print_standings", args=[slug]))
    assert "final-standings" in printed["Content-Disposition"]
    assert "Final standings" in pdf_text(printed.content)
    after = organiser_client.get(reverse("tournaments:print_standings", args=[slug]), {"round": "1"})
    assert "Final standings" in pdf_text(after.content)
    for name in ("standings_csv", "standings_xlsx"):
        assert "final-standings" in client.get(reverse(f"tournaments:{name}", args=[slug]))["Content-Disposition"]


def test_reopening_the_last_round_takes_final_away(client, finished):
    reopen_round(finished.rounds.get(number=1))
    assert Event.objects.get(pk=finished.pk).status == EventStatus.RUNNING
    page = client.get(reverse("tournaments:standings", args=[finished.slug])).content.decode()
    assert "Final standings" not in page and "Live standings, round 1" in page
