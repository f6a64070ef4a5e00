"""One owner per room across nodes: leases, routing, takeover.

- A room's ``owner`` key names the node that owns it. The lease is the node's own
  heartbeat (``redis_liveness``): any node may take a dead node's rooms over (an atomic
  compare-and-set of the key). Every commit checks the key, so a node that lost a room
  can never write to it again.
- An intent for a room owned elsewhere is forwarded to the owner (``redis_forwards``);
  a node that does not answer is asked again after routing anew (it may have died).
- Every call to Redis here has the deadline ``timeout``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from redis.exceptions import RedisError

from snakes.server.backends.interfaces import Connection, Serve
from snakes.server.backends.redis_forwards import Forwards
from snakes.server.backends.redis_link import RedisLink
from snakes.server.backends.redis_liveness import NodeLiveness
from snakes.server.rooms.errors import NotOwning, RoomNotFound, unavailable
from snakes.server.rooms.intents import Intent
from snakes.server.rooms.messages import Forward, ForwardAnswer
from snakes.server.rooms.work import Caller

log = logging.getLogger("snakes.owners")

TAKEOVER_PAUSE_SECONDS = 0.5
"""How long a sender waits before routing again after an owner did not answer: a dying
owner's lease has time to run out."""

# KEYS: owner, room. ARGV: this node, the owner seen ('' for none).
_TAKE = """
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return 1 end
if (current == false and ARGV[2] == '') or current == ARGV[2] then
    redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')  -- the room's expiry stands
    return 1
end
return 0
"""


class RedisOwners:
    def __init__(self, link: RedisLink) -> None:
        self.link = link
        self.keys = link.keys
        self.liveness = NodeLiveness(link)
        self.node = self.liveness.node
        self.forwards = Forwards(link, self.liveness)
        self._take = link.redis.register_script(_TAKE)
        self._owners: dict[str, str] = {}
        """Who owns rooms this node forwards to (a cache; checked again when stale)."""
        self._outage: Callable[[], None] = lambda: None
        self._resync: Callable[[list[str]], None] = lambda rooms: None

    @property
    def replies(self) -> int:
        return self.forwards.replies

    async def start(self, outage: Callable[[], None], resync: Callable[[list[str]], None]) -> None:
        self._outage, self._resync = outage, resync
        self.forwards.start(outage)
        await self.liveness.start(outage)
        log.info("node %s joined through Redis (%s)", self.node, self.keys.prefix)

    async def stop(self) -> None:
        self.forwards.stop()
        await self.liveness.stop()

    def resync_rooms(self, rooms: list[str]) -> None:
        """Messages to these rooms' connections here may have been missed (a cluster's
        slot moved under their channels): send them the rooms afresh."""
        self._resync(rooms)

    def listener_back(self, rooms: list[str]) -> None:
        """The update listener reconnected: what was published meanwhile was lost."""
        self.liveness.blind()
        self._outage()
        self._resync(rooms)

    # ---- who is alive ---------------------------------------------------------------------

    def key(self, session: Connection) -> str:
        return f"{self.node}/{session.id}"

    def alive_node(self, node: str) -> bool:
        return self.liveness.alive_node(node)

    def dead(self) -> frozenset[str]:
        return self.liveness.dead()

    async def members(self, code: str) -> dict[str, str]:
        try:
            async with asyncio.timeout(self.link.timeout):
                people: dict[str, str] = await self.link.redis.hgetall(self.keys.presence(code))
        except (RedisError, OSError):
            return {}
        return {k: v for k, v in people.items() if self.liveness.alive(k)}

    # ---- routing --------------------------------------------------------------------------

    async def route(self, code: str) -> str | None:
        cached = self._owners.get(code)
        if cached is not None and self.alive_node(cached):
            return cached
        try:
            async with asyncio.timeout(self.link.timeout):
                owner: str | None = await self.link.redis.get(self.keys.owner(code))
                if owner == self.node:
                    return None
                if owner is not None and self.alive_node(owner):
                    self._owners[code] = owner
                    return str(owner)
                taken = await self._take(
                    keys=[self.keys.owner(code), self.keys.room(code)],
                    args=[self.node, owner or ""],
                )
                if int(taken) == -1:
                    raise RoomNotFound("no room has that code")
                if int(taken) == 1:
                    self._owners.pop(code, None)
                    if owner:
                        log.info("room %s taken over from node %s", code, owner)
                    return None
                return await self._owner_now(code)
        except (RedisError, OSError):
            self._outage()
            raise unavailable() from None

    async def _owner_now(self, code: str) -> str | None:
        owner: str | None = await self.link.redis.get(self.keys.owner(code))
        if owner is None or owner == self.node:
            return None
        self._owners[code] = owner
        return str(owner)

    async def holds(self, code: str) -> bool:
        try:
            async with asyncio.timeout(self.link.timeout):
                return bool(await self.link.redis.get(self.keys.owner(code)) == self.node)
        except (RedisError, OSError):
            return False

    # ---- forwarding (``redis_forwards``) --------------------------------------------------

    def serve(self, handler: Serve) -> None:
        self.forwards.serve(handler)

    async def forward(
        self, node: str, code: str, intent: Intent, caller: Caller, *, listening: bool = False
    ) -> ForwardAnswer | None:
        reply = await self.forwards.ask(node, code, intent, caller, listening=listening)
        if reply is None or isinstance(reply.refused, NotOwning):
            self._owners.pop(code, None)
            if node not in self.liveness.gone:
                await asyncio.sleep(TAKEOVER_PAUSE_SECONDS)
            return None
        return reply

    def new_ident(self) -> str:
        return self.forwards.new_ident()

    def request_key(self, code: str, ident: str) -> str:
        """Where an intent's outcome is kept: 'a' once applied, 'x' once given up."""
        return self.keys.request(code, ident)

    async def settle(self, code: str, ident: str) -> bool | None:
        return await self.forwards.settle(code, ident)

    def answered(self, idents: list[str]) -> None:
        self.forwards.answered(idents)

    def on_node_message(self, message: Forward | ForwardAnswer) -> None:
        self.forwards.on_node_message(message)
