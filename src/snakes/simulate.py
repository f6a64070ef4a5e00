"""Whole games played through the engine, many at a time, with their statistics."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from snakes.engine import JUNGLE, Board, Finish, GameState, Rules, SeededDice, new_game, roll

MAX_ACTIONS = 100_000
"""A game that runs this long is a bug, not bad luck: stop rather than spin."""


@dataclass
class SimulationReport:
    """What ``games`` whole games showed."""

    games: int
    players: int
    rules: Rules
    seconds: float
    finish_turns: list[int] = field(repr=False)
    """For every seat that reached 100: the turns it took."""
    game_turns: list[int] = field(repr=False)
    """For every game: the turns played in it, all seats together."""
    wins: list[int]
    places: list[list[int]] = field(repr=False)
    """places[seat]: that seat's place in each game (Last One Standing)."""

    @property
    def mean_turns(self) -> float:
        return statistics.fmean(self.finish_turns)

    @property
    def median_turns(self) -> float:
        return statistics.median(self.finish_turns)

    @property
    def longest_game(self) -> int:
        return max(self.game_turns)

    @property
    def win_share(self) -> list[float]:
        return [w / self.games for w in self.wins]

    @property
    def mean_place(self) -> list[float]:
        return [statistics.fmean(p) for p in self.places]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_data(self) -> dict[str, Any]:
        return report_data(self)


class Report(Protocol):
    """What both simulators report (the engine path and the vectorised one)."""

    games: int
    players: int
    rules: Rules

    @property
    def mean_turns(self) -> float: ...
    @property
    def median_turns(self) -> float: ...
    @property
    def longest_game(self) -> int: ...
    @property
    def games_per_second(self) -> float: ...
    @property
    def win_share(self) -> list[float]: ...
    @property
    def mean_place(self) -> list[float]: ...


def report_data(report: Report, **extra: Any) -> dict[str, Any]:
    """A report as one JSON-ready object, the same shape from either simulator."""
    data: dict[str, Any] = {
        "games": report.games,
        "players": report.players,
        "rules": report.rules.to_data(),
        **extra,
        "mean_turns": round(report.mean_turns, 4),
        "median_turns": report.median_turns,
        "longest_game_turns": report.longest_game,
        "games_per_second": round(report.games_per_second, 1),
    }
    if report.rules.finish is Finish.CLASSIC:
        data["win_share"] = [round(s, 4) for s in report.win_share]
    else:
        data["mean_place"] = [round(p, 4) for p in report.mean_place]
    return data


def play_out(state: GameState, dice: SeededDice) -> GameState:
    """Roll for whoever's turn it is until the game is over."""
    for _ in range(MAX_ACTIONS):
        if state.over:
            return state
        state, _ = roll(state, dice)
    raise RuntimeError(f"a game did not end within {MAX_ACTIONS} rolls")


def simulate(
    games: int,
    players: int = 1,
    rules: Rules | None = None,
    board: Board = JUNGLE,
    seed: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` whole games with seeded dice and gather their statistics.

    >>> report = simulate(200, players=1, seed=1)
    >>> 10 < report.mean_turns < 60
    True
    """
    if games < 1:
        raise ValueError("simulate at least one game")
    rules = rules or Rules()
    dice = SeededDice(seed)
    finish_turns: list[int] = []
    game_turns: list[int] = []
    wins = [0] * players
    places: list[list[int]] = [[] for _ in range(players)]
    started = time.perf_counter()
    for number in range(games):
        state = play_out(new_game(players, rules, board), dice)
        finish_turns.extend(state.turns[s] for s in state.standings)
        game_turns.append(sum(state.turns))
        if state.winner is not None:
            wins[state.winner] += 1
        for place, seat in enumerate(state.standings, start=1):
            places[seat].append(place)
        if progress is not None:
            progress(number + 1)
    return SimulationReport(
        games=games,
        players=players,
        rules=rules,
        seconds=time.perf_counter() - started,
        finish_turns=finish_turns,
        game_turns=game_turns,
        wins=wins,
        places=places,
    )
