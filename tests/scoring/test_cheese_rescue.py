"""Cheese Rescue: the tallies, the final board, the removals and every check of the sheet."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from scoring.cheese_rescue import RULES, remove_cards

NAMES = ["Ada", "Bea", "Cyd", "Dan"]
SIX = (1, 1, 1, 2, 2, 3)
SIZES = {2: 5, 3: 6, 4: 7}
FAST = settings(max_examples=200, deadline=None)


def sheet(players: int, **fields: object) -> dict:
    return {"game": "cheese-rescue", "players": NAMES[:players], **fields}


def errors(document: dict) -> list[dict[str, str]]:
    with pytest.raises(scoring.ScoreSheetError) as caught:
        scoring.score(document)
    return caught.value.errors


def error_paths(document: dict) -> list[str]:
    return [e["path"] for e in errors(document)]


def only_error(document: dict) -> dict[str, str]:
    found = errors(document)
    assert len(found) == 1, found
    return found[0]


def tallies(*pairs: tuple[int, int]) -> list[dict[str, int]]:
    """Tallies from (cheese_points, cheese_cards) pairs."""
    return [{"cheese_points": p, "cheese_cards": c} for p, c in pairs]


# The 5 x 5 example worked by hand (2 players).
#   Cats next to a dog: (0,1), (1,0), (3,1), (4,2); the cat at (1,3) stays.
#   Mice next to that cat: (1,4), (2,3). The mice at (0,2), (1,1), (4,1) stay: the cats they touched
#   went in step 1. Cheeses next to a remaining mouse: (0,3), (1,2), (2,0), (2,1), (4,0).
#   The cheeses at (0,4) and (2,4) stay: the mice they touch went in step 2.
#   Ada keeps 1 + 1 (2 cards), Bea keeps 1 + 2 + 1 (3 cards).
BOARD_5 = [
    ["D", "C", "M", "Q1:3", "Q2:1"],
    ["C", "M", "Q1:1", "C", "M"],
    ["Q2:3", "Q1:2", "S", "M", "Q2:2"],
    ["M", "C", "D", "Q1:1", "Q2:1"],
    ["Q1:2", "M", "C", "D", "Q1:1"],
]
BOARD_5_AFTER = [
    ["D", None, "M", None, "Q2:1"],
    [None, "M", None, "C", None],
    [None, None, "S", None, "Q2:2"],
    ["M", None, "D", "Q1:1", "Q2:1"],
    [None, "M", None, "D", "Q1:1"],
]

# 6 x 6, 3 players, no start card. Worked by hand:
#   cats removed (0,3), (1,2), (2,1), (3,0), (3,2), (5,3); the cat at (3,4) stays and takes the mice
#   (3,3) and (3,5). Cheeses removed: (0,1), (1,0), (5,1) of Ada; (0,5), (1,4), (4,1) of Bea; (2,3) of Cyd.
BOARD_6 = [
    ["Q1:3", "Q1:2", "D", "C", "M", "Q2:3"],
    ["Q1:1", "M", "C", "M", "Q2:2", "Q2:1"],
    ["D", "C", "M", "Q3:1", "Q3:1", "Q3:1"],
    ["C", "M", "C", "M", "C", "M"],
    ["Q2:1", "Q2:1", "D", "Q3:2", "Q3:2", "D"],
    ["Q1:1", "Q1:1", "M", "C", "D", "Q3:3"],
]

# 7 x 7, 4 players. Worked by hand:
#   9 cats go (every cat but (4,3) and (6,3)); those two take the mice (4,2), (5,3) and (6,2).
#   Ada keeps (0,1) and (0,2): 2 points; Bea loses all four cheeses; Cyd keeps all five: 8 points;
#   Dan keeps (4,6) and (6,4): 2 points. Ada and Dan tie on points and on cheese cards: they share rank 2.
BOARD_7 = [
    ["Q1:2", "Q1:1", "Q1:1", "D", "Q2:1", "Q2:3", "M"],
    ["M", "C", "D", "C", "M", "Q2:2", "Q2:1"],
    ["Q1:3", "M", "C", "M", "C", "D", "C"],
    ["D", "C", "M", "S", "M", "C", "D"],
    ["Q3:1", "Q3:2", "M", "C", "Q4:2", "Q4:1", "Q4:1"],
    ["Q3:3", "D", "C", "M", "D", "M", "Q4:3"],
    ["Q3:1", "Q3:1", "M", "C", "Q4:1", "C", "D"],
]


class TestRules:
    def test_registry_entry(self) -> None:
        assert scoring.GAMES["cheese-rescue"] is RULES
        assert RULES.name == "Cheese Rescue"
        assert [v.key for v in RULES.variants] == ["standard"]
        assert RULES.player_counts == (2, 3, 4)
        assert RULES.table_sizes == (2, 3, 4)
        assert RULES.tiebreak_label == "most cheese cards left"
        assert [f.key for f in RULES.tally_fields] == ["cheese_points", "cheese_cards"]
        assert all(RULES.default_variant(n) == "standard" for n in (2, 3, 4))

    @pytest.mark.parametrize("count", [1, 5])
    def test_only_two_to_four_players(self, count: int) -> None:
        document = {"game": "cheese-rescue", "players": [f"P{i}" for i in range(count)], "tallies": []}
        error = only_error(document)
        assert error["path"] == "players"
        assert "2, 3, 4 players" in error["message"]

    def test_variant_named_explicitly(self) -> None:
        result = scoring.score(sheet(2, variant="standard", tallies=tallies((3, 2), (4, 2))))
        assert result["variant"] == "standard"


class TestForm:
    def test_neither_tallies_nor_board(self) -> None:
        error = only_error(sheet(2))
        assert error["path"] == ""
        assert "either the tallies" in error["message"]

    def test_null_counts_as_absent(self) -> None:
        assert error_paths(sheet(2, tallies=None, board=None)) == [""]
        result = scoring.score(sheet(2, tallies=None, board=BOARD_5))
        assert [p["score"] for p in result["players"]] == [2, 4]

    def test_both_tallies_and_board(self) -> None:
        error = only_error(sheet(2, tallies=tallies((3, 2), (4, 2)), board=BOARD_5))
        assert error["path"] == ""
        assert "not both" in error["message"]

    def test_unknown_keys_are_ignored(self) -> None:
        result = scoring.score(sheet(2, tallies=tallies((3, 2), (4, 2)), notes="fun game"))
        assert [p["score"] for p in result["players"]] == [3, 4]


class TestTallies:
    def test_scores_and_tiebreak(self) -> None:
        result = scoring.score(sheet(3, tallies=tallies((4, 2), (4, 3), (10, 6))))
        players = result["players"]
        assert [p["score"] for p in players] == [4, 4, 10]
        assert [p["tiebreak"] for p in players] == [[2], [3], [6]]
        assert [p["rank"] for p in players] == [3, 2, 1]
        assert players[0]["breakdown"] == {"cheese_cards": 2, "cheese_points": 4}

    def test_full_tie_shares_the_rank(self) -> None:
        result = scoring.score(sheet(4, tallies=tallies((5, 3), (5, 3), (0, 0), (7, 4))))
        assert [p["rank"] for p in result["players"]] == [2, 2, 4, 1]

    @pytest.mark.parametrize("cards", range(7))
    @pytest.mark.parametrize("points", range(11))
    def test_points_must_come_from_that_many_cheeses(self, cards: int, points: int) -> None:
        possible = {sum(chosen) for chosen in combinations(SIX, cards)}
        document = sheet(2, tallies=tallies((points, cards), (0, 0)))
        if points in possible:
            assert scoring.score(document)["players"][0]["score"] == points
        else:
            assert error_paths(document) == ["tallies[0].cheese_points"]

    @pytest.mark.parametrize(
        ("points", "cards", "message"),
        [
            (1, 0, "A player with no cheese cards left has 0 points, not 1."),
            (9, 6, "9 points cannot come from 6 of the cheeses 1, 1, 1, 2, 2 and 3, only 10."),
            (6, 2, "6 points cannot come from 2 of the cheeses 1, 1, 1, 2, 2 and 3, only 2 to 5."),
            (1, 2, "1 points cannot come from 2 of the cheeses 1, 1, 1, 2, 2 and 3, only 2 to 5."),
            (4, 1, "4 points cannot come from 1 of the cheeses 1, 1, 1, 2, 2 and 3, only 1 to 3."),
            (10, 5, "10 points cannot come from 5 of the cheeses 1, 1, 1, 2, 2 and 3, only 7 to 9."),
        ],
    )
    def test_impossible_points_are_explained(self, points: int, cards: int, message: str) -> None:
        error = only_error(sheet(2, tallies=tallies((0, 0), (points, cards))))
        assert error == {"path": "tallies[1].cheese_points", "message": message}

    @pytest.mark.parametrize(
        ("tally", "path", "text"),
        [
            ({"cheese_points": 3}, "tallies[0].cheese_cards", "whole number"),
            ({"cheese_cards": 1}, "tallies[0].cheese_points", "whole number"),
            ({"cheese_points": 3, "cheese_cards": 7}, "tallies[0].cheese_cards", "at most 6"),
            ({"cheese_points": 3, "cheese_cards": -1}, "tallies[0].cheese_cards", "at least 0"),
            ({"cheese_points": 11, "cheese_cards": 6}, "tallies[0].cheese_points", "at most 10"),
            ({"cheese_points": -2, "cheese_cards": 1}, "tallies[0].cheese_points", "at least 0"),
            ({"cheese_points": 3.0, "cheese_cards": 1}, "tallies[0].cheese_points", "whole number"),
            ({"cheese_points": 3, "cheese_cards": True}, "tallies[0].cheese_cards", "whole number"),
            ({"cheese_points": "3", "cheese_cards": 1}, "tallies[0].cheese_points", "whole number"),
            ({"cheese_points": 10**30, "cheese_cards": 1}, "tallies[0].cheese_points", "far too large"),
        ],
    )
    def test_bad_numbers(self, tally: dict, path: str, text: str) -> None:
        error = only_error(sheet(2, tallies=[tally, {"cheese_points": 0, "cheese_cards": 0}]))
        assert error["path"] == path
        assert text in error["message"]

    def test_every_problem_is_reported(self) -> None:
        document = sheet(3, tallies=[{"cheese_points": 1}, "five", {"cheese_points": 12, "cheese_cards": 2}])
        assert error_paths(document) == [
            "tallies[0].cheese_cards",
            "tallies[1]",
            "tallies[2].cheese_points",
        ]

    @pytest.mark.parametrize("value", [{}, "x", 3, [[]]])
    def test_tallies_must_be_a_list(self, value: object) -> None:
        assert error_paths(sheet(2, tallies=value)) == ["tallies"]

    def test_one_tally_per_player(self) -> None:
        error = only_error(sheet(3, tallies=tallies((3, 2), (4, 2))))
        assert error["path"] == "tallies"
        assert "one entry per player (3); there are 2" in error["message"]

    def test_huge_tally_list_is_refused_quickly(self) -> None:
        assert error_paths(sheet(2, tallies=[{}] * 10**6)) == ["tallies"]


class TestRemoval:
    def test_hand_worked_five_by_five(self) -> None:
        after, removed = remove_cards(BOARD_5)
        assert after == BOARD_5_AFTER
        assert removed.cats == [(0, 1), (1, 0), (3, 1), (4, 2)]
        assert removed.mice == [(1, 4), (2, 3)]
        assert removed.cheeses == [(0, 3), (1, 2), (2, 0), (2, 1), (4, 0)]
        assert tuple(removed) == (removed.cats, removed.mice, removed.cheeses)

    def test_the_board_given_is_not_changed(self) -> None:
        board = [row[:] for row in BOARD_5]
        remove_cards(board)
        assert board == BOARD_5

    def test_dog_scares_a_cat_so_its_mouse_survives_and_eats(self) -> None:
        after, removed = remove_cards([["D", "C", "M", "Q1:1"]])
        assert after == [["D", None, "M", None]]
        assert removed == ([(0, 1)], [], [(0, 3)])

    def test_cat_catches_a_mouse_so_its_cheese_survives(self) -> None:
        after, removed = remove_cards([["C", "M", "Q1:1"]])
        assert after == [["C", None, "Q1:1"]]
        assert removed == ([], [(0, 1)], [])

    def test_neighbours_are_orthogonal_only(self) -> None:
        board = [["D", "S", "M"], ["S", "C", "S"], ["Q1:1", "S", "Q2:2"]]
        after, removed = remove_cards(board)
        assert removed == ([], [], [])
        assert after == board

    def test_each_step_is_all_at_once(self) -> None:
        board = [["C", "C", "D", "C"], ["M", "M", "M", "M"], ["Q1:1", "Q1:2", "Q2:1", "Q2:3"]]
        after, removed = remove_cards(board)
        assert removed.cats == [(0, 1), (0, 3)]
        assert removed.mice == [(1, 0)]
        assert removed.cheeses == [(2, 1), (2, 2), (2, 3)]
        assert after[2] == ["Q1:1", None, None, None]

    def test_dogs_do_not_chase_mice_nor_cats_eat_cheese(self) -> None:
        board = [["D", "M", "C", "Q1:1"]]
        after, removed = remove_cards(board)
        assert removed == ([], [(0, 1)], [])

    def test_empty_and_ragged_boards(self) -> None:
        assert remove_cards([]) == ([], ([], [], []))
        after, removed = remove_cards([["M", "C", "D"], ["Q1:1"], [None, "M", "C", "Q2:1"]])
        assert removed == ([(0, 1)], [(2, 1)], [(1, 0)])
        assert after == [["M", None, "D"], [None], [None, None, "C", "Q2:1"]]


def result_of(board: list[list[str]], players: int) -> dict:
    return scoring.score(sheet(players, board=board))


class TestBoardScoring:
    def test_hand_worked_five_by_five(self) -> None:
        result = result_of(BOARD_5, 2)
        ada, bea = result["players"]
        assert (ada["score"], ada["tiebreak"], ada["rank"]) == (2, [2], 2)
        assert (bea["score"], bea["tiebreak"], bea["rank"]) == (4, [3], 1)
        removed = {"cats": 4, "mice": 2, "cheeses": 5}
        assert ada["breakdown"] == {
            "removed": removed,
            "cheese_cards": 2,
            "cheese_points": 2,
            "lost_cheeses": [3, 2, 2, 1],
            "board_after": BOARD_5_AFTER,
        }
        assert bea["breakdown"] == {
            "removed": removed,
            "cheese_cards": 3,
            "cheese_points": 4,
            "lost_cheeses": [3],
            "board_after": BOARD_5_AFTER,
        }

    def test_six_by_six_three_players(self) -> None:
        players = result_of(BOARD_6, 3)["players"]
        assert [p["score"] for p in players] == [4, 2, 9]
        assert [p["tiebreak"] for p in players] == [[2], [2], [5]]
        assert [p["rank"] for p in players] == [2, 3, 1]
        assert [p["breakdown"]["lost_cheeses"] for p in players] == [[2, 1, 1], [3, 2, 1], [1]]
        assert players[0]["breakdown"]["removed"] == {"cats": 6, "mice": 2, "cheeses": 7}
        after = players[0]["breakdown"]["board_after"]
        assert after[3] == [None, "M", None, None, "C", None]
        assert after[0] == ["Q1:3", None, "D", None, "M", None]

    def test_seven_by_seven_four_players(self) -> None:
        players = result_of(BOARD_7, 4)["players"]
        assert [p["score"] for p in players] == [2, 0, 8, 2]
        assert [p["tiebreak"] for p in players] == [[2], [0], [5], [2]]
        assert [p["rank"] for p in players] == [2, 4, 1, 2]
        assert [p["breakdown"]["lost_cheeses"] for p in players] == [[3, 2], [3, 2, 1, 1], [], [3, 2, 1]]
        assert players[0]["breakdown"]["removed"] == {"cats": 9, "mice": 3, "cheeses": 9}
        after = players[0]["breakdown"]["board_after"]
        assert after[3] == ["D", None, "M", "S", "M", None, "D"]
        assert after[6] == ["Q3:1", "Q3:1", None, "C", "Q4:1", None, "D"]

    def test_equal_points_are_split_by_cheese_cards_left(self) -> None:
        board = [
            ["Q1:3", "D", "D", "D", "Q2:1"],
            ["D", "D", "D", "D", "Q2:2"],
            ["Q1:1", "M", "S", "M", "Q2:1"],
            ["Q1:1", "M", "D", "D", "D"],
            ["Q1:1", "M", "D", "D", "D"],
        ]
        ada, bea = result_of(board, 2)["players"]
        assert (ada["score"], ada["tiebreak"], ada["rank"]) == (3, [1], 2)
        assert (bea["score"], bea["tiebreak"], bea["rank"]) == (3, [2], 1)

    def test_breakdowns_do_not_share_the_board(self) -> None:
        ada, bea = result_of(BOARD_5, 2)["players"]
        ada["breakdown"]["board_after"][0][0] = "X"
        ada["breakdown"]["removed"]["cats"] = 0
        assert bea["breakdown"]["board_after"][0][0] == "D"
        assert bea["breakdown"]["removed"]["cats"] == 4


def with_cell(board: list[list[object]], r: int, c: int, value: object) -> list[list[object]]:
    copy = [row[:] for row in board]
    copy[r][c] = value
    return copy


class TestBoardShape:
    @pytest.mark.parametrize("value", [{}, "DCM", 5, True])
    def test_board_must_be_a_list(self, value: object) -> None:
        error = only_error(sheet(2, board=value))
        assert error["path"] == "board"

    @pytest.mark.parametrize(("players", "board"), [(2, BOARD_6), (3, BOARD_7), (4, BOARD_5), (2, [])])
    def test_rows_for_the_player_count(self, players: int, board: list) -> None:
        error = only_error(sheet(players, board=board))
        size = SIZES[players]
        assert error == {
            "path": "board",
            "message": f"With {players} players the board is {size} by {size} cards; this board has {len(board)} rows.",
        }

    def test_each_row_has_the_board_width(self) -> None:
        board = [row[:] for row in BOARD_5]
        board[1] = board[1][:4]
        board[3] = [*board[3], "D"]
        board[4] = "DDMCQ"
        found = errors(sheet(2, board=board))
        assert [e["path"] for e in found] == ["board[1]", "board[3]", "board[4]"]
        assert found[0]["message"] == "With 2 players each row of the board has 5 cards; this row has 4."
        assert found[1]["message"] == "With 2 players each row of the board has 5 cards; this row has 6."
        assert found[2]["message"] == "A row of the board is a list of 5 cards."

    def test_cells_of_good_rows_are_still_checked(self) -> None:
        board = with_cell(BOARD_5, 0, 0, "X")
        board[2] = None
        assert error_paths(sheet(2, board=board)) == ["board[0][0]", "board[2]"]

    def test_huge_board_is_refused_quickly(self) -> None:
        assert error_paths(sheet(4, board=[["D"] * 10**5] * 10**5)) == ["board"]
        assert error_paths(sheet(4, board=[["D"] * 10**6] * 7)) == [f"board[{r}]" for r in range(7)]


class TestCells:
    @pytest.mark.parametrize("value", [None, "", "  "])
    def test_every_square_holds_a_card(self, value: object) -> None:
        error = only_error(sheet(2, board=with_cell(BOARD_5, 3, 2, value)))
        assert error == {
            "path": "board[3][2]",
            "message": "This square is empty; at the end of the game every square of the board holds a card.",
        }

    @pytest.mark.parametrize("value", [5, 1.5, True, ["D"], {"card": "D"}])
    def test_a_card_is_text(self, value: object) -> None:
        error = only_error(sheet(2, board=with_cell(BOARD_5, 0, 2, value)))
        assert error["path"] == "board[0][2]"
        assert error["message"].startswith("A square holds a card written as text: D (dog)")

    @pytest.mark.parametrize(
        "value", ["X", "d", "q1:1", "Dog", "Q", "Q1", "Q:1", "Q1:", "Q1:1x", "Q01:1", "Q1:01", "Q+1:1", "Q١:1", "Q1-1"]
    )
    def test_unknown_cards(self, value: str) -> None:
        error = only_error(sheet(2, board=with_cell(BOARD_5, 0, 2, value)))
        assert error == {
            "path": "board[0][2]",
            "message": f"'{value}' is not a card; a square holds D (dog), C (cat), M (mouse), S (start card) "
            "or Qk:v (a cheese of player k worth v).",
        }

    def test_long_unknown_text_is_shortened(self) -> None:
        error = only_error(sheet(2, board=with_cell(BOARD_5, 0, 2, "Q" + "7" * 5000 + ":1")))
        assert error["message"].startswith("'Q" + "7" * 19 + "' is not a card")

    @pytest.mark.parametrize(("players", "value", "player"), [(2, "Q3:1", 3), (4, "Q5:2", 5), (3, "Q0:1", 0)])
    def test_cheese_of_a_player_not_at_the_table(self, players: int, value: str, player: int) -> None:
        board = {2: BOARD_5, 3: BOARD_6, 4: BOARD_7}[players]
        error = only_error(sheet(players, board=with_cell(board, 1, 1, value)))
        assert error == {
            "path": "board[1][1]",
            "message": f"Cheeses belong to players 1 to {players}; this one says player {player}.",
        }

    @pytest.mark.parametrize("value", [0, 4, 10])
    def test_cheese_value(self, value: int) -> None:
        error = only_error(sheet(2, board=with_cell(BOARD_5, 1, 1, f"Q1:{value}")))
        assert error == {
            "path": "board[1][1]",
            "message": f"A cheese is worth 1, 2 or 3 points; this one says {value}.",
        }

    def test_cheese_with_wrong_player_and_value(self) -> None:
        found = errors(sheet(2, board=with_cell(BOARD_5, 1, 1, "Q9:9")))
        assert [e["path"] for e in found] == ["board[1][1]", "board[1][1]"]
        assert "player 9" in found[0]["message"]
        assert "says 9" in found[1]["message"]

    def test_no_start_card_with_three_players(self) -> None:
        error = only_error(sheet(3, board=with_cell(BOARD_6, 2, 2, "S")))
        assert error == {
            "path": "board[2][2]",
            "message": "With 3 players the start card stays in the box; this square must hold another card.",
        }

    def test_every_bad_cell_is_reported_and_board_checks_wait(self) -> None:
        board = with_cell(BOARD_5, 0, 0, None)
        board = with_cell(board, 2, 2, "M")  # no start card left: not reported while a cell is wrong
        board = with_cell(board, 4, 4, "Q2:7")
        assert error_paths(sheet(2, board=board)) == ["board[0][0]", "board[4][4]"]


class TestBoardChecks:
    @pytest.mark.parametrize(("players", "board", "r", "c"), [(2, BOARD_5, 2, 2), (4, BOARD_7, 3, 3)])
    def test_start_card_missing(self, players: int, board: list, r: int, c: int) -> None:
        error = only_error(sheet(players, board=with_cell(board, r, c, "D")))
        assert error == {
            "path": "board",
            "message": f"With {players} players the board holds exactly one start card; this board has 0.",
        }

    def test_two_start_cards(self) -> None:
        error = only_error(sheet(4, board=with_cell(BOARD_7, 0, 6, "S")))
        assert error["message"] == "With 4 players the board holds exactly one start card; this board has 2."

    def test_start_card_may_lie_anywhere(self) -> None:
        board = with_cell(with_cell(BOARD_5, 2, 2, "D"), 0, 0, "S")
        assert result_of(board, 2)["players"][0]["score"] >= 0

    def test_too_few_cheeses(self) -> None:
        board = with_cell(with_cell(BOARD_6, 4, 0, "D"), 4, 1, "D")
        board = with_cell(board, 0, 5, "D")  # Bea keeps 2 cheeses on the board
        error = only_error(sheet(3, board=board))
        assert error == {
            "path": "board",
            "message": "Player 2 has too few cheeses on the board (2); each player places 12 cards "
            "and at most 9 of them are animals, so at least 3 are cheeses.",
        }

    def test_no_cheese_at_all(self) -> None:
        board = [["Q2:1" if cell.startswith("Q1") else cell for cell in row] for row in BOARD_5]
        found = errors(sheet(2, board=board))
        assert [e["path"] for e in found] == ["board", "board"]
        assert found[0]["message"].startswith("Player 1 has too few cheeses on the board (0);")
        assert found[1]["message"] == "Player 2 has 10 cheeses on the board; each player has only six."

    def test_three_cheeses_are_enough(self) -> None:
        board = with_cell(BOARD_5, 0, 4, "D")  # Bea now has three cheeses
        assert result_of(board, 2)["players"][1]["breakdown"]["cheese_cards"] == 2

    def test_seven_cheeses(self) -> None:
        error = only_error(sheet(3, board=with_cell(BOARD_6, 3, 0, "Q3:1")))
        assert error == {"path": "board", "message": "Player 3 has 7 cheeses on the board; each player has only six."}

    @pytest.mark.parametrize(
        ("cheeses", "message"),
        [
            (["Q1:1", "Q1:1"], "Player 1 has 4 cheeses worth 1; their six cheeses are 1, 1, 1, 2, 2 and 3."),
            (["Q1:3"], "Player 1 has 2 cheeses worth 3; their six cheeses are 1, 1, 1, 2, 2 and 3."),
            (["Q2:2", "Q2:2"], "Player 2 has 3 cheeses worth 2; their six cheeses are 1, 1, 1, 2, 2 and 3."),
        ],
    )
    def test_cheese_values_come_from_the_six(self, cheeses: list[str], message: str) -> None:
        board = BOARD_7
        for c, cheese in enumerate(cheeses):  # onto the mouse and the cat at (1, 0) and (1, 1)
            board = with_cell(board, 1, c, cheese)
        error = only_error(sheet(4, board=board))
        assert error == {"path": "board", "message": message}

    def test_all_board_problems_at_once(self) -> None:
        board = with_cell(BOARD_7, 3, 3, "Q1:3")
        board = with_cell(board, 4, 0, "D")
        board = with_cell(board, 4, 1, "D")
        board = with_cell(board, 5, 0, "D")
        messages = [e["message"] for e in errors(sheet(4, board=board))]
        assert len(messages) == 3
        assert messages[0].startswith("With 4 players the board holds exactly one start card")
        assert messages[1] == "Player 1 has 2 cheeses worth 3; their six cheeses are 1, 1, 1, 2, 2 and 3."
        assert messages[2].startswith("Player 3 has too few cheeses on the board (2)")


# Properties


def reference_removal(board: list[list[object]], rng: random.Random) -> tuple[set, set, set]:
    """Removal done card by card in a shuffled order, each card taken away as soon as it is found."""
    grid = [row[:] for row in board]
    cells = [(r, c) for r in range(len(grid)) for c in range(len(grid[r]))]

    def touches(r: int, c: int, other: str) -> bool:
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < len(grid) and 0 <= nc < len(grid[nr]) and grid[nr][nc] == other:
                return True
        return False

    steps = []
    for wanted, other in ((lambda v: v == "C", "D"), (lambda v: v == "M", "C"), (is_cheese_text, "M")):
        rng.shuffle(cells)
        removed = set()
        for r, c in cells:
            if wanted(grid[r][c]) and touches(r, c, other):
                grid[r][c] = None
                removed.add((r, c))
        steps.append(removed)
    return steps[0], steps[1], steps[2]


def is_cheese_text(value: object) -> bool:
    return isinstance(value, str) and value.startswith("Q")


random_cells = st.sampled_from(["D", "C", "M", "S", "Q1:1", "Q2:3", None])


@st.composite
def any_board(draw: st.DrawFn) -> list[list[object]]:
    rows = draw(st.integers(0, 7))
    cols = draw(st.integers(1, 7))
    return [[draw(random_cells) for _c in range(cols)] for _r in range(rows)]


@st.composite
def valid_board(draw: st.DrawFn, players: int | None = None) -> tuple[int, list[list[str]]]:
    """A complete board that passes every check, for 2 to 4 players."""
    count = players or draw(st.sampled_from([2, 3, 4]))
    size = SIZES[count]
    cells = ["S"] if count != 3 else []
    for player in range(1, count + 1):
        cheeses = draw(st.permutations(SIX))[: draw(st.integers(3, 6))]
        cells += [f"Q{player}:{value}" for value in cheeses]
    cells += [draw(st.sampled_from("DCM")) for _ in range(size * size - len(cells))]
    cells = draw(st.permutations(cells))
    return count, [cells[r * size : (r + 1) * size] for r in range(size)]


def transpose(board: list[list[object]]) -> list[list[object]]:
    return [list(column) for column in zip(*board, strict=True)]


class TestProperties:
    @FAST
    @given(any_board(), st.randoms(use_true_random=False))
    def test_removal_does_not_depend_on_the_visiting_order(self, board: list, rng: random.Random) -> None:
        after, removed = remove_cards(board)
        cats, mice, cheeses = reference_removal(board, rng)
        assert (set(removed.cats), set(removed.mice), set(removed.cheeses)) == (cats, mice, cheeses)
        assert all(list(step) == sorted(step) for step in removed)
        gone = cats | mice | cheeses
        for r, row in enumerate(board):
            for c, cell in enumerate(row):
                assert after[r][c] == (None if (r, c) in gone else cell)

    @FAST
    @given(any_board().filter(lambda b: len(b) > 0))
    def test_removal_follows_transposing_and_mirroring(self, board: list) -> None:
        after, removed = remove_cards(board)
        height, width = len(board), len(board[0])

        t_after, t_removed = remove_cards(transpose(board))
        assert t_after == transpose(after)
        for step, t_step in zip(removed, t_removed, strict=True):
            assert {(c, r) for r, c in step} == set(t_step)

        m_after, m_removed = remove_cards([row[::-1] for row in board[::-1]])
        assert m_after == [row[::-1] for row in after[::-1]]
        for step, m_step in zip(removed, m_removed, strict=True):
            assert {(height - 1 - r, width - 1 - c) for r, c in step} == set(m_step)

    @FAST
    @given(valid_board(), st.integers(1, 3))
    def test_rotating_the_seats_changes_no_players_result(self, drawn: tuple, shift: int) -> None:
        count, board = drawn

        def seat(k: int) -> int:
            return (k - 1 + shift) % count + 1

        def renumber(cell: object) -> object:
            if isinstance(cell, str) and cell.startswith("Q"):
                k, v = cell[1:].split(":")
                return f"Q{seat(int(k))}:{v}"
            return cell

        names = NAMES[:count]
        moved = [[renumber(cell) for cell in row] for row in board]
        moved_names = [names[(i - shift) % count] for i in range(count)]
        before = {p["name"]: p for p in scoring.score(sheet(count, board=board))["players"]}
        after = {p["name"]: p for p in scoring.score({**sheet(count, board=moved), "players": moved_names})["players"]}
        for name in names:
            old, new = before[name], after[name]
            assert (old["score"], old["rank"], old["tiebreak"]) == (new["score"], new["rank"], new["tiebreak"])
            old_breakdown, new_breakdown = dict(old["breakdown"]), dict(new["breakdown"])
            old_board = old_breakdown.pop("board_after")
            assert new_breakdown.pop("board_after") == [[renumber(cell) for cell in row] for row in old_board]
            assert old_breakdown == new_breakdown

    @FAST
    @given(valid_board())
    def test_score_is_the_cheeses_not_next_to_a_remaining_mouse(self, drawn: tuple) -> None:
        count, board = drawn
        size = len(board)

        def around(r: int, c: int) -> list[str]:
            spots = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            return [board[i][j] for i, j in spots if 0 <= i < size and 0 <= j < size]

        def cat_stays(r: int, c: int) -> bool:
            return "D" not in around(r, c)

        def mouse_stays(r: int, c: int) -> bool:
            spots = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            return not any(0 <= i < size and 0 <= j < size and board[i][j] == "C" and cat_stays(i, j) for i, j in spots)

        def cheese_stays(r: int, c: int) -> bool:
            spots = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            return not any(
                0 <= i < size and 0 <= j < size and board[i][j] == "M" and mouse_stays(i, j) for i, j in spots
            )

        expected_points, expected_cards, expected_lost = Counter(), Counter(), {k: [] for k in range(1, count + 1)}
        for r in range(size):
            for c in range(size):
                cell = board[r][c]
                if cell.startswith("Q"):
                    k, v = (int(x) for x in cell[1:].split(":"))
                    if cheese_stays(r, c):
                        expected_points[k] += v
                        expected_cards[k] += 1
                    else:
                        expected_lost[k].append(v)
        players = scoring.score(sheet(count, board=board))["players"]
        for k, player in enumerate(players, start=1):
            assert player["score"] == expected_points[k]
            assert player["tiebreak"] == [expected_cards[k]]
            assert sorted(player["breakdown"]["lost_cheeses"]) == sorted(expected_lost[k])

    @FAST
    @given(valid_board())
    def test_board_and_tallies_agree(self, drawn: tuple) -> None:
        count, board = drawn
        from_board = scoring.score(sheet(count, board=board))["players"]
        written = [(p["score"], p["breakdown"]["cheese_cards"]) for p in from_board]
        from_tallies = scoring.score(sheet(count, tallies=tallies(*written)))["players"]
        assert [(p["score"], p["rank"], p["tiebreak"]) for p in from_board] == [
            (p["score"], p["rank"], p["tiebreak"]) for p in from_tallies
        ]

    @FAST
    @given(
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
            lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
            max_leaves=60,
        ),
        st.sampled_from([2, 3, 4]),
        st.sampled_from(["board", "tallies"]),
    )
    def test_junk_only_ever_gives_an_error_document(self, junk: object, count: int, key: str) -> None:
        try:
            scoring.score(sheet(count, **{key: junk}))
        except scoring.ScoreSheetError as error:
            assert error.errors
            assert all(set(e) == {"path", "message"} for e in error.errors)

    @FAST
    @given(valid_board(), st.data())
    def test_one_changed_cell_never_crashes(self, drawn: tuple, data: st.DataObject) -> None:
        count, board = drawn
        r, c = data.draw(st.integers(0, len(board) - 1)), data.draw(st.integers(0, len(board) - 1))
        value = data.draw(st.sampled_from(["S", "D", "C", "M", None, "Q1:3", "Q4:1", "Q2:2", 7]))
        try:
            result = scoring.score(sheet(count, board=with_cell(board, r, c, value)))
        except scoring.ScoreSheetError as error:
            assert error.errors
        else:
            assert len(result["players"]) == count
