"""Exact odds of Snakes & Ladders from the game's Markov chain, not from sampling.

>>> from snakes.analysis import analyze, live_odds
>>> from snakes.engine import JUNGLE, Rules, new_game
>>> round(analyze(JUNGLE, Rules(), players=1).law.mean, 2)
55.61
>>> [round(p, 3) for p in live_odds(new_game(3))]
[0.34, 0.333, 0.327]

The chain needs numpy, so this package loads its modules when a name of theirs is first
asked for: ``snakes.analysis.moves`` (every roll's outcome, which ``snakes.boards``
checks a board with) is imported without numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from snakes.analysis.markov import (
        BoardTooSlow,
        TurnChain,
        TurnsLaw,
        UnanalysableBoard,
        UnfinishableBoard,
        check_budget,
        turns_law,
        use_one_blas_thread,
    )
    from snakes.analysis.odds import (
        Analysis,
        analyze,
        live_odds,
        live_place_chances,
        place_chances,
        play_order,
        win_by_turn,
    )

__all__ = [
    "Analysis",
    "BoardTooSlow",
    "TurnChain",
    "TurnsLaw",
    "UnanalysableBoard",
    "UnfinishableBoard",
    "analyze",
    "check_budget",
    "live_odds",
    "live_place_chances",
    "place_chances",
    "play_order",
    "turns_law",
    "use_one_blas_thread",
    "win_by_turn",
]

_HOMES = {
    **dict.fromkeys(
        (
            "BoardTooSlow",
            "TurnChain",
            "TurnsLaw",
            "UnanalysableBoard",
            "UnfinishableBoard",
            "check_budget",
            "turns_law",
            "use_one_blas_thread",
        ),
        "snakes.analysis.markov",
    ),
    **dict.fromkeys(
        (
            "Analysis",
            "analyze",
            "live_odds",
            "live_place_chances",
            "place_chances",
            "play_order",
            "win_by_turn",
        ),
        "snakes.analysis.odds",
    ),
}
"""Where each public name lives."""


def __getattr__(name: str) -> Any:
    """A public name, from its module (imported, with numpy, the first time)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
