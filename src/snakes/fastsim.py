"""A fast simulator: many games at once with numpy, every die roll rolled, roll by roll.

It plays the same games as :func:`snakes.simulate.simulate` and reports the same figures,
thousands of times faster: ``bench/sim_bench.py`` prints the ratio, 2,091-8,850 in three
runs on a shared 2-core machine (docs/BENCHMARKS.md). Nothing is sampled from the exact
answer: each token rolls its die one roll at a time, and each roll's effect comes from a
table the rules engine itself filled in (:mod:`snakes.analysis.moves`).

How it is fast:

- Every token is a *lane*: a small integer code for (square, sixes so far in the turn),
  kept pre-multiplied by 128 in a ``uint16``. One 7-bit random draw per lane and step
  picks the roll, so a step is ``state = table[state + draw]`` for a whole array of
  lanes, plus a count of the turns that ended. Draws 0-119 give ``u = draw // 4``, uniform
  on 0-29; the face is ``u % 6 + 1`` (or ``u % 5 + 1`` after two sixes, as 30 is a
  multiple of both); draws 120-127 are rejected (the lane waits one step, counting
  nothing), so every face is exactly equally likely.
- Tokens never interact, so each seat of a game is its own lane with its own dice, and a
  game's result follows from each seat's finishing turn and the turn order (the same
  argument as the exact analysis). In Classic, a lane stops as soon as it can no longer
  beat the seat that has already won its game: those rolls would never have been made.
- Lanes that finish are swept out every few steps and new games take their place, so the
  arrays stay full.

>>> report = fast_simulate(20_000, seed=1)
>>> 50 < report.mean_turns < 61
True
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from snakes.analysis.moves import ChainKey, chain_key, roll_table
from snakes.engine import FINISH, JUNGLE, MAX_SEATS, MIN_SEATS, Board, Finish, Rules
from snakes.simulate import report_data

IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]

_JUST_FINISHED = FINISH  # code 100: the lane reached 100 on this step (a turn ended)
_FINISHED = FINISH + 1  # code 101: the lane is done (absorbing)
_WAITING = 102  # codes 102-201: start of a turn, nothing counted (start, or a rejected draw)
_SIXES = (0, 202, 302)  # codes for a turn in progress after 1 or 2 sixes (offset by sixes)
_CODES = 402
_WIDTH = 128
"""Each code's row: one entry per 7-bit random draw."""
_SHIFT = 7
_ACCEPT = 120
"""Draws below this roll the die (30 values x 4); the rest (6.25%) are rejected."""
_COUNTED = (_JUST_FINISHED + 1) << _SHIFT
"""A lane whose new state is below this just ended a turn (codes 0-100)."""

MAX_TURNS = 1_000_000
"""A lane still racing after this many turns means a broken board; stop rather than spin."""

State = npt.NDArray[np.uint16]


def _code(square: int, sixes: int, *, counted: bool) -> int:
    if square == FINISH:
        return _JUST_FINISHED
    if sixes:
        return _SIXES[sixes] + square
    return square if counted else _WAITING + square


def face_of_draw(draw: int, faces: int) -> int | None:
    """The face a 7-bit draw rolls on a die of ``faces`` faces; None if it is rejected.

    Draws 0-119 give ``u = draw // 4``, uniform on 0-29, and 30 is a multiple of 5 and 6.

    >>> [face_of_draw(d, 6) for d in (0, 4, 20, 24, 119, 120)]
    [1, 2, 6, 1, 6, None]
    """
    if draw >= _ACCEPT:
        return None
    return (draw >> 2) % faces + 1


@lru_cache(maxsize=32)
def step_table(key: ChainKey) -> State:
    """``table[code * 128 + draw]`` is a lane's next code, times 128, for a 7-bit draw.

    >>> from snakes.analysis.moves import chain_key
    >>> table = step_table(chain_key())
    >>> int(table[0 * 128 + 0]) >> 7  # square 0, draw 0 -> u = 0 -> a 1: climbs to 38
    38
    >>> int(table[0 * 128 + 127]) >> 7  # a rejected draw: wait on square 0, count nothing
    102
    """
    jumps, exact_finish, six_again = key
    table = roll_table(
        Board("fastsim", dict(jumps)), Rules(exact_finish=exact_finish, six_again=six_again)
    )
    result = np.zeros((_CODES, _WIDTH), dtype=np.uint16)
    result[_JUST_FINISHED] = _FINISHED
    result[_FINISHED] = _FINISHED
    for sixes in range(table.sixes_counts):
        faces = table.faces(sixes)
        for square in range(FINISH):
            rolled = [
                _code(outcome.square, sixes + 1 if outcome.bonus else 0, counted=True)
                for outcome in table.outcomes[sixes][square]
            ]
            codes = [_SIXES[sixes] + square] if sixes else [square, _WAITING + square]
            for code in codes:
                row = result[code]
                for draw in range(_WIDTH):
                    value = face_of_draw(draw, faces)
                    if value is None:  # rejected: try again next step, counting nothing
                        row[draw] = _WAITING + square if code == square else code
                    else:
                        row[draw] = rolled[value - 1]
    shifted: State = np.left_shift(result, _SHIFT, dtype=np.uint16).reshape(-1)
    return shifted


@dataclass
class FastReport:
    """The same figures as :class:`snakes.simulate.SimulationReport`, from histograms."""

    games: int
    players: int
    rules: Rules
    seconds: float
    finish_turn_counts: IntArray = field(repr=False)
    """``[k]``: how many seats reached 100 after ``k`` turns (Classic: the winners only)."""
    game_turn_counts: IntArray = field(repr=False)
    """``[k]``: how many games took ``k`` turns, all seats together."""
    wins: list[int]
    place_counts: IntArray = field(repr=False)
    """``[seat, place - 1]``: how often each seat took each place (Last One Standing)."""
    board: str = JUNGLE.name

    @property
    def mean_turns(self) -> float:
        counts = self.finish_turn_counts
        return float(np.arange(len(counts)) @ counts) / float(counts.sum())

    @property
    def median_turns(self) -> float:
        """The median as :func:`statistics.median` gives it (the mean of two middles)."""
        cumulative = np.cumsum(self.finish_turn_counts)
        total = int(cumulative[-1])
        low = int(np.searchsorted(cumulative, (total - 1) // 2 + 1))
        high = int(np.searchsorted(cumulative, total // 2 + 1))
        return statistics.median([low, high]) if low != high else low

    @property
    def longest_game(self) -> int:
        return int(np.flatnonzero(self.game_turn_counts)[-1])

    @property
    def win_share(self) -> list[float]:
        return [w / self.games for w in self.wins]

    @property
    def mean_place(self) -> list[float]:
        places = np.arange(1, self.players + 1)
        return [float(row @ places) / float(row.sum()) for row in self.place_counts]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_data(self) -> dict[str, Any]:
        return report_data(self, board=self.board, simulator="fast")


class _Batch:
    """Runs the lanes of ``games`` games to the end; ``finish[game, seat]`` is the result."""

    def __init__(self, games: int, players: int, classic: bool, table: State, pool: int) -> None:
        self.games = games
        self.players = players
        self.prune = classic and players > 1
        self.table = table
        self.pool = max(pool - pool % players, players)
        self.finish = np.full((games, players), -1, dtype=np.int64)
        self.best = np.full(games, np.iinfo(np.int64).max, dtype=np.int64)
        self.next_game = 0

    def _new_lanes(self, count: int) -> tuple[State, Int32Array, IntArray]:
        games = min(count // self.players, self.games - self.next_game)
        first = self.next_game
        self.next_game += games
        lanes = games * self.players
        state = np.full(lanes, _WAITING << _SHIFT, dtype=np.uint16)
        turns = np.zeros(lanes, dtype=np.int32)
        lane = np.arange(first * self.players, (first + games) * self.players, dtype=np.int64)
        return state, turns, lane

    def run(self, rng: np.random.Generator, block: int) -> None:
        state, turns, lane = self._new_lanes(self.pool)
        table, players = self.table, self.players
        index = np.empty(self.pool, dtype=np.uint16)
        counted = np.empty(self.pool, dtype=bool)
        sweeps = 0
        while state.size:
            size = state.size
            draws = rng.bit_generator.random_raw(-(-size * block // 8)).view(np.uint8)
            np.right_shift(draws, 1, out=draws)  # 7-bit draws
            step_index, step_counted = index[:size], counted[:size]
            for step in range(block):
                np.add(state, draws[step * size : (step + 1) * size], out=step_index)
                np.take(table, step_index, out=state)
                np.less(state, _COUNTED, out=step_counted)
                np.add(turns, step_counted, out=turns)
            sweeps += 1
            done = state >= _JUST_FINISHED << _SHIFT
            done &= state <= _FINISHED << _SHIFT
            finished = int(np.count_nonzero(done))
            refill = self.next_game < self.games
            # Sweep finished lanes out once there are enough of them to be worth it.
            if finished == 0 or (refill and finished * 8 < size and not self.prune):
                continue
            game, seat = np.divmod(lane[done], players)
            self.finish[game, seat] = turns[done]
            keep = ~done
            if self.prune:
                np.minimum.at(self.best, game, turns[done].astype(np.int64) * players + seat)
                game, seat = np.divmod(lane, players)
                keep &= (turns.astype(np.int64) + 1) * players + seat < self.best[game]
            state, turns, lane = state[keep], turns[keep], lane[keep]
            if sweeps % 64 == 0 and turns.size and int(turns.max()) > MAX_TURNS:
                raise RuntimeError(f"a game did not end within {MAX_TURNS:,} turns")
            room = self.pool - state.size
            if refill and room >= players:
                more = self._new_lanes(room)
                state = np.concatenate([state, more[0]])
                turns = np.concatenate([turns, more[1]])
                lane = np.concatenate([lane, more[2]])


def fast_simulate(
    games: int,
    players: int = 1,
    rules: Rules | None = None,
    board: Board = JUNGLE,
    seed: int | None = None,
    *,
    batch: int = 1 << 20,
    pool: int = 1 << 16,
    block: int = 16,
    progress: Callable[[int], None] | None = None,
) -> FastReport:
    """Play ``games`` whole games, vectorised, and gather the same figures as ``simulate``.

    ``pool`` lanes (tokens) race at once, ``block`` rolls between sweeps; results are
    gathered ``batch`` games at a time, so memory stays small for any number of games.

    >>> report = fast_simulate(5_000, players=3, seed=7)
    >>> abs(sum(report.win_share) - 1) < 1e-12
    True
    """
    if games < 1:
        raise ValueError("simulate at least one game")
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise ValueError(f"a game has {MIN_SEATS}-{MAX_SEATS} seats, not {players}")
    rules = rules or Rules()
    classic = rules.finish is Finish.CLASSIC
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    table = step_table(chain_key(board, rules))
    finish_counts = np.zeros(1, dtype=np.int64)
    game_counts = np.zeros(1, dtype=np.int64)
    wins = np.zeros(players, dtype=np.int64)
    place_counts = np.zeros((players, players), dtype=np.int64)
    seats = np.arange(players)
    done = 0
    while done < games:
        count = min(batch, games - done)
        runner = _Batch(count, players, classic, table, pool)
        runner.run(rng, block)
        finish = runner.finish
        if classic:
            # The winner has the smallest (turn, seat); pruned lanes (-1) never won.
            keys = np.where(finish >= 0, finish * players + seats, np.iinfo(np.int64).max)
            winner = np.argmin(keys, axis=1)
            won_at = finish[np.arange(count), winner]
            finished_turns = won_at
            # Seats up to the winner played k turns, those after it k - 1.
            game_turns = (winner + 1) * won_at + (players - 1 - winner) * (won_at - 1)
            wins += np.bincount(winner, minlength=players)
            place_counts[:, 0] += np.bincount(winner, minlength=players)
        else:
            finished_turns = finish.reshape(-1)
            game_turns = finish.sum(axis=1)
            order = np.argsort(finish * players + seats, axis=1, kind="stable")
            for place in range(players):
                place_counts[:, place] += np.bincount(order[:, place], minlength=players)
            wins += np.bincount(order[:, 0], minlength=players)
        finish_counts = _add_counts(finish_counts, np.bincount(finished_turns))
        game_counts = _add_counts(game_counts, np.bincount(game_turns))
        done += count
        if progress is not None:
            progress(done)
    return FastReport(
        games=games,
        players=players,
        rules=rules,
        seconds=time.perf_counter() - started,
        finish_turn_counts=finish_counts,
        game_turn_counts=game_counts,
        wins=[int(w) for w in wins],
        place_counts=place_counts,
        board=board.name,
    )


def _add_counts(total: IntArray, more: IntArray) -> IntArray:
    size = max(len(total), len(more))
    result = np.zeros(size, dtype=np.int64)
    result[: len(total)] += total
    result[: len(more)] += more
    return result
