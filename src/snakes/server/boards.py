"""The shipped boards as the board picker lists them: each with how long a game takes.

A room finds its board by name with :func:`board_named` (``rooms/boards.py``).
"""

from __future__ import annotations

import functools
from typing import Any

from snakes.analysis import analyze
from snakes.boards import SHIPPED, shipped_board
from snakes.engine import Rules
from snakes.server.rooms.boards import board_named as board_named  # noqa: PLC0414 - re-exported


@functools.lru_cache(maxsize=1)
def board_catalogue() -> list[dict[str, Any]]:
    """Every shipped board with how long a game on it takes (exact, one player, defaults).

    Worked out once per process: the Markov chain of each board takes a few tens of ms.
    """
    catalogue = []
    for name in SHIPPED:
        shipped = shipped_board(name)
        law = analyze(shipped.board, Rules(), players=1).law
        # What a table choosing a board wants to know: how long a game takes. For the
        # commonest game (two players, Classic), its rounds: the median, and the middle
        # two games in three (per player, the range would be much wider than a game's).
        game = analyze(shipped.board, Rules(), players=2).winning_turns
        catalogue.append(
            {
                "name": name,
                "title": name.replace("-", " ").capitalize(),
                "description": shipped.description,
                "ladders": len(shipped.board.ladders),
                "snakes": len(shipped.board.snakes),
                "mean_turns": round(law.mean, 1),
                "median_turns": law.median,
                "p10_turns": law.p10,
                "p90_turns": law.p90,
                "game_median_turns": game.median,
                "game_low_turns": game.quantile(1 / 6),
                "game_high_turns": game.quantile(5 / 6),
                # Every ladder and snake as [start, end], for the picker's small preview.
                "jumps": [[start, end] for start, end in sorted(shipped.board.jumps.items())],
            }
        )
    return catalogue
