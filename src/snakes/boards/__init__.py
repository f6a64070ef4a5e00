"""Board files: custom boards as JSON or TOML, validated like the engine's, and shipped ones.

A board file holds ``name``, an optional ``description``, ``ladders`` and ``snakes`` (lists of
``[start, end]`` pairs); ``docs/BOARDS.md`` is its schema. Every problem is reported at once.

>>> [b.name for b in shipped_boards()]
['jungle', 'short', 'ladders-galore', 'treacherous', 'bare']
>>> from snakes.engine import JUNGLE
>>> load_board("jungle") == JUNGLE
True
>>> board_from_data({"name": "tiny", "ladders": [[2, 50]], "snakes": [[60, 3]]}).jumps[2]
50
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from snakes.analysis.moves import roll_table, stuck_squares
from snakes.engine import FINISH, Board, BoardError, Rules

MAX_FILE_BYTES = 1_000_000
"""A board file is a few hundred bytes; anything this big is not one."""

FIELDS = ("name", "description", "ladders", "snakes")

SHIPPED = ("jungle", "short", "ladders-galore", "treacherous", "bare")
"""The shipped boards, in the order ``snakes boards`` lists them."""


class BoardFileError(ValueError):
    """A board file that cannot be read or breaks the board rules; ``problems`` lists all."""

    code = "invalid_board_file"

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(f"{source}: " + "; ".join(problems))


@dataclass(frozen=True, slots=True)
class ShippedBoard:
    """A board that comes with the game."""

    name: str
    description: str
    board: Board


def board_from_data(data: object, default_name: str = "custom") -> Board:
    """Validate a board description and build the board, reporting every problem at once.

    On top of the engine's rules (:meth:`Board.from_data`) a board file may not have
    unknown fields, and no square a token can reach may be a trap it can never leave for
    100 (six snake heads in a row below 100 would be one).

    >>> board_from_data({"ladders": [[5, 2]], "snakes": [[3, 9]], "colour": "red"})
    Traceback (most recent call last):
    ...
    snakes.engine.errors.BoardError: invalid board: unknown field 'colour' (a board has name, \
description, ladders, snakes); ladder 5->2 must go up; snake 3->9 must go down
    """
    if not isinstance(data, Mapping):
        raise BoardError(["a board is an object with name, ladders and snakes"])
    problems = [
        f"unknown field {key!r} (a board has {', '.join(FIELDS)})"
        for key in data
        if key not in FIELDS
    ]
    description = data.get("description", "")
    if not isinstance(description, str):
        problems.append("description must be a string")
    fields = {k: v for k, v in data.items() if k in ("name", "ladders", "snakes")}
    fields.setdefault("name", default_name)
    try:
        board = Board.from_data(fields)
    except BoardError as error:
        raise BoardError(problems + list(error.problems)) from None
    if problems:
        raise BoardError(problems)
    # Exact finish is the stricter rule: a board playable with it is playable without.
    stuck = stuck_squares(roll_table(board, Rules(exact_finish=True)))
    if stuck:
        shown = ", ".join(str(s) for s in stuck[:10]) + (", ..." if len(stuck) > 10 else "")
        raise BoardError(
            [
                f"a token on square(s) {shown} can never reach {FINISH} (every way there is "
                "blocked), so a game on this board need never end"
            ]
        )
    return board


def _parse(text: str, suffix: str, source: str) -> object:
    if suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise BoardFileError(source, [f"not valid TOML: {error}"]) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        if suffix == ".json":
            raise BoardFileError(source, [f"not valid JSON: {error}"]) from None
    try:  # neither .json nor .toml: whichever reads
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise BoardFileError(source, ["neither valid JSON nor valid TOML"]) from None


def read_board_text(text: str, suffix: str = ".json", source: str = "board") -> Board:
    """A board from the text of a board file (``suffix`` says JSON or TOML)."""
    data = _parse(text, suffix.lower(), source)
    try:
        return board_from_data(data, default_name=Path(source).stem or "custom")
    except BoardError as error:
        raise BoardFileError(source, list(error.problems)) from None


def read_board_file(path: str | Path) -> Board:
    """Read and validate a board file (``.json``, ``.toml``, or either by content)."""
    path = Path(path)
    source = str(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise BoardFileError(source, [f"cannot read the file: {error.strerror or error}"]) from None
    if len(raw) > MAX_FILE_BYTES:
        raise BoardFileError(source, [f"larger than {MAX_FILE_BYTES:,} bytes: not a board file"])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BoardFileError(source, ["not UTF-8 text"]) from None
    return read_board_text(text, path.suffix, source)


def _shipped_path(name: str) -> resources.abc.Traversable | None:
    folder = resources.files(__name__)
    for suffix in (".json", ".toml"):
        candidate = folder / f"{name}{suffix}"
        if candidate.is_file():
            return candidate
    return None


def shipped_board(name: str) -> ShippedBoard:
    """One shipped board by name."""
    path = _shipped_path(name)
    if path is None or name not in SHIPPED:
        raise BoardFileError(name, [f"no shipped board named {name!r} ({', '.join(SHIPPED)})"])
    text = path.read_text(encoding="utf-8")
    data = _parse(text, Path(path.name).suffix, name)
    description = data.get("description", "") if isinstance(data, dict) else ""
    return ShippedBoard(
        name=name,
        description=str(description),
        board=read_board_text(text, Path(path.name).suffix, f"shipped board {name}"),
    )


def shipped_boards() -> list[ShippedBoard]:
    """Every shipped board, in :data:`SHIPPED` order."""
    return [shipped_board(name) for name in SHIPPED]


def load_board(name_or_path: str | Path) -> Board:
    """A board from a file path, or a shipped board by name (a file path wins).

    >>> load_board("short").name
    'short'
    >>> load_board("nowhere.json")
    Traceback (most recent call last):
    ...
    snakes.boards.BoardFileError: nowhere.json: no such file, and no shipped board by that \
name (jungle, short, ladders-galore, treacherous, bare)
    """
    path = Path(name_or_path)
    if path.exists():
        return read_board_file(path)
    name = str(name_or_path)
    if name in SHIPPED:
        return shipped_board(name).board
    raise BoardFileError(
        name, [f"no such file, and no shipped board by that name ({', '.join(SHIPPED)})"]
    )
