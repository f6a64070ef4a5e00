"""The room log in Redis: a room's row and its game's actions, its records, its commits.

A commit is one Lua script (``redis_scripts``) that checks this node still owns the room
and the revision it started from, then writes the row, appends the actions, stores a
finished game's record, sets the timers and publishes the messages for other nodes: all
of it, or nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from snakes.engine import action_to_data
from snakes.server import jsontext
from snakes.server.backends.interfaces import StoreUnanswered, StoreUnavailable
from snakes.server.backends.redis_keys import REQUEST_SECONDS
from snakes.server.backends.redis_link import RedisLink
from snakes.server.backends.redis_pipe import Unanswered
from snakes.server.backends.redis_scripts import (
    CLUSTER_COMMIT,
    CLUSTER_SEND,
    COMMIT,
    SEND,
    CommitArgs,
    Record,
)
from snakes.server.backends.rows import RowPlan
from snakes.server.clock import Clock
from snakes.server.rooms.errors import Unavailable
from snakes.server.rooms.model import Mode, Room
from snakes.server.rooms.work import Work


class RedisLog:
    def __init__(
        self,
        link: RedisLink,
        node: str,
        clock: Clock,
        *,
        envelope: Callable[[Room, Work], str],
        request_key: Callable[[str, str], str],
        record_days: float = 30,
        idle_seconds: float = 1800,
        unopened_seconds: float = 600,
    ) -> None:
        self.link = link
        self.keys = link.keys
        self.node = node
        self.clock = clock
        self._envelope = envelope
        """A change's messages as the other nodes read them (``redis_bus``)."""
        self._request_key = request_key
        self.record_ttl = int(record_days * 86400)
        self.online_ttl = int(max(idle_seconds * 4, 86400))
        self.unopened_ttl = int(unopened_seconds)
        self.rows = RowPlan()
        """What this node last wrote of each room's row (``rows.py``)."""
        self._expiry: dict[str, tuple[int, float]] = {}
        """Each room's keys' time to live as this node last set it, and when."""

    # ---- reading ----------------------------------------------------------------------------

    async def load(self, code: str) -> Room | None:
        try:
            async with (
                asyncio.timeout(self.link.timeout),
                self.link.redis.pipeline(transaction=False) as pipe,
            ):
                pipe.hmget(self.keys.room(code), "data", "live")
                pipe.lrange(self.keys.actions(code), 0, -1)
                (data, live), actions = await pipe.execute()
        except (RedisError, OSError) as error:
            raise StoreUnavailable(str(error)) from error
        if data is None:
            return None
        logged = [jsontext.loads(a) for a in actions]
        for action in logged:
            del action["seq"]  # the log's own sequence number, not part of the action
        return Room.from_data(
            jsontext.loads(data), logged, None if live is None else jsontext.loads(live)
        )

    async def load_record(self, code: str, game: int | None) -> str | None:
        redis = self.link.redis
        try:
            async with asyncio.timeout(self.link.timeout):
                if game is None:
                    latest = await redis.get(self.keys.record(code, "latest"))
                    if latest is None:
                        return None
                    game = int(latest)
                text = await redis.get(self.keys.record(code, game))
        except (RedisError, OSError) as error:
            raise StoreUnavailable(str(error)) from error
        return None if text is None else str(text)

    async def live_codes(self) -> list[str]:
        return []  # Redis keeps the timers; nothing restarts with a node

    async def purge(self, before: float, unopened_before: float) -> int:
        return 0  # records and local games expire by themselves (Redis TTL)

    async def probe(self) -> bool:
        try:
            async with asyncio.timeout(self.link.timeout):
                return bool(await self.link.redis.ping())
        except (RedisError, OSError):
            return False

    async def action_log(self, code: str) -> list[dict[str, Any]]:
        """The current game's stored actions, for checks."""
        logged = await self.link.redis.lrange(self.keys.actions(code), 0, -1)
        return [jsontext.loads(a) for a in logged]

    # ---- writing ----------------------------------------------------------------------------

    def channel(self, code: str) -> str:
        """Where a commit publishes: every node's inbox by this prefix, or on a cluster
        the room's own sharded channel."""
        return self.keys.updates(code) if self.link.cluster else self.keys.inboxes

    async def commit(self, room: Room, work: Work, *, created: bool, request: str) -> bool:
        """Store the change; False if this node does not own the room (or the code is
        taken). Raises :class:`StoreUnavailable` (or :class:`StoreUnanswered`)."""
        code = room.code
        if not work.durable:
            return await self._send(room, work)
        first_seq = room.version - len(work.actions) + 1
        record = None
        if work.record is not None:
            game, text = work.record
            latest = self.keys.record(code, "latest")
            record = Record(self.keys.record(code, game), text, latest, game, self.record_ttl)
        whole = None if work.delete else self.rows.whole(room, work)
        ttl = self.online_ttl if room.mode is Mode.ONLINE else self.record_ttl
        if room.is_local and not room.opened:
            ttl = self.unopened_ttl  # a local game no device opened goes soon
        now = self.clock.now()
        # Four EXPIREs on every roll were a fifth of the commit script's calls; the keys'
        # expiry is set again only when it may have changed or has run down an eighth
        # (and the script gives a list it makes anew, a game's log, one of its own).
        known = self._expiry.get(code)
        expires = (
            created or work.new_game or known is None or known[0] != ttl or now - known[1] > ttl / 8
        )
        args = CommitArgs(
            node=self.node,
            created=created,
            expected_rev=room.rev - 1,
            new_rev=room.rev,
            data="" if whole is None else jsontext.dumps(room.to_data()),
            delete=work.delete,
            new_game=work.new_game,
            ttl=ttl,
            channel=self.channel(code),
            code=code,
            live="" if whole is not None else jsontext.dumps(room.live_data()),
            set_expiry=expires,
            outcome_ttl=REQUEST_SECONDS,
            actions=[
                jsontext.dumps({**action_to_data(a), "seq": first_seq + i})
                for i, a in enumerate(work.actions)
            ],
            timers=list(work.timers.items()),
            envelope=self._envelope(room, work) if work.messages else None,
            record=record,
        )
        keys = [self.keys.room(code), self.keys.actions(code), self.keys.owner(code)]
        keys += [self.keys.timers(code), self.keys.presence(code)]
        if request:
            keys.append(self._request_key(code, request))
        script = CLUSTER_COMMIT if self.link.cluster else COMMIT
        try:
            answer = await self.link.pipe.script(script, keys, args.argv())
        except Unanswered as error:
            self.forget(code)  # it may have been written: this node no longer knows
            raise StoreUnanswered(str(error)) from error
        except (RedisError, OSError) as error:
            self.forget(code)
            raise StoreUnavailable(str(error)) from error
        except BaseException:
            self.forget(code)  # cut short (a deadline above this one): as unanswered
            raise
        if int(answer) == 2:
            # Its sender lost the answer and gave the intent up meanwhile: not applied.
            raise Unavailable("the intent was given up; nothing changed")
        if int(answer) != 1:
            self.forget(code)  # another node owns it now: its row is not ours to know
            return False
        if expires:
            self._expiry[code] = (ttl, now)
        if work.delete:
            self.forget(code)
        elif whole is not None:
            self.rows.written(code, whole, room.version)
        return True

    async def _send(self, room: Room, work: Work) -> bool:
        """A change that writes nothing: its messages, from the owner at its revision."""
        if not work.messages:
            return True
        code = room.code
        keys = [self.keys.owner(code), self.keys.room(code), self.keys.presence(code)]
        args = [self.node, str(room.rev), self.channel(code), self._envelope(room, work)]
        try:
            sent = await self.link.pipe.script(
                CLUSTER_SEND if self.link.cluster else SEND, keys, args
            )
        except Unanswered as error:
            raise StoreUnanswered(str(error)) from error
        except (RedisError, OSError) as error:
            raise StoreUnavailable(str(error)) from error
        return int(sent) == 1

    def forget(self, code: str) -> None:
        self.rows.forget(code)
        self._expiry.pop(code, None)
