"""`manage.py read_sheets` on a photo of printed sheets, and a sheet of another event refused at the desk."""

from __future__ import annotations

import json
from io import StringIO

import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import seat_by_hand
from tests.paper_photos import fill, page_picture, phone_photo, random_values
from tournaments.models import PaperSheet
from tournaments.models.rounds import RoundStatus
from tournaments.printouts.sheets import round_with_seats, score_sheets_pdf, sheet_layouts

DPI = 150
TICKS = {1: [["1", "1", "3"], ["1"], [], ["2", "2"]], 2: [["3"], ["1", "2"], ["1", "1", "1", "2", "2", "3"], []]}


@pytest.fixture
def cheese(make_event):
    """A Cheese Rescue event of eight, round 1 in play at two tables."""
    event = make_event("cheese-rescue", players=8)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY)
    return event


def photo_of(event, tmp_path, seed=3) -> str:
    """The round's sheets printed, ticked as ``TICKS`` says, photographed."""
    round_ = round_with_seats(event, 1)
    link = lambda table: f"http://192.0.2.2:8000/t/{table.token}/"  # noqa: E731
    pdf = score_sheets_pdf(event, round_, link)
    layouts = sheet_layouts(event, round_, link)
    values = {n: {f"tallies[{p}].cheeses": ticked for p, ticked in enumerate(rows)} for n, rows in TICKS.items()}
    rng = np.random.default_rng(seed)
    picture = fill(page_picture(pdf, 0, DPI), DPI, layouts, values, rng)
    path = tmp_path / "sheets.jpg"
    path.write_bytes(phone_photo(picture, rng).jpeg)
    return str(path)


def test_read_sheets_prints_a_line_per_sheet_with_the_document_read(cheese, tmp_path):
    out = StringIO()
    call_command("read_sheets", photo_of(cheese, tmp_path), stdout=out)
    lines = sorted((json.loads(line) for line in out.getvalue().splitlines()), key=lambda line: line["table_number"])
    assert [line["table_number"] for line in lines] == [1, 2]
    tables = {table.number: table for table in round_with_seats(cheese, 1).tables.all()}
    for line in lines:
        assert line["table"] == tables[line["table_number"]].token
        unsure = [name for name in line["unsure"] if name.startswith("tallies")]
        assert (line["round"], line["manche"], line["corner_marks"], unsure) == (1, 1, 4, [])
        expected = [
            {"cheese_points": sum(map(int, ticked)), "cheese_cards": len(ticked)}
            for ticked in TICKS[line["table_number"]]
        ]
        assert line["document"]["tallies"] == expected
        assert line["document"]["game"] == "cheese-rescue" and len(line["document"]["players"]) == 4
    assert not PaperSheet.objects.exists()


def test_read_sheets_names_a_file_it_cannot_read(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a picture")
    with pytest.raises(CommandError, match="neither a picture nor a PDF"):
        call_command("read_sheets", str(text))
    with pytest.raises(CommandError, match="no such file"):
        call_command("read_sheets", str(tmp_path / "missing.jpg"))


def test_a_sheet_of_another_event_is_refused_and_nothing_stored(cheese, make_event, organiser_client, tmp_path):
    other = make_event("cheese-rescue", players=4, slug="another-night")
    photo = photo_of(cheese, tmp_path)
    url = reverse("tournaments:round_paper", args=[other.slug, 1])
    ids = list(other.players.values_list("pk", flat=True))
    seat_by_hand(other, 1, [ids], status=RoundStatus.IN_PLAY)
    with open(photo, "rb") as handle:
        response = organiser_client.post(
            url, {"pictures": SimpleUploadedFile("sheets.jpg", handle.read())}, follow=True
        )
    said = " ".join(str(message) for message in response.context["messages"])
    assert "sheets.jpg is a sheet of another event: nothing was read." in said
    assert not PaperSheet.objects.exists()


def test_the_desk_reads_a_photo_into_sheets_waiting_to_be_checked(cheese, organiser_client, tmp_path):
    url = reverse("tournaments:round_paper", args=[cheese.slug, 1])
    with open(photo_of(cheese, tmp_path, seed=5), "rb") as handle:
        response = organiser_client.post(url, {"pictures": SimpleUploadedFile("IMG_1.jpg", handle.read())}, follow=True)
    said = " ".join(str(message) for message in response.context["messages"])
    assert "2 sheets read (tables 1, 2)" in said
    waiting = {paper.table.number: paper for paper in PaperSheet.objects.select_related("table")}
    assert sorted(waiting) == [1, 2]
    for number, paper in waiting.items():
        values = {item["path"]: item["value"] for item in paper.fields if item["path"].startswith("tallies")}
        assert values == {f"tallies[{p}].cheeses": ticked for p, ticked in enumerate(TICKS[number])}
        assert paper.picture[:2] == b"\xff\xd8" and len(paper.picture) < 400_000
        assert paper.source == "IMG_1.jpg"


def test_the_waiting_sheet_speaks_the_language_of_the_page(cheese, organiser_client, tmp_path):
    url = reverse("tournaments:round_paper", args=[cheese.slug, 1])
    with open(photo_of(cheese, tmp_path, seed=6), "rb") as handle:
        organiser_client.post(url, {"pictures": SimpleUploadedFile("IMG_2.jpg", handle.read())})
    stored = PaperSheet.objects.first().fields[0]["boxes"][0]["label"]
    laid = sheet_layouts(cheese, round_with_seats(cheese, 1), lambda table: table.token, language="it")
    italian = next(box.label for box in laid[0].boxes if box.field == "tallies[0].cheeses")
    assert italian != stored
    page = organiser_client.get(url, headers={"accept-language": "it"}).content.decode()
    shown = italian.split(" · ")[1]
    assert shown in page and stored.split(" · ")[1] not in page
    assert "Leggi i fogli cartacei" in page


@pytest.fixture
def veggies(make_event):
    """A Veggies event of eight, round 1 in play at two tables: both sheets on the first printed page."""
    event = make_event("veggies", players=8)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY)
    return event


def first_page_photo(event, covered: int | None = None, top_half: bool = False, seed: int = 8) -> bytes:
    """The round's first printed page filled in and photographed: table ``covered``'s QR code under a white card, or
    only the page's top half (its first sheet) in the picture."""
    round_ = round_with_seats(event, 1)
    link = lambda table: f"http://192.0.2.2:8000/t/{table.token}/"  # noqa: E731
    layouts = [layout for layout in sheet_layouts(event, round_, link) if layout.page == 0]
    rng = np.random.default_rng(seed)
    picture = fill(
        page_picture(score_sheets_pdf(event, round_, link), 0, DPI), DPI, layouts, random_values(layouts, rng), rng
    )
    scale = DPI / 72
    page_top = picture.shape[0] / scale
    for layout in layouts:
        if layout.table == covered:
            qr = layout.qr
            top, left = round((page_top - qr.y - qr.side) * scale), round(qr.x * scale)
            picture[top - 10 : top + round(qr.side * scale) + 10, left - 10 : left + round(qr.side * scale) + 10] = 255
    if top_half:
        picture = picture[: picture.shape[0] // 2]
    return phone_photo(picture, rng).jpeg


def read_at_the_desk(client, event, photo: bytes, name: str) -> str:
    url = reverse("tournaments:round_paper", args=[event.slug, 1])
    response = client.post(url, {"pictures": SimpleUploadedFile(name, photo)}, follow=True)
    return " ".join(str(message) for message in response.context["messages"])


def test_a_sheet_whose_qr_code_is_covered_is_named_beside_the_one_read(veggies, organiser_client):
    said = read_at_the_desk(organiser_client, veggies, first_page_photo(veggies, covered=1), "IMG_3.jpg")
    assert "Table 1's QR code was not found on this page (IMG_3.jpg): photograph it again." in said
    assert "1 sheet read (table 2)" in said
    assert [paper.table.number for paper in PaperSheet.objects.select_related("table")] == [2]


def test_a_photo_of_one_sheet_of_a_page_says_nothing_of_the_other(veggies, organiser_client):
    said = read_at_the_desk(organiser_client, veggies, first_page_photo(veggies, top_half=True), "IMG_4.jpg")
    assert "1 sheet read (table 1)" in said
    assert "QR code was not found" not in said
