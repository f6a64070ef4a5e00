"""The worst a request to each endpoint that computes costs: CPU and memory, measured.

Each case runs the very function the compute worker runs for that endpoint
(``snakes.server.stories``, ``snakes.server.invite_qr``), in this process, as the worker
runs it (one BLAS thread), with every cache emptied first, on the worst input a request
can carry (a 64 KB body, a board at the edge of the analysis budget, six seats). CPU
is ``time.process_time`` on one run; memory is tracemalloc's peak over another (numpy's
arrays included), and what the call left in the caches.

    python bench/compute_costs.py
"""

from __future__ import annotations

import gc
import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from snakes.analysis import markov, moves, use_one_blas_thread  # noqa: E402
from snakes.server import invite_qr, stories  # noqa: E402
from snakes.server.rooms import views  # noqa: E402

BODY_LIMIT = 64 * 1024
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
EDGE = [[94 + i, 80 + i] for i in range(5)]
"""Snakes 94-98 back to 80-84, and 99 a ladder to 100: a game lasts 93 turns on average,
and 2,000 turns leave 1e-12 unfinished: as slow a board as the budget lets in."""
SLOW = [[s, 4] for s in range(5, 100) if s % 5 != 4]
"""A board that could end but almost never does (a game lasts about 3e14 turns)."""


def body(snakes: list[list[int]], actions: list[dict[str, Any]], seats: int) -> bytes:
    data = {
        "engine_version": "1.0.0",
        "rules": {"finish": "last-one-standing", "exact_finish": True, "six_again": False},
        "board": {"name": "drawn", "ladders": [[99, 100]], "snakes": snakes},
        "seats": [{"name": f"Player {i}", "colour": COLOURS[i]} for i in range(seats)],
        "first": 0,
        "actions": actions,
    }
    return json.dumps(data, separators=(",", ":")).encode()


def longest(snakes: list[list[int]]) -> bytes:
    """The most actions of six seats that fit the body limit."""
    count = 100
    while len(body(snakes, _skips(count + 100), 6)) <= BODY_LIMIT:
        count += 100
    return body(snakes, _skips(count), 6)


def _skips(count: int) -> list[dict[str, Any]]:
    # A countdown that ran out, for each seat in turn: the cheapest action to write, so
    # the most of them fit the body limit (each still costs a step of the story).
    return [{"type": "skip", "seat": i % 6} for i in range(count)]


def forget() -> None:
    markov._custom_chains.clear()
    markov._shipped_chains.clear()
    markov._checked_cached.cache_clear()
    moves._roll_table.cache_clear()
    stories._stories.clear()
    views._odds.cache_clear()
    invite_qr.qr_svg.cache_clear()
    gc.collect()


def _outcome(work: Callable[[], Any]) -> str:
    try:
        work()
    except Exception as error:
        return f"refused: {getattr(error, 'code', type(error).__name__)}"
    return "answered"


def measure(name: str, work: Callable[[], Any]) -> None:
    """CPU on one run, memory on another (tracemalloc slows the code it watches)."""
    forget()
    started = time.process_time()
    outcome = _outcome(work)
    cpu = time.process_time() - started
    forget()
    tracemalloc.start()
    _outcome(work)
    _, peak = tracemalloc.get_traced_memory()
    gc.collect()
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"| {name} | {outcome} | {cpu * 1000:,.0f} ms | {peak / 2**20:.1f} MB | "
        f"{kept / 2**20:.1f} MB |",
        flush=True,
    )


def blas_threads() -> None:
    """A 101 x 101 product (a chain's step) with BLAS's threads as numpy starts them, then
    on one thread, as the server and its worker run it. Run it on a busy machine too."""
    import numpy as np  # noqa: PLC0415
    from threadpoolctl import threadpool_info  # noqa: PLC0415

    matrix = np.random.default_rng(1).random((101, 101))
    threads = max(pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas")
    for label in (f"{threads} BLAS threads", "1 BLAS thread"):
        started = time.perf_counter()
        for _ in range(200):
            matrix @ matrix
        each = (time.perf_counter() - started) / 200
        print(f"a 101 x 101 product, {label}: {each * 1000:.3f} ms")
        use_one_blas_thread()


def main() -> None:
    blas_threads()
    use_one_blas_thread()  # as the compute worker does
    markov._shipped_keys()  # read once per worker: the shipped boards' files
    story_body = longest(EDGE)
    odds_body = longest(EDGE)
    actions = len(json.loads(story_body)["actions"])
    print(f"a 64 KB body holds {actions:,} actions of six seats")
    print("| work | outcome | CPU | peak memory | kept after |")
    print("|---|---|---|---|---|")
    measure("odds, a board too slow (1 KB)", lambda: stories.posted_odds(body(SLOW, [], 2)))
    measure(
        f"odds, a board at the budget's edge, {actions:,} actions",
        lambda: stories.posted_odds(odds_body),
    )
    measure(
        f"story, a board at the budget's edge, {actions:,} actions, six seats",
        lambda: stories.posted_story(story_body),
    )
    measure(
        "QR code of an invite link",
        lambda: invite_qr.qr_svg("https://snakes.example.org/r/ABC234"),
    )


if __name__ == "__main__":
    main()
