"""What a call of /debug/stats costs the server and its players, with and without the
bound on its heap walks (``--debug-stats-interval``).

Starts ``snakes serve`` on a loopback port with a /debug/stats token (tracemalloc on, as
by default), opens ``--connections`` WebSockets (spectators of 4-connection rooms), then
calls /debug/stats ``--calls`` times in a row while a control player pings every 30 ms.
Once with ``--debug-stats-interval 0`` (a walk of the heap every call, as before the
bound), once with the default 10 s. Prints the server's CPU per call and the control's
ping times. Loopback only; it stops by itself.

    python bench/debug_stats_cost.py
    python bench/debug_stats_cost.py --query '?types=20&garbage=20'
    python bench/debug_stats_cost.py --connections 2000 --calls 20
"""

from __future__ import annotations

import argparse
import json
import secrets
import shlex
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadlib import Server, http_json, raise_file_limit  # the bench folder is no package

TOKEN = secrets.token_urlsafe(24)
FLAGS = (
    "--room-limit", "0", "--room-limit-hour", "0", "--room-limit-total", "0",
    "--max-connections-per-address", "0",
)  # fmt: skip


def _stats(url: str, query: str = "") -> dict[str, object]:
    """/debug/stats with its token; a refusal (429: no walk now) as its error body."""
    request = urllib.request.Request(
        url + "/debug/stats" + query, headers={"Authorization": f"Bearer {TOKEN}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            found: dict[str, object] = json.loads(response.read())
    except urllib.error.HTTPError as error:
        found = {"status": error.code, **json.loads(error.read())}
    return found


def _crowd(server: Server, connections: int) -> list[ClientConnection]:
    opened: list[ClientConnection] = []
    seats = [{"name": "Host", "colour": "red"}]
    for index in range(connections):
        if index % 4 == 0:
            code = http_json("POST", server.url + "/api/rooms", {"mode": "online", "seats": seats})[
                "code"
            ]
        ws = connect(server.url.replace("http", "ws") + "/ws", open_timeout=30).__enter__()
        ws.send(json.dumps({"type": "hello", "room": code}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
        opened.append(ws)
    return opened


class Pinger(threading.Thread):
    """A control player: a JSON ping every 30 ms (under the 40 messages a second a
    connection may send), each answer's time kept."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.ws = connect(url.replace("http", "ws") + "/ws", open_timeout=30).__enter__()
        self.times: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            sent = time.perf_counter()
            self.ws.send('{"type":"ping"}')
            self.ws.recv(timeout=30)
            self.times.append(time.perf_counter() - sent)
            time.sleep(0.03)
        self.ws.close()


def _phase(interval: str, args: argparse.Namespace) -> dict[str, float]:
    env = {"SNAKES_DEBUG_STATS_TOKEN": TOKEN, "SNAKES_DEBUG_STATS_INTERVAL": interval}
    server = Server(*FLAGS, env=env)
    try:
        crowd = _crowd(server, args.connections)
        _stats(server.url)  # the first walk, and tracemalloc's first snapshot warm
        time.sleep(float(interval) + 0.5 if float(interval) < 5 else 0.5)
        pinger = Pinger(server.url)
        pinger.start()
        time.sleep(1.0)
        quiet = list(pinger.times)
        walls = []
        cpu_before = server.cpu_seconds()
        refused = 0
        for _ in range(args.calls):
            started = time.perf_counter()
            refused += _stats(server.url, args.query).get("status") == 429
            walls.append(time.perf_counter() - started)
        cpu = server.cpu_seconds() - cpu_before
        stats = _stats(server.url)
        pinger.stop.set()
        pinger.join()
        during = pinger.times[len(quiet) :]
        for ws in crowd:
            ws.close()
        return {
            "connections": float(stats["connections"]),  # type: ignore[arg-type]
            "walks": float(stats["heap_walks"]),  # type: ignore[arg-type]
            "tracked": float(stats["gc_tracked"]),  # type: ignore[arg-type]
            "refused": float(refused),
            "cpu_ms": cpu / args.calls * 1000,
            "wall_median_ms": statistics.median(walls) * 1000,
            "wall_max_ms": max(walls) * 1000,
            "ping_quiet_max_ms": max(quiet) * 1000,
            "ping_max_ms": max(during) * 1000,
        }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument(
        "--query", default="", help="asked each call, e.g. '?types=20&garbage=20' (a walk each)"
    )
    args = parser.parse_args()
    print(f"$ python {shlex.join(sys.argv)}", flush=True)
    raise_file_limit()
    for interval, label in (("0", "a walk every call (before)"), ("10", "at most one a 10 s")):
        found = _phase(interval, args)
        print(
            f"{label}: {found['connections']:.0f} connections, {found['tracked']:,.0f} objects "
            f"tracked, {args.calls} calls{' of ' + args.query if args.query else ''} "
            f"({found['refused']:.0f} refused), {found['walks']:.0f} walks in all; "
            f"server CPU {found['cpu_ms']:.1f} ms a call; answered in "
            f"{found['wall_median_ms']:.1f} ms (median), {found['wall_max_ms']:.1f} ms (max); "
            f"control ping during the calls max {found['ping_max_ms']:.1f} ms "
            f"(before them, max {found['ping_quiet_max_ms']:.1f} ms)",
            flush=True,
        )


if __name__ == "__main__":
    main()
