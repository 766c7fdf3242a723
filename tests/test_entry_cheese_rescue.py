"""Cheese Rescue at the table: the tallies, or the final board tapped in with its removals shown."""

import re

import pytest
from django.urls import reverse

import scoring
from tests.factories import seat_by_hand
from tournaments.models import Manche
from tournaments.models.rounds import RoundStatus

pytestmark = pytest.mark.django_db

#: A finished 2-player game: cats go at (0,1) (1,0) (3,2), mice at (1,4) (4,2), five cheeses after them.
BOARD = [
    ["D", "C", "M", "Q1:3", "Q2:1"],
    ["C", "M", "Q1:1", "Q2:2", "M"],
    ["D", "Q1:2", "S", "Q2:3", "C"],
    ["M", "Q1:1", "C", "D", "Q2:1"],
    ["Q2:2", "C", "M", "Q1:2", "D"],
]
NAMES = ["Ada", "Bea", "Cyd", "Dan", "Eve", "Fay", "Gus", "Hal"]


def named_event(make_event, table_size):
    event = make_event("cheese-rescue", players=2 * table_size, table_size=table_size)
    for player, name in zip(event.players.order_by("pk"), NAMES):
        player.name = name
        player.save(update_fields=["name"])
    return event


def first_table(event):
    ids = list(event.players.order_by("pk").values_list("pk", flat=True))
    size = event.table_size
    return seat_by_hand(event, 1, [ids[:size], ids[size:]], status=RoundStatus.IN_PLAY).tables.get(number=1)


@pytest.fixture
def table(make_event):
    return first_table(named_event(make_event, 2))


def page(client, table) -> str:
    return client.get(reverse("tournaments:table", args=[table.token])).content.decode()


def post(client, table, fields, *, htmx=False, version=0, check=False, redraw=False):
    name = "tournaments:table_check" if check else "tournaments:table_save"
    data = {"seat": "1", "version": str(version), **fields, **({"redraw": "1"} if redraw else {})}
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse(name, args=[table.token, 1]), data, **extra)


def board_fields(board) -> dict[str, str]:
    return {f"board[{r}][{c}]": code for r, row in enumerate(board) for c, code in enumerate(row)}


def changed(**cells) -> list[list[str]]:
    """BOARD with some squares changed, given as ``r2c2="D"``."""
    board = [list(row) for row in BOARD]
    for key, code in cells.items():
        r, c = map(int, key[1:].split("c"))
        board[r][c] = code
    return board


def select_of(body: str, r: int, c: int) -> str:
    found = re.search(rf'<select [^>]*name="board\[{r}\]\[{c}\]"[^>]*>(.*?)</select>', body, re.S)
    assert found, f"no select for square {r},{c}"
    return found.group(0)


def chosen(body: str, r: int, c: int) -> str | None:
    option = re.search(r'<option value="([^"]*)" selected>', select_of(body, r, c))
    return option.group(1) if option else None


def assert_board_kept(body: str, board) -> None:
    assert [[chosen(body, r, c) for c in range(len(board))] for r in range(len(board))] == board


def test_the_form_starts_with_the_tallies_and_a_switch_to_the_board(client, table):
    body = page(client, table)
    assert 'name="tallies[0].cheese_points"' in body and 'name="tallies[1].cheese_cards"' in body
    assert 'name="board[' not in body
    assert re.search(r'name="entry_mode" value="tallies" checked><span>Tallies</span>', body)
    assert re.search(r'name="entry_mode" value="board"><span>Board</span>', body)
    switch = body[body.index('<fieldset class="switch">') : body.index("</fieldset>", body.index('class="switch"'))]
    assert 'hx-vals=\'{"redraw": "1"}\'' in switch and 'hx-trigger="change"' in switch, "choosing redraws at once"
    assert 'hx-include="closest form, #i-am"' in switch, "and keeps who I am"
    assert f'hx-post="/t/{table.token}/manches/1/check/"' in switch, "counted with the live checks, not the saves"
    form = body[body.index('class="sheet"') :]
    first_button = re.search(r"<button [^>]*>", form).group(0)
    assert "redraw" not in first_button, "Enter in a tally field saves; it never switches the mode"
    assert re.search(r'<h3 class="player-name" id="card-1-1-name">Bea</h3>', body)


@pytest.mark.parametrize(("htmx", "check"), [(False, False), (True, True)])
def test_the_switch_draws_the_board_alone_and_saves_nothing(client, table, htmx, check):
    tallies = {"tallies[0].cheese_points": "6", "tallies[0].cheese_cards": "3"}
    response = post(client, table, {**tallies, "entry_mode": "board"}, htmx=htmx, redraw=True, check=check)
    assert response.status_code == 200
    body = response.content.decode()
    assert len(re.findall(r'<select [^>]*name="board\[\d\]\[\d\]"', body)) == 25
    assert 'type="number"' not in body and "player-card" not in body, "no tallies to type beside the board"
    assert '<input type="hidden" name="tallies[0].cheese_points" value="6">' in body, "kept for the way back"
    assert "Give either" not in body
    assert re.search(r'<label class="visually-hidden" for="f-1-board-2-3">Row 3, column 4</label>', body)
    square = select_of(body, 0, 0)
    assert '<option value="S">S</option>' in square
    assert re.search(r'<optgroup label="Ada">.*<option value="Q1:2">A·2</option>', square)
    assert re.search(r'<optgroup label="Bea">.*<option value="Q2:3">B·3</option>', square)
    assert "cheeses of Ada, worth 1, 2, 3" in body
    assert re.search(r'name="entry_mode" value="board" checked><span>Board</span>', body)
    manche = Manche.objects.get(table=table, number=1)
    assert manche.document is None and manche.version == 0

    back = post(client, table, {**board_fields(BOARD), "entry_mode": "tallies"}, htmx=htmx, redraw=True, check=check)
    back = back.content.decode()
    assert 'name="board[' not in back
    typed = {
        name: re.search(rf'name="tallies\[{name}" value="([^"]*)"', back).group(1)
        for name in ("0].cheese_points", "0].cheese_cards", "1].cheese_points", "1].cheese_cards")
    }
    assert typed == {"0].cheese_points": "2", "0].cheese_cards": "1", "1].cheese_points": "7", "1].cheese_cards": "4"}
    assert Manche.objects.get(table=table, number=1).version == 0


def test_only_the_chosen_way_is_saved(client, table):
    tallies = {"tallies[0].cheese_points": "6", "tallies[0].cheese_cards": "3"}
    response = post(client, table, {**tallies, **board_fields(BOARD), "entry_mode": "board"})
    assert response.status_code == 302
    document = Manche.objects.get(table=table, number=1).document
    assert document["board"] == BOARD and "tallies" not in document and "entry_mode" not in document


def test_a_board_entered_through_the_form_scores_as_the_engine_says(client, table):
    response = post(client, table, board_fields(BOARD))
    assert response.status_code == 302
    manche = Manche.objects.get(table=table, number=1)
    assert manche.document["board"] == BOARD and "tallies" not in manche.document
    assert "entry_mode" not in manche.document
    expected = scoring.score({"game": "cheese-rescue", "players": ["Ada", "Bea"], "board": BOARD})
    assert manche.result["players"] == expected["players"]
    assert [p["score"] for p in manche.result["players"]] == [2, 7]

    body = page(client, table)
    assert re.search(r'<td class="number">1</td><td>Bea</td><td class="number">7</td>', body)
    assert_board_kept(body, BOARD)
    cats = body.index("<strong>Cats next to a dog</strong> (3): Row 1, column 2; Row 2, column 1; Row 4, column 3")
    mice = body.index("<strong>Mice next to a cat still there</strong> (2): Row 2, column 5; Row 5, column 3")
    cheeses = body.index(
        "<strong>Cheeses next to a mouse still there</strong> (5): "
        "Row 1, column 4; Row 2, column 3; Row 3, column 2; Row 4, column 2; Row 5, column 1"
    )
    scores = body.index("Cheeses left on the board")
    assert cats < mice < cheeses < scores
    assert [body.count(f'class="gone-{step}"') for step in (1, 2, 3)] == [3, 2, 5]
    assert '<td class="gone-1"><s>C</s><sup>1</sup></td>' in body
    assert '<td class="gone-3"><s>A·3</s><sup>3</sup></td>' in body
    assert re.search(r"<tr><td>Ada</td><td class=\"number\">2</td><td class=\"number\">1</td></tr>", body)
    assert re.search(r"<tr><td>Bea</td><td class=\"number\">7</td><td class=\"number\">4</td></tr>", body)
    assert "The board follows the rules." in body


def board_error_block(body: str) -> str:
    """The errors drawn at the board: between its legend and its grid."""
    start = body.index('<fieldset class="cheese-board-entry">')
    return body[start : body.index('<table class="cheese-board">', start)]


def test_a_missing_start_card_is_shown_at_the_board_with_every_square_kept(client, table):
    board = changed(r2c2="D")
    response = post(client, table, board_fields(board))
    assert response.status_code == 400
    body = response.content.decode()
    message = "With 2 players the board holds exactly one start card; this board has 0."
    assert message in board_error_block(body)
    assert body.count(message) == 1
    assert_board_kept(body, board)
    assert Manche.objects.get(table=table, number=1).version == 0


def test_a_player_with_seven_cheeses_is_shown_at_the_board_with_every_square_kept(client, table):
    board = changed(r0c0="Q1:1", r2c0="Q1:1")
    body = post(client, table, board_fields(board)).content.decode()
    assert "Player 1 has 7 cheeses on the board; each player has only six." in board_error_block(body)
    assert_board_kept(body, board)


def test_an_empty_square_is_marked_at_its_select_and_the_others_kept(client, table):
    board = changed(r1c3="", r4c4="")
    response = post(client, table, board_fields(board))
    assert response.status_code == 400
    body = response.content.decode()
    for r, c in ((1, 3), (4, 4)):
        assert 'aria-invalid="true" aria-describedby="e-1-board-0"' in select_of(body, r, c)
    assert 'aria-invalid="true"' not in select_of(body, 0, 0)
    group = re.search(r'<li id="e-1-board-0"><strong>Row 2, column 4; Row 5, column 5</strong>: This square is', body)
    assert group, "one message for both empty squares, naming them"
    assert_board_kept(body, board)


def test_a_square_that_is_no_card_is_kept_and_reported_at_it(client, table):
    board = changed(r3c3="Q7:2")
    body = post(client, table, board_fields(board)).content.decode()
    assert 'aria-invalid="true"' in select_of(body, 3, 3)
    assert "<strong>Row 4, column 4</strong>: Cheeses belong to players 1 to 2; this one says player 7." in body
    assert_board_kept(body, board)


def test_tallies_still_work(client, table):
    tallies = {
        "tallies[0].cheese_points": "6",
        "tallies[0].cheese_cards": "3",
        "tallies[1].cheese_points": "4",
        "tallies[1].cheese_cards": "2",
    }
    assert post(client, table, tallies).status_code == 302
    manche = Manche.objects.get(table=table, number=1)
    assert "board" not in manche.document
    assert [(p["score"], p["rank"]) for p in manche.result["players"]] == [(6, 1), (4, 2)]
    body = page(client, table)
    assert re.search(r'name="tallies\[0\]\.cheese_points" value="6"', body) and 'name="board[' not in body

    response = post(client, table, {**tallies, "tallies[1].cheese_points": "9"}, version=1)
    assert response.status_code == 400
    body = response.content.decode()
    assert "9 points cannot come from 2 of the cheeses 1, 1, 1, 2, 2 and 3, only 2 to 5." in body
    assert re.search(r'id="f-1-tallies1cheese_points"[^>]*aria-invalid="true"', body)
    bea = body[body.index('id="card-1-1"') :]
    assert '<span class="check bad">not possible with the cards left ✗</span>' in bea[: bea.index("</div>\n</div>")]
    assert re.search(r'class="progress-problem" title="Bea[^"]*"><span class="progress-name">Bea', body)
    assert re.search(r'name="tallies\[1\]\.cheese_points" value="9"', body)


def test_the_live_check_shows_the_removals_as_the_squares_are_filled(client, table):
    partial = {"board[0][0]": "D", "board[0][1]": "C", "board[0][2]": "M", "board[0][3]": "Q1:3"}
    response = post(client, table, {**board_fields([[""] * 5] * 5), **partial}, htmx=True, check=True)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith('<div id="checks-1"') and "<select" not in body
    assert "4 of 25 squares filled: the scores are not final yet." in body
    assert body.index("<strong>Cats next to a dog</strong> (1): Row 1, column 2") < body.index(
        "<strong>Mice next to a cat still there</strong> (0): none"
    )
    assert "<strong>Cheeses next to a mouse still there</strong> (1): Row 1, column 4" in body
    assert re.search(r"<tr><td>Ada</td><td class=\"number\">0</td><td class=\"number\">0</td></tr>", body)

    full = post(client, table, board_fields(changed(r2c2="D")), htmx=True, check=True).content.decode()
    assert "With 2 players the board holds exactly one start card; this board has 0." in full
    assert Manche.objects.get(table=table, number=1).version == 0


@pytest.mark.parametrize(("players", "size", "start"), [(3, 6, False), (4, 7, True)])
def test_the_board_fits_the_table(client, make_event, players, size, start):
    table = first_table(named_event(make_event, players))
    body = post(client, table, {"entry_mode": "board"}).content.decode()
    assert len(re.findall(r'<select [^>]*name="board\[\d\]\[\d\]"', body)) == size * size
    assert f'name="board[{size - 1}][{size - 1}]"' in body and f'name="board[{size}]' not in body
    assert ('<option value="S">S</option>' in select_of(body, 0, 0)) is start
    texts = re.findall(r"<option value=\"[^\"]*\">([^<]*)</option>", select_of(body, 0, 0))
    assert max(len(text) for text in texts) <= 3, "short option texts keep a 7 x 7 board on a phone"
