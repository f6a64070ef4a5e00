"""Soak: half the goal load for many minutes; does anything grow that should not?

Loopback only, bounded in time; it stops by itself. 1,250 rooms of four players (5,000
connections) roll at human pace, as in bench/load.py. When a game ends, the players of
some rooms leave (``--churn``) and a new room takes the room's place, so finished games
must expire (``--idle-minutes`` on the server) and be released while new ones start.

The server runs with a /debug/stats token of its own (heap and task counts; its walks
of the heap a little less than ``--every`` apart at most, ``--debug-stats-interval``).
Every ``--every`` seconds the soak samples the server's RSS (VmRSS), its Python heap
(the allocator's live blocks, ``sys.getallocatedblocks()``; with ``--tracemalloc``,
tracemalloc's traced bytes, exact but several times slower), its asyncio tasks,
rooms, timers and connections, and the roll latency of that interval. After the
warm-up it fits a straight line to each series and reports the growth over the run as
a share of the mean (goal: under 5%).

    python bench/soak.py                      # 10 minutes, 1,250 rooms
    python bench/soak.py --minutes 3 --rooms 250
"""

from __future__ import annotations

import argparse
import json
import secrets
import shlex
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadlib import (  # the bench folder is not a package
    CROWD_FLAGS,
    Server,
    Workers,
    cpu_pressure,
    cpu_seconds,
    merge,
    percentile,
    plans_for,
    raise_file_limit,
    rss_bytes,
)

MiB = 1024 * 1024
SERIES = ("rss", "heap", "tasks", "rooms", "timers", "connections")


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys over xs."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    var = sum((x - mx) ** 2 for x in xs)
    return 0.0 if var == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var


def growth(samples: list[dict[str, Any]], key: str) -> tuple[float, float]:
    """(growth over the sampled span as a share of the mean, mean)."""
    xs = [s["t"] for s in samples]
    ys = [float(s[key]) for s in samples]
    mean = sum(ys) / len(ys)
    if mean == 0 or len(xs) < 3:
        return 0.0, mean
    return slope(xs, ys) * (xs[-1] - xs[0]) / mean, mean


STATS_TOKEN = secrets.token_urlsafe(24)


def debug_stats(url: str, collect: bool) -> dict[str, Any]:
    query = "?collect=true" if collect else ""
    request = urllib.request.Request(
        url + "/debug/stats" + query, headers={"Authorization": f"Bearer {STATS_TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
    return data


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rooms", type=int, default=1250, help="half the goal: 1,250")
    parser.add_argument("--every", type=float, default=15.0, help="seconds between samples")
    parser.add_argument("--warmup-minutes", type=float, default=2.0)
    parser.add_argument("--churn", type=float, default=0.5, help="rooms that end after a game")
    parser.add_argument("--idle-minutes", type=float, default=0.5, help="server's idle expiry")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--collect",
        action="store_true",
        help="a full garbage collection before each sample: live heap only (a pause each)",
    )
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="trace the heap exactly (several times slower: use fewer rooms)",
    )
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    print(f"$ python {shlex.join(sys.argv)}", flush=True)
    raise_file_limit()
    deadline = time.monotonic() + args.minutes * 60 + 900  # setup and stop included
    tracing = "1" if args.tracemalloc else "0"
    server = Server(
        *CROWD_FLAGS, "--idle-minutes", str(args.idle_minutes),
        env={
            "SNAKES_DEBUG_STATS_TOKEN": STATS_TOKEN,
            "SNAKES_DEBUG_STATS_INTERVAL": str(args.every * 0.9),
            "SNAKES_DEBUG_TRACEMALLOC": tracing,
        },
    )  # fmt: skip
    workers = Workers(args.workers)
    samples: list[dict[str, Any]] = []
    latencies: list[float] = []
    errors: dict[str, int] = {}
    try:
        answers = workers.setup(plans_for(0, args.rooms, [server.url]))
        failures = [a["failures"] for a in answers if a["failures"]]
        print(f"set up {sum(a['rooms'] for a in answers)} rooms; failures: {failures}", flush=True)
        workers.set_churn(args.churn)
        started = time.monotonic()
        cpu0, pressure0 = cpu_seconds(server.pid), cpu_pressure()
        heap = "MiB" if args.tracemalloc else "k blocks"
        print(
            f"| min | RSS MiB | heap {heap} | tasks | rooms | timers | connections "
            "| rolls/s | p50 ms | p99 ms | new rooms | full GCs |\n" + "|---" * 12 + "|",
            flush=True,
        )
        while time.monotonic() - started < args.minutes * 60 and time.monotonic() < deadline:
            window = merge(workers.measure(args.every))
            stats = debug_stats(server.url, args.collect)
            sample = {
                "t": time.monotonic() - started,
                "rss": rss_bytes(server.pid),
                "heap": stats["tracemalloc_current"]
                if args.tracemalloc
                else stats["allocated_blocks"],
                "tasks": stats["tasks"],
                "rooms": stats["rooms"],
                "timers": stats["timers"],
                "connections": stats["connections"],
                "full_gcs": stats["gc_collections"][2],
            }
            samples.append(sample)
            latencies += window["latencies"]
            for key, value in window["errors"].items():
                errors[key] = errors.get(key, 0) + value
            lat = window["latencies"]
            print(
                f"| {sample['t'] / 60:.1f} | {sample['rss'] / MiB:.0f} "
                f"| {sample['heap'] / (MiB if args.tracemalloc else 1000):.1f} "
                f"| {sample['tasks']} | {sample['rooms']} | {sample['timers']} "
                f"| {sample['connections']} | {window['rolls'] / args.every:.0f} "
                f"| {percentile(lat, 50):.1f} | {percentile(lat, 99):.1f} | {window['replaced']} "
                f"| {sample['full_gcs']} |",
                flush=True,
            )
        elapsed = time.monotonic() - started
        server_cpu = (cpu_seconds(server.pid) - cpu0) / elapsed
        pressure1 = cpu_pressure()
        final = debug_stats(server.url, False)
    finally:
        workers.stop()
        server.stop()

    steady = [s for s in samples if s["t"] >= args.warmup_minutes * 60]
    print(f"\n## Soak summary\n\n$ python {shlex.join(sys.argv)}\n")
    print(
        f"{elapsed / 60:.1f} minutes, {args.rooms} rooms ({args.rooms * 4} players), "
        f"{len(latencies)} rolls measured: p50 {percentile(latencies, 50):.1f} ms, "
        f"p99 {percentile(latencies, 99):.1f} ms; errors: {errors or 'none'}; "
        f"server CPU {server_cpu:.0%}"
        + (
            f"; CPU pressure {(pressure1 - pressure0) / 1e6 / elapsed:.0%}"
            if pressure0 is not None and pressure1 is not None
            else ""
        )
    )
    longest = ", ".join(f"gen{g} {t * 1000:.0f} ms" for g, t in enumerate(final["gc_longest"]))
    spent = ", ".join(f"gen{g} {t:.1f} s" for g, t in enumerate(final["gc_seconds"]))
    print(
        f"\nGarbage collection since the server started: {final['gc_collections']} "
        f"collections per generation; longest pause {longest}; time spent {spent}"
    )
    print(f"\nGrowth after {args.warmup_minutes:g} minutes of warm-up (line fitted, goal < 5%):\n")
    print("| series | mean | growth over the run | verdict |\n|---|---|---|---|")
    for key in SERIES:
        share, mean = growth(steady, key)
        in_bytes = key == "rss" or (key == "heap" and args.tracemalloc)
        shown = f"{mean / MiB:.1f} MiB" if in_bytes else f"{mean:.0f}"
        verdict = "ok" if abs(share) < 0.05 else "GROWS" if share > 0 else "shrinks"
        print(f"| {key} | {shown} | {share:+.1%} | {verdict} |")


if __name__ == "__main__":
    main()
