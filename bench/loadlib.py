"""Shared parts of the load and soak benchmarks: servers, process figures, load workers.

Loopback only. Servers are real ``snakes serve`` processes on free ports; the load
runs in worker processes, each an asyncio event loop holding thousands of WebSocket
clients (the ``websockets`` asyncio client), so the server's CPU and the load's CPU are
measured apart. Everything here is bounded in time and stops by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROLL_EVERY = 2.0
"""Human pace: one roll every two seconds per room, by whoever's turn it is."""
COUNTDOWN = 60
COLOURS = ["red", "blue", "green", "yellow"]
CLK_TCK = os.sysconf("SC_CLK_TCK")


# ---- the machine and processes ------------------------------------------------------


CROWD_FLAGS = [
    "--room-limit", "0", "--room-limit-hour", "0", "--room-limit-total", "0",
    "--max-connections-per-address", "0",
]  # fmt: skip
"""Every simulated player comes from 127.0.0.1: the per-address budgets (rooms created,
connections) would refuse them, as they would a real crowd behind one address. The
overall limits stay."""


def raise_file_limit() -> int:
    """Raise this process's open-file limit to its hard limit (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc/PID/stat."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_bytes(pid: int) -> int:
    """Resident memory of a process, from /proc/PID/status (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cpu_pressure() -> float | None:
    """Microseconds, since boot, that some task here waited for a CPU (/proc/pressure/cpu).

    Other work on the machine shows up here: the share of a window spent waiting is
    reported next to the latency, since a busy machine delays every process.
    """
    try:
        first = Path("/proc/pressure/cpu").read_text().splitlines()[0]
    except (OSError, IndexError):
        return None
    return float(first.rpartition("total=")[2])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def http_json(method: str, url: str, body: Any = None, timeout: float = 10) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"null")


class Server:
    """One ``snakes serve`` process on a free loopback port."""

    def __init__(
        self, *extra: str, env: dict[str, str] | None = None, program: str | None = None
    ) -> None:
        self.port = free_port()
        self.data = Path(tempfile.mkdtemp(prefix="snakes-bench-", dir=os.environ.get("BENCH_DATA")))
        self.log_path = self.data / "server.log"
        command = [
            sys.executable, "-m", "snakes", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--data", str(self.data),
            *extra,
        ]  # fmt: skip
        if program is not None:  # another server (the yardstick) on the same port rules
            command = [sys.executable, program, "--port", str(self.port)]
        self.command = command
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            command,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited at start:\n{self.log_tail()}")
            try:
                http_json("GET", self.url + "/healthz", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("server did not start in 30 s") from None
                time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def pids(self) -> list[int]:
        """This process and its children (the workers of ``snakes serve --workers N``)."""
        found = subprocess.run(
            ["pgrep", "-P", str(self.pid)], check=False, capture_output=True, text=True
        )
        return [self.pid, *(int(pid) for pid in found.stdout.split())]

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(pid) for pid in self.pids())

    def rss_bytes(self) -> int:
        return sum(rss_bytes(pid) for pid in self.pids())

    def log_tail(self, lines: int = 30) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


def server_metrics(url: str) -> dict[str, float]:
    """The server's /metrics as {name{labels}: value} (empty if it has none)."""
    try:
        with urllib.request.urlopen(url + "/metrics", timeout=10) as response:
            text = response.read().decode()
    except OSError:
        return {}
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    return values


def gc_seconds(url: str) -> float | None:
    """Seconds the server spent in garbage collection so far, if it says."""
    values = server_metrics(url)
    spent = [v for k, v in values.items() if k.startswith("snakes_gc_seconds_total")]
    return sum(spent) if spent else None


def is_redis_cluster(url: str) -> bool:
    """Whether the Redis at ``url`` is a node of a Redis Cluster (``INFO cluster``)."""
    import redis  # noqa: PLC0415 - only the Redis runs need it

    client = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=10)
    try:
        return bool(client.info("cluster").get("cluster_enabled"))
    finally:
        client.close()


def delete_redis_prefix(url: str, prefix: str) -> int:
    """Delete every key under ``prefix``: on the one Redis, or on every primary of the
    Redis Cluster that ``url`` names a node of. The number of keys deleted."""
    from redis.cluster import RedisCluster  # noqa: PLC0415

    import redis  # noqa: PLC0415 - only the Redis runs need it

    client: Any = (
        RedisCluster.from_url(url, socket_timeout=10)
        if is_redis_cluster(url)
        else redis.Redis.from_url(url, socket_timeout=10)
    )
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])  # a cluster splits them by slot
    finally:
        client.close()
    return len(keys)


def redis_server_pids(url: str) -> tuple[list[int], list[str]]:
    """The redis-server processes of this machine behind a Redis URL: the one Redis it
    names, or every node (primaries and replicas) of the Redis Cluster it is a node of,
    and nothing else (not the other Redis servers that may run here).

    Each node is asked its ``process_id`` (``INFO server``), which must be a process here
    named redis-server whose command line names the node's port. The pids found, and the
    addresses whose process was not (a Redis in a container, say): their CPU is unknown.
    """
    import redis  # noqa: PLC0415 - only the Redis runs need it

    parts = urlsplit(url)
    addresses = [(parts.hostname or "127.0.0.1", parts.port or 6379)]
    if is_redis_cluster(url):
        client = redis.Redis(host=addresses[0][0], port=addresses[0][1], socket_timeout=10)
        try:
            listing = client.execute_command("CLUSTER", "NODES")
        finally:
            client.close()
        lines = [line.split() for line in listing.decode().splitlines() if line.strip()]
        addresses = [
            (host, int(port))
            for _, address, flags, *_ in lines
            if "fail" not in flags and "noaddr" not in flags
            for host, _, port in [address.split("@")[0].rpartition(":")]
        ]
    pids: list[int] = []
    missing: list[str] = []
    for host, port in addresses:
        client = redis.Redis(host=host or "127.0.0.1", port=port, socket_timeout=10)
        try:
            pid = int(client.info("server")["process_id"])
        finally:
            client.close()
        try:
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            comm = cmdline = ""
        if comm == "redis-server" and str(port) in cmdline:
            pids.append(pid)
        else:
            missing.append(f"{host}:{port}")
    return sorted(set(pids)), missing


def cpu_seconds_of(pids: list[int]) -> float | None:
    """The CPU time of these processes together; None if one of them is gone."""
    try:
        return sum(cpu_seconds(pid) for pid in pids)
    except OSError:
        return None


# ---- the load: rooms of four players, each on its own connection ---------------------


@dataclass
class RoomPlan:
    """A room to create: the node (HTTP base URL) each of its four seats uses."""

    number: int
    nodes: list[str]


def _changing(kind: str, seat: _Seat) -> str:
    """An intent that changes the room, naming the ``change`` its seat last saw (a server
    from before changes were named takes it without)."""
    message: dict[str, Any] = {"type": kind}
    if seat.change is not None:
        message["change"] = seat.change
    return json.dumps(message)


@dataclass
class _Seat:
    index: int
    secret: str
    ws: Any = None
    version: int = -1
    change: int | None = None
    """The room's ``change`` as this seat last saw it (None: a server without one)."""
    phase: str = ""
    game: int = 0
    turn: int | None = None


@dataclass
class _Window:
    """What one measuring window saw."""

    latencies: list[float] = field(default_factory=list)
    stamps: list[float] = field(default_factory=list)
    """When each measured roll was sent (perf_counter; comparable across workers on Linux)."""
    rolls: int = 0
    rematches: int = 0
    late_ticks: int = 0
    errors: Counter[str] = field(default_factory=Counter)


class _Room:
    def __init__(self, worker: _Worker, plan: RoomPlan) -> None:
        self.worker = worker
        self.plan = plan
        self.code = ""
        self.seats: list[_Seat] = []
        self.pending: tuple[int, float, set[int]] | None = None
        """(version awaited, when the roll was sent, seats that have not seen it yet)"""
        self.started = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closing = False

    # -- setting up: HTTP create and join, then a WebSocket per seat --

    async def setup(self) -> None:
        import httpx  # noqa: PLC0415

        client: httpx.AsyncClient = self.worker.http
        nodes = self.plan.nodes
        created = await _post(
            client,
            f"{nodes[0]}/api/rooms",
            {
                "mode": "online",
                "seats": [{"name": f"H{self.plan.number}", "colour": COLOURS[0]}],
                "countdown_seconds": COUNTDOWN,
            },
        )
        self.code = created["code"]
        self.seats = [_Seat(0, created["secret"])]
        for index in range(1, 4):
            joined = await _post(
                client,
                f"{nodes[index]}/api/rooms/{self.code}/join",
                {"name": f"P{index}", "colour": COLOURS[index]},
            )
            self.seats.append(_Seat(joined["seats"][0], joined["secret"]))
        for seat, node in zip(self.seats, nodes, strict=True):
            await self._connect(seat, node)
        await self.seats[0].ws.send(_changing("start", self.seats[0]))
        await asyncio.wait_for(self.started.wait(), 60)

    async def _connect(self, seat: _Seat, node: str) -> None:
        from websockets.asyncio.client import connect  # noqa: PLC0415

        url = node.replace("http://", "ws://") + "/ws"
        # Browsers send no pings of their own; compression is off on the server too.
        seat.ws = await connect(
            url, ping_interval=None, compression=None, open_timeout=60, close_timeout=2
        )
        await seat.ws.send(json.dumps({"type": "hello", "room": self.code, "secret": seat.secret}))
        while True:
            # With several nodes an update of the room can overtake the welcome.
            welcome = json.loads(await asyncio.wait_for(seat.ws.recv(), 60))
            if welcome.get("type") == "welcome":
                break
            if welcome.get("type") == "error":
                raise RuntimeError(f"hello answered {welcome.get('code')}")
        self._seen(seat, welcome["room"])
        self.worker.keep(asyncio.create_task(self._read(seat)))

    # -- reading: every seat's connection --

    def _seen(self, seat: _Seat, room: dict[str, Any]) -> None:
        seat.version = room["version"]
        seat.change = room.get("change")
        seat.phase = room["phase"]
        seat.game = room["game_number"]
        seat.turn = room["turn"]
        if len(self.seats) == 4 and all(s.phase == "playing" for s in self.seats):
            self.started.set()

    async def _read(self, seat: _Seat) -> None:
        try:
            async for text in seat.ws:
                now = time.perf_counter()
                message = json.loads(text)
                kind = message.get("type")
                if kind == "update":
                    self._seen(seat, message["room"])
                    pending = self.pending
                    if pending is not None and seat.version >= pending[0]:
                        pending[2].discard(seat.index)
                        if not pending[2]:
                            self.pending = None
                            self.worker.window.latencies.append((now - pending[1]) * 1000)
                            self.worker.window.stamps.append(pending[1])
                            self.worker.window.rolls += 1
                elif kind == "error":
                    self.worker.window.errors[f"error:{message.get('code')}"] += 1
        except Exception as error:
            if self.worker.running and not self.closing:
                self.worker.window.errors[f"closed:{type(error).__name__}"] += 1
            return
        if self.worker.running and not self.closing:
            code = seat.ws.close_code
            self.worker.window.errors[f"closed:{code}"] += 1

    # -- playing: one roll every two seconds, by whoever's turn it is --

    async def play(self) -> None:
        await asyncio.sleep(random.uniform(0, ROLL_EVERY))  # spread the rooms' ticks
        loop = asyncio.get_running_loop()
        tick = loop.time()
        rematch_sent = -1
        while self.worker.running:
            tick += ROLL_EVERY
            window = self.worker.window
            if self.pending is not None:
                if time.perf_counter() - self.pending[1] > 10:
                    window.errors["timeout"] += 1
                    self.pending = None
                else:
                    window.late_ticks += 1
            else:
                view = max(self.seats, key=lambda s: (s.game, s.version))
                if view.phase == "over" and all(s.phase == "over" for s in self.seats):
                    if random.random() < self.worker.churn:
                        # Everyone leaves: the room must expire and be released, and a
                        # new room takes its place.
                        await self.leave()
                        self.worker.replace(self)
                        return
                    if rematch_sent != view.game:
                        rematch_sent = view.game
                        window.rematches += 1
                        # A rematch is a proposal: it starts once every player agreed.
                        for seat in self.seats:
                            await seat.ws.send(_changing("rematch", seat))
                elif view.phase == "playing" and view.turn is not None:
                    roller = self.seats[view.turn]
                    if roller.version == view.version:
                        self.pending = (view.version + 1, time.perf_counter(), {0, 1, 2, 3})
                        message = f'{{"type":"roll","seat":{view.turn},"version":{view.version}}}'
                        with contextlib.suppress(Exception):
                            await roller.ws.send(message)
            await asyncio.sleep(max(0.0, tick - loop.time()))

    async def leave(self) -> None:
        self.closing = True
        for seat in self.seats:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(seat.ws.close(), 5)


async def _post(client: Any, url: str, body: Any) -> Any:
    import httpx  # noqa: PLC0415

    for attempt in range(5):
        try:
            response = await client.post(url, json=body)
        except httpx.TransportError:
            # A pooled connection the server had just closed (keep-alive timeout).
            if attempt == 4:
                raise
            await asyncio.sleep(0.2)
            continue
        if response.status_code < 500 and response.status_code != 429:
            break
        await asyncio.sleep(0.5 * (attempt + 1))
    if response.status_code >= 400:
        raise RuntimeError(f"POST {url} -> {response.status_code} {response.text[:200]}")
    return response.json()


class _Worker:
    """One load process: an event loop with its rooms, driven by commands on a pipe."""

    def __init__(self, pipe: multiprocessing.connection.Connection) -> None:
        self.pipe = pipe
        self.rooms: list[_Room] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.window = _Window()
        self.running = True
        self.http: Any = None
        self.churn = 0.0
        """Chance that the players of a finished game leave (a new room replaces it)."""
        self.replaced = 0
        self._next_number = 10_000_000 * (os.getpid() % 1000)

    async def main(self) -> None:
        import httpx  # noqa: PLC0415

        self.http = httpx.AsyncClient(
            timeout=60, limits=httpx.Limits(max_connections=64, max_keepalive_connections=64)
        )
        loop = asyncio.get_running_loop()
        commands: asyncio.Queue[Any] = asyncio.Queue()
        loop.add_reader(self.pipe.fileno(), lambda: commands.put_nowait(self.pipe.recv()))
        while True:
            command, argument = await commands.get()
            if command == "setup":
                self.pipe.send(await self.setup(argument))
            elif command == "churn":
                self.churn = float(argument)
                self.pipe.send({"churn": self.churn})
            elif command == "measure":
                self.pipe.send(await self.measure(argument))
            elif command == "stop":
                await self.stop()
                self.pipe.send({"stopped": True})
                return

    async def setup(self, plans: list[RoomPlan]) -> dict[str, Any]:
        started = time.perf_counter()
        cpu = time.process_time()
        gate = asyncio.Semaphore(40)
        failures: Counter[str] = Counter()
        ready: list[_Room] = []

        async def one(plan: RoomPlan) -> None:
            room = _Room(self, plan)
            async with gate:
                try:
                    await room.setup()
                except Exception as error:
                    failures[f"setup:{type(error).__name__}:{str(error)[:80]}"] += 1
                    return
            ready.append(room)

        await asyncio.gather(*(one(plan) for plan in plans))
        # The clients' own garbage collections would show up as latency: the long-lived
        # connections are frozen out of them (the server does the same; see tune_gc).
        gc.collect()
        gc.freeze()
        # New rooms start rolling together, once all are seated (each at a random phase).
        for room in ready:
            self.rooms.append(room)
            room.task = asyncio.create_task(room.play())
        return {
            "rooms": len(self.rooms),
            "failures": dict(failures),
            "seconds": time.perf_counter() - started,
            "cpu": time.process_time() - cpu,
        }

    def keep(self, task: asyncio.Task[None]) -> None:
        """Hold a reference to a background task until it ends."""
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def replace(self, old: _Room) -> None:
        """Seat four new players in a new room on the same nodes, then let them play."""
        self.rooms.remove(old)
        self._next_number += 1
        room = _Room(self, RoomPlan(self._next_number, old.plan.nodes))

        async def seat() -> None:
            try:
                await room.setup()
            except Exception as error:
                self.window.errors[f"replace:{type(error).__name__}:{str(error)[:70]}"] += 1
                return
            self.replaced += 1
            self.rooms.append(room)
            room.task = asyncio.create_task(room.play())

        self.keep(asyncio.create_task(seat()))

    async def measure(self, seconds: float) -> dict[str, Any]:
        self.window = _Window()
        cpu = time.process_time()
        await asyncio.sleep(seconds)
        window = self.window
        open_connections = sum(
            1
            for room in self.rooms
            for seat in room.seats
            if seat.ws and seat.ws.close_code is None
        )
        return {
            "latencies": window.latencies,
            "stamps": window.stamps,
            "rolls": window.rolls,
            "rematches": window.rematches,
            "late_ticks": window.late_ticks,
            "errors": dict(window.errors),
            "cpu": time.process_time() - cpu,
            "connections": open_connections,
            "replaced": self.replaced,
        }

    async def stop(self) -> None:
        self.running = False
        for room in self.rooms:
            if room.task is not None:
                room.task.cancel()
        gate = asyncio.Semaphore(200)

        async def close(ws: Any) -> None:
            async with gate:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 5)

        await asyncio.gather(*(close(s.ws) for r in self.rooms for s in r.seats if s.ws))
        for task in list(self.tasks):
            task.cancel()
        await self.http.aclose()


def _worker_main(pipe: multiprocessing.connection.Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    gc.set_threshold(10_000, 2, 1000)
    asyncio.run(_Worker(pipe).main())


class Workers:
    """Load processes, each given a share of the rooms."""

    def __init__(self, count: int) -> None:
        context = multiprocessing.get_context("fork")
        self.pipes: list[multiprocessing.connection.Connection] = []
        self.processes: list[Any] = []
        for _ in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=_worker_main, args=(theirs,), daemon=True)
            process.start()
            self.pipes.append(ours)
            self.processes.append(process)

    def _ask(self, messages: list[tuple[str, Any]], timeout: float) -> list[dict[str, Any]]:
        for pipe, message in zip(self.pipes, messages, strict=True):
            pipe.send(message)
        answers = []
        deadline = time.monotonic() + timeout
        for pipe in self.pipes:
            if not pipe.poll(max(0.1, deadline - time.monotonic())):
                raise TimeoutError(f"a load worker did not answer {messages[0][0]!r} in time")
            answers.append(pipe.recv())
        return answers

    def setup(self, plans: list[RoomPlan], timeout: float = 900) -> list[dict[str, Any]]:
        shares: list[list[RoomPlan]] = [[] for _ in self.pipes]
        for index, plan in enumerate(plans):
            shares[index % len(shares)].append(plan)
        return self._ask([("setup", share) for share in shares], timeout)

    def set_churn(self, chance: float) -> None:
        self._ask([("churn", chance)] * len(self.pipes), 30)

    def measure(self, seconds: float) -> list[dict[str, Any]]:
        return self._ask([("measure", seconds)] * len(self.pipes), seconds + 120)

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.processes if p.pid)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._ask([("stop", None)] * len(self.pipes), 120)
        for process in self.processes:
            process.join(5)
            if process.is_alive():
                process.terminate()
                process.join(5)


def plans_for(
    first: int, count: int, nodes: list[str], *, together: bool = False
) -> list[RoomPlan]:
    """Rooms numbered from ``first``; seat i of room n uses node (n + i) mod len(nodes)
    (every room split over the nodes: the worst case), or with ``together`` every seat of
    room n node n mod len(nodes) (as a load balancer that hashes the room code does)."""
    return [
        RoomPlan(n, [nodes[(n + (0 if together else seat)) % len(nodes)] for seat in range(4)])
        for n in range(first, first + count)
    ]


def merge(answers: list[dict[str, Any]]) -> dict[str, Any]:
    errors: Counter[str] = Counter()
    for answer in answers:
        errors.update(answer["errors"])
    return {
        "latencies": [x for a in answers for x in a["latencies"]],
        "stamps": [x for a in answers for x in a["stamps"]],
        "rolls": sum(a["rolls"] for a in answers),
        "rematches": sum(a["rematches"] for a in answers),
        "late_ticks": sum(a["late_ticks"] for a in answers),
        "errors": dict(errors),
        "connections": sum(a["connections"] for a in answers),
        "replaced": sum(a.get("replaced", 0) for a in answers),
        "cpu": sum(a["cpu"] for a in answers),
    }
