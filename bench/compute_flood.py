"""Floods of the endpoints that compute, with a control player timed all along.

One real ``snakes serve`` on a loopback port, default limits, behind a "proxy" (the
bench is ``--trusted-proxy``, so each request may name its own client address with
``X-Forwarded-For``: a flood from one address, or from thousands). A control player sits
in an online room and sends a JSON ping every 50 ms; for each flood the bench prints
the control's ping p50/p99/max, the server's resident memory (with its compute
worker's) before, at its highest during, and after, and what the flooders were
answered. Every flood stops by itself.

    python bench/compute_flood.py [--seconds 20] [--flooders 16] [--baseline SRC]

``--baseline SRC`` floods another tree's server instead (its ``src`` folder, e.g. from
``git archive 6017b7c src | tar -x -C /tmp/v-6017b7c``): the same floods, before.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.server import ServerProcess, running_server  # noqa: E402

Request = tuple[str, str, bytes | None]
"""Method, path and body of one request."""


def _rss_of(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))


def rss_kb(server: ServerProcess) -> int:
    """The server's resident memory with its compute worker's (its children), in KB."""
    assert server.process is not None
    pid = server.process.pid
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return _rss_of(pid) + sum(_rss_of(int(child)) for child in children)


def record(snakes: list[list[int]], actions: list[dict[str, Any]], seats: int = 2) -> bytes:
    return json.dumps(
        {
            "engine_version": "1.0.0",
            "rules": {"finish": "last-one-standing", "exact_finish": True, "six_again": True},
            "board": {"name": "drawn", "ladders": [[99, 100]], "snakes": snakes},
            "seats": [
                {"name": f"P{i}", "colour": c}
                for i, c in enumerate(
                    ["red", "blue", "green", "yellow", "purple", "orange"][:seats]
                )
            ],
            "first": 0,
            "actions": actions,
        }
    ).encode()


def too_slow() -> Iterator[Request]:
    """1 KB records on boards that could end but almost never do, each a new board."""
    for n in itertools.count():
        snakes = [[s, 4] for s in range(5, 99) if s % 5 != 4]
        snakes[-1][1] = 4 + 5 * (n % 18)
        snakes[-2][1] = 4 + 5 * (n // 18 % 18)
        yield "POST", "/api/records/odds", record(snakes, [])


def slow_but_allowed() -> Iterator[Request]:
    """Records on boards just within the analysis budget, each a new board: a chain of
    about 2,000 turns to build for every one."""
    for n in itertools.count():
        snakes = [[94 + i, 79 + i + (n >> (2 * i)) % 4] for i in range(5)]
        yield "POST", "/api/records/odds", record(snakes, [{"type": "skip", "seat": 0}])


def long_stories() -> Iterator[Request]:
    """Stories of 2,000-action records (near the 64 KB body limit) for six seats, each
    different: a cache miss every time."""
    for n in itertools.count():
        actions = [{"type": "skip", "seat": i % 6} for i in range(1800 + n % 100)]
        snakes = [[94 + i, 80 + i] for i in range(5)]
        yield "POST", "/api/records/story", record(snakes, actions, seats=6)


def health() -> Iterator[Request]:
    """The cheapest request there is: what any flood of requests costs, for comparison."""
    while True:
        yield "GET", "/healthz", None


def qr_codes(code: str) -> Callable[[], Iterator[Request]]:
    def requests() -> Iterator[Request]:
        while True:
            yield "GET", f"/api/rooms/{code}/qr.svg", None

    return requests


class Control:
    """The control player: a JSON ping every 50 ms, each pong's time noted."""

    def __init__(self, server: ServerProcess, code: str, secret: str) -> None:
        self.ws = connect(server.ws_url, open_timeout=10).__enter__()
        self.ws.send(json.dumps({"type": "hello", "room": code, "secret": secret}))
        while json.loads(self.ws.recv(10))["type"] != "welcome":
            pass
        self.times: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(0.05):
            sent = time.perf_counter()
            self.ws.send('{"type":"ping"}')
            while json.loads(self.ws.recv(30))["type"] != "pong":
                pass
            self.times.append(time.perf_counter() - sent)

    def take(self) -> list[float]:
        taken, self.times = self.times, []
        return taken

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.ws.close()


def flood(
    server: ServerProcess, requests: Iterator[Request], flooders: int, seconds: float, many: bool
) -> Counter[int]:
    """``flooders`` connections sending ``requests`` for ``seconds``; from one address or
    from a new one each request (``many``)."""
    answers: Counter[int] = Counter()
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def run(worker: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        rng = random.Random(worker)
        while time.monotonic() < deadline:
            with lock:
                method, path, body = next(requests)
            address = (
                f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
                if many
                else "198.51.100.7"
            )
            headers = {"X-Forwarded-For": address, "Content-Type": "application/json"}
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                status = 0
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            with lock:
                answers[status] += 1
        connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(flooders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


class Highest:
    """The server's highest resident memory while it runs, sampled every 100 ms."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.kb = rss_kb(server)
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._sample)
        self.thread.start()

    def _sample(self) -> None:
        while not self.done.wait(0.1):
            self.kb = max(self.kb, rss_kb(self.server))

    def stop(self) -> int:
        self.done.set()
        self.thread.join()
        return self.kb


def row(
    server: ServerProcess,
    control: Control,
    name: str,
    requests: Iterator[Request],
    many: bool,
    flooders: int,
    seconds: float,
) -> None:
    before = rss_kb(server)
    highest = Highest(server)
    control.take()
    answers = flood(server, requests, flooders, seconds, many)
    times = control.take()
    top = highest.stop()
    time.sleep(2)
    after = rss_kb(server)
    told = ", ".join(f"{count:,} x {status}" for status, count in sorted(answers.items()))
    who = "thousands of addresses" if many else "one address"
    ping = " / ".join(
        f"{value * 1000:.1f}"
        for value in (statistics.median(times), percentile(times, 0.99), max(times))
    )
    memory = f"{before / 1024:.0f}, {top / 1024:.0f}, {after / 1024:.0f} MB"
    print(f"| {name} | {who} | {told} | {ping} ms | {memory} |", flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--flooders", type=int, default=16)
    parser.add_argument("--baseline", metavar="SRC", help="another tree's src folder to serve")
    args = parser.parse_args()
    if args.baseline:
        os.environ["PYTHONPATH"] = str(Path(args.baseline).resolve())  # the server's only
    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder), "--trusted-proxy", "127.0.0.1") as server,
    ):
        host = {"name": "Ana", "colour": "red"}
        room = server.post("/api/rooms", {"mode": "online", "seats": [host]})
        control = Control(server, room["code"], room["secret"])
        time.sleep(3)
        baseline = control.take()
        print(
            f"server at rest: {rss_kb(server) / 1024:.1f} MB; control ping p99 "
            f"{percentile(baseline, 0.99) * 1000:.1f} ms over {len(baseline)} pings"
        )
        tree = f" --baseline {args.baseline}" if args.baseline else ""
        print(
            f"command: python bench/compute_flood.py --seconds {args.seconds:g} "
            f"--flooders {args.flooders}{tree}"
        )
        print(
            "| flood | from | answers | control ping p50 / p99 / max | server RSS before, "
            "highest, after |"
        )
        print("|---|---|---|---|---|")
        floods: list[tuple[str, Callable[[], Iterator[Request]]]] = [
            ("odds, a new board too slow to work out each time", too_slow),
            ("odds, a new board just within the budget each time", slow_but_allowed),
            ("story, a new 1,800-action six-seat record each time", long_stories),
            ("QR code of a real room", qr_codes(room["code"])),
            ("/healthz (no work: what a flood of any request costs)", health),
        ]
        for name, requests in floods:
            for many in (False, True):
                row(server, control, name, requests(), many, args.flooders, args.seconds)
        control.close()


if __name__ == "__main__":
    main()
