"""The round life cycle on the organiser's desk: seat, swap, publish, start, complete.

Check-in, the ways back and the confirmation pages are in ``test_round_cycle``."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Round, Seat
from tournaments.models.event import EventStatus
from tournaments.models.rounds import RoundStatus, TableStatus
from tournaments.services.rounds import round_quality

pytestmark = pytest.mark.django_db


@pytest.fixture
def cheese(make_event, member):
    """A Cheese Rescue event of eight players at tables of four, run by ``member``."""
    event = make_event("cheese-rescue", players=8)
    event.organisers.add(member.user)
    return event


def ids(event) -> list[int]:
    return list(event.players.order_by("pk").values_list("pk", flat=True))


def desk(event) -> str:
    return reverse("tournaments:event_manage", args=[event.slug])


def round_url(event, number: int, action: str = "") -> str:
    return reverse(f"tournaments:round{'_' + action if action else ''}", args=[event.slug, number])


def unpublished(round_: Round) -> Round:
    round_.published = False
    round_.save(update_fields=["published"])
    return round_


def seats_of(round_: Round) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for table, player in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        tables.setdefault(table, []).append(player)
    return list(tables.values())


def shown_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_the_desk_shows_each_tables_status_and_the_seating_quality(member, cheese):
    p = ids(cheese)
    round_ = seat_by_hand(cheese, 1, [p[:4], p[4:]])
    first, second = round_.tables.order_by("number")
    second.status, second.locked = TableStatus.DISPUTED, True
    second.save()
    round_.seating_quality = {"repeats_this_round": 2, "repeats_total": 5, "lower_bound": 1}
    round_.save()
    enter(first, cheese_tallies([6, 5, 3, 1]))
    page = member.get(desk(cheese)).content.decode()
    assert 'Table 1</span> <span class="tile-state">to confirm</span>' in page
    assert 'Table 2</span> <span class="tile-state">disputed</span>' in page
    assert "This round: 2 repeated meetings." in page and "So far: 5 repeated meetings." in page
    assert "At least 1 of them is unavoidable with these table sizes." in page
    for name in ("tournaments:event_edit", "tournaments:event", "tournaments:standings", "tournaments:projector"):
        assert reverse(name, args=[cheese.slug]) in page


def test_the_desk_refreshes_its_rounds_with_htmx(member, cheese):
    p = ids(cheese)
    seat_by_hand(cheese, 1, [p[:4], p[4:]])
    response = member.get(desk(cheese), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="desk-rounds")
    page = response.content.decode()
    assert page.startswith('<section id="desk-rounds"') and "<html" not in page
    assert 'href="#desk-board"' in page and "Table 2</a>" not in page, "the round under way's tables are on the board"


def test_completing_the_last_planned_round_finishes_the_event(member, cheese):
    cheese.rounds_planned = 1
    cheese.save()
    p = ids(cheese)
    round_ = seat_by_hand(cheese, 1, [p[:4], p[4:]], status=RoundStatus.IN_PLAY)
    for table in round_.tables.all():
        enter(table, cheese_tallies([6, 5, 3, 1]))
    member.post(round_url(cheese, 1, "complete"))
    cheese.refresh_from_db()
    assert cheese.status == EventStatus.FINISHED
    assert "Every planned round is seated already" in member.get(desk(cheese)).content.decode()


def test_the_first_round_is_seated_from_the_desk_by_the_events_method(member, cheese):
    cheese.seating_method = "mixer"
    cheese.save()
    page = member.get(desk(cheese)).content.decode()
    assert 'value="mixer" selected' in page
    seat = reverse("tournaments:round_seat", args=[cheese.slug])
    assert 'value="mixer" selected' in member.get(seat).content.decode()
    preview = member.post(seat, {"method": "random"}).content.decode()
    assert 'value="random" selected' in preview and "Seat round 1" in preview
    assert not cheese.rounds.exists()
    response = member.post(seat, {"method": "random", "confirm": "1"}, follow=True)
    round_ = cheese.rounds.get()
    assert response.redirect_chain[-1][0] == round_url(cheese, 1)
    assert (round_.number, round_.status, round_.published) == (1, RoundStatus.SEATED, False)
    assert sorted(p for table in seats_of(round_) for p in table) == ids(cheese)
    assert [len(table) for table in seats_of(round_)] == [4, 4]
    assert round_.seating_quality == {"repeats_this_round": 0, "repeats_total": 0, "lower_bound": 0}
    assert "Round 1 is seated." in response.content.decode()


def test_the_desk_seats_with_the_chosen_method_and_the_standings_order(member, cheese, monkeypatch):
    calls = []

    def seat_next_round(event, method=None, standings=None):
        calls.append((method, standings))
        return seat_by_hand(event, 2, [standings[:4], standings[4:]])

    monkeypatch.setattr("tournaments.services.rounds.seat_next_round", seat_next_round)
    p = ids(cheese)
    round_ = seat_by_hand(cheese, 1, [p[:4], p[4:]], status=RoundStatus.IN_PLAY)
    for table in round_.tables.all():
        enter(table, cheese_tallies([1, 3, 5, 6]))
    member.post(round_url(cheese, 1, "complete"))
    seat = reverse("tournaments:round_seat", args=[cheese.slug])
    response = member.post(seat, {"method": "swiss", "confirm": "1"}, follow=True)
    leaders = [p[3], p[7], p[2], p[6], p[1], p[5], p[0], p[4]]
    assert calls == [("swiss", leaders)]
    assert response.redirect_chain[-1][0] == round_url(cheese, 2)
    assert Round.objects.get(event=cheese, number=2).seating_quality["repeats_this_round"] == 4


def test_the_next_round_waits_until_every_earlier_round_is_complete(member, cheese):
    p = ids(cheese)
    seat_by_hand(cheese, 1, [p[:4], p[4:]], status=RoundStatus.IN_PLAY)
    page = member.get(desk(cheese)).content.decode()
    assert reverse("tournaments:round_seat", args=[cheese.slug]) not in page
    assert "once every earlier round is complete" in page
    response = member.post(reverse("tournaments:round_seat", args=[cheese.slug]), {"method": "mixer"}, follow=True)
    assert response.redirect_chain[-1][0] == desk(cheese)
    assert shown_messages(response) == ["Round 1 is not complete yet: the next round is seated once it is."]
    assert cheese.rounds.count() == 1


def test_after_a_complete_round_the_desk_offers_the_events_method(member, cheese):
    cheese.seating_method = "swiss"
    cheese.save()
    p = ids(cheese)
    seat_by_hand(cheese, 1, [p[:4], p[4:]], status=RoundStatus.COMPLETE)
    page = member.get(desk(cheese)).content.decode()
    assert 'value="swiss" selected' in page
    assert "Seat round 2" in page


def test_two_players_swap_seats_before_publishing_and_the_quality_is_recomputed(member, cheese):
    p = ids(cheese)
    seat_by_hand(cheese, 1, [p[:4], p[4:]], status=RoundStatus.COMPLETE)
    round_ = unpublished(seat_by_hand(cheese, 2, [[p[0], p[1], p[2], p[4]], [p[3], p[5], p[6], p[7]]]))
    assert round_quality(round_) == {"repeats_this_round": 6, "repeats_total": 6, "lower_bound": 4}
    response = member.post(round_url(cheese, 2, "swap"), {"player_a": p[2], "player_b": p[5]}, follow=True)
    assert seats_of(round_) == [[p[0], p[1], p[5], p[4]], [p[3], p[2], p[6], p[7]]]
    round_.refresh_from_db()
    assert round_.seating_quality == {"repeats_this_round": 4, "repeats_total": 4, "lower_bound": 4}
    page = response.content.decode()
    assert "Player 02 and Player 05 swapped seats." in page
    assert "This round: 4 repeated meetings." in page and "So far: 4 repeated meetings." in page
    assert "At least 4 of them are unavoidable with these table sizes." in page


def test_a_swap_with_htmx_redraws_the_round_body(member, cheese):
    p = ids(cheese)
    round_ = unpublished(seat_by_hand(cheese, 1, [p[:4], p[4:]]))
    response = member.post(
        round_url(cheese, 1, "swap"),
        {"player_a": p[0], "player_b": p[7]},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="round-body",
    )
    page = response.content.decode()
    assert page.startswith('<div id="round-body">') and "<html" not in page
    assert "Player 00 and Player 07 swapped seats." in page
    assert seats_of(round_) == [[p[7], *p[1:4]], [*p[4:7], p[0]]]


def test_a_player_cannot_swap_with_themself(member, cheese):
    p = ids(cheese)
    round_ = unpublished(seat_by_hand(cheese, 1, [p[:4], p[4:]]))
    response = member.post(round_url(cheese, 1, "swap"), {"player_a": p[1], "player_b": p[1]})
    assert response.status_code == 422
    assert "Choose two different players to swap." in response.content.decode()
    assert seats_of(round_) == [p[:4], p[4:]]


def test_seats_are_fixed_once_the_round_is_published(member, cheese):
    p = ids(cheese)
    round_ = unpublished(seat_by_hand(cheese, 1, [p[:4], p[4:]]))
    assert "Swap seats" in member.get(round_url(cheese, 1)).content.decode()
    member.post(round_url(cheese, 1, "publish"))
    page = member.get(round_url(cheese, 1)).content.decode()
    assert "Swap seats" not in page
    response = member.post(round_url(cheese, 1, "swap"), {"player_a": p[0], "player_b": p[7]}, follow=True)
    assert shown_messages(response) == ["Seats can be swapped only before the round is published."]
    assert seats_of(round_) == [p[:4], p[4:]]


def test_publishing_shows_the_tables_on_the_public_page(member, client, cheese):
    p = ids(cheese)
    unpublished(seat_by_hand(cheese, 1, [p[:4], p[4:]]))
    assert "Table 1" not in client.get(cheese.get_absolute_url()).content.decode()
    response = member.post(round_url(cheese, 1, "publish"), follow=True)
    assert "Round 1 is published." in response.content.decode()
    page = client.get(cheese.get_absolute_url()).content.decode()
    assert "Table 1" in page and "Table 2" in page


def test_the_round_page_lists_players_in_seat_order(member, cheese):
    p = ids(cheese)
    seat_by_hand(cheese, 1, [[p[3], p[0], p[2], p[1]], p[4:]])
    page = member.get(round_url(cheese, 1)).content.decode()
    table = page[page.index('id="table-1"') : page.index('id="table-2"')]
    positions = [table.index(f"Player {n:02d}") for n in (3, 0, 2, 1)]
    assert positions == sorted(positions)
    assert "sheets 0/1" in table


def test_a_round_is_complete_only_when_every_table_has_its_sheets(member, cheese):
    p = ids(cheese)
    round_ = unpublished(seat_by_hand(cheese, 1, [p[:4], p[4:]]))
    response = member.post(round_url(cheese, 1, "complete"), follow=True)
    assert shown_messages(response) == ["Only a round in play can be completed; this one is seated."]
    response = member.post(round_url(cheese, 1, "start"), follow=True)
    assert shown_messages(response) == ["Publish the seating before starting the round: the players need their tables."]
    member.post(round_url(cheese, 1, "publish"))
    response = member.post(round_url(cheese, 1, "start"), follow=True)
    round_.refresh_from_db()
    cheese.refresh_from_db()
    assert (round_.status, round_.published, cheese.status) == (RoundStatus.IN_PLAY, True, EventStatus.RUNNING)
    assert "Complete the round" in response.content.decode()
    first, second = round_.tables.order_by("number")
    enter(first, cheese_tallies([6, 5, 3, 1]))
    response = member.post(round_url(cheese, 1, "complete"), follow=True)
    assert shown_messages(response) == [
        "Table 2 still misses score sheets: the round is complete once every table has them."
    ]
    round_.refresh_from_db()
    assert round_.status == RoundStatus.IN_PLAY
    enter(second, cheese_tallies([4, 4, 2, 0]))
    response = member.post(round_url(cheese, 1, "complete"), follow=True)
    assert shown_messages(response) == [
        "Round 1 is complete.",
        "Tables 1, 2 have sheets that no second player confirmed.",
    ]
    round_.refresh_from_db()
    assert round_.status == RoundStatus.COMPLETE
    assert "Seat round 2" in member.get(desk(cheese)).content.decode()


def test_without_confirmation_a_complete_round_has_no_warning(member, cheese):
    cheese.confirmation_required = False
    cheese.save()
    p = ids(cheese)
    round_ = seat_by_hand(cheese, 1, [p[:4], p[4:]], status=RoundStatus.IN_PLAY)
    for table in round_.tables.all():
        enter(table, cheese_tallies([6, 5, 3, 1]))
    response = member.post(round_url(cheese, 1, "complete"), follow=True)
    assert shown_messages(response) == ["Round 1 is complete."]


def test_a_round_moves_forward_only(member, cheese):
    p = ids(cheese)
    round_ = seat_by_hand(cheese, 1, [p[:4], p[4:]], status=RoundStatus.COMPLETE)
    response = member.post(round_url(cheese, 1, "start"), follow=True)
    assert shown_messages(response) == ["Only a seated round can be started; this one is complete."]
    round_.refresh_from_db()
    assert round_.status == RoundStatus.COMPLETE


def test_round_quality_counts_each_repeated_meeting_and_the_lower_bound(make_event):
    event = make_event("cheese-rescue", players=8)
    p = ids(event)
    seat_by_hand(event, 1, [p[:4], p[4:]], status=RoundStatus.COMPLETE)
    seat_by_hand(event, 2, [p[:4], p[4:]], status=RoundStatus.COMPLETE)
    third = seat_by_hand(event, 3, [p[:4], p[4:]])
    # the same 12 pairs meet in every round: each meeting after the first is a repeat, 12 in round 2 and
    # 12 in round 3; ceil(8 * (3 * 3 - 7) / 2) = 8
    assert round_quality(third) == {"repeats_this_round": 12, "repeats_total": 24, "lower_bound": 8}


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", lambda e: desk(e)),
        ("get", lambda e: round_url(e, 1)),
        ("get", lambda e: round_url(e, 1, "publish")),
        ("get", lambda e: round_url(e, 1, "reseat")),
        ("get", lambda e: round_url(e, 1, "complete")),
        ("get", lambda e: round_url(e, 1, "reopen")),
        ("get", lambda e: reverse("tournaments:round_seat", args=[e.slug])),
        ("post", lambda e: round_url(e, 1, "publish")),
        ("post", lambda e: round_url(e, 1, "unpublish")),
        ("post", lambda e: round_url(e, 1, "reseat")),
        ("post", lambda e: round_url(e, 1, "start")),
        ("post", lambda e: round_url(e, 1, "complete")),
        ("post", lambda e: round_url(e, 1, "reopen")),
        ("post", lambda e: round_url(e, 1, "swap")),
        ("post", lambda e: reverse("tournaments:round_seat", args=[e.slug])),
    ],
)
def test_round_pages_need_an_organiser_of_the_event(client, django_user_model, make_event, method, url):
    event = make_event("cheese-rescue", players=4)
    round_ = unpublished(seat_by_hand(event, 1, [ids(event)]))
    response = getattr(client, method)(url(event))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    stranger = django_user_model.objects.create_user("eve", password="a-long-test-password")
    client.force_login(stranger)
    assert getattr(client, method)(url(event)).status_code == 403
    round_.refresh_from_db()
    assert (round_.status, round_.published, event.rounds.count()) == (RoundStatus.SEATED, False, 1)


def test_round_changes_need_the_csrf_token(member, cheese):
    round_ = unpublished(seat_by_hand(cheese, 1, [ids(cheese)[:4], ids(cheese)[4:]]))
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(member.user)
    assert guarded.post(round_url(cheese, 1, "publish")).status_code == 403
    assert guarded.post(reverse("tournaments:round_seat", args=[cheese.slug]), {"method": "random"}).status_code == 403
    round_.refresh_from_db()
    assert not round_.published


@pytest.mark.parametrize("action", ["start", "unpublish", "swap"])
def test_round_steps_without_a_confirmation_page_take_only_posts(member, cheese, action):
    seat_by_hand(cheese, 1, [ids(cheese)[:4], ids(cheese)[4:]])
    assert member.get(round_url(cheese, 1, action)).status_code == 405


def run_rounds(make_event, players: int, rounds: int):
    event = make_event("cheese-rescue", players=players)
    p = ids(event)
    for number in range(1, rounds + 1):
        order = p[number:] + p[:number]
        status = RoundStatus.COMPLETE if number < rounds else RoundStatus.SEATED
        seat_by_hand(event, number, [order[i : i + 4] for i in range(0, players, 4)], status=status)
    return event


@pytest.mark.parametrize(("players", "rounds"), [(8, 1), (40, 4)])
def test_the_desk_reads_a_fixed_number_of_queries(
    organiser_client, make_event, django_assert_max_num_queries, players, rounds
):
    event = run_rounds(make_event, players, rounds)
    with django_assert_max_num_queries(6):
        response = organiser_client.get(desk(event))
    assert response.content.decode().count("table-status") == players // 4 * rounds


@pytest.mark.parametrize(("players", "rounds"), [(8, 1), (40, 4)])
def test_the_round_page_reads_a_fixed_number_of_queries(
    organiser_client, make_event, django_assert_max_num_queries, players, rounds
):
    event = run_rounds(make_event, players, rounds)
    unpublished(event.rounds.get(number=rounds))
    # the seventh reads who is to be seated now, to warn when check-in changed since the draw
    with django_assert_max_num_queries(7):
        response = organiser_client.get(round_url(event, rounds))
    page = response.content.decode()
    assert page.count('class="table-card"') == players // 4
    assert page.count(", seat 1)</option>") == 2 * players // 4
