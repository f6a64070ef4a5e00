"""Server settings. Each one is a command-line flag and a ``SNAKES_*`` environment variable."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

COMMIT_WINDOW_MS = 5.0
"""The group commit's default window, in milliseconds."""
REDIS_WINDOW_MS = 10.0
"""The default window of a write to Redis, in milliseconds."""
REDIS_TIMEOUT_SECONDS = 2.0
REDIS_REPLICA_WAIT_MS = 100
"""The default deadline of every call to Redis, and of every intent's answer with it."""
MOVE_SECONDS = 1.8
"""The time allowed for showing any move (the die, the turn's hand-over, the countdown's
safety margin), at normal speed; the page's own room paces its AI seats by it too."""
SQUARE_SECONDS = 0.21
"""The time allowed for showing each square a token hops."""
JUMP_SECONDS = 1.3
"""The time allowed for showing each ladder climbed or snake slid."""
AI_DELAY_SECONDS = 0.9
"""The default pause of an AI seat before it rolls, after the last move was shown."""


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("snakes-and-ladders", appauthor=False))


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = field(default_factory=default_data_dir)
    public_url: str | None = None
    """Where players reach this server (https://snakes.example.org); invite links use it."""
    ai_delay: float = AI_DELAY_SECONDS
    """Seconds an AI seat 'thinks' before rolling, after the previous move was shown."""
    animation_scale: float = 1.0
    """Scales the fixed time the server allows browsers to show a move (0 in tests)."""
    countdown_default: int = 20
    countdown_min: int = 10
    countdown_max: int = 60
    idle_seconds: float = 30 * 60
    """A room with nobody connected (or nobody racing connected) ends after this long."""
    host_grace_seconds: float = 60
    """A lobby host disconnected this long hands the room to the next connected seat."""
    unopened_seconds: float = 10 * 60
    """A local game that no device ever opened is dropped after this long."""
    max_spectators: int = 100
    """Connections holding no seat that one room takes at most."""
    record_days: float = 30
    """Finished games' records, and local games nobody resumed, are kept this many days."""
    log_format: str = "text"
    trusted_proxies: tuple[str, ...] = ()
    redis_url: str | None = None
    """With Redis this process is one node of many; without it, SQLite on one machine."""
    redis_prefix: str = "snakes:"
    lookup_limit: int = 30
    """Unknown room codes one client address (an IPv6 /64) may look up a minute (0: no limit)."""
    lookup_limit_total: int = 600
    """Unknown room codes all addresses together may look up a minute (0: no limit); once
    they have, an address may miss once a minute, and the others are never refused."""
    lookup_limit_network: int = 120
    """Unknown room codes one network (an IPv4 /24, an IPv6 /48) may look up a minute."""
    room_limit: int = 20
    """Rooms one client address (an IPv6 /64) may create a minute (0: no limit)."""
    room_limit_hour: int = 200
    """Rooms one client address (an IPv6 /64) may create an hour (0: no limit)."""
    room_limit_total: int = 600
    """Rooms all addresses together may create a minute (0: no limit)."""
    compute_limit: float = 2.0
    """CPU seconds of stories, odds and QR codes one client address (an IPv6 /64) may cost
    the server a minute, measured as they are worked out (0: no limit)."""
    max_rooms: int = 20_000
    """Rooms this process holds at once; creating one more is refused (0: no limit)."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names a browser may reach this server by, besides --public-url's and loopback."""
    max_connections: int = 0
    """Open connections (HTTP and WebSocket) at once; 0: from the descriptor limit."""
    max_connections_per_address: int = 256
    """Open connections from one client address (an IPv6 /64) at once (0: no limit)."""
    header_timeout: float = 10.0
    """Seconds a client has to send a request's headers before it is disconnected."""
    max_body_bytes: int = 64 * 1024
    """Largest HTTP request body; a larger one is refused with 413 before it is read."""
    keepalive: float = 15.0
    """Seconds of silence before a WebSocket is pinged, and how long a full send buffer
    may take nothing: a client silent for twice this is cut off (never later), and one
    that stops reading within twice this."""
    commit_window: float = COMMIT_WINDOW_MS / 1000
    """Seconds a change waits for other rooms' changes to share its SQLite transaction:
    one write for several rooms' rolls instead of one each (docs/BENCHMARKS.md)."""
    redis_window: float = REDIS_WINDOW_MS / 1000
    """With Redis: seconds a write to Redis waits for other rooms' commits and forwarded
    intents to go with it. Each write costs this node, Redis and every node it publishes
    to a wake-up, so it is longer than the SQLite window (docs/BENCHMARKS.md)."""
    redis_timeout: float = REDIS_TIMEOUT_SECONDS
    """With Redis: seconds within which every command to Redis is answered, or fails as
    ``unavailable`` (its connection dropped and made again); every intent and lookup is
    answered within this too (``outcome_unknown`` when a change may have been made)."""
    redis_replica_wait_ms: int = REDIS_REPLICA_WAIT_MS
    """On a Redis Cluster: milliseconds each write waits at most for one replica to
    confirm it (``WAIT``) before any player is told of it; 0 waits for none."""
    access_log: bool = False
    """One log line per HTTP request and WebSocket connection; off for busy servers."""
    debug_stats_token: str | None = None
    """Opt-in: heap, garbage collector and asyncio task counts at /debug/stats, for
    requests that carry this token (``Authorization: Bearer TOKEN``); none, no such path."""
    debug_stats_interval: float = 10.0
    """Seconds between two walks of the heap by /debug/stats (0: a walk every call)."""
    debug_tracemalloc: bool = True
    """With /debug/stats: trace the Python heap too (exact, but several times slower)."""
    test_hooks: bool = False
    """Test-only: a manual clock and scripted dice behind /_test/ endpoints."""

    def move_allowance(self, squares: int, jumps: int) -> float:
        """The fixed time a browser is given to show a move before the next countdown.

        About what the game screen takes at normal speed (js/anim.js): the die and the
        turn's hand-over with the countdown's safety margin (1.8 s), each square hopped
        (0.21 s) and each ladder or snake (1.3 s). A browser that would take longer speeds
        its animation up to end in time, so the countdown starts when its player can act.
        The page's own room (a game at your own table) paces its AI seats by the same
        sum, from /api/config's ``pacing``.
        """
        return self.animation_scale * (
            MOVE_SECONDS + SQUARE_SECONDS * squares + JUMP_SECONDS * jumps
        )
