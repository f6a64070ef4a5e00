"""The boards a room can be played on: the ones that ship with the game, by name.

Reading a shipped board needs the board files and the engine alone (``snakes.boards``);
how long a game on each takes, for the picker, is worked out above the rooms
(``server/boards.py``, with numpy).
"""

from __future__ import annotations

import functools

from snakes.boards import SHIPPED, BoardFileError, shipped_board
from snakes.engine import Board
from snakes.server.rooms.errors import InvalidBoard


@functools.lru_cache(maxsize=32)
def board_named(name: str) -> Board:
    """A shipped board; an unknown name is a typed refusal."""
    if name not in SHIPPED:
        raise InvalidBoard(f"no board is called {name[:40]!r}")
    try:
        return shipped_board(name).board
    except BoardFileError as error:  # pragma: no cover - shipped boards are tested
        raise InvalidBoard(str(error)) from None
