"""Recording a sheet: scored, versioned, audited; a stale or wrong sheet is refused and nothing is lost."""

import json
import threading

import pytest
from django.db import connection

import scoring
from tests.factories import cheese_tallies, enter, seat_by_hand
from tournaments.models import Manche, SheetRevision
from tournaments.models.rounds import TableStatus
from tournaments.services.sheets import MAX_DOCUMENT_BYTES, Author, StaleSheet, record_sheet


@pytest.fixture
def table(make_event):
    event = make_event("cheese-rescue", players=3, table_size=3)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return seat_by_hand(event, 1, [ids]).tables.get()


def sheet_for(table, points):
    names = [s.player.name for s in table.seats.order_by("position")]
    return {"game": "cheese-rescue", "players": names, **cheese_tallies(points)}


@pytest.mark.django_db
def test_a_sheet_is_scored_versioned_and_audited(table):
    manche = enter(table, cheese_tallies([6, 3, 1]))
    assert manche.version == 1
    assert [p["score"] for p in manche.result["players"]] == [6, 3, 1]
    seats = list(table.seats.order_by("position"))
    assert [s.rank for s in seats] == [1, 2, 3]
    assert [s.placement_points for s in seats] == [4, 2, 1]
    table.refresh_from_db()
    assert table.status == TableStatus.ENTERED
    manche = record_sheet(manche, sheet_for(table, [1, 3, 6]), based_on=1, author=Author(via="link", seat=2))
    revisions = list(manche.revisions.order_by("version"))
    assert [r.version for r in revisions] == [1, 2]
    assert revisions[1].before["tallies"][0]["cheese_points"] == 6
    assert revisions[1].after["tallies"][0]["cheese_points"] == 1
    assert revisions[1].via == "link" and revisions[1].seat == 2


@pytest.mark.django_db
def test_a_stale_save_is_refused_and_shows_the_other_change(table):
    manche = enter(table, cheese_tallies([6, 3, 1]))
    with pytest.raises(StaleSheet) as stale:
        record_sheet(manche, sheet_for(table, [2, 2, 2]), based_on=0, author=Author(via="link"))
    assert stale.value.current.version == 1
    assert stale.value.current.document["tallies"][0]["cheese_points"] == 6
    manche.refresh_from_db()
    assert manche.version == 1 and SheetRevision.objects.count() == 1


@pytest.mark.django_db
def test_a_sheet_the_rules_refuse_changes_nothing(table):
    manche = table.manches.get()
    bad = sheet_for(table, [6, 3, 1])
    bad["tallies"][0]["cheese_points"] = 11
    with pytest.raises(scoring.ScoreSheetError) as error:
        record_sheet(manche, bad, based_on=0, author=Author(via="link"))
    assert error.value.errors[0]["path"].startswith("tallies[0]")
    manche.refresh_from_db()
    assert manche.version == 0 and manche.document is None


@pytest.mark.django_db
def test_a_sheet_for_other_players_is_refused(table):
    manche = table.manches.get()
    wrong = sheet_for(table, [6, 3, 1])
    wrong["players"] = list(reversed(wrong["players"]))
    with pytest.raises(scoring.ScoreSheetError) as error:
        record_sheet(manche, wrong, based_on=0, author=Author(via="link"))
    assert error.value.errors[0]["path"] == "players"


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_two_concurrent_writers_on_the_same_version_never_overwrite_each_other(table):
    manche = table.manches.get()
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def write(points):
        try:
            barrier.wait(timeout=10)
            record_sheet(Manche.objects.get(pk=manche.pk), sheet_for(table, points), based_on=0, author=Author("link"))
            outcomes.append("saved")
        except StaleSheet:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(p,)) for p in ([6, 3, 1], [1, 3, 6])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["saved", "stale"]
    manche.refresh_from_db()
    assert manche.version == 1
    revision = SheetRevision.objects.get(manche=manche)
    assert revision.after == manche.document


@pytest.mark.django_db
def test_keys_the_rules_do_not_read_are_not_stored(table):
    manche = table.manches.get()
    sheet = sheet_for(table, [6, 3, 1])
    padded = {**sheet, "note": "x" * 1000, "tallies": [{**t, "colour": "blue"} for t in sheet["tallies"]]}
    manche = record_sheet(manche, padded, based_on=0, author=Author(via="api"))
    assert manche.document == sheet
    assert manche.revisions.get().after == sheet
    assert [p["score"] for p in manche.result["players"]] == [6, 3, 1]


def padded_to(document: dict, size: int) -> dict:
    """``document`` with a note that makes its compact JSON exactly ``size`` bytes of UTF-8."""
    padded = {**document, "note": ""}
    missing = size - len(json.dumps(padded, ensure_ascii=False, separators=(",", ":")).encode())
    return {**document, "note": "é" * (missing // 2) + "x" * (missing % 2)}


@pytest.mark.django_db
def test_a_sheet_over_16_kb_is_refused_and_changes_nothing(table):
    manche = table.manches.get()
    sheet = sheet_for(table, [6, 3, 1])
    assert MAX_DOCUMENT_BYTES == 16 * 1024
    with pytest.raises(scoring.ScoreSheetError) as refused:
        record_sheet(manche, padded_to(sheet, MAX_DOCUMENT_BYTES + 1), based_on=0, author=Author(via="api"))
    assert [e["path"] for e in refused.value.errors] == ["document"]
    assert "16 kB" in refused.value.errors[0]["message"]
    manche.refresh_from_db()
    assert manche.version == 0 and manche.document is None and not SheetRevision.objects.exists()
    manche = record_sheet(manche, padded_to(sheet, MAX_DOCUMENT_BYTES), based_on=0, author=Author(via="api"))
    assert manche.version == 1 and manche.document == sheet


@pytest.mark.django_db
@pytest.mark.parametrize(
    "value", [float("nan"), float("inf"), "nul \x00 inside", "lone \ud800 surrogate", {1, 2}], ids=repr
)
def test_a_value_json_cannot_store_is_refused(table, value):
    manche = table.manches.get()
    sheet = sheet_for(table, [6, 3, 1])
    sheet["tallies"][0]["cheese_points"] = value
    with pytest.raises(scoring.ScoreSheetError) as refused:
        record_sheet(manche, sheet, based_on=0, author=Author(via="api"))
    assert [e["path"] for e in refused.value.errors] == ["document"]
    assert Manche.objects.get(pk=manche.pk).version == 0


@pytest.mark.django_db
@pytest.mark.parametrize("document", [None, [], "sheet", 3, True])
def test_a_sheet_that_is_not_an_object_is_refused_by_the_rules(table, document):
    manche = table.manches.get()
    with pytest.raises(scoring.ScoreSheetError) as refused:
        record_sheet(manche, document, based_on=0, author=Author(via="api"))
    assert [e["path"] for e in refused.value.errors] == [""]
