"""Boards are data and are validated; squares map to cells in snaking order."""

from __future__ import annotations

import json
from typing import Any

import pytest

from snakes.engine import (
    FINISH,
    JUNGLE,
    SIDE,
    Board,
    BoardError,
    Jump,
    cell_of,
    make_board,
    square_at,
)


def problems_of(ladders: list[tuple[int, int]], snakes: list[tuple[int, int]]) -> tuple[str, ...]:
    with pytest.raises(BoardError) as refused:
        make_board("bad", ladders, snakes)
    return refused.value.problems


# Validation


def test_every_problem_is_reported_at_once_in_one_board_error() -> None:
    with pytest.raises(BoardError) as refused:
        make_board(
            "bad",
            ladders=[(40, 30), (0, 10), (60, 70), (60, 80)],
            snakes=[(20, 30), (99, -1), (70, 5)],
        )
    error = refused.value
    assert error.problems == (
        "ladder 40->30 must go up",
        "ladder 0->10 must start on a square from 1 to 99",
        "square 60 has more than one ladder or snake",
        "snake 20->30 must go down",
        "snake 99->-1 must end on a square from 1 to 100",
        "the jump 60->70 ends where the jump 70->5 starts",
    )
    assert error.code == "invalid_board"
    assert str(error) == "invalid board: " + "; ".join(error.problems)
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(("start", "end"), [(50, 40), (50, 50)])
def test_ladders_must_go_up(start: int, end: int) -> None:
    assert f"ladder {start}->{end} must go up" in problems_of([(start, end)], [])


@pytest.mark.parametrize(("start", "end"), [(40, 50), (50, 50)])
def test_snakes_must_go_down(start: int, end: int) -> None:
    assert f"snake {start}->{end} must go down" in problems_of([], [(start, end)])


@pytest.mark.parametrize(
    ("ladders", "snakes", "label"),
    [
        ([(0, 5)], [], "ladder 0->5"),
        ([(-3, 5)], [], "ladder -3->5"),
        ([], [(100, 50)], "snake 100->50"),
        ([], [(101, 50)], "snake 101->50"),
    ],
)
def test_a_jump_starts_on_a_square_from_1_to_99(
    ladders: list[tuple[int, int]], snakes: list[tuple[int, int]], label: str
) -> None:
    # Nothing may start on 100: a token there has finished.
    assert problems_of(ladders, snakes) == (f"{label} must start on a square from 1 to 99",)


def test_jumps_may_use_the_first_and_last_squares() -> None:
    board = make_board("edges", ladders=[(1, 100)], snakes=[(99, 2)])
    assert board.destination(1) == 100 and board.destination(99) == 2


@pytest.mark.parametrize(("kind", "start", "end"), [("ladder", 50, 101), ("snake", 50, 0)])
def test_a_jump_ends_on_a_square_from_1_to_100(kind: str, start: int, end: int) -> None:
    jumps = [(start, end)]
    problems = problems_of(jumps, []) if kind == "ladder" else problems_of([], jumps)
    assert problems == (f"{kind} {start}->{end} must end on a square from 1 to 100",)


def test_one_jump_per_square() -> None:
    assert problems_of([(10, 20)], [(10, 5)]) == ("square 10 has more than one ladder or snake",)
    assert problems_of([(10, 20), (10, 30)], []) == ("square 10 has more than one ladder or snake",)


@pytest.mark.parametrize(
    ("ladders", "snakes", "problem"),
    [
        ([(10, 20), (20, 30)], [], "the jump 10->20 ends where the jump 20->30 starts"),
        ([(10, 40)], [(40, 5)], "the jump 10->40 ends where the jump 40->5 starts"),
        ([], [(60, 30), (30, 2)], "the jump 60->30 ends where the jump 30->2 starts"),
        ([(30, 60)], [(60, 30)], "the jump 30->60 ends where the jump 60->30 starts"),
    ],
)
def test_no_jump_ends_where_another_starts(
    ladders: list[tuple[int, int]], snakes: list[tuple[int, int]], problem: str
) -> None:
    # One jump per move: a chain would mean two jumps for one landing.
    assert problem in problems_of(ladders, snakes)


def test_an_empty_board_is_valid() -> None:
    board = make_board("plain", [], [])
    assert dict(board.jumps) == {} and board.ladders == () and board.snakes == ()
    assert board.biggest_ladder is None and board.longest_snake is None


def test_a_board_cannot_be_changed_after_validation() -> None:
    with pytest.raises(TypeError):
        JUNGLE.jumps[5] = 50  # type: ignore[index]


def test_destination_applies_one_jump_at_most() -> None:
    assert JUNGLE.destination(28) == 84
    assert JUNGLE.destination(99) == 27
    for square in range(1, FINISH + 1):
        assert JUNGLE.destination(JUNGLE.destination(square)) == JUNGLE.destination(square)
    assert [JUNGLE.destination(s) for s in (2, 38, 84, 27, 100)] == [2, 38, 84, 27, 100]


def test_ladders_and_snakes_are_listed_in_square_order() -> None:
    assert all(j.is_ladder and not j.is_snake for j in JUNGLE.ladders)
    assert all(j.is_snake and not j.is_ladder for j in JUNGLE.snakes)
    assert [j.start for j in JUNGLE.ladders] == sorted(j.start for j in JUNGLE.ladders)
    assert JUNGLE.ladders[0] == Jump(1, 38) and JUNGLE.snakes[-1] == Jump(99, 27)


# Boards as data


def test_from_data_builds_a_board() -> None:
    board = Board.from_data({"name": "tiny", "ladders": [[2, 50]], "snakes": [(60, 3)]})
    assert board.name == "tiny" and dict(board.jumps) == {2: 50, 60: 3}


def test_from_data_defaults_to_a_custom_board_without_jumps() -> None:
    board = Board.from_data({})
    assert board.name == "custom" and dict(board.jumps) == {}


def test_from_data_reports_every_malformed_entry_and_rule_problem_at_once() -> None:
    data: dict[str, Any] = {
        "name": "  ",
        "ladders": [[1], [1, 2, 3], "ab", [1, "2"], [True, 5], [1.0, 5], None, [70, 60]],
        "snakes": {"50": 10},
    }
    with pytest.raises(BoardError) as refused:
        Board.from_data(data)
    assert refused.value.problems == (
        "name must be a non-empty string",
        "ladders entry [1] is not a [start, end] pair of integers",
        "ladders entry [1, 2, 3] is not a [start, end] pair of integers",
        "ladders entry 'ab' is not a [start, end] pair of integers",
        "ladders entry [1, '2'] is not a [start, end] pair of integers",
        "ladders entry [True, 5] is not a [start, end] pair of integers",
        "ladders entry [1.0, 5] is not a [start, end] pair of integers",
        "ladders entry None is not a [start, end] pair of integers",
        "snakes must be a list of [start, end] pairs",
        "ladder 70->60 must go up",
    )


@pytest.mark.parametrize("name", [5, None, "", "   "], ids=repr)
def test_from_data_needs_a_name_that_is_a_non_empty_string(name: object) -> None:
    with pytest.raises(BoardError) as refused:
        Board.from_data({"name": name})
    assert refused.value.problems == ("name must be a non-empty string",)


@pytest.mark.parametrize("data", [[], None, "jungle", 3], ids=repr)
def test_from_data_refuses_a_description_that_is_not_an_object(data: object) -> None:
    with pytest.raises(BoardError):
        Board.from_data(data)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "board",
    [
        JUNGLE,
        make_board("plain", [], []),
        make_board("lift", [(50, 100), (2, 3)], [(99, 1), (5, 4)]),
    ],
    ids=lambda board: board.name,
)
def test_to_data_and_from_data_round_trip(board: Board) -> None:
    data = board.to_data()
    assert Board.from_data(data) == board
    assert Board.from_data(json.loads(json.dumps(data))) == board  # via JSON too
    assert dict(Board.from_data(data).jumps) == dict(board.jumps)


def test_to_data_lists_ladders_and_snakes_as_pairs() -> None:
    assert make_board("t", [(2, 50)], [(60, 3)]).to_data() == {
        "name": "t",
        "ladders": [[2, 50]],
        "snakes": [[60, 3]],
    }


# Squares and cells


def test_cell_of_and_square_at_are_inverse_over_every_square() -> None:
    cells = set()
    for square in range(1, FINISH + 1):
        row, column = cell_of(square)
        assert 0 <= row < SIDE and 0 <= column < SIDE
        assert square_at(row, column) == square
        cells.add((row, column))
    assert len(cells) == SIDE * SIDE  # every cell of the grid holds exactly one square
    for row in range(SIDE):
        for column in range(SIDE):
            assert cell_of(square_at(row, column)) == (row, column)


def test_rows_alternate_direction() -> None:
    assert [cell_of(s)[1] for s in range(1, 11)] == list(range(10))
    assert [cell_of(s)[1] for s in range(11, 21)] == list(range(9, -1, -1))
    assert [square_at(9, c) for c in range(10)] == list(range(100, 90, -1))


@pytest.mark.parametrize("square", [0, 101, -1])
def test_cell_of_refuses_squares_off_the_board(square: int) -> None:
    with pytest.raises(ValueError, match="not on the board"):
        cell_of(square)


@pytest.mark.parametrize(("row", "column"), [(10, 0), (0, 10), (-1, 0), (0, -1)])
def test_square_at_refuses_cells_off_the_board(row: int, column: int) -> None:
    with pytest.raises(ValueError, match="not on the board"):
        square_at(row, column)
