"""A round's life cycle with guard rails: check-in decides who is seated, each step that cannot be silently undone
has a confirmation page, the ways back (unpublish, re-seat, reopen) hold while they harm nobody, the next step is
the highlighted button, and every step is in the audit trail."""

import re
from pathlib import Path

import pytest
from django.contrib.messages import constants
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import AuditEntry, Player, Round, Seat, Standing
from tournaments.models.audit import Action
from tournaments.models.event import EventStatus
from tournaments.models.rounds import RoundStatus, TableStatus
from tournaments.services.players import add_player
from tournaments.services.rounds import seat_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def make(make_event, member):
    """A Cheese Rescue event of ``players`` at tables of four, with a fixed seed, run by ``member``."""

    def event(players: int = 8, **fields):
        made = make_event("cheese-rescue", players=players, seating_method="random", seed=20261121, **fields)
        made.organisers.add(member.user)
        return made

    return event


def ids(event) -> list[int]:
    return list(event.players.order_by("pk").values_list("pk", flat=True))


def check_in(event, players: list[int]) -> None:
    Player.objects.filter(pk__in=players).update(checked_in=True)


def url(event, action: str = "", number: int = 1) -> str:
    if action == "seat":
        return reverse("tournaments:round_seat", args=[event.slug])
    return reverse(f"tournaments:round{'_' + action if action else ''}", args=[event.slug, number])


def seated(round_: Round) -> set[int]:
    return set(Seat.objects.filter(round=round_).values_list("player_id", flat=True))


def draw(round_: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for number, player in Seat.objects.filter(round=round_).values_list("table__number", "player_id"):
        tables.setdefault(number, []).append(player)
    return sorted(sorted(players) for players in tables.values())


def shown(response) -> list[tuple[str, str]]:
    """The messages of the page as (level tag, text)."""
    return [(m.tags, str(m)) for m in response.context["messages"]]


def primary_buttons(page: str) -> list[str]:
    """The labels of the highlighted buttons, and of the links styled as such that lead to a step's confirmation."""
    button = r'<button type="submit" class="primary">([^<]+)</button>'
    link = r'<a class="button primary" href="[^"]*">([^<]+)</a>'
    pattern = f"{button}|{link}"
    return [(button or link).strip() for button, link in re.findall(pattern, page)]


def in_play(event, number: int = 1, players: list[int] | None = None) -> Round:
    """Round ``number`` seated by hand at tables of four, published and started, its sheets entered."""
    players = players or ids(event)
    round_ = seat_by_hand(event, number, [players[i : i + 4] for i in range(0, len(players), 4)], RoundStatus.IN_PLAY)
    for table in round_.tables.all():
        enter(table, cheese_tallies([6, 5, 3, 1]))
    return round_


# Check-in decides who plays


def test_with_40_of_48_checked_in_the_seat_page_names_the_8_left_out_and_40_are_seated(member, make):
    event = make(48)
    players = ids(event)
    check_in(event, players[:40])
    page = member.post(url(event, "seat"), {"method": "random"}).content.decode()
    left_out = ", ".join(f"Player {n:02d}" for n in range(40, 48))
    assert f"40 checked-in players will be seated at 10 tables; left out: 8 not checked in: {left_out}." in page
    assert '<button type="submit" name="confirm" value="1" class="primary">Seat round 1</button>' in page
    assert not event.rounds.exists()
    response = member.post(url(event, "seat"), {"method": "random", "confirm": "1"}, follow=True)
    round_ = event.rounds.get()
    assert response.redirect_chain[-1][0] == url(event)
    assert seated(round_) == set(players[:40]) and round_.tables.count() == 10
    entry = AuditEntry.objects.get(action=Action.SEAT)
    assert (entry.round, entry.user, entry.via) == (round_, member.user, "organiser")
    assert entry.details == {"method": "random", "players": 40, "tables": 10, "not_checked_in": left_out.split(", ")}


def test_without_check_in_every_active_player_is_seated_and_the_page_says_so(member, make):
    event = make(8)
    Player.objects.filter(pk=ids(event)[0]).update(active=False)
    page = member.get(url(event, "seat")).content.decode()
    assert "Nobody is checked in: all 7 active players will be seated at 2 tables." in page
    assert "1 dropped player is not seated." in page
    member.post(url(event, "seat"), {"method": "random", "confirm": "1"})
    assert seated(event.rounds.get()) == set(ids(event)[1:])


def test_a_late_arrival_checked_in_after_round_1_is_seated_in_round_2(member, make):
    event = make(8)
    check_in(event, ids(event))
    first = seat_round(event, "random")
    Round.objects.filter(pk=first.pk).update(status=RoundStatus.COMPLETE)
    late = add_player(event, "Zoe Late", checked_in=True)
    absent = add_player(event, "Yan Absent")
    page = member.get(url(event, "seat")).content.decode()
    assert "9 checked-in players will be seated at 3 tables; left out: 1 not checked in: Yan Absent." in page
    assert "Joining for the first time: Zoe Late." in page
    member.post(url(event, "seat"), {"method": "random", "confirm": "1"})
    second = event.rounds.get(number=2)
    assert late.pk in seated(second) and absent.pk not in seated(second)
    assert len(seated(second)) == 9


def test_players_that_cannot_fill_a_table_are_not_seated(member, make):
    event = make(8)
    check_in(event, ids(event)[:1])
    page = member.get(url(event, "seat")).content.decode()
    assert "1 checked-in player cannot be seated at tables of 4 with at least 2 players a table." in page
    assert 'name="confirm"' not in page
    response = member.post(url(event, "seat"), {"method": "random", "confirm": "1"}, follow=True)
    assert shown(response) == [
        ("error", "1 checked-in player cannot be seated at tables of 4 with at least 2 players a table.")
    ]
    assert not event.rounds.exists()


def test_with_every_player_dropped_there_is_nobody_to_seat(member, make):
    event = make(4)
    event.players.update(active=False, checked_in=True)
    page = member.get(url(event, "seat")).content.decode()
    assert "There is no active player to seat." in page and 'name="confirm"' not in page
    response = member.post(url(event, "seat"), {"method": "random", "confirm": "1"}, follow=True)
    assert shown(response) == [("error", "There is no active player to seat.")]


# The highlighted button is the next step, all the way round


def test_the_highlighted_button_is_always_the_next_step(member, make):
    event = make(8, rounds_planned=2)
    member.post(url(event, "seat"), {"method": "random", "confirm": "1"})

    def page() -> str:
        return member.get(url(event)).content.decode()

    assert primary_buttons(page()) == ["Publish the seating"]
    assert "Re-seat the round" in page() and "Swap seats" in page()
    member.post(url(event, "publish"))
    assert primary_buttons(page()) == ["Start the round"]
    assert "Unpublish the seating" in page() and "Re-seat the round" not in page()
    member.post(url(event, "start"))
    assert primary_buttons(page()) == ["Complete the round"]
    assert "Unpublish the seating" not in page()
    for table in event.rounds.get().tables.all():
        enter(table, cheese_tallies([6, 5, 3, 1]))
    member.post(url(event, "complete"))
    assert primary_buttons(page()) == ["Seat round 2"]
    assert "Reopen the round" in page()
    member.post(url(event, "reopen"))
    assert primary_buttons(page()) == ["Complete the round"]


def test_the_desk_names_each_rounds_next_step(member, make):
    event = make(8)
    round_ = seat_by_hand(event, 1, [ids(event)[:4], ids(event)[4:]])
    desk = reverse("tournaments:event_manage", args=[event.slug])
    assert f'<a href="{url(event)}">Next: start the round</a>' in member.get(desk).content.decode()
    Round.objects.filter(pk=round_.pk).update(published=False)
    assert "Next: publish the seating" in member.get(desk).content.decode()
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.IN_PLAY, published=True)
    assert "Next: complete the round" in member.get(desk).content.decode()


# Confirmation pages: a GET shows what will happen and changes nothing


def state(event) -> tuple:
    rounds = list(event.rounds.order_by("number").values_list("number", "status", "published", "seating_quality"))
    tables = sorted(Seat.objects.filter(round__event=event).values_list("table__token", "player_id", "position"))
    event.refresh_from_db()
    return rounds, tables, event.status, AuditEntry.objects.count(), Standing.objects.count()


@pytest.mark.parametrize(
    ("status", "published", "action", "shows"),
    [
        (RoundStatus.SEATED, False, "publish", "The seating shows on the tournament"),
        (RoundStatus.SEATED, False, "reseat", "The new draw replaces the current one"),
        (RoundStatus.IN_PLAY, True, "complete", "The tables close"),
        (RoundStatus.COMPLETE, True, "reopen", "The round is back in play"),
    ],
)
def test_a_confirmation_page_shows_what_happens_and_its_get_changes_nothing(
    member, make, status, published, action, shows
):
    event = make(8)
    if status == RoundStatus.SEATED:
        round_ = seat_by_hand(event, 1, [ids(event)[:4], ids(event)[4:]], status)
    else:
        round_ = in_play(event)
    Round.objects.filter(pk=round_.pk).update(status=status, published=published)
    before = state(event)
    response = member.get(url(event, action))
    page = response.content.decode()
    assert response.status_code == 200
    assert shows in page
    assert re.search(rf'<form method="post" action="{re.escape(url(event, action))}"', page)
    assert 'name="confirm" value="1" class="primary"' in page and f'href="{url(event)}"' in page
    assert state(event) == before


def test_the_seat_page_changes_nothing_until_confirmed(member, make):
    event = make(8)
    before = state(event)
    assert member.get(url(event, "seat")).status_code == 200
    assert member.post(url(event, "seat"), {"method": "swiss"}).status_code == 200
    assert state(event) == before


def test_a_confirmation_page_says_why_the_step_cannot_be_done_and_offers_no_button(member, make):
    event = make(8)
    round_ = seat_by_hand(event, 1, [ids(event)[:4], ids(event)[4:]], RoundStatus.IN_PLAY)
    enter(round_.tables.get(number=1), cheese_tallies([6, 5, 3, 1]))
    page = member.get(url(event, "complete")).content.decode()
    assert "Table 2 still misses score sheets: the round is complete once every table has them." in page
    assert 'name="confirm"' not in page
    assert (
        "Only a complete round can be reopened; this one is in play."
        in member.get(url(event, "reopen")).content.decode()
    )


# Publish and unpublish


def test_unpublishing_hides_the_seating_and_closes_the_tables_links(member, make, client):
    event = make(8)
    member.post(url(event, "seat"), {"method": "random", "confirm": "1"}, follow=True)
    table = event.rounds.get().tables.first()
    response = member.post(url(event, "publish"), follow=True)
    assert shown(response) == [("success", "Round 1 is published.")]
    assert client.get(reverse("tournaments:table", args=[table.token])).status_code == 200
    response = member.post(url(event, "unpublish"), follow=True)
    assert shown(response) == [("success", "The seating of round 1 is no longer published.")]
    assert not event.rounds.get().published
    assert client.get(reverse("tournaments:table", args=[table.token])).status_code == 404
    assert "Table 1" not in client.get(event.get_absolute_url()).content.decode()


def test_unpublish_is_refused_once_a_sheet_exists(member, make):
    event = make(8)
    round_ = seat_by_hand(event, 1, [ids(event)[:4], ids(event)[4:]])
    enter(round_.tables.get(number=1), cheese_tallies([6, 5, 3, 1]))
    assert "Unpublish the seating" not in member.get(url(event)).content.decode()
    response = member.post(url(event, "unpublish"), follow=True)
    assert shown(response) == [("error", "A sheet is already entered in this round: its seating stays published.")]
    assert event.rounds.get().published
    assert not AuditEntry.objects.filter(action=Action.UNPUBLISH).exists()


def test_unpublish_is_refused_once_the_round_started(member, make):
    event = make(8)
    seat_by_hand(event, 1, [ids(event)[:4], ids(event)[4:]], RoundStatus.IN_PLAY)
    response = member.post(url(event, "unpublish"), follow=True)
    assert shown(response) == [("error", "Only a round that has not started can be unpublished; this one is in play.")]
    assert event.rounds.get().published


# Re-seat


def test_reseat_changes_the_draw_and_keeps_check_in(member, make, client):
    event = make(12)
    players = ids(event)
    check_in(event, players[:8])
    member.post(url(event, "seat"), {"method": "random", "confirm": "1"})
    round_ = event.rounds.get()
    first_draw, first_tokens = draw(round_), set(round_.tables.values_list("token", flat=True))
    page = member.get(url(event, "reseat")).content.decode()
    assert "8 checked-in players will be seated at 2 tables; left out: 4 not checked in:" in page
    response = member.post(url(event, "reseat"), {"method": "random", "confirm": "1"}, follow=True)
    assert shown(response) == [("success", "Round 1 is seated again.")]
    assert seated(round_) == set(players[:8])
    assert draw(round_) != first_draw
    assert first_tokens.isdisjoint(round_.tables.values_list("token", flat=True))
    entry = AuditEntry.objects.get(action=Action.RESEAT)
    assert entry.round == round_ and entry.details["draw"] == 1 and entry.details["players"] == 8
    check_in(event, players[8:9])
    assert "Not in this draw, though they would be seated now: Player 08." in member.get(url(event)).content.decode()
    member.post(url(event, "reseat"), {"method": "random", "confirm": "1"})
    assert seated(round_) == set(players[:9]) and round_.tables.count() == 3
    assert AuditEntry.objects.filter(action=Action.RESEAT).count() == 2


def test_reseat_is_refused_once_published_or_once_a_sheet_exists(member, make):
    event = make(8)
    round_ = seat_by_hand(event, 1, [ids(event)[:4], ids(event)[4:]])
    before = draw(round_)
    response = member.post(url(event, "reseat"), {"method": "random"}, follow=True)
    assert shown(response) == [("error", "Unpublish the seating before seating the round again.")]
    Round.objects.filter(pk=round_.pk).update(published=False)
    enter(round_.tables.get(number=1), cheese_tallies([6, 5, 3, 1]))
    response = member.post(url(event, "reseat"), {"method": "random"}, follow=True)
    assert shown(response) == [("error", "A sheet is already entered in this round: it can no longer be seated again.")]
    assert draw(round_) == before


# Start, complete, reopen


def test_completing_shows_its_warnings_as_warnings(member, make):
    event = make(8)
    round_ = in_play(event)
    round_.tables.filter(number=2).update(status=TableStatus.DISPUTED)
    page = member.get(url(event, "complete")).content.decode()
    assert '<li class="warning">Tables 1, 2 have sheets that no second player confirmed.</li>' in page
    assert '<li class="warning">Table 2 is disputed: settle it at the table&#x27;s page.</li>' in page
    response = member.post(url(event, "complete"), follow=True)
    assert shown(response) == [
        ("success", "Round 1 is complete."),
        ("warning", "Tables 1, 2 have sheets that no second player confirmed."),
        ("warning", "Table 2 is disputed: settle it at the table's page."),
    ]
    assert [m.level for m in response.context["messages"]][1:] == [constants.WARNING] * 2
    assert '<li class="warning">Tables 1, 2 have sheets' in response.content.decode()


def test_warnings_are_amber_not_the_green_of_a_success():
    css = (Path(__file__).resolve().parent.parent / "static" / "css" / "tablescore.css").read_text()
    rule = re.search(r"ul\.messages li\.warning[^{]*\{([^}]*)\}", css)
    assert rule and "#b26a00" in rule.group(1) and "#fff6e0" in rule.group(1)


def test_reopen_brings_the_round_back_and_rebuilds_the_standings(member, make):
    event = make(8, rounds_planned=1)
    round_ = in_play(event)
    member.post(url(event, "complete"), follow=True)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    Standing.objects.filter(event=event).delete()
    version = event.standings_version
    response = member.post(url(event, "reopen"), follow=True)
    assert shown(response) == [("success", "Round 1 is open again: its tables take corrections.")]
    round_.refresh_from_db()
    event.refresh_from_db()
    assert (round_.status, event.status) == (RoundStatus.IN_PLAY, EventStatus.RUNNING)
    assert Standing.objects.filter(event=event).count() == 8 and event.standings_version > version
    entry = AuditEntry.objects.get(action=Action.REOPEN)
    assert (entry.round, entry.user, entry.details) == (round_, member.user, {"event_status": "finished"})
    member.post(url(event, "complete"))
    round_.refresh_from_db()
    event.refresh_from_db()
    assert (round_.status, event.status) == (RoundStatus.COMPLETE, EventStatus.FINISHED)


def test_only_the_last_round_is_reopened(member, make):
    event = make(8)
    in_play(event)
    Round.objects.filter(event=event, number=1).update(status=RoundStatus.COMPLETE)
    seat_by_hand(event, 2, [ids(event)[::2], ids(event)[1::2]])
    assert "Reopen the round" not in member.get(url(event)).content.decode()
    response = member.post(url(event, "reopen"), follow=True)
    assert shown(response) == [("error", "Round 2 is seated already: only the last round can be reopened.")]
    assert event.rounds.get(number=1).status == RoundStatus.COMPLETE


def test_every_round_step_is_in_the_audit_trail(member, make):
    event = make(8, rounds_planned=1)
    member.post(url(event, "seat"), {"method": "random", "confirm": "1"})
    for action in ("publish", "unpublish", "reseat", "publish", "start"):
        member.post(url(event, action), {"confirm": "1"})
    for table in event.rounds.get().tables.all():
        enter(table, cheese_tallies([6, 5, 3, 1]))
    for action in ("complete", "reopen", "complete"):
        member.post(url(event, action), {"confirm": "1"})
    entries = AuditEntry.objects.filter(event=event).order_by("pk")
    assert [e.action for e in entries] == [
        Action.SEAT,
        Action.PUBLISH,
        Action.UNPUBLISH,
        Action.RESEAT,
        Action.PUBLISH,
        Action.START,
        Action.COMPLETE,
        Action.REOPEN,
        Action.COMPLETE,
    ]
    round_ = event.rounds.get()
    assert all((e.round, e.user, e.via) == (round_, member.user, "organiser") for e in entries)
    assert entries[6].details == {"unconfirmed": [1, 2], "disputed": []}
