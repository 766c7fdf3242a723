"""Printouts: score sheets with QR codes, seating and standings as PDF, read back as a person would."""

from __future__ import annotations

import io
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import zxingcpp
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from tests.factories import cheese_tallies, enter, seat_by_hand
from tests.test_qr import TOKEN_CHARS, zbar
from tournaments.collation import sort_key
from tournaments.models import Standing, Team
from tournaments.printing.fonts import LEADING, fit, register_fonts, text_width

pytestmark = pytest.mark.django_db

ARTEFACTS = Path(__file__).resolve().parent.parent / "test-output" / "printing"
NAMES = [
    "Łucja Wróbel",
    "José Núñez",
    "Jürgen Müller",
    "Chiara Bianchi",
    "Søren Ærø",
    "Íñigo Peña",
    "Zoë Brzęczyszczykiewicz",
    "Małgorzata Łukasiewicz",
]
DIET = [
    {"kind": "snack", "component": "donut", "modifier": "corners"},
    {"kind": "cloth", "component": "green", "modifier": "most"},
]


def named_event(make_event, game: str, players: int = 8, **fields):
    """An event whose players have the accented names of a Spanish, Italian and Polish field."""
    event = make_event(game, players=players, **fields)
    for player, name in zip(event.players.order_by("pk"), NAMES):
        player.name = name
        player.save()
    return event


def seat_round(event, number: int = 1, order=None):
    ids = order or list(event.players.order_by("pk").values_list("pk", flat=True))
    size = event.table_size
    return seat_by_hand(event, number, [ids[i : i + size] for i in range(0, len(ids), size)])


def pages_text(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def flat(text: str) -> str:
    """Text with line breaks and runs of spaces made single spaces, so wrapped labels read whole."""
    return " ".join(text.split())


def render(content: bytes, page: int, folder: Path, name: str, dpi: int = 150) -> Path:
    """One page of the PDF as a PNG (150 dpi unless told)."""
    pdf = folder / f"{name}.pdf"
    pdf.write_bytes(content)
    command = ["pdftoppm", "-r", str(dpi), "-png", "-singlefile", "-f", str(page), "-l", str(page), pdf, folder / name]
    subprocess.run(command, check=True, capture_output=True)
    return folder / f"{name}.png"


def decode_qr(png: Path) -> str:
    """Every QR code the image holds, one a line, from top to bottom and left to right.

    zxing-cpp's reader finds every code of a page of many (player cards, the seating list by name), where zbar
    misses some at random; tests/test_qr.py reads single codes with zbar, a reader independent of the encoder.
    Only full-size codes (model 2) are read: a Micro QR is what a board's grid can be mistaken for."""
    codes = zxingcpp.read_barcodes(Image.open(png), formats=zxingcpp.BarcodeFormat.QRCodeModel2)
    placed = sorted(codes, key=lambda code: (code.position.top_left.y // 20, code.position.top_left.x))
    return "\n".join(code.text for code in placed)


def page_halves_qr(content: bytes, page: int, folder: Path, name: str) -> tuple[str, str]:
    """The QR code decoded from the top half of a page and from its bottom half ("" where there is none): a
    page of one table has its code in the top half, a page of two one in each."""
    image = Image.open(render(content, page, folder, name))
    width, height = image.size
    decoded = []
    for half, box in (("top", (0, 0, width, height // 2)), ("bottom", (0, height // 2, width, height))):
        path = folder / f"{name}-{half}.png"
        image.crop(box).save(path)
        decoded.append(decode_qr(path))
    return decoded[0], decoded[1]


def sheet_links(content: bytes, folder: Path) -> list[str]:
    """The link of every score sheet's QR code, page by page, top to bottom."""
    pages = len(PdfReader(io.BytesIO(content)).pages)
    halves = [page_halves_qr(content, page, folder, f"page{page}") for page in range(1, pages + 1)]
    return [link for pair in halves for link in pair if link]


def keep(png: Path, name: str) -> None:
    """Keep a rendered page where a person (or CI) can look at it."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(png, ARTEFACTS / f"{name}.png")


#: Each game's sheet: the event's fields, tables a page, and labels its first page shows.
SHEETS = [
    ("vegetables", {}, 1, ["Pozzo", "30 · 20 · 10 · 0", "max 60", "= 16", "Crosses ×10", "Penalty −50", "Manche 4"]),
    ("veggies", {}, 2, ["Strawberries", "Mushrooms", "largest × groups", "Mice", "−2 each", "Tie: fewest mice wins."]),
    ("veggies", {"variant": "two-player", "table_size": 2}, 2, ["each player declares 2 goods", "Bananas"]),
    ("veggies", {"variant": "teams"}, 1, ["Team total", "Team 1: Łucja Wróbel + Jürgen Müller", "Team 2: José Núñez"]),
    (
        "snack-match",
        {"options": {"names": {"snacks": {"sandwich": "Bocadillo"}}}},
        2,
        ["Snack: Bocadillo", "Snack: donut", "Tablecloth: green", "each group: size − 2", "Largest group"],
    ),
    (
        "snack-match",
        {"variant": "special-diet", "options": {"diet": DIET}},
        1,
        ["Diet card 1", "Snack: donut", "corners: +1", "Picnic zones"],
    ),
    ("cheese-rescue", {}, 2, ["Final board (7 × 7)", "Cheeses left", "Cheese cards left", "Cheese points"]),
    ("cheese-rescue", {"table_size": 3}, 2, ["Final board (6 × 6)", "Removed before counting"]),
    ("cheese-rescue", {"table_size": 2}, 2, ["Final board (5 × 5)", "Tie: most cheese cards left"]),
]


@pytest.mark.parametrize(
    ("game", "fields", "per_page", "labels"), SHEETS, ids=lambda v: v if isinstance(v, str) else ""
)
def test_score_sheets_have_names_labels_and_each_tables_own_qr_code_one_or_two_a_page(
    organiser_client, make_event, tmp_path, game, fields, per_page, labels
):
    event = named_event(make_event, game, players=3 * fields.get("table_size", 4), **fields)
    round_ = seat_round(event)
    tables = list(round_.tables.order_by("number"))

    response = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pages = pages_text(response.content)
    assert len(tables) == 3 and len(pages) == -(-len(tables) // per_page)
    for label in labels:
        assert label in flat(pages[0])
    outline = [entry.title for entry in PdfReader(io.BytesIO(response.content)).outline]
    assert outline == [f"Table {table.number}" for table in tables]
    links = [f"http://testserver/t/{table.token}/" for table in tables]
    for i, (table, link) in enumerate(zip(tables, links)):
        text = pages[i // per_page]
        assert re.search(rf"{re.escape(link)}\s+{table.number}\s", text), "the link, then the table's number"
        assert "Round" in text and "Table" in text
        for seat in table.seats.all():
            assert seat.player.name in flat(text)
    for page in range(1, len(pages) + 1):
        top, bottom = page_halves_qr(response.content, page, tmp_path, f"page{page}")
        first = (page - 1) * per_page
        assert top == links[first]
        assert bottom == (links[first + 1] if per_page == 2 and first + 1 < len(links) else "")
    keep(
        render(response.content, 1, tmp_path, "first"),
        f"sheet-{game}-{fields.get('variant', 'default')}-{event.table_size}",
    )


def test_vegetables_sheet_has_a_block_for_every_manche_on_one_page(organiser_client, make_event):
    event = named_event(make_event, "vegetables", manches_per_round=8)
    seat_round(event)

    response = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]))

    pages = pages_text(response.content)
    assert len(pages) == 2
    assert "Manche 8" in pages[0] and "Manche 9" not in pages[0]
    assert pages[0].count("max 60") == 8 and pages[0].count("= 16") == 8
    assert "Round total" in pages[0] and "Place" in pages[0]


def test_vegetables_pozzo_check_follows_the_table_size(organiser_client, make_event):
    event = named_event(make_event, "vegetables", players=6, table_size=3)
    seat_round(event)

    text = pages_text(organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1])).content)[0]

    assert "max 30" in text and "20 · 10 · 0" in text


def test_veggies_teams_come_from_the_players_teams(organiser_client, make_event):
    event = named_event(make_event, "veggies", variant="teams")
    reds, blues = Team.objects.create(event=event, name="Rossi"), Team.objects.create(event=event, name="Azzurri")
    players = list(event.players.order_by("pk"))
    for player, team in zip(players[:4], [reds, reds, blues, blues]):
        player.team = team
        player.save()
    seat_round(event)

    text = flat(pages_text(organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1])).content)[0])

    assert "Rossi: Łucja Wróbel + José Núñez" in text
    assert "Azzurri: Jürgen Müller + Chiara Bianchi" in text


def test_sheets_follow_paper_size_and_language(organiser_client, make_event):
    event = named_event(make_event, "cheese-rescue", paper_size="letter", language="it")
    seat_round(event)

    response = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]))

    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    assert "21 novembre 2026" in page.extract_text().lower()
    a4 = named_event(make_event, "veggies")
    seat_round(a4)
    page = PdfReader(io.BytesIO(organiser_client.get(reverse("tournaments:print_sheets", args=[a4.slug, 1])).content))
    assert (round(float(page.pages[0].mediabox.width)), round(float(page.pages[0].mediabox.height))) == (595, 842)


def test_very_long_names_stay_on_one_page_per_table(organiser_client, make_event):
    event = named_event(make_event, "vegetables")
    longest = event.players.order_by("pk").first()
    longest.name = "María de los Ángeles Fernández-Núñez y Brzęczyszczykiewicz " + "Ñ" * 40
    longest.save()
    seat_round(event)

    response = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]))

    pages = pages_text(response.content)
    assert len(pages) == 2
    assert "María de los Ángeles" in pages[0]


def test_fitted_text_never_leaves_its_box():
    register_fonts()
    texts = [*NAMES, "Jürgen Müller-Lüdenscheidt von Hohenzollern-Sigmaringen", "Ł" * 60, "a b c " * 30]
    for text in texts:
        for width, height, size in [(46, 22, 8), (46, 10, 8), (120, 13, 10), (300, 20, 15), (20, 30, 9)]:
            fitted, lines = fit(text, width, height, size, 5)
            assert lines, text
            assert fitted <= size
            assert len(lines) * fitted * LEADING <= height + 0.02, (text, width, height)
            assert all(text_width(line, fitted) <= width + 0.01 for line in lines), (text, width, lines)


def test_a_long_name_on_the_vegetables_sheet_is_printed_whole_in_every_cell(organiser_client, make_event, tmp_path):
    event = named_event(make_event, "vegetables")
    player = event.players.order_by("pk")[1]
    player.name = "Brzęczyszczykiewicz"
    player.save()
    seat_round(event)

    content = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1])).content

    text = pages_text(content)[0]
    assert text.count("Brzęczyszczykiewicz") == 6, "the seats, four manches and the round total"
    assert text.count("Brzęczyszczyk") == 6, "never split over two lines"
    keep(render(content, 1, tmp_path, "vegetables-long-name"), "vegetables-long-name")


def test_a_word_is_shrunk_then_cut_short_never_split():
    register_fonts()
    for text, width in [("Brzęczyszczykiewicz", 44), ("Zoë Brzęczyszczykiewicz", 44), ("Ł" * 60, 46)]:
        size, lines = fit(text, width, 20, 8, 4, bold=True)
        assert all(text_width(line, size, True) <= width + 0.01 for line in lines)
        pieces = [word for line in lines for word in line.split()]
        assert all(word in text.split() or word.endswith("…") for word in pieces), lines
    assert fit("Brzęczyszczykiewicz", 47, 20, 8, 4, bold=True)[1] == ("Brzęczyszczykiewicz",)
    assert fit("Ł" * 60, 46, 20, 8, 4, bold=True)[1][0].endswith("…")


def test_short_names_keep_their_size():
    register_fonts()
    assert fit("Ada", 100, 20, 10, 5) == (10, ("Ada",))


def test_sheets_of_a_round_without_tables_say_so(organiser_client, make_event):
    event = named_event(make_event, "veggies")
    seat_by_hand(event, 1, [])

    response = organiser_client.get(reverse("tournaments:print_sheets", args=[event.slug, 1]))

    assert response.status_code == 200
    assert "Round 1 has no tables." in pages_text(response.content)[0]


def test_a_round_that_does_not_exist_is_not_found(organiser_client, make_event):
    event = named_event(make_event, "veggies")
    for name in ("tournaments:print_sheets", "tournaments:print_seating"):
        assert organiser_client.get(reverse(name, args=[event.slug, 3])).status_code == 404


def test_seating_lists_tables_then_players_alphabetically(organiser_client, make_event, tmp_path):
    event = named_event(make_event, "cheese-rescue")
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    round_ = seat_round(event, order=ids[::-1])

    response = organiser_client.get(reverse("tournaments:print_seating", args=[event.slug, 1]))

    assert response.status_code == 200
    pages = pages_text(response.content)
    assert len(pages) == 2
    by_table, by_player = (flat(page) for page in pages)  # a long name wraps within its cell
    assert "seating by table" in by_table and "seating by player" in by_player
    for name in NAMES:
        assert name in by_table and name in by_player
    order = sorted(NAMES, key=sort_key)
    assert order[:3] == ["Chiara Bianchi", "Íñigo Peña", "José Núñez"]
    assert [by_player.index(name) for name in order] == sorted(by_player.index(name) for name in order)
    for seat in round_.seats.select_related("player", "table"):
        line = re.search(rf"{re.escape(seat.player.name)}\s+(\d+)\s+(\d+)", by_player)
        assert line and line.groups() == (str(seat.table.number), str(seat.position))
    keep(render(response.content, 1, tmp_path, "seating"), "seating-by-table")
    keep(render(response.content, 2, tmp_path, "seating2"), "seating-by-player")


def scored_event(make_event):
    """Cheese Rescue, two rounds: Łucja leads after round 1; Søren wins both tables he plays and leads after 2."""
    event = named_event(make_event, "cheese-rescue")
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    first = seat_by_hand(event, 1, [ids[:4], ids[4:]])
    for table, points in zip(first.tables.order_by("number"), ([9, 5, 3, 1], [8, 4, 2, 0])):
        enter(table, cheese_tallies(points))
    second = seat_by_hand(event, 2, [[ids[3], ids[5], ids[6], ids[7]], [ids[0], ids[1], ids[2], ids[4]]])
    for table, points in zip(second.tables.order_by("number"), ([10, 2, 1, 0], [0, 1, 2, 3])):
        enter(table, cheese_tallies(points))
    return event


def test_standings_print_every_column_in_rank_order(organiser_client, make_event, tmp_path):
    event = scored_event(make_event)

    response = organiser_client.get(reverse("tournaments:print_standings", args=[event.slug]))

    assert response.status_code == 200
    text = pages_text(response.content)[0]
    for label in ("Rank", "Player", "Club", "Tournament points", "Game score", "Cheese cards left"):
        assert label in flat(text)
    assert "Ties broken by most cheese cards left" in flat(text)
    assert "Opponents'" in text
    for name in NAMES:
        assert name in text
    assert text.index("Søren Ærø") < text.index("Chiara Bianchi") < text.index("Łucja Wróbel")
    assert re.search(r"1\s+Søren Ærø\s+Club B\s+8\s+11\s+", text)
    assert re.search(r"2\s+Chiara Bianchi\s+Club A\s+4\s+11\s+7\s+", text)
    keep(render(response.content, 1, tmp_path, "standings"), "standings")


def test_standings_print_the_tiebreak_as_players_count_it_and_mark_dropped_players(organiser_client, make_event):
    """Veggies ranks by fewest mice: the paper heads the column "Mice", prints the count, says what it decides."""
    event = named_event(make_event, "veggies")
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    Standing.objects.bulk_create(
        Standing(
            event=event, player_id=pk, rank=i + 1, points=3 - i % 4, score=40 - i, tiebreak=-(i % 3), rounds_played=1
        )
        for i, pk in enumerate(ids)
    )
    dropped = event.players.get(pk=ids[2])
    dropped.active = False
    dropped.save()

    response = organiser_client.get(reverse("tournaments:print_standings", args=[event.slug]))

    text = flat(pages_text(response.content)[0])
    assert "Mice" in text and "Ties broken by fewest mice" in text
    assert re.search(rf"3\s+{re.escape(dropped.name)} · dropped\s+\S.*?\s+1\s+38\s+2\s+", text)
    assert not re.search(r"\s-[12]\s", text), "no negated mice"


def test_standings_after_an_earlier_round_leave_later_rounds_out(organiser_client, make_event):
    event = scored_event(make_event)
    url = reverse("tournaments:print_standings", args=[event.slug])

    response = organiser_client.get(url, {"round": 1})

    assert response.status_code == 200
    text = pages_text(response.content)[0]
    assert "Standings after round 1" in text
    assert text.index("Łucja Wróbel") < text.index("Søren Ærø") < text.index("Chiara Bianchi")
    assert re.search(r"1\s+Łucja Wróbel\s+Club B\s+4\s+9\s+", text)


@pytest.mark.parametrize("asked", ["3", "zero", "-1", "0"])
def test_standings_for_a_round_that_does_not_exist_explain_the_rule(organiser_client, make_event, asked):
    event = scored_event(make_event)

    response = organiser_client.get(reverse("tournaments:print_standings", args=[event.slug]), {"round": asked})

    assert response.status_code == 400
    assert "round: give the number of a round of this event (1, 2)" in response.content.decode()


def every_url(event) -> list[str]:
    return [
        reverse("tournaments:print_sheets", args=[event.slug, 1]),
        reverse("tournaments:print_seating", args=[event.slug, 1]),
        reverse("tournaments:print_standings", args=[event.slug]),
    ]


def test_printouts_need_a_login(client, make_event):
    event = named_event(make_event, "veggies")
    seat_round(event)
    for url in every_url(event):
        response = client.get(url)
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


def test_printouts_are_forbidden_to_who_does_not_run_the_event(client, make_event, django_user_model):
    event = named_event(make_event, "veggies")
    seat_round(event)
    client.force_login(django_user_model.objects.create_user("visitor", password="a-long-test-password"))
    for url in every_url(event):
        assert client.get(url).status_code == 403


def test_an_organiser_named_by_the_event_may_print(client, make_event, django_user_model):
    event = named_event(make_event, "veggies")
    seat_round(event)
    runner = django_user_model.objects.create_user("runner", password="a-long-test-password")
    event.organisers.add(runner)
    client.force_login(runner)
    for url in every_url(event):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("players", [8, 24])
def test_queries_do_not_grow_with_the_tables(organiser_client, make_event, django_assert_max_num_queries, players):
    event = named_event(make_event, "cheese-rescue", players=players)
    seat_round(event)
    for url in [*every_url(event), every_url(event)[-1] + "?round=1"]:
        with django_assert_max_num_queries(7):  # the standings after a round read the seats again for their charts
            assert organiser_client.get(url).status_code == 200


def test_every_seating_list_qr_code_is_read_by_zbar_at_150_dpi(organiser_client, make_event, tmp_path):
    """44 players: each column of the pages by player, rendered at 150 dpi and read whole by zbar, gives every
    player's own link (tokens drawn from a fixed seed, so that the same codes are read every time)."""
    event = named_event(make_event, "cheese-rescue", players=44)
    draw = random.Random(39)
    for player in event.players.all():
        player.token = "".join(draw.choice(TOKEN_CHARS) for _ in range(22))
        player.save(update_fields=["token"])
    seat_round(event)
    links = {
        f"http://testserver{reverse('tournaments:player_link', args=[token])}"
        for token in event.players.values_list("token", flat=True)
    }

    content = organiser_client.get(reverse("tournaments:print_seating", args=[event.slug, 1])).content

    read = []
    for page in range(2, len(PdfReader(io.BytesIO(content)).pages) + 1):
        image = Image.open(render(content, page, tmp_path, f"by-player{page}"))
        width, height = image.size
        for side, box in (("left", (0, 0, width // 2, height)), ("right", (width // 2, 0, width, height))):
            column = tmp_path / f"by-player{page}-{side}.png"
            image.crop(box).save(column)
            read += zbar(column).split()
    assert sorted(read) == sorted(links)
