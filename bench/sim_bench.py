"""Games per second of three ways to simulate, in one run, on one core.

    .venv/bin/python bench/sim_bench.py [--games N] [--engine-games N] [--loop-games N]

1. the engine path: ``snakes.simulate.simulate`` (every roll through the rules engine);
2. the fast path: ``snakes.fastsim.fast_simulate`` (numpy, every roll rolled);
3. a plain Python loop, one game at a time, with the board as a dict and ``random``.

Solo games on the jungle board with the default rules (exact finish, six again). Each
path's mean turns is printed beside the exact figure, as a check that they play the same
game, and its speed as a multiple of the engine path's (the last line says the fast
path's). Numbers are measured, not asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

# One core: numpy's libraries single-threaded (set before numpy loads), process pinned below.
os.environ.update(
    dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1")
)

import numpy as np

from snakes.analysis import turns_law
from snakes.engine import JUNGLE, Board, Finish, Rules
from snakes.fastsim import fast_simulate
from snakes.simulate import simulate


def pin_to_one_core() -> str:
    """Pin this process to one CPU (the first it may use); say which, or why not."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this system)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def plain_loop(games: int, board: Board, rules: Rules, seed: int) -> list[int]:
    """One game at a time: the rules in a dozen lines of plain Python."""
    rng = random.Random(seed)
    jumps = dict(board.jumps)
    turns_taken = []
    for _ in range(games):
        square = turns = 0
        while square != 100:
            turns += 1
            sixes = 0
            while True:
                faces = 5 if rules.six_again and sixes == 2 else 6
                value = rng.randint(1, faces)
                target = square + value
                if target > 100:
                    if rules.exact_finish:
                        break  # overshoot: stay, the turn passes (no bonus)
                    target = 100
                square = jumps.get(target, target)
                if square == 100 or value != 6 or not rules.six_again:
                    break
                sixes += 1
        turns_taken.append(turns)
    return turns_taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=10_000_000, help="fast path games")
    parser.add_argument("--engine-games", type=int, default=5_000)
    parser.add_argument("--loop-games", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pinned = pin_to_one_core()
    rules, board = Rules(), JUNGLE
    exact = turns_law(board, rules).mean
    print(
        f"Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, "
        f"{pinned}"
    )
    print(f"Solo games, {board.name} board, {rules.to_data()}; exact mean turns {exact:.3f}")
    print()
    print(
        f"{'path':<22} {'games':>12} {'seconds':>9} {'games/s':>14} {'mean turns':>11}"
        f" {'x engine':>9}"
    )
    engine_speed = 0.0

    def row(name: str, games: int, seconds: float, mean: float) -> float:
        speed = games / seconds
        ratio = speed / engine_speed if engine_speed else 1.0
        print(
            f"{name:<22} {games:>12,} {seconds:>9.2f} {speed:>14,.0f} {mean:>11.3f} {ratio:>9,.0f}"
        )
        return speed

    report = simulate(args.engine_games, 1, rules, board, seed=args.seed)
    engine_speed = row("engine (simulate)", report.games, report.seconds, report.mean_turns)

    started = time.perf_counter()
    turns = plain_loop(args.loop_games, board, rules, args.seed)
    row(
        "plain Python loop", args.loop_games, time.perf_counter() - started, sum(turns) / len(turns)
    )

    fast_simulate(10_000, 1, rules, board, seed=0)  # build the step table once
    fast = fast_simulate(args.games, 1, rules, board, seed=args.seed)
    fast_speed = row("fast (numpy)", fast.games, fast.seconds, fast.mean_turns)

    print()
    print("Fast path with more seats (mean turns: Classic the winner's, LOS everyone's):")
    for finish in Finish:
        for players in (2, 4, 6):
            report = fast_simulate(
                args.games // 10, players, Rules(finish=finish), board, seed=args.seed
            )
            row(f"{finish.value} x{players}", report.games, report.seconds, report.mean_turns)
    print()
    print(f"Fast path / engine path, solo games: {fast_speed / engine_speed:,.0f} times faster")


if __name__ == "__main__":
    main()
