"""Load: online rooms of four players rolling at human pace, against real server processes.

Loopback only, bounded in count and time; it stops by itself. Each room is created over
HTTP, joined by three more players and started; every player holds a WebSocket. Each
room then rolls once every 2 s (whoever's turn it is; countdown 60 s), and a finished
game is followed by a rematch. The server runs in its own process(es); the load runs in
worker processes (asyncio + the ``websockets`` client). With several nodes, a room's
four seats are spread over them (seat i of room n on node (n + i) mod N).

Reported: connections held, rolls per second, latency from a roll sent to its update
received by all four seats (p50, p95, p99), errors, CPU of every process, server RSS and
memory per connected player. On Redis, server CPU counts the redis-server processes
behind ``--redis`` too: the one Redis it names, or every node of the Redis Cluster it is
a node of (each asked its process id), never the machine's other Redis servers.

``--cluster N`` runs one node on SQLite, then N nodes on a Redis Cluster that the bench
starts itself (tests/redis/local_cluster.py: 3 primaries and 3 replicas, six
redis-server processes on free ports, stopped at the end), the same ``--rooms`` spread
over the N nodes, and prints the ratio of their CPU per roll (the nodes and the six
redis-server processes together, over the SQLite node's). With ``--together`` it also
runs N nodes on SQLite each (every room wholly on one node, nothing shared, no Redis):
what being N processes costs on this machine, apart from the cluster. ``--baseline SRC`` runs
another tree's server (``git archive REF src | tar -x -C /tmp/REF``, then
``/tmp/REF/src``) and this tree's alternately, ``--rounds`` times each, and compares
their medians: with ``--yardstick`` on one SQLite node, with ``--redis`` as one node on
that Redis (or ``--nodes N``).

    python bench/load.py --rooms 2500                 # one node, 10,000 players
    python bench/load.py --rooms 2500 --yardstick --baseline /tmp/REF/src --rounds 5 --pin
    python bench/load.py --ramp 250,500,1000,1500,2000,2500,3000
    python bench/load.py --rooms 1000 --nodes 2 --redis redis://127.0.0.1:6379/0
    python bench/load.py --rooms 1000 --server-workers 2 --redis redis://127.0.0.1:6379/0
    python bench/load.py --rooms 1500 --cluster 3      # 6,000 players: SQLite vs a cluster
    python bench/load.py --rooms 1500 --cluster 3 --rounds 3 --seconds 60 --warmup 15
    python bench/load.py --rooms 1500 --cluster 3 --together   # each room on one node
    python bench/load.py --rooms 1000 --redis redis://127.0.0.1:6379/0 \\
        --baseline /tmp/REF/src --rounds 5            # that tree vs this one, on Redis
"""

from __future__ import annotations

import argparse
import os
import secrets
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadlib import (  # the bench folder is not a package
    CROWD_FLAGS,
    Server,
    Workers,
    cpu_pressure,
    cpu_seconds,
    cpu_seconds_of,
    delete_redis_prefix,
    gc_seconds,
    merge,
    percentile,
    plans_for,
    raise_file_limit,
    redis_server_pids,
    server_metrics,
)

MiB = 1024 * 1024


class Phase:
    """One configuration: its servers, the load against them, what was measured."""

    def __init__(
        self,
        name: str,
        args: argparse.Namespace,
        nodes: int,
        redis: str | None,
        program: str | None = None,
        env: list[str] | None = None,
    ):
        self.name = name
        self.args = args
        self.servers: list[Server] = []
        self.prefix = f"snakes-bench-{secrets.token_hex(4)}:" if redis else None
        self.redis = redis
        extra = [*CROWD_FLAGS, *args.server_arg]
        if redis:
            extra += ["--redis", redis, "--redis-prefix", self.prefix or ""]
        self.workers: Workers | None = None
        try:
            self._start(args, nodes, extra, program, env)
        except BaseException:
            self.close()  # the servers already started, and their Redis keys
            raise
        self.rooms = 0
        self.rss_idle = sum(s.rss_bytes() for s in self.servers)

    def _start(
        self,
        args: argparse.Namespace,
        nodes: int,
        extra: list[str],
        program: str | None,
        env: list[str] | None,
    ) -> None:
        if args.url:
            self.urls = [args.url]
        else:
            variables = dict(item.split("=", 1) for item in [*args.server_env, *(env or [])])
            for _ in range(nodes):
                self.servers.append(Server(*extra, env=variables, program=program))
            self.urls = [s.url for s in self.servers]
        # Redis's CPU counts toward the run: the processes of the Redis named, or of every
        # node of the cluster it is part of; not the machine's other Redis servers.
        self.redis_pids, missing = redis_server_pids(self.redis) if self.redis else ([], [])
        if missing:
            print(f"  CPU of Redis at {', '.join(missing)} unknown: no such process here")
        self.workers = Workers(args.workers)
        if args.pin:
            _pin(self.servers, self.workers)

    def add_rooms(self, count: int) -> dict[str, Any]:
        assert self.workers is not None
        plans = plans_for(self.rooms, count, self.urls, together=self.args.together)
        answers = self.workers.setup(plans)
        self.rooms = sum(a["rooms"] for a in answers)
        failures: dict[str, int] = {}
        for answer in answers:
            for key, value in answer["failures"].items():
                failures[key] = failures.get(key, 0) + value
        return {"seconds": max(a["seconds"] for a in answers), "failures": failures}

    def measure(self, seconds: float) -> dict[str, Any]:
        assert self.workers is not None
        redis_cpu = cpu_seconds_of(self.redis_pids)
        server_cpu = [s.cpu_seconds() for s in self.servers]
        worker_cpu = [cpu_seconds(p.pid) for p in self.workers.processes]
        gc_before = [gc_seconds(url) for url in self.urls]
        pressure = cpu_pressure()
        started = time.perf_counter()
        result = merge(self.workers.measure(seconds))
        elapsed = time.perf_counter() - started
        gc_after = [gc_seconds(url) for url in self.urls]
        after = cpu_pressure()
        result["pressure"] = (
            None if pressure is None or after is None else (after - pressure) / 1e6 / elapsed
        )
        result["gc"] = [
            None if a is None or b is None else (a - b) / elapsed
            for a, b in zip(gc_after, gc_before, strict=True)
        ]
        result["elapsed"] = elapsed
        result["metrics"] = [server_metrics(url) for url in self.urls]
        result["server_cpu"] = [
            (s.cpu_seconds() - before) / elapsed
            for s, before in zip(self.servers, server_cpu, strict=True)
        ]
        result["worker_cpu"] = [
            (cpu_seconds(p.pid) - before) / elapsed
            for p, before in zip(self.workers.processes, worker_cpu, strict=True)
        ]
        result["rss"] = [s.rss_bytes() for s in self.servers]
        redis_after = cpu_seconds_of(self.redis_pids)
        result["redis_cpu"] = (
            (redis_after - redis_cpu) / elapsed
            if self.redis_pids and redis_cpu is not None and redis_after is not None
            else None
        )
        result["redis_processes"] = len(self.redis_pids)
        result["rooms"] = self.rooms
        result["rss_idle"] = self.rss_idle
        result["window"] = seconds
        return result

    def close(self) -> None:
        try:
            if self.workers is not None:
                self.workers.stop()
            for server in self.servers:
                server.stop()
        finally:
            if self.redis and self.prefix:
                deleted = delete_redis_prefix(self.redis, self.prefix)
                print(f"  (deleted {deleted} Redis keys under {self.prefix})", flush=True)


def _pin(servers: list[Server], workers: Workers) -> None:
    """The server on the first CPU, the load on the others: neither waits for the other."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("--pin needs two CPUs")
    for server in servers:
        for pid in server.pids():
            for thread in os.listdir(f"/proc/{pid}/task"):  # its threads already started too
                os.sched_setaffinity(int(thread), cpus[:1])
    for process in workers.processes:
        os.sched_setaffinity(process.pid, cpus[1:])


def _key_figures(r: dict[str, Any]) -> tuple[float, float, float]:
    """What a change to the server is judged on: p99 ms, server CPU µs per roll (Redis
    included) and server KiB per connected player (RSS over the idle server's)."""
    players = r["rooms"] * 4
    rss = sum(r["rss"])
    per_player = (rss - r["rss_idle"]) / players / 1024 if players and r["rss"] else float("nan")
    rolls_per_second = r["rolls"] / r["elapsed"]
    cores = sum(r["server_cpu"]) + (r.get("redis_cpu") or 0.0)
    per_roll = cores / rolls_per_second * 1e6 if rolls_per_second else float("nan")
    return percentile(r["latencies"], 99), per_roll, per_player


def _row(name: str, r: dict[str, Any]) -> str:
    lat = r["latencies"]
    players = r["rooms"] * 4
    rss = sum(r["rss"])
    _, per_roll, per_player = _key_figures(r)
    server_cpu = " + ".join(f"{c:.0%}" for c in r["server_cpu"]) or "n/a"
    if r.get("redis_cpu") is not None:
        processes = r.get("redis_processes", 1)
        server_cpu += f" + Redis{f' x{processes}' if processes > 1 else ''} {r['redis_cpu']:.0%}"
    if r["rolls"]:
        server_cpu += f" ({per_roll:.0f} µs/roll)"
    worker_cpu = " + ".join(f"{c:.0%}" for c in r["worker_cpu"])
    errors = sum(r["errors"].values())
    return (
        f"| {name} | {players} | {r['connections']} | {r['rolls'] / r['elapsed']:.0f} "
        f"| {percentile(lat, 50):.1f} | {percentile(lat, 95):.1f} | {percentile(lat, 99):.1f} "
        f"| {errors} | {server_cpu} | {worker_cpu} | {rss / MiB:.0f} | {per_player:.1f} |"
    )


HEADER = (
    "| run | players | connections held | rolls/s | p50 ms | p95 ms | p99 ms | errors "
    "| server CPU | load CPU | server RSS MiB | KiB per player |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def _worst_seconds(r: dict[str, Any], count: int = 5) -> str:
    """The seconds of the window with the slowest rolls: stalls show up here."""
    if not r["stamps"]:
        return "n/a"
    start = min(r["stamps"])
    worst: dict[int, float] = {}
    for stamp, latency in zip(r["stamps"], r["latencies"], strict=True):
        second = int(stamp - start)
        worst[second] = max(worst.get(second, 0.0), latency)
    top = sorted(worst.items(), key=lambda kv: -kv[1])[:count]
    return ", ".join(f"t={s}s {ms:.0f} ms" for s, ms in sorted(top))


def _print_details(r: dict[str, Any]) -> None:
    expected = r["rooms"] / 2.0
    gc_share = ", ".join("n/a" if g is None else f"{g:.1%}" for g in r["gc"])
    print(
        f"  expected {expected:.0f} rolls/s; rematches {r['rematches']}, "
        f"late ticks {r['late_ticks']}, errors {r['errors'] or 'none'}; "
        f"server time in GC: {gc_share}",
        flush=True,
    )
    print(f"  slowest seconds: {_worst_seconds(r)}", flush=True)
    if r["pressure"] is not None:
        print(f"  CPU pressure (some task waiting for a CPU): {r['pressure']:.0%}", flush=True)
    for values in r["metrics"]:
        longest = [values.get(f'snakes_gc_longest_seconds{{generation="{g}"}}') for g in range(3)]
        cpu = [values.get(f'snakes_gc_longest_cpu_seconds{{generation="{g}"}}', 0.0) for g in "012"]
        if None not in longest:
            pauses = ", ".join(
                f"gen{g} {s * 1000:.0f} ms ({c * 1000:.0f} ms CPU)"
                for g, (s, c) in enumerate(zip(longest, cpu, strict=True))
            )
            print(f"  server's longest GC pause since start: {pauses}", flush=True)


def run_fixed(
    args: argparse.Namespace,
    name: str,
    nodes: int,
    redis: str | None,
    program: str | None = None,
    results: list[dict[str, Any]] | None = None,
    env: list[str] | None = None,
) -> str:
    print(f"== {name}: {args.rooms} rooms ({args.rooms * 4} players) ==", flush=True)
    phase = Phase(name, args, nodes, redis, program, env)
    try:
        setup = phase.add_rooms(args.rooms)
        print(
            f"  set up {phase.rooms} rooms in {setup['seconds']:.0f} s; "
            f"failures: {setup['failures'] or 'none'}",
            flush=True,
        )
        time.sleep(args.warmup)
        result = phase.measure(args.seconds)
        if results is not None:
            results.append(result)
        row = _row(name, result)
        print(HEADER + "\n" + row, flush=True)
        _print_details(result)
        return row
    finally:
        phase.close()


def run_ramp(args: argparse.Namespace) -> list[str]:
    steps = [int(x) for x in args.ramp.split(",")]
    print(f"== ramp: {steps} rooms; stops once p99 passes {args.p99_limit} ms ==", flush=True)
    phase = Phase("ramp", args, 1, None)
    rows = []
    try:
        for target in steps:
            setup = phase.add_rooms(target - phase.rooms)
            if setup["failures"]:
                print(f"  setup failures: {setup['failures']}", flush=True)
            time.sleep(args.warmup)
            result = phase.measure(args.seconds)
            rows.append(_row(f"{phase.rooms} rooms", result))
            print(HEADER + "\n" + "\n".join(rows), flush=True)
            _print_details(result)
            if percentile(result["latencies"], 99) > args.p99_limit:
                print(f"  p99 passed {args.p99_limit} ms at {phase.rooms} rooms", flush=True)
                break
        return rows
    finally:
        phase.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=250, help="rooms of four players")
    parser.add_argument("--seconds", type=float, default=60, help="measuring window")
    parser.add_argument("--warmup", type=float, default=10, help="seconds before measuring")
    parser.add_argument("--workers", type=int, default=2, help="load processes")
    parser.add_argument(
        "--server-workers",
        type=int,
        default=1,
        help="2 or more: compare one process with snakes serve --workers N (needs --redis)",
    )
    parser.add_argument("--url", help="an existing server instead of starting one")
    parser.add_argument("--ramp", help="comma-separated room counts, e.g. 250,500,1000")
    parser.add_argument("--p99-limit", type=float, default=200.0)
    parser.add_argument("--nodes", type=int, default=1, help="2: compare with two nodes")
    parser.add_argument("--redis", help="redis://127.0.0.1:6379/0 for the scale-out runs")
    parser.add_argument(
        "--together",
        action="store_true",
        help="with several nodes: each room's players on one node (as a load balancer that "
        "hashes the room code keeps them), not split over the nodes",
    )
    parser.add_argument(
        "--cluster",
        type=int,
        metavar="N",
        help="one node on SQLite, then N nodes on a Redis Cluster the bench starts itself "
        "(3 primaries, 3 replicas; stopped at the end), the load spread over the N nodes",
    )
    parser.add_argument(
        "--server-arg", action="append", default=[], help="extra flag for snakes serve"
    )
    parser.add_argument(
        "--server-env", action="append", default=[], help="KEY=VALUE for the server processes"
    )
    parser.add_argument("--max-minutes", type=float, default=45, help="hard stop")
    parser.add_argument(
        "--yardstick",
        action="store_true",
        help="also run bench/yardstick.py (bare Starlette + uvicorn) under the same load",
    )
    parser.add_argument(
        "--baseline",
        metavar="SRC",
        help="with --yardstick (one node, SQLite) or --redis (one node, Redis; or --nodes "
        "N): first run the server from another tree's src/ (e.g. git archive REF src | "
        "tar -x -C /tmp/REF, then /tmp/REF/src), in the same run",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server on the first CPU, the load processes on the others (less noise "
        "from the two competing for a core)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="with --baseline or --cluster: the two configurations alternately, this many "
        "times each (one round's figures move by 10-20%% with the machine; the medians less)",
    )
    args = parser.parse_args()
    if args.cluster is not None:
        if args.cluster < 1:
            parser.error("--cluster N needs N of 1 or more")
        others = {
            "--redis": args.redis, "--url": args.url, "--ramp": args.ramp,
            "--baseline": args.baseline, "--yardstick": args.yardstick,
            "--nodes": args.nodes > 1, "--server-workers": args.server_workers > 1,
        }  # fmt: skip
        if any(others.values()):
            given = ", ".join(flag for flag, value in others.items() if value)
            parser.error(f"--cluster starts its own Redis Cluster and nodes: not with {given}")
    if args.baseline and not (args.yardstick or args.redis):
        parser.error("--baseline goes with --yardstick or --redis")
    if args.baseline and (args.url or args.ramp or args.server_workers > 1):
        parser.error(
            "--baseline starts the servers itself: not with --url, --ramp, --server-workers"
        )
    if (args.nodes > 1 or args.server_workers > 1) and not args.redis:
        parser.error("--nodes 2 and --server-workers 2 need --redis")
    for url in [args.url, args.redis]:
        if url and not any(h in url for h in ("127.0.0.1", "localhost", "[::1]")):
            parser.error("load goes to this machine only (loopback)")

    limit = raise_file_limit()
    needed = args.rooms * 4 * 2 + 1000
    print(f"$ python {shlex.join(sys.argv)}", flush=True)
    print(f"open-file limit {limit}" + (f" (needs ~{needed})" if limit < needed else ""))
    _deadline(args.max_minutes)

    rows = _run_phases(args)
    print("\n## Summary\n")
    print(f"$ python {shlex.join(sys.argv)}\n")
    print(HEADER)
    print("\n".join(rows))


def _run_phases(args: argparse.Namespace) -> list[str]:
    """The configurations the arguments ask for, one after another; a row for each."""
    rows: list[str] = []
    if args.ramp:
        rows = run_ramp(args)
    elif args.cluster:
        rows = _run_cluster(args)
    elif args.baseline and not args.yardstick:
        rows = _run_baseline_redis(args)
    elif args.nodes > 1:
        rows.append(run_fixed(args, "1 node, SQLite", 1, None))
        rows.append(run_fixed(args, "1 node, Redis", 1, args.redis))
        rows.append(run_fixed(args, f"{args.nodes} nodes, Redis", args.nodes, args.redis))
    elif args.server_workers > 1:
        rows.append(run_fixed(args, "1 process, SQLite", 1, None))
        args.server_arg = [*args.server_arg, "--workers", str(args.server_workers)]
        name = f"{args.server_workers} workers, Redis"
        rows.append(run_fixed(args, name, 1, args.redis))
    elif args.yardstick:
        before: list[dict[str, Any]] = []
        now: list[dict[str, Any]] = []
        for round_ in range(args.rounds if args.baseline else 1):
            number = f"{round_ + 1}: " if args.rounds > 1 else ""
            if args.baseline:
                name = f"{number}before ({args.baseline})"
                rows.append(run_fixed(args, name, 1, None, results=before, env=_older(args)))
            rows.append(run_fixed(args, f"{number}1 node", 1, None, results=now))
        program = str(Path(__file__).with_name("yardstick.py"))
        bare_run: list[dict[str, Any]] = []
        rows.append(run_fixed(args, "yardstick", 1, None, program, bare_run))
        game, bare = (percentile(r[-1]["latencies"], 99) for r in (now, bare_run))
        ratio = f"yardstick p99 / game p99 = {bare:.1f} / {game:.1f} ms = {bare / game:.1f}x"
        rows.append("")
        rows.append(ratio)
        if before:
            rows.append("")
            rows.append(_comparison([("before", before), ("now", now)]))
    else:
        rows.append(run_fixed(args, "1 node" + (", Redis" if args.redis else ""), 1, args.redis))
    return rows


def _older(args: argparse.Namespace) -> list[str]:
    """The server processes' environment that runs the baseline tree's server."""
    return [f"PYTHONPATH={args.baseline}"]


def _run_baseline_redis(args: argparse.Namespace) -> list[str]:
    """The baseline tree's server and this tree's, alternately, on the same Redis: one
    node (or ``--nodes N``, the load spread over them), ``--rounds`` times each."""
    kind = f"{args.nodes} nodes, Redis" if args.nodes > 1 else "1 node, Redis"
    rows: list[str] = []
    before: list[dict[str, Any]] = []
    now: list[dict[str, Any]] = []
    for round_ in range(args.rounds):
        number = f"{round_ + 1}: " if args.rounds > 1 else ""
        name = f"{number}before ({args.baseline}), {kind}"
        rows.append(run_fixed(args, name, args.nodes, args.redis, results=before, env=_older(args)))
        rows.append(run_fixed(args, f"{number}now, {kind}", args.nodes, args.redis, results=now))
    return [*rows, "", _comparison([("before", before), ("now", now)])]


def _run_cluster(args: argparse.Namespace) -> list[str]:
    """One node on SQLite, then ``--cluster N`` nodes on a Redis Cluster of the bench's
    own (three primaries and a replica each, six redis-server processes on free ports,
    torn down at the end), the load spread over the N nodes; ``--rounds`` times each,
    alternately. CPU per roll counts the nodes and the cluster's six processes."""
    local_cluster = _local_cluster_class()
    cluster_name = f"{args.cluster} nodes, Redis Cluster"
    rows: list[str] = []
    sqlite: list[dict[str, Any]] = []
    split: list[dict[str, Any]] = []
    clustered: list[dict[str, Any]] = []
    split_name = f"{args.cluster} nodes, SQLite each"
    folder = Path(
        tempfile.mkdtemp(prefix="snakes-bench-cluster-", dir=os.environ.get("BENCH_DATA"))
    )
    try:
        print("== a Redis Cluster: 3 primaries and 3 replicas ==", flush=True)
        with local_cluster(folder) as cluster:
            pids = sorted(process.pid for process in cluster.processes.values())
            print(f"  {cluster.url}; redis-server pids {pids}", flush=True)
            for round_ in range(args.rounds):
                number = f"{round_ + 1}: " if args.rounds > 1 else ""
                rows.append(run_fixed(args, f"{number}1 node, SQLite", 1, None, results=sqlite))
                if args.cluster > 1 and args.together:
                    # The same split with no Redis: each node its own SQLite file (with
                    # --together a room lives wholly on one node, so nothing is shared).
                    name = f"{number}{split_name}"
                    rows.append(run_fixed(args, name, args.cluster, None, results=split))
                name = f"{number}{cluster_name}"
                rows.append(run_fixed(args, name, args.cluster, cluster.url, results=clustered))
        print(f"  (the cluster's {len(pids)} redis-server processes stopped)", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [*rows, "", *_cluster_verdict(args, sqlite, split, clustered)]


def _cluster_verdict(
    args: argparse.Namespace,
    sqlite: list[dict[str, Any]],
    split: list[dict[str, Any]],
    clustered: list[dict[str, Any]],
) -> list[str]:
    """The cluster's CPU per roll over the SQLite node's; and, with ``--together``, the
    same split over N nodes on SQLite each, with no Redis at all: what N processes cost
    on this machine over one, apart from anything the cluster adds."""
    cluster_name = f"{args.cluster} nodes, Redis Cluster"
    split_name = f"{args.cluster} nodes, SQLite each"
    median = "medians: " if args.rounds > 1 else ""
    measured = {"sqlite": sqlite, "split": split, "cluster": clustered}
    roll = {
        n: statistics.median(_key_figures(r)[1] for r in rs) for n, rs in measured.items() if rs
    }
    share = {n: statistics.median(_share(r) for r in rs) for n, rs in measured.items() if rs}
    groups = [("1 node, SQLite", sqlite), (cluster_name, clustered)]
    if split:
        groups.insert(1, (split_name, split))
    lines = [
        _comparison(groups),
        "",
        f"cluster CPU per roll / SQLite node CPU per roll ({median}nodes and the cluster's "
        f"redis-server processes together) = {roll['cluster']:.0f} / {roll['sqlite']:.0f} µs "
        f"= {roll['cluster'] / roll['sqlite']:.2f}x",
        f"the same as server/load CPU (steadier when the machine's speed drifts): "
        f"{share['cluster']:.3f} / {share['sqlite']:.3f} = "
        f"{share['cluster'] / share['sqlite']:.2f}x",
    ]
    if split:
        lines += [
            f"{split_name} (the split alone, no Redis) / SQLite node = "
            f"{roll['split']:.0f} / {roll['sqlite']:.0f} µs = "
            f"{roll['split'] / roll['sqlite']:.2f}x "
            f"(server/load CPU {share['split'] / share['sqlite']:.2f}x)",
            f"cluster / {split_name} (what the cluster adds to the same split) = "
            f"{roll['cluster']:.0f} / {roll['split']:.0f} µs = "
            f"{roll['cluster'] / roll['split']:.2f}x "
            f"(server/load CPU {share['cluster'] / share['split']:.2f}x)",
        ]
    return lines


def _local_cluster_class() -> Any:
    """tests/redis/local_cluster.py's LocalCluster (the repository's root on the path)."""
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.append(root)
    from tests.redis.local_cluster import LocalCluster  # noqa: PLC0415

    return LocalCluster


def _comparison(groups: list[tuple[str, list[dict[str, Any]]]]) -> str:
    """Each group's key figures, the median of its rounds, and the change from the first
    group to the last (positive: the last is worse).

    The last column is the server's CPU (Redis included) over the load processes' CPU.
    The load is the same work against either, so that ratio stays put when the machine
    itself runs faster or slower from one phase to the next (other tenants, clock),
    which moves CPU per roll by 10-20% between rounds.
    """
    rounds = len(groups[-1][1])
    lines = [
        f"medians of {rounds} round(s) | p99 ms | CPU µs/roll (incl. Redis) | KiB/player "
        "| server/load CPU",
        "|---|---:|---:|---:|---:|",
    ]
    medians = []
    for name, results in groups:
        rows = [(*_key_figures(r), _share(r)) for r in results]
        figures = [statistics.median(f) for f in zip(*rows, strict=True)]
        medians.append(figures)
        p99, per_roll, per_player, share = figures
        lines.append(f"| {name} | {p99:.1f} | {per_roll:.0f} | {per_player:.1f} | {share:.3f} |")
    change = [(n - b) / b for b, n in zip(medians[0], medians[-1], strict=True)]
    lines.append("| change | " + " | ".join(f"{c:+.0%}" for c in change) + " |")
    return "\n".join(lines)


def _share(r: dict[str, Any]) -> float:
    """Server CPU (its Redis included) over the load processes' CPU."""
    server = sum(r["server_cpu"]) + (r.get("redis_cpu") or 0.0)
    load = sum(r["worker_cpu"])
    return server / load if load else float("nan")


def _deadline(minutes: float) -> None:
    """Whatever happens, the benchmark ends: SIGALRM after ``minutes``."""
    import signal  # noqa: PLC0415

    def expire(*_: object) -> None:
        raise SystemExit(f"stopped after {minutes} minutes (--max-minutes)")

    signal.signal(signal.SIGALRM, expire)
    signal.alarm(int(minutes * 60))


if __name__ == "__main__":
    main()
