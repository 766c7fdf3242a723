"""The undo of checking everyone in (or no one) works once: its token sent again, from this browser or another
organiser's, is refused with a message and changes nothing, however many app processes share the database."""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.core import signing
from django.db import connection
from django.test import Client
from django.urls import reverse

from tournaments.models import AuditEntry, Player
from tournaments.models.audit import Action
from tournaments.services import players as service
from tournaments.views.players import UNDO_SALT

pytestmark = pytest.mark.django_db

USED = "This undo was done already: nothing was changed."


@pytest.fixture
def event(make_event):
    event = make_event("cheese-rescue", players=6, table_size=4)
    event.players.filter(name__in=["Player 00", "Player 03"]).update(checked_in=True)
    return event


def url(name: str, event) -> str:
    return reverse(f"tournaments:{name}", args=[event.slug])


def checked_in(event) -> set[str]:
    return set(event.players.filter(checked_in=True).values_list("name", flat=True))


def undo_token(client, event, present: str = "0") -> str:
    client.post(url("players_check_in_all", event), {"present": present, "confirm": "1"})
    page = client.get(url("players", event)).content.decode()
    return re.search(r'name="token" value="([^"]+)"', page).group(1)


def undo(client, event, token: str):
    return client.post(url("players_check_in_all_undo", event), {"token": token}, follow=True)


def undo_entries(event) -> int:
    return AuditEntry.objects.filter(event=event, action=Action.CHECK_IN, details__undo=True).count()


def test_an_undo_works_once_and_its_replay_is_refused_and_changes_nothing(organiser_client, event):
    before = checked_in(event)
    token = undo_token(organiser_client, event)
    assert checked_in(event) == set()
    first = undo(organiser_client, event, token)
    assert "2 check-ins put back as they were." in first.content.decode()
    assert checked_in(event) == before
    organiser_client.post(url("players_check_in_all", event), {"present": "0", "confirm": "1"})
    organiser_client.get(url("players", event))
    replay = undo(organiser_client, event, token)
    assert USED in replay.content.decode()
    assert "put back" not in replay.content.decode()
    assert checked_in(event) == set(), "the later check-in of no one stands"
    assert undo_entries(event) == 1


def test_another_organiser_cannot_replay_an_undo_done_already(organiser_client, organiser, event):
    token = undo_token(organiser_client, event, present="1")
    undo(organiser_client, event, token)
    other = Client()
    other.force_login(organiser)
    Player.objects.filter(event=event).update(checked_in=True)
    replay = undo(other, event, token)
    assert USED in replay.content.decode()
    assert checked_in(event) == set(event.players.values_list("name", flat=True)), "nobody checked out again"
    assert undo_entries(event) == 1


def test_each_check_in_of_everyone_has_its_own_undo(organiser_client, event):
    first = undo_token(organiser_client, event, present="1")
    undo(organiser_client, event, first)
    second = undo_token(organiser_client, event, present="0")
    assert second != first
    assert "check-ins put back" in undo(organiser_client, event, second).content.decode()
    assert USED in undo(organiser_client, event, first).content.decode()
    assert undo_entries(event) == 2


def test_an_undo_signed_without_the_check_in_it_undoes_is_refused(organiser_client, event):
    players = list(event.players.values_list("pk", flat=True))
    forged_shape = signing.dumps({"event": event.pk, "present": True, "players": players}, salt=UNDO_SALT)
    response = undo(organiser_client, event, forged_shape)
    assert "This undo no longer works" in response.content.decode()
    assert checked_in(event) == {"Player 00", "Player 03"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_one_undo_sent_twice_at_once_is_done_once(organiser, event, monkeypatch):
    desk = Client()
    desk.force_login(organiser)
    token = undo_token(desk, event)
    real_undo = service.undo_check_in_all

    def slow_undo(*args):  # the first sending holds the check-in's row a while: the other one waits for it
        restored = real_undo(*args)
        time.sleep(0.3)
        return restored

    monkeypatch.setattr(service, "undo_check_in_all", slow_undo)
    answers: list[str] = []
    errors: list[Exception] = []
    barrier = threading.Barrier(2)

    def organiser_tab():
        try:
            tab = Client()
            tab.force_login(organiser)
            barrier.wait(timeout=10)
            answers.append(undo(tab, event, token).content.decode())
        except Exception as error:  # the test fails below, naming it
            errors.append(error)
        finally:
            connection.close()

    tabs = [threading.Thread(target=organiser_tab) for _ in range(2)]
    for tab in tabs:
        tab.start()
    for tab in tabs:
        tab.join(timeout=60)
    assert not errors
    assert sorted(USED in answer for answer in answers) == [False, True]
    assert undo_entries(event) == 1


@pytest.mark.parametrize(
    "language, said",
    [
        ("es", "Esto ya se deshizo: no se ha cambiado nada."),
        ("it", "Questo è già stato annullato: non è cambiato nulla."),
    ],
)
def test_the_refusal_of_a_replay_is_said_in_the_organiser_s_language(organiser_client, event, language, said):
    token = undo_token(organiser_client, event)
    undo(organiser_client, event, token)
    replay = organiser_client.post(
        url("players_check_in_all_undo", event), {"token": token}, follow=True, HTTP_ACCEPT_LANGUAGE=language
    )
    assert said in replay.content.decode()
