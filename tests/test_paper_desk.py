"""The desk's paper page: what it refuses, and how a checked sheet is saved as the organiser's entry from paper."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from tests.factories import enter, seat_by_hand
from tests.paper_sheets import layout_of, stored_sheet
from tournaments.models import PaperSheet, SheetRevision
from tournaments.models.rounds import RoundStatus
from tournaments.models.sheets import Via
from tournaments.paper import images
from tournaments.services import paper as reading
from tournaments.services.backup import export_event_json, import_event
from tournaments.services.paper_form import crop


def jpeg_bytes(width=60, height=40, colour=255) -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (width, height), colour).save(buffer, "JPEG")
    return buffer.getvalue()


@pytest.fixture
def cheese(make_event):
    """A Cheese Rescue event, round 1 started, one table of four."""
    event = make_event("cheese-rescue", players=4)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY)
    return event, round_.tables.get()


def waiting_sheet(table, ticks=((0, 1, 5), (0,), (), (3, 4))) -> PaperSheet:
    """A sheet as the reader stores it: each player's six cheese ticks, some marked, one player's unsure."""
    fields = []
    for seat, marked in enumerate(ticks):
        boxes = [
            {"at": [10.0 + 20 * i, 10.0 + 30 * seat, 14.0, 14.0], "value": v, "label": f"{v}", "marked": i in marked}
            for i, v in enumerate(("1", "1", "1", "2", "2", "3"))
        ]
        values = [box["value"] for box in boxes if box["marked"]]
        fields.append(
            {
                "name": f"tallies[{seat}].cheeses",
                "path": f"tallies[{seat}].cheeses",
                "manche": None,
                "seat": seat,
                "label": "Cheeses left",
                "kind": "choice",
                "value": values,
                "unsure": seat == 2,
                "boxes": boxes,
            }
        )
    return PaperSheet.objects.create(
        table=table,
        picture=jpeg_bytes(200, 160),
        width=200,
        height=160,
        fields=fields,
        source="IMG_1.jpg",
        versions={"1": table.manches.get(number=1).version},
    )


def page_url(event, number=1):
    return reverse("tournaments:round_paper", args=[event.slug, number])


def upload(client, event, *files):
    return client.post(page_url(event), {"pictures": list(files)}, follow=True)


def shown_messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_page_shows_the_waiting_sheet_with_its_fields_and_unsure_ones_marked(organiser_client, cheese):
    event, table = cheese
    paper = waiting_sheet(table)
    response = organiser_client.get(page_url(event))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Table 1 · round 1" in html
    assert html.count('class="paper-field unsure paper-ticks"') == 1
    assert html.count('type="checkbox" name="tallies[0].cheeses"') == 6
    assert reverse("tournaments:paper_picture", args=[event.slug, paper.pk]) in html
    picture = organiser_client.get(reverse("tournaments:paper_picture", args=[event.slug, paper.pk]))
    assert picture["Content-Type"] == "image/jpeg" and bytes(picture.content)[:2] == b"\xff\xd8"


def test_a_checked_sheet_is_saved_as_from_paper_with_its_picture(organiser_client, cheese):
    event, table = cheese
    paper = waiting_sheet(table)
    posted = {"manche": "1", "tallies[0].cheeses": ["1", "1", "3"], "tallies[1].cheeses": ["1"]}
    posted["tallies[3].cheeses"] = ["2", "2"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = organiser_client.post(reverse("tournaments:paper_save", args=[event.slug, paper.pk]), posted)
    assert response.status_code == 302
    manche = table.manches.get(number=1)
    assert manche.entered_via == Via.PAPER
    assert manche.document["tallies"][0] == {"cheese_points": 5, "cheese_cards": 3}
    assert manche.document["tallies"][2] == {"cheese_points": 0, "cheese_cards": 0}
    revision = SheetRevision.objects.get(manche=manche)
    assert revision.via == Via.PAPER and bytes(revision.paper) == bytes(paper.picture)
    assert not PaperSheet.objects.filter(pk=paper.pk).exists()
    desk = organiser_client.get(reverse("tournaments:desk_table", args=[event.slug, table.pk])).content.decode()
    picture_url = reverse("tournaments:revision_paper", args=[event.slug, revision.pk])
    assert picture_url in desk
    assert organiser_client.get(picture_url).content == bytes(paper.picture)
    first = event.standings.order_by("rank").select_related("player").first()
    assert first.player.name == table.seats.get(position=1).player.name


def vegetables_sheet(make_event) -> tuple:
    """A VEGEtables event of one manche a round, round 1 in play, and a sheet read of its one table: each player's
    pozzo and crosses, the bonus and penalty boxes left blank."""
    event = make_event("vegetables", players=4, manches_per_round=1)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()
    fields = []
    for seat, (pozzo, crosses) in enumerate(((30, 6), (20, 4), (10, 3), (0, 3))):
        for name, kind, value in (
            ("pozzo", "number", pozzo),
            ("sequences", "count", crosses),
            ("family_bonuses", "number", None),
            ("penalties", "number", None),
        ):
            path = f"manches[0].{name}[{seat}]"
            fields.append(
                {"name": f"1:{path}", "path": path, "manche": 1, "seat": seat, "label": name, "kind": kind}
                | {
                    "value": value,
                    "unsure": False,
                    "boxes": [{"at": [1.0, 1.0, 10.0, 10.0], "value": "", "label": name}],
                }
            )
    paper = PaperSheet.objects.create(table=table, picture=jpeg_bytes(), width=60, height=40, fields=fields)
    return event, table, paper


def test_a_sheet_the_rules_refuse_comes_back_with_what_was_typed_and_the_rule(organiser_client, make_event):
    event, table, paper = vegetables_sheet(make_event)
    posted = {f"1:manches[0].pozzo[{p}]": str(v) for p, v in enumerate((30, 30, 10, 0))}
    posted |= {f"1:manches[0].sequences[{p}]": str(v) for p, v in enumerate((6, 4, 3, 2))}
    response = organiser_client.post(reverse("tournaments:paper_save", args=[event.slug, paper.pk]), posted)
    assert response.status_code == 400
    html = response.content.decode()
    assert html.count('name="1:manches[0].pozzo[1]" value="30"') == 1
    assert html.count('name="1:manches[0].sequences[3]" value="2"') == 1
    assert "16" in html and 'class="paper-field invalid"' in html
    assert table.manches.get(number=1).document is None
    assert PaperSheet.objects.filter(pk=paper.pk).exists()


def test_a_read_vegetables_sheet_saves_its_manche(organiser_client, make_event):
    event, table, paper = vegetables_sheet(make_event)
    posted = {f"1:manches[0].pozzo[{p}]": str(v) for p, v in enumerate((30, 20, 10, 0))}
    posted |= {f"1:manches[0].sequences[{p}]": str(v) for p, v in enumerate((6, 4, 3, 3))}
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = organiser_client.post(reverse("tournaments:paper_save", args=[event.slug, paper.pk]), posted)
    assert response.status_code == 302
    manche = table.manches.get(number=1)
    assert manche.result["players"][0]["score"] == 90 and manche.entered_via == Via.PAPER


def test_a_number_box_that_holds_no_number_names_the_field_and_keeps_what_was_typed(organiser_client, make_event):
    event, _table, paper = vegetables_sheet(make_event)
    response = organiser_client.post(
        reverse("tournaments:paper_save", args=[event.slug, paper.pk]), {"1:manches[0].pozzo[0]": "3O"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'name="1:manches[0].pozzo[0]" value="3O"' in html
    assert "Write a whole number, or leave the box empty." in html


def test_a_sheet_saved_by_a_phone_after_it_was_read_is_not_overwritten(organiser_client, cheese):
    event, table = cheese
    paper = waiting_sheet(table)
    enter(table, {"tallies": [{"cheese_points": 3, "cheese_cards": 1}] * 4}, via=Via.LINK)
    posted = {"manche": "1", "tallies[0].cheeses": ["1"]}
    response = organiser_client.post(reverse("tournaments:paper_save", args=[event.slug, paper.pk]), posted)
    assert response.status_code == 400
    assert "nothing was overwritten" in response.content.decode()
    assert table.manches.get(number=1).document["tallies"][0]["cheese_points"] == 3


def test_discard_deletes_the_waiting_sheet(organiser_client, cheese):
    event, table = cheese
    paper = waiting_sheet(table)
    response = organiser_client.post(reverse("tournaments:paper_discard", args=[event.slug, paper.pk]), follow=True)
    assert not PaperSheet.objects.exists()
    assert "was discarded" in " ".join(shown_messages(response))


def test_another_events_organiser_page_does_not_show_or_save_it(organiser_client, cheese, make_event):
    event, table = cheese
    other = make_event("cheese-rescue", players=4)
    paper = waiting_sheet(table)
    assert organiser_client.get(reverse("tournaments:paper_picture", args=[other.slug, paper.pk])).status_code == 404
    assert organiser_client.post(reverse("tournaments:paper_save", args=[other.slug, paper.pk])).status_code == 404


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("notes.txt", b"just some text", "is neither a picture nor a PDF"),
        ("blank.jpg", jpeg_bytes(1200, 900), "No score sheet of this event was found in blank.jpg"),
        ("broken.pdf", b"%PDF-1.4 garbage", "is not a PDF this page can read"),
    ],
)
def test_files_that_hold_no_sheet_are_refused_clearly(organiser_client, cheese, name, data, says):
    event, _table = cheese
    response = upload(organiser_client, event, SimpleUploadedFile(name, data))
    assert response.status_code == 200
    assert any(says in message for message in shown_messages(response))
    assert not PaperSheet.objects.exists()


def test_a_picture_of_too_many_pixels_is_refused_before_it_is_decoded(organiser_client, cheese):
    event, _table = cheese
    buffer = io.BytesIO()
    Image.new("1", (8000, 6000), 1).save(buffer, "PNG")
    assert len(buffer.getvalue()) < 1_000_000
    response = upload(organiser_client, event, SimpleUploadedFile("bomb.png", buffer.getvalue()))
    assert any("more than 40 megapixels" in message for message in shown_messages(response))
    assert not PaperSheet.objects.exists()


def test_a_file_over_the_size_limit_is_refused(organiser_client, cheese, settings):
    event, _table = cheese
    heavy = b"\xff\xd8" + b"\0" * (images.MAX_BYTES + 1)
    response = upload(organiser_client, event, SimpleUploadedFile("huge.jpg", heavy))
    assert any("is larger than 20 MB" in message for message in shown_messages(response))


def test_a_pdf_of_too_many_pages_is_refused(organiser_client, cheese):
    event, _table = cheese
    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    for _page in range(images.MAX_PAGES + 1):
        canvas.showPage()
    canvas.save()
    response = upload(organiser_client, event, SimpleUploadedFile("scans.pdf", buffer.getvalue()))
    assert any("has 101 pages; at most 100" in message for message in shown_messages(response))


def test_an_upload_without_files_says_what_to_do(organiser_client, cheese):
    event, _table = cheese
    response = organiser_client.post(page_url(event), {}, follow=True)
    assert any("at least one picture" in message for message in shown_messages(response))


def test_the_paper_copy_travels_in_the_backup(organiser_client, cheese):
    event, table = cheese
    paper = waiting_sheet(table)
    with TestCase.captureOnCommitCallbacks(execute=True):
        organiser_client.post(
            reverse("tournaments:paper_save", args=[event.slug, paper.pk]), {"manche": "1", "tallies[0].cheeses": ["3"]}
        )
    document = json.loads(export_event_json(event))
    assert document["revisions"][0]["paper"]
    event.delete()
    imported = import_event(document)
    revision = SheetRevision.objects.get(manche__table__round__event=imported)
    assert bytes(revision.paper) == bytes(paper.picture)


def test_fields_the_rules_object_to_are_marked_for_checking_before_saving(make_event):
    event, table, paper = vegetables_sheet(make_event)
    fields = paper.fields
    for item in fields:
        if item["path"] == "manches[0].pozzo[1]":
            item["value"] = 30
    names = [seat.player.name for seat in table.seats.order_by("position")]
    doubted = reading.doubted_by_the_rules(fields, event, names, 1)
    unsure = {item["path"] for item in doubted if item["unsure"]}
    assert "manches[0].pozzo[0]" in unsure or "manches[0].pozzo[1]" in unsure
    assert not any(item["unsure"] for item in doubted if item["path"].startswith("manches[0].sequences"))


def test_the_page_asks_the_database_as_often_for_three_waiting_sheets_as_for_one(
    organiser_client, make_event, django_assert_max_num_queries
):
    event = make_event("cheese-rescue", players=12)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    tables = list(seat_by_hand(event, 1, [ids[:4], ids[4:8], ids[8:]], status=RoundStatus.IN_PLAY).tables.all())
    waiting_sheet(tables[0])
    with CaptureQueriesContext(connection) as one:
        assert organiser_client.get(page_url(event)).status_code == 200
    for table in tables[1:]:
        waiting_sheet(table)
    with django_assert_max_num_queries(len(one.captured_queries)):
        html = organiser_client.get(page_url(event)).content.decode()
    assert html.count('class="paper-sheet"') == 1 and "2 more sheets waiting" in html
    assert html.count("?sheet=") == 2


def test_a_rule_about_one_declared_good_is_shown_at_that_players_ticks(make_event):
    event = make_event("veggies", players=4)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()
    fields = [
        {"name": "stands[0].declared", "path": "stands[0].declared", "manche": None, "seat": 0, "kind": "choice"},
        {"name": "stands[0].goods.grapes.largest", "path": "stands[0].goods.grapes.largest", "manche": None, "seat": 0},
    ]
    paper = PaperSheet(table=table, fields=fields)
    problems = [type("Problem", (), {"path": "stands[0].declared[0]", "message": "m", "render": lambda *a: "m"})()]
    assert reading.placed_errors(paper, 1, problems) == {"stands[0].declared": ["m"]}


def vegetables_table(make_event, manches: int = 1):
    """A VEGEtables event of ``manches`` manches a round, round 1 in play at one table of four."""
    event = make_event("vegetables", players=4, manches_per_round=manches)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    return event, seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()


def page_in(organiser_client, event, language: str) -> str:
    return organiser_client.get(page_url(event), headers={"accept-language": language}).content.decode()


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "16 boxes could not be read for sure"),
        ("es", "16 casillas no se han podido leer con seguridad"),
        ("it", "16 caselle non sono state lette con certezza"),
    ],
)
def test_the_boxes_to_check_are_counted_in_boxes_not_fields(organiser_client, make_event, language, says):
    event, table = vegetables_table(make_event)
    stored_sheet(table, unsure=["1:manches[0].sequences[2]"])
    assert says in page_in(organiser_client, event, language)


def test_a_field_the_rules_doubt_counts_every_box_and_one_unsure_box_counts_one(organiser_client, make_event):
    event, table = vegetables_table(make_event)
    paper = stored_sheet(table)
    fields = paper.fields
    crosses = next(item for item in fields if item["name"] == "1:manches[0].sequences[0]")
    crosses["unsure"] = crosses["boxes"][5]["unsure"] = True
    paper.fields = fields
    paper.save()
    assert "One box could not be read for sure" in page_in(organiser_client, event, "en")
    crosses["doubted"] = True
    paper.save()
    assert "16 boxes could not be read for sure" in page_in(organiser_client, event, "en")


def test_a_picture_too_small_to_hold_a_sheet_says_so_and_names_it(organiser_client, cheese):
    event, _table = cheese
    response = upload(organiser_client, event, SimpleUploadedFile("IMG_7.jpg", jpeg_bytes(640, 480, colour=200)))
    assert "The picture IMG_7.jpg is too small (640 × 480): photograph closer." in shown_messages(response)
    assert not PaperSheet.objects.exists()


def test_a_crosses_grid_is_shown_large_enough_to_count_its_crosses(make_event):
    event, table = vegetables_table(make_event, manches=4)
    paper = stored_sheet(table)
    crosses = next(item for item in paper.fields if item["name"] == "1:manches[0].sequences[0]")
    columns = len({box["at"][0] for box in crosses["boxes"]})
    rows = len({box["at"][1] for box in crosses["boxes"]})
    assert columns * rows == 16
    shown = crop([box["at"] for box in crosses["boxes"]], paper)
    assert shown["width"] / columns >= 20 and shown["height"] / rows >= 20


def input_order(html: str) -> list[str]:
    """The names of the sheet's inputs in the page's order (the form's token and manche left out)."""
    form = re.search(r'<form [^>]*class="paper-form">.*?</form>', html, re.S).group(0)
    names = re.findall(r'<(?:input|select) [^>]*\bname="([^"]+)"', form)
    return [name for name in names if name not in ("csrfmiddlewaretoken", "manche")]


def printed_order(table) -> list[str]:
    """The fields of ``table``'s printed sheet in the order its boxes are printed: a number's or count's boxes are one
    input, a choice's each box one."""
    order: list[str] = []
    for box in layout_of(table).boxes:
        if box.value or not order or order[-1] != box.field:
            order.append(box.field)
    return order


@pytest.mark.parametrize(("game", "manches"), [("vegetables", 2), ("veggies", 1), ("snack-match", 1)])
def test_the_fields_are_shown_in_the_order_they_are_printed(organiser_client, make_event, game, manches):
    event = make_event(game, players=4, manches_per_round=manches)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    table = seat_by_hand(event, 1, [ids], status=RoundStatus.IN_PLAY).tables.get()
    stored_sheet(table)
    order = input_order(page_in(organiser_client, event, "en"))
    assert order == printed_order(table)


def test_a_refused_save_sums_up_its_errors_above_the_form_and_focuses_the_first(organiser_client, make_event):
    event, table, paper = vegetables_sheet(make_event)
    posted = {f"1:manches[0].pozzo[{p}]": str(v) for p, v in enumerate((30, 20, 10, 0))}
    posted |= {f"1:manches[0].sequences[{p}]": str(v) for p, v in enumerate((6, 4, 3, 2))}
    response = organiser_client.post(reverse("tournaments:paper_save", args=[event.slug, paper.pk]), posted)
    assert response.status_code == 400
    html = response.content.decode()
    summary = re.search(r'<div class="notice warning paper-problems"[^>]*role="alert".*?</div>', html, re.S).group(0)
    links = re.findall(r'<a href="#([^"]+)">', summary)
    assert len(links) == 1 and "16" in summary
    assert html.index("paper-problems") < html.index('class="paper-line"')
    focused = re.findall(r'<input id="([^"]+)"[^>]*\bautofocus', html)
    assert focused == [links[0]]
    assert 'name="1:manches[0].sequences[0]"' in re.search(rf'<input id="{links[0]}"[^>]*>', html).group(0)
