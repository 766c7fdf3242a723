"""Saves a phone kept through a network drop and sent again later: the server side.

A save names itself with a key; sent twice, it is stored once and both sendings are answered as saved. A save that
follows the phone's own unanswered saves (``replaces``) is not taken for somebody else's change, while a change by
anybody else still makes it stale (409). How long the phone kept the sheet dates the revision, and the desk's table
page says when it was entered and when it was received. What the post says is read strictly (``delivery_from``),
and the database keeps one revision per key and manche.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.http import QueryDict
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, time_format

from tests import test_table_entry
from tests.test_table_entry import fields
from tournaments import sql
from tournaments.models import Manche, SheetRevision
from tournaments.services.delivery import Delivery, delivery_from

pytestmark = pytest.mark.django_db

event, tables = test_table_entry.event, test_table_entry.tables

FIRST, SECOND, THIRD, OTHER = "first-save-0001", "second-save-002", "third_save_0003", "other-phone-key"
SAVED = "Saved."
STALE = "Someone else saved this manche meanwhile"


def send(client, url, version=0, *, key="", kept_ms=None, replaces=(), seat=1, **changes):
    """A sheet posted as the phone's outbox posts it (HTMX), with the delivery's fields when given."""
    data = {"seat": str(seat), "version": str(version), **fields(**changes)}
    if key:
        data["key"] = key
    if kept_ms is not None:
        data["kept_ms"] = str(kept_ms)
    if replaces:
        data["replaces"] = ",".join(replaces)
    return client.post(url, data, HTTP_HX_REQUEST="true")


def table_url(table, number=1) -> str:
    return reverse("tournaments:table_save", args=[table.token, number])


def manche(table, number=1) -> Manche:
    return Manche.objects.get(table=table, number=number)


def history(table) -> list[tuple[int, str]]:
    """(version, key) of each revision of the table's first manche."""
    return list(SheetRevision.objects.filter(manche=manche(table)).order_by("version").values_list("version", "key"))


def penalties(table) -> list[int]:
    return manche(table).document["manches"][0]["penalties"]


# The same save sent twice -----------------------------------------------------------------------------------------


def test_the_same_save_sent_twice_is_stored_once_and_both_sendings_are_answered_saved(tables):
    phone, url = Client(), table_url(tables[0])
    first = send(phone, url, key=FIRST)
    again = send(phone, url, key=FIRST)
    assert (first.status_code, again.status_code) == (200, 200)
    assert SAVED in first.content.decode() and SAVED in again.content.decode()
    assert STALE not in again.content.decode()
    assert manche(tables[0]).version == 1
    assert history(tables[0]) == [(1, FIRST)]


def test_a_save_sent_again_after_somebody_else_changed_the_sheet_is_still_recognised(tables):
    url = table_url(tables[0])
    send(Client(), url, key=FIRST)
    send(Client(), url, version=1, key=OTHER, penalties=[0, 0, 0, 0])
    again = send(Client(), url, key=FIRST)
    assert again.status_code == 200 and SAVED in again.content.decode()
    assert history(tables[0]) == [(1, FIRST), (2, OTHER)]
    assert penalties(tables[0]) == [0, 0, 0, 0], "the later change is kept"


def test_a_key_used_on_another_manche_does_not_count_as_sent_already(tables):
    send(Client(), table_url(tables[0], 1), key=FIRST)
    other_manche = send(Client(), table_url(tables[0], 2), key=FIRST)
    assert other_manche.status_code == 200
    assert manche(tables[0], 2).version == 1 and manche(tables[0], 2).revisions.get().key == FIRST


# A save after the phone's own unanswered ones ---------------------------------------------------------------------


def test_a_save_replacing_the_phone_s_unanswered_save_is_stored_on_top_of_it(tables):
    url = table_url(tables[0])
    send(Client(), url, key=FIRST)  # stored, but the phone never heard back: it still has version 0
    newer = send(Client(), url, version=0, key=SECOND, replaces=[FIRST], penalties=[0, 0, 0, 0])
    assert newer.status_code == 200 and SAVED in newer.content.decode()
    assert manche(tables[0]).version == 2 and penalties(tables[0]) == [0, 0, 0, 0]
    assert history(tables[0]) == [(1, FIRST), (2, SECOND)]
    revision = SheetRevision.objects.get(manche=manche(tables[0]), version=2)
    assert revision.before["manches"][0]["penalties"] == [0, 1, 0, 0], "the first save is kept as what it changed"


def test_a_save_replacing_several_unanswered_saves_is_stored_on_top_of_them(tables):
    url = table_url(tables[0])
    send(Client(), url, key=FIRST)
    send(Client(), url, key=SECOND, replaces=[FIRST], penalties=[0, 0, 1, 0])
    third = send(Client(), url, key=THIRD, replaces=[SECOND, FIRST], penalties=[0, 0, 0, 0])
    assert third.status_code == 200
    assert history(tables[0]) == [(1, FIRST), (2, SECOND), (3, THIRD)]
    assert penalties(tables[0]) == [0, 0, 0, 0]


@pytest.mark.parametrize("other_key", [OTHER, ""], ids=["with-a-key", "without-a-key"])
def test_a_save_replacing_its_own_is_stale_when_somebody_else_saved_in_between(tables, other_key):
    url = table_url(tables[0])
    send(Client(), url, key=FIRST)
    assert send(Client(), url, version=1, key=other_key, penalties=[0, 0, 1, 0]).status_code == 200
    refused = send(Client(), url, version=0, key=SECOND, replaces=[FIRST], penalties=[0, 0, 0, 0])
    assert refused.status_code == 409 and STALE in refused.content.decode()
    assert history(tables[0]) == [(1, FIRST), (2, other_key)]
    assert penalties(tables[0]) == [0, 0, 1, 0]


def test_a_save_replacing_only_some_of_the_changes_since_its_version_is_stale(tables):
    url = table_url(tables[0])
    send(Client(), url, key=OTHER)
    send(Client(), url, version=1, key=FIRST, penalties=[0, 0, 1, 0])
    refused = send(Client(), url, version=0, key=SECOND, replaces=[FIRST], penalties=[0, 0, 0, 0])
    assert refused.status_code == 409
    assert manche(tables[0]).version == 2 and history(tables[0]) == [(1, OTHER), (2, FIRST)]


# Stale saves stay stale -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "delivery",
    [
        {"key": SECOND},
        {"key": SECOND, "replaces": ["never-stored-1"]},
        {"replaces": [FIRST]},
        {},
    ],
    ids=["new-key-replacing-nothing", "new-key-replacing-another-save", "replaces-without-a-key", "no-key"],
)
def test_a_stale_save_that_replaces_nothing_stored_is_refused_as_before(tables, delivery):
    url = table_url(tables[0])
    send(Client(), url, key=FIRST)
    refused = send(Client(), url, version=0, penalties=[0, 0, 0, 0], **delivery)
    assert refused.status_code == 409 and STALE in refused.content.decode()
    assert "The sheet saved meanwhile says" in refused.content.decode()
    assert manche(tables[0]).version == 1 and history(tables[0]) == [(1, FIRST)]


def test_a_save_based_on_a_version_the_sheet_never_had_is_refused_whatever_it_replaces(tables):
    url = table_url(tables[0])
    send(Client(), url, key=FIRST)
    refused = send(Client(), url, version=5, key=SECOND, replaces=[FIRST], penalties=[0, 0, 0, 0])
    assert refused.status_code == 409
    assert history(tables[0]) == [(1, FIRST)]


def test_saves_on_the_current_version_with_keys_follow_one_another(tables):
    url = table_url(tables[0])
    assert send(Client(), url, version=0, key=FIRST).status_code == 200
    assert send(Client(), url, version=1, key=SECOND, penalties=[0, 0, 0, 0]).status_code == 200
    assert history(tables[0]) == [(1, FIRST), (2, SECOND)]


def test_a_save_sent_again_after_the_table_was_locked_is_not_said_to_be_lost(tables):
    url = table_url(tables[0])
    send(Client(), url, key=FIRST)  # stored; its answer never reached the phone
    tables[0].locked = True
    tables[0].save(update_fields=["locked"])
    again = send(Client(), url, key=FIRST)
    assert history(tables[0]) == [(1, FIRST)]
    assert "Not saved" not in again.content.decode()


# How long the phone kept it ---------------------------------------------------------------------------------------


def shown(moment) -> str:
    """A time as the desk's table page writes it."""
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def entered(revision) -> str:
    """When a kept change was entered, as the desk writes it: the time alone on the day it was received."""
    moment, received = timezone.localtime(revision.entered_at), timezone.localtime(revision.changed_at)
    return f"at {time_format(moment, 'TIME_FORMAT')}" if moment.date() == received.date() else shown(moment)


def desk_page(client, event, table) -> str:
    return client.get(reverse("tournaments:desk_table", args=[event.slug, table.pk])).content.decode()


def test_a_sheet_kept_three_minutes_is_dated_when_it_was_entered_and_the_desk_says_so(organiser_client, event, tables):
    assert send(Client(), table_url(tables[0]), key=FIRST, kept_ms=180_000).status_code == 200
    revision = SheetRevision.objects.get(manche=manche(tables[0]))
    assert revision.changed_at - revision.entered_at == timedelta(minutes=3)
    assert revision.kept_on_phone
    page = desk_page(organiser_client, event, tables[0])
    assert f"Received {shown(revision.changed_at)}" in page
    assert f"entered {entered(revision)}, kept on the phone until it could be sent" in page


@pytest.mark.parametrize("kept_ms", [None, 29_999], ids=["not-kept", "kept-under-30-s"])
def test_a_sheet_sent_at_once_shows_only_when_it_changed(organiser_client, event, tables, kept_ms):
    assert send(Client(), table_url(tables[0]), key=FIRST, kept_ms=kept_ms).status_code == 200
    revision = SheetRevision.objects.get(manche=manche(tables[0]))
    assert revision.changed_at - revision.entered_at == timedelta(milliseconds=kept_ms or 0)
    assert not revision.kept_on_phone
    page = desk_page(organiser_client, event, tables[0])
    assert shown(revision.changed_at) in page
    assert "Received" not in page and "kept on the phone" not in page


def test_a_sheet_kept_longer_than_two_days_is_dated_two_days_back_with_its_date(organiser_client, event, tables):
    send(Client(), table_url(tables[0]), key=FIRST, kept_ms=5 * 24 * 3600 * 1000)
    revision = SheetRevision.objects.get(manche=manche(tables[0]))
    assert revision.changed_at - revision.entered_at == timedelta(days=2)
    page = desk_page(organiser_client, event, tables[0])
    assert f"entered {shown(revision.entered_at)}, kept on the phone" in page


def test_kept_on_phone_starts_at_thirty_seconds():
    received = timezone.now()

    def revision(entered_at):
        return SheetRevision(changed_at=received, entered_at=entered_at)

    assert revision(received - timedelta(seconds=30)).kept_on_phone
    assert not revision(received - timedelta(seconds=29, milliseconds=999)).kept_on_phone
    assert not revision(received).kept_on_phone
    assert not revision(None).kept_on_phone, "revisions stored before the field existed"


# Reading what was posted ------------------------------------------------------------------------------------------


def posted(**values) -> QueryDict:
    query = QueryDict(mutable=True)
    query.update(values)
    return query


@pytest.mark.parametrize("key", ["abcdefgh", "A" * 64, "Az09_-Az09_-", "0123456789abcdef-_"])
def test_a_well_formed_key_is_kept(key):
    assert delivery_from(posted(key=key)).key == key


@pytest.mark.parametrize(
    "key",
    [
        "",
        "abcdefg",
        "A" * 65,
        "has space",
        "dots.in.key",
        "comma,key1",
        "ключ-ключ-ключ",
        "abcdefgh\n",
        "１２３４５６７８",
    ],
)
def test_a_malformed_key_is_ignored(key):
    assert delivery_from(posted(key=key)).key == ""


def test_a_post_without_delivery_fields_is_a_plain_save():
    assert delivery_from(posted(version="0")) == Delivery()
    assert delivery_from(QueryDict()) == Delivery(key="", kept_for=timedelta(0), replaces=frozenset())


@pytest.mark.parametrize(
    ("kept_ms", "kept_for"),
    [
        ("180000", timedelta(minutes=3)),
        ("0", timedelta(0)),
        ("1", timedelta(milliseconds=1)),
        ("172800000", timedelta(days=2)),
        ("172800001", timedelta(days=2)),
        ("999999999", timedelta(days=2)),
        ("1000000000000", timedelta(days=2)),
    ],
)
def test_kept_ms_is_read_in_milliseconds_and_capped_at_two_days(kept_ms, kept_for):
    assert delivery_from(posted(kept_ms=kept_ms)).kept_for == kept_for


@pytest.mark.parametrize("kept_ms", ["-5", "-180000", "12.5", "1e6", "abc", " 100", "100 ", "1_000", "²", "٣", ""])
def test_a_kept_ms_that_is_not_whole_milliseconds_counts_as_not_kept(kept_ms):
    assert delivery_from(posted(kept_ms=kept_ms)).kept_for == timedelta(0)


def test_the_time_entered_is_the_time_received_less_the_time_kept():
    received = timezone.now()
    assert delivery_from(posted(kept_ms="180000")).entered_at(received) == received - timedelta(minutes=3)


def test_replaces_keeps_well_formed_keys_and_drops_the_rest():
    delivery = delivery_from(posted(key=THIRD, replaces=f"{FIRST},,short,has space,{SECOND},{FIRST}"))
    assert delivery.replaces == {FIRST, SECOND}


def test_replaces_reads_at_most_sixteen_keys():
    keys = [f"unanswered-{i:02d}" for i in range(20)]
    delivery = delivery_from(posted(key=THIRD, replaces=",".join(keys)))
    assert delivery.replaces == set(keys[:16])


def test_a_save_never_replaces_itself():
    delivery = delivery_from(posted(key=FIRST, replaces=f"{FIRST},{SECOND}"))
    assert delivery.key == FIRST and delivery.replaces == {SECOND}


def test_replaces_is_read_even_without_a_key_but_a_save_without_one_is_never_recognised():
    delivery = delivery_from(posted(key="bad key", replaces=FIRST))
    assert delivery.key == "" and delivery.replaces == {FIRST}


# Through a player's own link ---------------------------------------------------------------------------------------


def test_through_a_player_link_a_save_sent_twice_is_stored_once_and_a_replacing_one_on_top(tables):
    table = tables[0]
    me = table.seats.get(position=2).player
    url = reverse("tournaments:player_table_save", args=[me.token, table.pk, 1])
    phone = Client()
    first, again = send(phone, url, key=FIRST, kept_ms=60_000), send(phone, url, key=FIRST, kept_ms=90_000)
    assert (first.status_code, again.status_code) == (200, 200) and SAVED in again.content.decode()
    newer = send(phone, url, key=SECOND, replaces=[FIRST], penalties=[0, 0, 0, 0])
    assert newer.status_code == 200
    revisions = list(SheetRevision.objects.filter(manche=manche(table)).order_by("version"))
    assert [(r.version, r.key, r.via, r.player) for r in revisions] == [
        (1, FIRST, "player", me),
        (2, SECOND, "player", me),
    ]
    assert revisions[0].changed_at - revisions[0].entered_at == timedelta(minutes=1), "dated by the first sending"
    assert revisions[0].kept_on_phone and not revisions[1].kept_on_phone


# Both sendings at once --------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_the_same_save_sent_twice_at_once_is_stored_once_and_both_are_answered_saved(tables, monkeypatch):
    real_insert = sql.insert_revision

    def slow_insert(values):  # the first sending holds the table's lock a while: the other one waits for it
        real_insert(values)
        time.sleep(0.3)

    monkeypatch.setattr(sql, "insert_revision", slow_insert)
    url = table_url(tables[0])
    answers: list[tuple[int, bool]] = []
    errors: list[Exception] = []
    barrier = threading.Barrier(2)

    def phone():
        try:
            barrier.wait(timeout=10)
            answer = send(Client(), url, key=FIRST)
            answers.append((answer.status_code, SAVED in answer.content.decode()))
        except Exception as error:  # the test fails below, naming it
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert answers == [(200, True), (200, True)]
    assert manche(tables[0]).version == 1
    assert history(tables[0]) == [(1, FIRST)]


# What the database allows -----------------------------------------------------------------------------------------


def revision(manche_, version, key) -> SheetRevision:
    return SheetRevision.objects.create(manche=manche_, version=version, after={}, via="link", key=key)


def test_the_database_refuses_a_second_revision_with_the_same_key_for_one_manche(tables):
    first = manche(tables[0])
    revision(first, 1, FIRST)
    with pytest.raises(IntegrityError), transaction.atomic():
        revision(first, 2, FIRST)
    assert list(first.revisions.values_list("version", "key")) == [(1, FIRST)]


def test_the_database_allows_many_revisions_without_a_key_and_one_key_on_several_manches(tables):
    first = manche(tables[0])
    for version in (1, 2, 3):
        revision(first, version, "")
    revision(first, 4, FIRST)
    revision(manche(tables[0], 2), 1, FIRST)
    revision(manche(tables[1]), 1, FIRST)
    assert first.revisions.filter(key="").count() == 3
    assert SheetRevision.objects.filter(key=FIRST).count() == 3
