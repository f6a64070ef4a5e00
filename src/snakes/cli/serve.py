"""``snakes serve``: run the game server."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path

import click

from snakes.cli.workers import Supervisor, follow_supervisor, reuse_port_socket, worker_count
from snakes.server.settings import (
    AI_DELAY_SECONDS,
    COMMIT_WINDOW_MS,
    REDIS_REPLICA_WAIT_MS,
    REDIS_TIMEOUT_SECONDS,
    REDIS_WINDOW_MS,
    Settings,
    default_data_dir,
)
from snakes.server.transport.connections import (
    MAX_HEAD_BYTES,
    ConnectionGate,
    FloodFilter,
    gated_http,
    quiet_exception_handler,
)


class _JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def _per_connection_line(record: logging.LogRecord) -> bool:
    """Lines uvicorn and websockets write for every WebSocket opened or closed."""
    message = str(record.msg)
    return message.startswith('%s - "WebSocket ') or message in (
        "connection open",
        "connection closed",
    )


def _configure_logging(log_format: str, access_log: bool = True) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(_JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    if not access_log:
        # With thousands of players these are most of the log and a share of the CPU.
        handler.addFilter(lambda record: not _per_connection_line(record))
    # A flood of bad clients writes one line per interval, never a traceback per socket.
    handler.addFilter(FloodFilter())
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)


DEBUG_TOKEN_MIN = 16


def _debug_token(_: click.Context, __: click.Parameter, value: str | None) -> str | None:
    """A token short enough to guess would open the heap's figures to anyone."""
    if value is not None and len(value) < DEBUG_TOKEN_MIN:
        raise click.BadParameter(f"at least {DEBUG_TOKEN_MIN} characters")
    return value or None


@click.command()
@click.option(
    "--host",
    show_envvar=True,
    envvar="SNAKES_HOST",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0 for every network).",
)
@click.option(
    "--port",
    show_envvar=True,
    envvar="SNAKES_PORT",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on.",
)
@click.option(
    "--data",
    "data_dir",
    show_envvar=True,
    envvar="SNAKES_DATA",
    type=click.Path(path_type=Path),
    default=None,
    help=f"Data folder for the SQLite store [default: {default_data_dir()}]",
)
@click.option(
    "--public-url",
    show_envvar=True,
    envvar="SNAKES_PUBLIC_URL",
    default=None,
    help="Address players use to reach this server; invite links are built on it.",
)
@click.option(
    "--ai-delay",
    show_envvar=True,
    envvar="SNAKES_AI_DELAY",
    type=click.FloatRange(0, 30),
    default=AI_DELAY_SECONDS,
    show_default=True,
    help="Seconds an AI seat pauses before rolling.",
)
@click.option(
    "--animation-scale",
    show_envvar=True,
    envvar="SNAKES_ANIMATION_SCALE",
    type=click.FloatRange(0, 10),
    default=1.0,
    show_default=True,
    help="Scales the time allowed for showing a move before the next countdown.",
)
@click.option(
    "--countdown",
    "countdown_default",
    show_envvar=True,
    envvar="SNAKES_COUNTDOWN",
    type=click.IntRange(1, 600),
    default=20,
    show_default=True,
    help="Default turn countdown for online rooms, in seconds.",
)
@click.option(
    "--countdown-min",
    show_envvar=True,
    envvar="SNAKES_COUNTDOWN_MIN",
    type=click.IntRange(1, 600),
    default=10,
    show_default=True,
    help="Shortest countdown a host may pick.",
)
@click.option(
    "--countdown-max",
    show_envvar=True,
    envvar="SNAKES_COUNTDOWN_MAX",
    type=click.IntRange(1, 600),
    default=60,
    show_default=True,
    help="Longest countdown a host may pick.",
)
@click.option(
    "--idle-minutes",
    show_envvar=True,
    envvar="SNAKES_IDLE_MINUTES",
    type=click.FloatRange(0.01, 10080),
    default=30.0,
    show_default=True,
    help="An online room with nobody connected ends after this long.",
)
@click.option(
    "--record-days",
    show_envvar=True,
    envvar="SNAKES_RECORD_DAYS",
    type=click.FloatRange(0.01, 36500),
    default=30.0,
    show_default=True,
    help="Days finished games' records are kept.",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    show_envvar=True,
    envvar="SNAKES_TRUSTED_PROXIES",
    multiple=True,
    help="Address of a reverse proxy whose X-Forwarded-For is trusted.",
)
@click.option(
    "--redis",
    "redis_url",
    show_envvar=True,
    envvar="SNAKES_REDIS_URL",
    default=None,
    help="redis://HOST:6379/0 makes this server one node of many sharing rooms.",
)
@click.option(
    "--redis-prefix",
    show_envvar=True,
    envvar="SNAKES_REDIS_PREFIX",
    default="snakes:",
    show_default=True,
    help="Prefix of every Redis key and channel (several games can share one Redis).",
)
@click.option(
    "--log-format",
    show_envvar=True,
    envvar="SNAKES_LOG_FORMAT",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text for people, json for log collectors (one object per line).",
)
@click.option(
    "--access-log/--no-access-log",
    show_envvar=True,
    envvar="SNAKES_ACCESS_LOG",
    default=False,
    show_default=True,
    help="Log every HTTP request and WebSocket connection (costly with many players).",
)
@click.option(
    "--lookup-limit",
    show_envvar=True,
    envvar="SNAKES_LOOKUP_LIMIT",
    type=click.IntRange(0, 100_000),
    default=30,
    show_default=True,
    help="Unknown room codes one address may try a minute before it is refused (0: no limit).",
)
@click.option(
    "--lookup-limit-total",
    show_envvar=True,
    envvar="SNAKES_LOOKUP_LIMIT_TOTAL",
    type=click.IntRange(0, 10_000_000),
    default=600,
    show_default=True,
    help="Unknown room codes all addresses together may try a minute (0: no limit).",
)
@click.option(
    "--lookup-limit-network",
    show_envvar=True,
    envvar="SNAKES_LOOKUP_LIMIT_NETWORK",
    type=click.IntRange(0, 1_000_000),
    default=120,
    show_default=True,
    help="Unknown room codes one network (IPv4 /24, IPv6 /48) may try a minute (0: no limit).",
)
@click.option(
    "--room-limit",
    show_envvar=True,
    envvar="SNAKES_ROOM_LIMIT",
    type=click.IntRange(0, 1_000_000),
    default=20,
    show_default=True,
    help="Rooms one address may create a minute (0: no limit).",
)
@click.option(
    "--room-limit-hour",
    show_envvar=True,
    envvar="SNAKES_ROOM_LIMIT_HOUR",
    type=click.IntRange(0, 10_000_000),
    default=200,
    show_default=True,
    help="Rooms one address may create an hour (0: no limit).",
)
@click.option(
    "--room-limit-total",
    show_envvar=True,
    envvar="SNAKES_ROOM_LIMIT_TOTAL",
    type=click.IntRange(0, 10_000_000),
    default=600,
    show_default=True,
    help="Rooms all addresses together may create a minute (0: no limit).",
)
@click.option(
    "--compute-limit",
    show_envvar=True,
    envvar="SNAKES_COMPUTE_LIMIT",
    type=click.FloatRange(0, 3600),
    default=2.0,
    show_default=True,
    help="CPU seconds of stories, odds and QR codes one address may cost a minute (0: no limit).",
)
@click.option(
    "--max-rooms",
    show_envvar=True,
    envvar="SNAKES_MAX_ROOMS",
    type=click.IntRange(0, 10_000_000),
    default=20_000,
    show_default=True,
    help="Rooms this process holds at once; more are refused (0: no limit).",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    show_envvar=True,
    envvar="SNAKES_ALLOWED_HOSTS",
    multiple=True,
    help="A host name browsers reach this server by (besides --public-url's and loopback).",
)
@click.option(
    "--max-connections",
    show_envvar=True,
    envvar="SNAKES_MAX_CONNECTIONS",
    type=click.IntRange(0, 10_000_000),
    default=0,
    show_default=True,
    help="Open connections at once (0: the descriptor limit less a reserve).",
)
@click.option(
    "--max-connections-per-address",
    show_envvar=True,
    envvar="SNAKES_MAX_CONNECTIONS_PER_ADDRESS",
    type=click.IntRange(0, 10_000_000),
    default=256,
    show_default=True,
    help="Open connections from one address (IPv6: one /64) at once (0: no limit).",
)
@click.option(
    "--header-timeout",
    show_envvar=True,
    envvar="SNAKES_HEADER_TIMEOUT",
    type=click.FloatRange(0.1, 3600),
    default=10.0,
    show_default=True,
    help="Seconds a client has to send a request's headers.",
)
@click.option(
    "--max-body",
    "max_body_bytes",
    show_envvar=True,
    envvar="SNAKES_MAX_BODY",
    type=click.IntRange(1024, 100 * 1024 * 1024),
    default=64 * 1024,
    show_default=True,
    help="Largest HTTP request body in bytes; larger ones get 413 unread.",
)
@click.option(
    "--keepalive",
    show_envvar=True,
    envvar="SNAKES_KEEPALIVE",
    type=click.FloatRange(0.1, 3600),
    default=15.0,
    show_default=True,
    help="Seconds a silent WebSocket waits for a ping; a client that stops reading is "
    "dropped within 2x.",
)
@click.option(
    "--commit-window",
    "commit_window_ms",
    show_envvar=True,
    envvar="SNAKES_COMMIT_WINDOW",
    type=click.FloatRange(0, 100),
    default=COMMIT_WINDOW_MS,
    show_default=True,
    help="Milliseconds a change waits for other rooms' changes to share its SQLite "
    "transaction (0: only those of the same moment).",
)
@click.option(
    "--redis-window",
    "redis_window_ms",
    show_envvar=True,
    envvar="SNAKES_REDIS_WINDOW",
    type=click.FloatRange(0, 100),
    default=REDIS_WINDOW_MS,
    show_default=True,
    help="With --redis: milliseconds a write to Redis waits for other rooms' commits and "
    "forwarded intents to share it (0: only those of the same moment).",
)
@click.option(
    "--redis-timeout",
    show_envvar=True,
    envvar="SNAKES_REDIS_TIMEOUT",
    type=click.FloatRange(0.1, 60),
    default=REDIS_TIMEOUT_SECONDS,
    show_default=True,
    help="With --redis: seconds within which every command to Redis, and so every intent "
    "and lookup, is answered; past it, 'unavailable' (or 'outcome_unknown').",
)
@click.option(
    "--redis-replica-wait",
    "redis_replica_wait_ms",
    show_envvar=True,
    envvar="SNAKES_REDIS_REPLICA_WAIT",
    type=click.IntRange(0, 1000),
    default=REDIS_REPLICA_WAIT_MS,
    show_default=True,
    help="With --redis on a Redis Cluster: milliseconds each write waits at most for a "
    "replica to confirm it before players are told (0: none; a primary's death may then "
    "lose the last changes told).",
)
@click.option(
    "--workers",
    show_envvar=True,
    envvar="SNAKES_WORKERS",
    default="1",
    show_default=True,
    help="Server processes behind the one port, or auto (one per core); more than one "
    "needs --redis, through which they share rooms.",
)
@click.option(
    "--loop",
    "event_loop",
    show_envvar=True,
    envvar="SNAKES_LOOP",
    type=click.Choice(["uvloop", "asyncio"]),
    default="uvloop",
    show_default=True,
    help="Event loop: uvloop (libuv, less CPU per message) or Python's own asyncio.",
)
@click.option("--worker", "is_worker", is_flag=True, hidden=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the game in a browser.")
@click.option(
    "--debug-stats-token",
    show_envvar=True,
    envvar="SNAKES_DEBUG_STATS_TOKEN",
    type=click.STRING,
    default=None,
    metavar="TOKEN",
    callback=_debug_token,
    help="Serve heap and task counts at /debug/stats to requests that carry this token "
    "(Authorization: Bearer TOKEN; 16 characters or more); without it, no such path.",
)
@click.option(
    "--debug-stats-interval",
    show_envvar=True,
    envvar="SNAKES_DEBUG_STATS_INTERVAL",
    type=click.FloatRange(0, 3600),
    default=10.0,
    show_default=True,
    help="Seconds between two walks of the heap by /debug/stats (0: one every call).",
)
@click.option(
    "--debug-tracemalloc/--no-debug-tracemalloc",
    envvar="SNAKES_DEBUG_TRACEMALLOC",
    default=True,
    hidden=True,
)
@click.option(
    "--test-hooks", show_envvar=True, envvar="SNAKES_TEST_HOOKS", is_flag=True, hidden=True
)
def serve(
    host: str,
    port: int,
    data_dir: Path | None,
    public_url: str | None,
    ai_delay: float,
    animation_scale: float,
    countdown_default: int,
    countdown_min: int,
    countdown_max: int,
    idle_minutes: float,
    record_days: float,
    trusted_proxies: tuple[str, ...],
    redis_url: str | None,
    redis_prefix: str,
    log_format: str,
    access_log: bool,
    lookup_limit: int,
    lookup_limit_total: int,
    lookup_limit_network: int,
    room_limit: int,
    room_limit_hour: int,
    room_limit_total: int,
    compute_limit: float,
    max_rooms: int,
    allowed_hosts: tuple[str, ...],
    max_connections: int,
    max_connections_per_address: int,
    header_timeout: float,
    max_body_bytes: int,
    keepalive: float,
    commit_window_ms: float,
    redis_window_ms: float,
    redis_timeout: float,
    redis_replica_wait_ms: int,
    workers: str,
    event_loop: str,
    is_worker: bool,
    open_browser: bool,
    debug_stats_token: str | None,
    debug_stats_interval: float,
    debug_tracemalloc: bool,
    test_hooks: bool,
) -> None:
    """Serve the web game: Play with AI, Pass & Play and Play Online."""
    import uvicorn  # noqa: PLC0415 - keeps the other commands quick to start

    from snakes.server.app import create_app, socket_policy, tune_gc  # noqa: PLC0415
    from snakes.server.transport.gamesocket import game_socket_class  # noqa: PLC0415

    if not countdown_min <= countdown_default <= countdown_max:
        raise click.BadParameter(
            f"the default countdown ({countdown_default}) must lie within "
            f"--countdown-min ({countdown_min}) and --countdown-max ({countdown_max})"
        )
    try:
        count = worker_count(workers)
    except ValueError:
        raise click.BadParameter(
            f"{workers!r} is neither a number of workers (1 or more) nor auto",
            param_hint="--workers",
        ) from None
    if count > 1 and not is_worker:
        if redis_url is None:
            raise click.UsageError(
                "--workers above 1 needs --redis: the workers share rooms through it"
            )
        sys.exit(_supervise(count, host, port, public_url, open_browser))
    _configure_logging(log_format, access_log)
    # Port 0 asks the system for a free port: it is bound here, before the settings are
    # made, so that invite links and the announced address name the port really served.
    listening = _free_port_socket(host) if port == 0 and not is_worker else None
    if listening is not None:
        port = int(listening.getsockname()[1])
    settings = Settings(
        host=host,
        port=port,
        data_dir=data_dir or default_data_dir(),
        public_url=public_url,
        ai_delay=ai_delay,
        animation_scale=animation_scale,
        countdown_default=countdown_default,
        countdown_min=countdown_min,
        countdown_max=countdown_max,
        idle_seconds=idle_minutes * 60,
        record_days=record_days,
        trusted_proxies=trusted_proxies,
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        log_format=log_format,
        lookup_limit=lookup_limit,
        lookup_limit_total=lookup_limit_total,
        lookup_limit_network=lookup_limit_network,
        room_limit=room_limit,
        room_limit_hour=room_limit_hour,
        room_limit_total=room_limit_total,
        compute_limit=compute_limit,
        max_rooms=max_rooms,
        allowed_hosts=allowed_hosts,
        max_connections=max_connections,
        max_connections_per_address=max_connections_per_address,
        header_timeout=header_timeout,
        max_body_bytes=max_body_bytes,
        keepalive=keepalive,
        commit_window=commit_window_ms / 1000,
        redis_window=redis_window_ms / 1000,
        redis_timeout=redis_timeout,
        redis_replica_wait_ms=redis_replica_wait_ms,
        access_log=access_log,
        debug_stats_token=debug_stats_token,
        debug_stats_interval=debug_stats_interval,
        debug_tracemalloc=debug_tracemalloc,
        test_hooks=test_hooks,
    )
    gate = ConnectionGate(max_connections, max_connections_per_address, trusted_proxies)
    app = create_app(settings)
    policy = socket_policy(app, settings)
    policy.on_close = gate.release
    config = uvicorn.Config(
        app,
        http=gated_http(gate, header_timeout),
        # The game's WebSocket is served by its own protocol (transport/gamesocket.py),
        # which keeps its own keepalive and size limits.
        ws=game_socket_class(policy),
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        host=host,
        port=port,
        log_config=None,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies) or None,
        access_log=access_log,
        loop=event_loop,
        # "server: uvicorn" on every answer tells a visitor nothing they need, tells a
        # scanner what to try, and costs 17 bytes on each of the first load's requests.
        server_header=False,
    )
    server = uvicorn.Server(config)
    shown = public_url or f"http://{_shown_host(host)}:{port}"

    def announce() -> None:
        while not server.started:
            time.sleep(0.05)
        address = shown
        line = f"Snakes & Ladders is running at {address}  (Ctrl+C to stop)"
        if log_format == "json":
            logging.getLogger("snakes").info(line)  # every line of a JSON log is JSON
        else:
            click.echo(line, err=True)
        if open_browser:
            webbrowser.open(address)

    # A worker binds the port beside its siblings (SO_REUSEPORT); its supervisor
    # announces the address once for all of them.
    sockets = [reuse_port_socket(host, port)] if is_worker else None
    if listening is not None:
        sockets = [listening]
    if is_worker:
        threading.Thread(target=follow_supervisor, args=(server,), daemon=True).start()
    else:
        threading.Thread(target=announce, daemon=True).start()
    tune_gc()

    async def run() -> None:
        asyncio.get_running_loop().set_exception_handler(quiet_exception_handler)
        await server.serve(sockets=sockets)

    # As uvicorn.Server.run does, with the loop's exception handler set first.
    from uvicorn._compat import asyncio_run  # noqa: PLC0415

    asyncio_run(run(), loop_factory=config.get_loop_factory())


def _free_port_socket(host: str) -> socket.socket:
    """A listening socket on a port the system chose."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, 0), family=family, backlog=2048)


def _shown_host(host: str) -> str:
    return "localhost" if host in ("127.0.0.1", "0.0.0.0") else host


def _supervise(count: int, host: str, port: int, public_url: str | None, open_browser: bool) -> int:
    """Run ``count`` workers of this same command behind its port; their exit status."""
    supervisor = Supervisor(count, host, port, sys.argv[sys.argv.index("serve") + 1 :])

    def tell(bound: int) -> None:
        address = public_url or f"http://{_shown_host(host)}:{bound}"
        click.echo(
            f"Snakes & Ladders is running at {address} with {count} workers  (Ctrl+C to stop)",
            err=True,
        )
        if open_browser:
            webbrowser.open(address)

    return supervisor.run(tell)
