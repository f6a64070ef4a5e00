"""Board files: custom boards in JSON or TOML, validated like the engine's, and shipped ones."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from snakes.analysis import turns_law
from snakes.boards import (
    SHIPPED,
    BoardFileError,
    board_from_data,
    load_board,
    read_board_file,
    shipped_boards,
)
from snakes.engine import JUNGLE, BoardError, Rules


def test_every_shipped_board_is_package_data_and_valid() -> None:
    files = {p.name for p in resources.files("snakes.boards").iterdir() if p.is_file()}
    names = [b.name for b in shipped_boards()]
    assert names == list(SHIPPED)
    for name in names:
        assert f"{name}.json" in files or f"{name}.toml" in files
    assert all(b.description for b in shipped_boards())


def test_the_shipped_jungle_board_is_the_engines_jungle_board() -> None:
    assert load_board("jungle") == JUNGLE
    assert load_board("jungle").to_data() == JUNGLE.to_data()


def test_the_shipped_boards_offer_a_short_game_and_a_long_one() -> None:
    laws = {b.name: turns_law(b.board, Rules()) for b in shipped_boards()}
    assert min(laws, key=lambda n: laws[n].p90) == "short"
    assert max(laws, key=lambda n: laws[n].mean) == "treacherous"
    assert laws["short"].p90 < laws["jungle"].median


def test_a_json_board_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"name": "Mine", "ladders": [[3, 50]], "snakes": [[60, 2]]}))
    board = load_board(path)
    assert board.name == "Mine"
    assert dict(board.jumps) == {3: 50, 60: 2}


def test_a_toml_board_file_loads_and_a_missing_name_is_the_files(tmp_path: Path) -> None:
    path = tmp_path / "garden.toml"
    path.write_text('description = "x"\nladders = [[3, 50]]\nsnakes = [[60, 2], [99, 7]]\n')
    board = read_board_file(path)
    assert board.name == "garden"
    assert dict(board.jumps) == {3: 50, 60: 2, 99: 7}


def test_a_board_file_reports_every_problem_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "name": "",
                "ladders": [[5, 2], [10, 120], "x"],
                "snakes": [[0, 1], [10, 4]],
                "colour": "red",
            }
        )
    )
    with pytest.raises(BoardFileError) as caught:
        load_board(path)
    problems = caught.value.problems
    assert caught.value.source == str(path)
    for words in (
        "unknown field 'colour'",
        "name must be a non-empty string",
        "'x' is not a [start, end] pair",
        "ladder 5->2 must go up",
        "ladder 10->120 must end on a square from 1 to 100",
        "snake 0->1 must start on a square from 1 to 99",
        "square 10 has more than one ladder or snake",
    ):
        assert any(words in p for p in problems), (words, problems)


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("broken.json", "{", "not valid JSON"),
        ("broken.toml", "ladders = [[", "not valid TOML"),
        ("list.json", "[1, 2]", "a board is an object"),
        ("noext", "ladders = 3 +", "neither valid JSON nor valid TOML"),
    ],
)
def test_an_unreadable_board_file_says_why(
    tmp_path: Path, name: str, text: str, words: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(BoardFileError, match=words):
        load_board(path)


def test_a_board_file_that_is_not_text_or_not_there_is_refused(tmp_path: Path) -> None:
    binary = tmp_path / "board.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BoardFileError, match="not UTF-8"):
        load_board(binary)
    with pytest.raises(BoardFileError, match="no such file, and no shipped board"):
        load_board(tmp_path / "missing.json")
    with pytest.raises(BoardFileError, match="cannot read"):
        read_board_file(tmp_path)


def test_a_board_that_can_trap_a_token_is_refused() -> None:
    with pytest.raises(BoardError, match="can never reach 100"):
        board_from_data({"name": "trap", "snakes": [[94 + i, 10 + i] for i in range(6)]})


def test_a_ladder_to_100_finishes_and_is_allowed() -> None:
    board = board_from_data({"name": "lift", "ladders": [[50, 100]]})
    assert board.destination(50) == 100
