"""The data model keeps its promises in the database: unique seats, tables, names; valid events."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tournaments.models import Event, Manche, Player, Round, Seat, Table

pytestmark = pytest.mark.django_db


def test_a_player_has_one_seat_per_round(make_event):
    event = make_event("veggies", players=4)
    round_ = Round.objects.create(event=event, number=1)
    first, second = Table.objects.create(round=round_, number=1), Table.objects.create(round=round_, number=2)
    player = event.players.first()
    Seat.objects.create(table=first, player=player, position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=second, player=player, position=1)


def test_table_numbers_and_seat_positions_are_unique(make_event):
    event = make_event("veggies", players=4)
    round_ = Round.objects.create(event=event, number=1)
    table = Table.objects.create(round=round_, number=1)
    a, b = event.players.all()[:2]
    Seat.objects.create(table=table, player=a, position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, player=b, position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(round=round_, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(event=event, number=1)


def test_player_names_are_unique_in_an_event_whatever_the_case(make_event):
    event = make_event("veggies", players=0)
    Player.objects.create(event=event, name="Ada Rossi")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(event=event, name="ada rossi")
    other = make_event("veggies", players=0)
    Player.objects.create(event=other, name="Ada Rossi")


def test_manche_numbers_are_unique_at_a_table(make_event):
    event = make_event()
    table = Table.objects.create(round=Round.objects.create(event=event, number=1), number=1)
    Manche.objects.create(table=table, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Manche.objects.create(table=table, number=1)


def test_table_tokens_are_long_random_and_distinct(make_event):
    event = make_event()
    round_ = Round.objects.create(event=event, number=1)
    tokens = {Table.objects.create(round=round_, number=n).token for n in range(1, 30)}
    assert len(tokens) == 29
    assert all(len(token) >= 22 for token in tokens)


def test_vegetables_events_play_at_least_four_manches():
    event = Event(name="Short", date=datetime.date(2026, 1, 1), game="vegetables", manches_per_round=2)
    with pytest.raises(ValidationError) as error:
        event.full_clean()
    assert "manches_per_round" in error.value.message_dict


def test_table_size_must_suit_the_game():
    event = Event(name="Big", date=datetime.date(2026, 1, 1), game="cheese-rescue", table_size=6)
    with pytest.raises(ValidationError) as error:
        event.full_clean()
    assert "table_size" in error.value.message_dict


def test_placement_points_must_not_rise():
    event = Event(name="Odd", date=datetime.date(2026, 1, 1), game="veggies", placement_points=[1, 4])
    with pytest.raises(ValidationError) as error:
        event.full_clean()
    assert "placement_points" in error.value.message_dict


def test_placement_points_default_and_cut_to_table_size():
    event = Event(name="P", date=datetime.date(2026, 1, 1), game="veggies")
    assert event.placement_points_for(4) == (4, 2, 1, 0)
    assert event.placement_points_for(3) == (4, 2, 1)
    event.placement_points = [5, 3, 1, 0]
    assert event.placement_points_for(3) == (5, 3, 1)


def test_slugs_are_made_unique(make_event):
    first, second = make_event("veggies"), make_event("veggies")
    assert first.slug != second.slug
    assert first.slug.startswith("test-veggies-2026")
