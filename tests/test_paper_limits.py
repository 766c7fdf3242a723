"""Hostile files at the desk's paper page: each page is read in a process of its own, within its time and memory, a
page that cannot be read is a sentence naming the file and page, and the other files of the upload are still read."""

from __future__ import annotations

import io
import time

import pypdfium2
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from tests import hostile_pdfs
from tests.factories import seat_by_hand
from tournaments.models import Event, PaperSheet
from tournaments.models.rounds import RoundStatus
from tournaments.paper.bounded import SLOW, Reader
from tournaments.paper.images import PictureRefused
from tournaments.printouts.sheets import round_with_seats, score_sheets_pdf
from tournaments.services import paper as reading

#: Nested drawings of a shading that take minutes to draw on any machine, in little memory (each level of nesting
#: draws ten times more: seconds for one shading).
DEEP = 2


@pytest.fixture
def cheese(make_event):
    """A Cheese Rescue event of eight, round 1 in play at two tables (printed on one page)."""
    event = make_event("cheese-rescue", players=8)
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    seat_by_hand(event, 1, [ids[:4], ids[4:]], status=RoundStatus.IN_PLAY)
    return event


def printed_sheets(event: Event) -> bytes:
    """The round's score sheets as printed, blank: a PDF whose page the reader reads as both tables' sheets."""
    return score_sheets_pdf(event, round_with_seats(event, 1), lambda table: f"http://testserver/t/{table.token}/")


def blank_photo() -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (1200, 900), 255).save(buffer, "JPEG")
    return buffer.getvalue()


def upload(client, event: Event, files: dict[str, bytes]) -> tuple[list[str], float]:
    """Post ``files`` (name: content) to the round's paper page: the messages shown, and the seconds it took."""
    url = reverse("tournaments:round_paper", args=[event.slug, 1])
    pictures = [SimpleUploadedFile(name, data) for name, data in files.items()]
    began = time.monotonic()
    response = client.post(url, {"pictures": pictures}, follow=True)
    took = time.monotonic() - began
    assert response.status_code == 200
    return [str(message) for message in response.context["messages"]], took


def test_a_page_that_draws_for_minutes_is_ended_at_its_time_and_the_next_file_still_read(
    organiser_client, cheese, monkeypatch
):
    monkeypatch.setattr(reading, "PAGE_SECONDS", 2)
    said, took = upload(organiser_client, cheese, {"drawings.pdf": hostile_pdfs.slow_shading(DEEP), **blank()})
    assert "drawings.pdf, page 1 could not be read: it took longer than 2 seconds." in said
    assert any(message.startswith("No score sheet of this event was found in blank.jpg") for message in said)
    assert took < reading.READING_SECONDS


def test_after_a_page_ended_at_its_time_a_new_process_reads_the_next_page(cheese):
    drawings = pypdfium2.PdfDocument(hostile_pdfs.slow_shading(DEEP))
    drawings.new_page(595, 842)
    buffer = io.BytesIO()
    drawings.save(buffer)
    layouts = reading.Layouts(cheese)
    with Reader(time.monotonic() + 60, page_seconds=2, memory_bytes=reading.PAGE_MEMORY_BYTES) as reader:
        pages = list(reader.pages(buffer.getvalue(), layouts.answer))
    assert [(page.number, page.failure) for page in pages] == [(1, SLOW), (2, None)]


def test_an_upload_whose_time_runs_out_inside_a_page_answers_and_names_what_was_not_read(
    organiser_client, cheese, monkeypatch
):
    monkeypatch.setattr(reading, "READING_SECONDS", 3)
    files = {"drawings.pdf": hostile_pdfs.slow_shading(DEEP), **blank()}
    said, took = upload(organiser_client, cheese, files)
    assert "drawings.pdf was not read: there was no time left. Add it again." in said
    assert "blank.jpg was not read: there was no time left. Add it again." in said
    assert took < reading.READING_SECONDS + reading.PAGE_SECONDS


def test_a_pdf_whose_page_tree_loops_is_told_and_the_sheets_beside_it_read(organiser_client, cheese):
    files = {"loop.pdf": hostile_pdfs.looping_page_tree(), "sheets.pdf": printed_sheets(cheese)}
    said, _took = upload(organiser_client, cheese, files)
    assert "loop.pdf, page 1 could not be read: it is damaged, or drawn in a way this page cannot read." in said
    assert "2 sheets read (tables 1, 2): check them below, then save each." in said
    assert sorted(PaperSheet.objects.values_list("source", flat=True)) == ["sheets.pdf, page 1"] * 2


@pytest.mark.parametrize(("width", "height"), [(14400, 1), (1, 14400), (0, 0)])
def test_a_page_of_no_width_or_no_height_is_told_and_the_next_file_still_read(organiser_client, cheese, width, height):
    files = {"thin.pdf": hostile_pdfs.page_of(width, height), **blank()}
    said, _took = upload(organiser_client, cheese, files)
    about_thin = [message for message in said if "thin.pdf" in message]
    assert about_thin in (
        ["thin.pdf, page 1 could not be read: it is damaged, or drawn in a way this page cannot read."],
        [reading.nothing_found("thin.pdf", reading.Layouts(cheese))],
    )
    assert any(message.startswith("No score sheet of this event was found in blank.jpg") for message in said)
    assert not PaperSheet.objects.exists()


def test_a_page_that_needs_more_memory_than_it_may_take_is_told(organiser_client, cheese, monkeypatch):
    monkeypatch.setattr(reading, "PAGE_MEMORY_BYTES", 64 * 2**20)
    buffer = io.BytesIO()
    Image.new("L", (7000, 5000), 255).save(buffer, "PNG")
    said, _took = upload(organiser_client, cheese, {"large.png": buffer.getvalue(), **blank()})
    assert "large.png could not be read: it needs more memory than a page may take." in said
    assert any(message.startswith("No score sheet of this event was found in blank.jpg") for message in said)


def test_a_sheet_of_another_event_does_not_name_that_event(organiser_client, cheese, make_event):
    Event.objects.filter(pk=cheese.pk).update(name="Private Winter Gala")
    other = make_event("cheese-rescue", players=4, slug="another-night")
    seat_by_hand(other, 1, [list(other.players.values_list("pk", flat=True))], status=RoundStatus.IN_PLAY)
    said, _took = upload(organiser_client, other, {"sheets.pdf": printed_sheets(cheese)})
    assert said == ["sheets.pdf is a sheet of another event: nothing was read."]
    assert not PaperSheet.objects.exists()


def test_a_file_at_hand_whose_page_tree_loops_is_refused_with_a_sentence(cheese):
    with pytest.raises(PictureRefused) as refused:
        reading.read_file(hostile_pdfs.looping_page_tree(), "loop.pdf", reading.Layouts(cheese))
    assert refused.value.message.startswith("loop.pdf, page 1 could not be read")


def blank() -> dict[str, bytes]:
    return {"blank.jpg": blank_photo()}
