"""Exact odds of Snakes & Ladders from the game's Markov chain, not from sampling.

>>> from snakes.analysis import analyze, live_odds
>>> from snakes.engine import JUNGLE, Rules, new_game
>>> round(analyze(JUNGLE, Rules(), players=1).law.mean, 2)
55.61
>>> [round(p, 3) for p in live_odds(new_game(3))]
[0.34, 0.333, 0.327]
"""

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
