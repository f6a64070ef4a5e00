"""What a call of ``snakes.analysis.live_odds`` costs, on states met in real games.

    .venv/bin/python bench/odds_bench.py [--states N]

The chain for a board and rule set is built once (timed separately); after that every
call only reads precomputed rows. Goal: under 1 ms per call. One core.
"""

from __future__ import annotations

import argparse
import os
import time

# One core: numpy's libraries single-threaded (set before numpy loads), process pinned below.
os.environ.update(
    dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1")
)

from snakes.analysis import TurnChain, live_odds
from snakes.analysis.markov import _chain
from snakes.analysis.moves import _roll_table
from snakes.boards import load_board
from snakes.engine import Finish, GameState, Rules, SeededDice, new_game, roll


def pin_to_one_core() -> str:
    """Pin this process to one CPU (the first it may use); say which, or why not."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this system)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def states(players: int, rules: Rules, count: int, board_name: str) -> list[GameState]:
    dice, found = SeededDice(7), []
    board = load_board(board_name)
    state = new_game(players, rules, board)
    while len(found) < count:
        if state.over:
            state = new_game(players, rules, board)
        found.append(state)
        state, _ = roll(state, dice)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--states", type=int, default=2_000)
    args = parser.parse_args()
    print(pin_to_one_core())
    for board_name in ("jungle", "treacherous"):
        _chain.cache_clear()
        _roll_table.cache_clear()
        started = time.perf_counter()
        chain = TurnChain.of(load_board(board_name), Rules())
        built = time.perf_counter() - started
        print(
            f"\n{board_name}: chain built in {built * 1000:.0f} ms "
            f"(horizon {chain.horizon} turns, tail {chain.tail:.1e})"
        )
        print(
            f"{'mode':<20} {'seats':>5} {'calls':>7} {'mean us/call':>13} "
            f"{'median us':>10} {'99% us':>8}"
        )
        for finish in Finish:
            for players in (2, 4, 6):
                sample = states(players, Rules(finish=finish), args.states, board_name)
                live_odds(sample[0])
                times = []
                for state in sample:
                    started = time.perf_counter()
                    live_odds(state)
                    times.append(time.perf_counter() - started)
                mean = sum(times) / len(times) * 1e6
                times.sort()
                median, p99 = times[len(times) // 2] * 1e6, times[len(times) * 99 // 100] * 1e6
                print(
                    f"{finish.value:<20} {players:>5} {len(times):>7} {mean:>13.1f} "
                    f"{median:>10.1f} {p99:>8.0f}"
                )


if __name__ == "__main__":
    main()
