"""Every hand-written statement of ``tournaments.sql``, on whichever database the run uses (SQLite, then PostgreSQL),
and the statements a save runs through each door to a table."""

from __future__ import annotations

import datetime
import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests import test_table_entry
from tests.test_table_entry import MANCHE, fields
from tournaments import sql
from tournaments.models import Event, Manche, RatingChange, Seat, SheetRevision, Standing, Table, tokens
from tournaments.services.tables import player_at_table, published_table, table_by_token

pytestmark = pytest.mark.django_db

#: The table link's tests' event of 8 players and its two tables of a round in play.
event, tables = test_table_entry.event, test_table_entry.tables
#: The most statements a save may run through any door (savepoints of the test's transaction included).
SAVE_STATEMENTS = 10


def same_as_the_orm(found, orm) -> None:
    assert type(found) is type(orm)
    assert not found._state.adding
    for field in type(orm)._meta.concrete_fields:
        assert getattr(found, field.attname) == getattr(orm, field.attname), field.name


# Reading a table --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token",
    ["", "short", "x" * 21, "x" * 23, "x" * 200, "a" * 21 + "!", "a" * 21 + "=", "é" * 22, "a" * 21 + " ", None, 12],
)
def test_malformed_tokens_are_refused_before_any_query(token, tables, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert table_by_token(token) is None


def test_a_table_is_found_by_exactly_its_token_compared_in_constant_time(tables, monkeypatch):
    compared = []

    def compare_digest(a, b):
        compared.append((a, b))
        return a == b

    monkeypatch.setattr(tokens.hmac, "compare_digest", compare_digest)
    assert table_by_token(tables[1].token).table == tables[1]
    assert compared == [(tables[1].token.encode(), tables[1].token.encode())]
    unknown = ("B" if tables[0].token[0] == "A" else "A") + tables[0].token[1:]
    assert table_by_token(unknown) is None


def test_a_table_its_round_event_seats_and_players_are_read_in_one_statement_as_the_orm_reads_them(
    tables, django_assert_num_queries
):
    """Every column of the five kinds of row comes back as the ORM reads it (dates, JSON, booleans, decimals)."""
    Event.objects.filter(pk=tables[1].round.event_id).update(options={"diet": ["x", "y"]}, standings_stale=True)
    Seat.objects.filter(table=tables[1], position=2).update(placement_points=Decimal("2.50"), tiebreak=[3, 1])
    with django_assert_num_queries(1):
        at = table_by_token(tables[1].token)
        names = at.names
        found = [at.table, at.round, at.event, *at.seats, *(seat.player for seat in at.seats)]
        assert all(seat.table is at.table and seat.player.event is at.event for seat in at.seats)
    orm_table = Table.objects.get(pk=tables[1].pk)
    orm_seats = list(orm_table.seats.order_by("position"))
    expected = [orm_table, orm_table.round, orm_table.round.event, *orm_seats, *(s.player for s in orm_seats)]
    for instance, orm in zip(found, expected, strict=True):
        same_as_the_orm(instance, orm)
    assert names == [s.player.name for s in orm_seats]
    assert at.event.options == {"diet": ["x", "y"]} and at.seats[1].placement_points == Decimal("2.50")


def test_a_table_nobody_sits_at_is_found_with_no_seats(event, tables):
    table = Table.objects.create(round=tables[0].round, number=3)
    at = table_by_token(table.token)
    assert at.table == table and at.seats == [] and at.names == []


def test_a_table_of_an_unpublished_round_is_not_found_by_its_link(tables):
    tables[0].round.__class__.objects.filter(pk=tables[0].round_id).update(published=False)
    assert published_table(tables[0].token) is None
    assert table_by_token(tables[0].token) is not None


def test_a_players_link_finds_their_table_and_seat_and_no_other(tables):
    me = tables[0].seats.get(position=3).player
    at, seat = player_at_table(me.token, tables[0].pk)
    assert at.table == tables[0] and seat.position == 3 and seat.player == me
    assert player_at_table(me.token, tables[1].pk) is None
    assert player_at_table(tables[1].seats.first().player.token, tables[0].pk) is None
    assert player_at_table("x" * 22, tables[0].pk) is None


# A save's statements ----------------------------------------------------------------------------------------------


def test_the_lock_reads_the_table_its_round_and_its_manches_in_order(tables):
    with transaction.atomic():
        table, round_, manches = sql.lock_table(tables[0].pk)
    assert table == tables[0] and round_ == tables[0].round
    assert [m.number for m in manches] == [1, 2, 3, 4]
    for found in manches:
        same_as_the_orm(found, Manche.objects.get(pk=found.pk))


def test_the_lock_of_a_table_without_manches_or_of_no_table(tables):
    Manche.objects.filter(table=tables[0]).delete()
    with transaction.atomic():
        assert sql.lock_table(tables[0].pk)[2] == []
        with pytest.raises(Table.DoesNotExist):
            sql.lock_table(10**9)


def test_the_lock_takes_the_tables_row_before_it_reads_where_rows_are_locked(tables):
    """PostgreSQL locks the table's row first and reads in a statement of its own (a statement that waited for the
    lock would read the rows as they were before the change it waited for); SQLite has one writer at a time and no
    row locks."""
    locks_rows = connection.vendor == "postgresql"
    with transaction.atomic(), CaptureQueriesContext(connection) as done:
        sql.lock_table(tables[0].pk)
    statements = [query["sql"] for query in done.captured_queries]
    assert len(statements) == (2 if locks_rows else 1)
    assert statements[0].endswith("FOR UPDATE") == locks_rows
    assert "FOR UPDATE" not in statements[-1]


def sheet(**changes) -> dict:
    values = dict.fromkeys(sql.SHEET_FIELDS)
    values.update(confirmed_via="", entered_via="link", entered_device="phone", confirmed_device="")
    values.update(document={"a": [1, 2]}, result={"players": []}, entered_at=timezone.now(), entered_seat=2)
    return {**values, **changes}


def test_the_sheet_is_stored_only_at_the_version_it_was_based_on(tables):
    manche = Manche.objects.get(table=tables[0], number=2)
    player = tables[0].seats.get(position=2).player
    assert sql.update_sheet(manche.pk, 0, sheet(entered_player=player))
    assert not sql.update_sheet(manche.pk, 0, sheet(document={"b": 1}))
    manche.refresh_from_db()
    assert manche.version == 1 and manche.document == {"a": [1, 2]} and manche.entered_player == player
    assert manche.entered_seat == 2 and manche.confirmed_at is None


def test_a_revision_is_kept_with_every_field(tables):
    manche = Manche.objects.get(table=tables[0], number=1)
    at = timezone.now()
    player = tables[0].seats.get(position=1).player
    sql.insert_revision(
        {
            "manche": manche.pk,
            "version": 1,
            "before": None,
            "after": {"x": "é"},
            "changed_at": at,
            "user": None,
            "via": "player",
            "seat": 1,
            "player": player,
            "device": "phone",
            "after_completion": True,
            "entered_at": at - timedelta(minutes=3),
            "key": "k3y-0f-the-phone",
            "paper": b"\xff\xd8 a picture",
        }
    )
    revision = SheetRevision.objects.get(manche=manche)
    assert bytes(revision.paper) == b"\xff\xd8 a picture"
    assert (revision.version, revision.before, revision.after, revision.changed_at) == (1, None, {"x": "é"}, at)
    assert (revision.player, revision.seat, revision.device, revision.after_completion) == (player, 1, "phone", True)
    assert (revision.entered_at, revision.key, revision.kept_on_phone) == (
        at - timedelta(minutes=3),
        "k3y-0f-the-phone",
        True,
    )


# Many rows at once ------------------------------------------------------------------------------------------------


def test_many_rows_are_updated_each_to_its_own_values_nulls_and_decimals_included(tables):
    seats = list(Seat.objects.filter(table=tables[0]).order_by("position"))
    rows = [
        (seats[0].pk, 12, [1, 2], 1, Decimal("4.00")),
        (seats[1].pk, None, [], None, None),
        (seats[2].pk, -3, [0], 2, Decimal("1.5")),
    ]
    assert sql.update_rows(Seat, ("score", "tiebreak", "rank", "placement_points"), rows, batch_size=2) == 3
    stored = {s.pk: (s.score, s.tiebreak, s.rank, s.placement_points) for s in Seat.objects.filter(table=tables[0])}
    assert stored[seats[0].pk] == (12, [1, 2], 1, Decimal("4.00"))
    assert stored[seats[1].pk] == (None, [], None, None)
    assert stored[seats[2].pk] == (-3, [0], 2, Decimal("1.50"))
    assert stored[seats[3].pk] == (None, [], None, None), "a row not given is left as it was"
    assert sql.update_rows(Seat, ("score",), []) == 0


def test_plain_rows_are_inserted_in_batches(event, tables):
    from tournaments.models import Club, Person
    from tournaments.ratings.build import CHANGE_COLUMNS

    person = Person.objects.create(club=Club.objects.create(name="Club"), name="Anna")
    rows = [
        (person.pk, "vegetables", event.pk, number, 2, number % 2 + 1, 25.0, 8.3, 26.5, 7.9) for number in (1, 2, 3)
    ]
    sql.insert_rows(RatingChange, CHANGE_COLUMNS, rows, batch_size=2)
    changes = RatingChange.objects.filter(person=person).order_by("round_number")
    assert [(c.round_number, c.rank) for c in changes] == [(1, 2), (2, 1), (3, 2)]
    assert {(c.event_id, c.table_number, c.mu_after) for c in changes} == {(event.pk, 2, 26.5)}


def test_the_standings_writer_lock_is_taken_inside_a_transaction(event):
    with transaction.atomic():
        sql.standings_writer_lock(event.pk)
        Standing.objects.filter(event=event).update(rank=1)


# The statements of a save, door by door ---------------------------------------------------------------------------


def test_a_save_through_the_table_link_runs_at_most_ten_statements(client, tables, django_assert_max_num_queries):
    url = reverse("tournaments:table_save", args=[tables[0].token, 1])
    client.get(reverse("tournaments:table", args=[tables[0].token]))
    with django_assert_max_num_queries(SAVE_STATEMENTS):
        response = client.post(url, {"seat": "1", "version": "0", **fields()}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Saved" in response.content.decode()
    with django_assert_max_num_queries(SAVE_STATEMENTS):
        assert client.post(url, {"version": "1", **fields(penalties=[0, 0, 0, 0])}).status_code == 302
    assert Manche.objects.get(table=tables[0], number=1).version == 2


def test_a_save_through_a_players_link_runs_at_most_ten_statements(tables, django_assert_max_num_queries):
    me = tables[0].seats.get(position=2).player
    url = reverse("tournaments:player_table_save", args=[me.token, tables[0].pk, 2])
    with django_assert_max_num_queries(SAVE_STATEMENTS):
        response = Client().post(url, {"version": "0", **fields()}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Saved" in response.content.decode()
    assert Manche.objects.get(table=tables[0], number=2).entered_player == me


def test_a_save_through_the_api_runs_at_most_ten_statements(event, tables, django_assert_max_num_queries):
    names = [s.player.name for s in tables[0].seats.order_by("position")]
    body = {"manche": 3, "version": 0, "document": {"game": "vegetables", "players": names, "manches": [MANCHE]}}
    url = reverse("tournaments:api_table_sheet", args=[tables[0].token])
    with django_assert_max_num_queries(SAVE_STATEMENTS):
        response = Client().put(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["version"] == 1


def test_a_refused_or_stale_save_stays_within_the_count_too(client, tables, django_assert_max_num_queries):
    url = reverse("tournaments:table_save", args=[tables[0].token, 1])
    with django_assert_max_num_queries(SAVE_STATEMENTS):
        refused = client.post(url, {"seat": "1", "version": "0", **fields(pozzo=[30, 30, 30, 30])}, HTTP_HX_REQUEST="1")
    assert refused.status_code == 400
    client.post(url, {"seat": "1", "version": "0", **fields()})
    with django_assert_max_num_queries(SAVE_STATEMENTS):
        assert client.post(url, {"seat": "1", "version": "0", **fields()}, HTTP_HX_REQUEST="1").status_code == 409


def test_a_table_that_closes_before_the_save_takes_its_lock_refuses_it(tables, monkeypatch):
    """The table's lock and its round are read again under the lock: a save racing the organiser's lock loses."""
    real_lock = sql.lock_table

    def organiser_locks_first(table_id):
        Table.objects.filter(pk=table_id).update(locked=True)
        return real_lock(table_id)

    monkeypatch.setattr(sql, "lock_table", organiser_locks_first)
    url = reverse("tournaments:table_save", args=[tables[0].token, 1])
    response = Client().post(url, {"seat": "1", "version": "0", **fields()}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and "The organiser has locked this table" in response.content.decode()
    assert Manche.objects.get(table=tables[0], number=1).version == 0
    assert not SheetRevision.objects.filter(manche__table=tables[0]).exists()


def test_the_revision_is_stamped_with_the_time_of_the_save(client, tables):
    before = timezone.now() - datetime.timedelta(seconds=1)
    client.post(reverse("tournaments:table_save", args=[tables[0].token, 1]), {"seat": "1", "version": "0", **fields()})
    revision = SheetRevision.objects.get(manche__table=tables[0])
    assert revision.changed_at >= before and revision.after["manches"] == [MANCHE]


# SQLite files of their own ----------------------------------------------------------------------------------------


def test_a_sqlite_file_is_checked_listed_and_made_self_contained(tmp_path):
    import sqlite3

    path = tmp_path / "copy.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE tournaments_event (id INTEGER PRIMARY KEY)")
        assert sql.sqlite_file_is_whole(db)
        assert sql.sqlite_file_tables(db) == {"tournaments_event"}
        sql.sqlite_file_self_contained(db)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        db.close()
    assert not (tmp_path / "copy.sqlite3-wal").exists()
