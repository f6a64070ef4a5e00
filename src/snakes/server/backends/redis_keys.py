"""Where a room lives in Redis: its keys, its timers' sorted set, its update channel.

Every key of a room carries one hash tag, so a commit script (which touches the room's
row, its log, its owner, its presence, its timers and perhaps an intent's outcome) runs
in one slot. On one Redis the tag is the room's code and one sorted set holds every
timer, as it always has.

On a Redis Cluster a script may touch keys of one slot only, and no key may gather every
room, so the tag is the room's *bucket*: one of :data:`BUCKETS`, by a hash of its code.
Each bucket has a sorted set of the timers of its rooms, in the same slot as they; the
buckets spread over the cluster's slots as the rooms do, and a slot moved from one
primary to another takes its buckets' rooms and timers with it. The count is fixed: a
room's keys are found again by it, so changing it would lose every room in play.
"""

from __future__ import annotations

import zlib

BUCKETS = 256
"""Buckets of rooms on a Redis Cluster: enough to spread over 16 primaries or more, few
enough that a node's timer sweep can look at each every 3 s (a sorted set with nothing
due costs Redis about 2 µs to answer; ``CLUSTER_SWEEP_SECONDS`` in ``redis_timers``)."""

REQUEST_SECONDS = 3600
"""How long an intent's outcome is kept under its id (and a given-up mark)."""


class RedisKeys:
    """The key names of every room, on one Redis (``cluster=False``) or a cluster."""

    def __init__(self, prefix: str, *, cluster: bool) -> None:
        self.prefix = prefix
        self.cluster = cluster

    def bucket(self, code: str) -> str:
        """The room's hash tag on a cluster: its bucket."""
        return f"b{zlib.crc32(code.encode()) % BUCKETS}"

    def _base(self, code: str) -> str:
        if self.cluster:
            return f"{self.prefix}room:{{{self.bucket(code)}}}:{code}"
        return f"{self.prefix}room:{{{code}}}"

    def room(self, code: str) -> str:
        return self._base(code)

    def actions(self, code: str) -> str:
        return f"{self._base(code)}:actions"

    def presence(self, code: str) -> str:
        return f"{self._base(code)}:presence"

    def owner(self, code: str) -> str:
        return f"{self._base(code)}:owner"

    def request(self, code: str, ident: str) -> str:
        """Where an intent's outcome is kept under its id."""
        return f"{self._base(code)}:request:{ident}"

    def record(self, code: str, game: int | str) -> str:
        if self.cluster:
            return f"{self.prefix}record:{{{self.bucket(code)}}}:{code}:{game}"
        return f"{self.prefix}record:{{{code}}}:{game}"

    def updates(self, code: str) -> str:
        """The room's sharded channel on a cluster: its updates for other nodes."""
        return f"{self._base(code)}:updates"

    def timers(self, code: str) -> str:
        """The sorted set that holds the room's timers."""
        if self.cluster:
            return f"{self.prefix}timers:{{{self.bucket(code)}}}"
        return f"{self.prefix}timers"

    def every_timer_set(self) -> list[str]:
        """Every sorted set of timers, for the poller."""
        if self.cluster:
            return [f"{self.prefix}timers:{{b{index}}}" for index in range(BUCKETS)]
        return [f"{self.prefix}timers"]

    @property
    def nodes(self) -> str:
        """The nodes' heartbeats: one entry a node, not a room."""
        return f"{self.prefix}nodes"

    @property
    def inboxes(self) -> str:
        """Every node's inbox channel is this and the node's name."""
        return f"{self.prefix}node:"

    def inbox(self, node: str) -> str:
        return f"{self.inboxes}{node}"
