"""Intents forwarded to a room's owner on another node, and their answers.

An intent for a room owned elsewhere is published to the owner's inbox with a reply
address; the owner applies it in the room's queue and answers, apart or (when the
sender listens to the room) by naming it in the update it caused. Every call here has
the deadline ``timeout``: a forwarded intent whose answer does not come within it may
have been applied or not (:class:`OutcomeLost`); when it has an id, :meth:`settle`
finds out which once Redis answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import replace

from redis.exceptions import RedisError

from snakes.server.backends.interfaces import ANSWERED, NotOwner, OutcomeLost, Serve
from snakes.server.backends.redis_keys import REQUEST_SECONDS
from snakes.server.backends.redis_link import RedisLink
from snakes.server.backends.redis_liveness import NodeLiveness
from snakes.server.backends.redis_pipe import Unanswered
from snakes.server.rooms.errors import (
    Internal,
    NotOwning,
    OutcomeUnknown,
    ProtocolError,
    unavailable,
)
from snakes.server.rooms.intents import Intent
from snakes.server.rooms.messages import Forward, ForwardAnswer, encode_node, prepare_intents
from snakes.server.rooms.work import Caller

log = logging.getLogger("snakes.owners")

SETTLE_SECONDS = 600.0
"""How long :meth:`Forwards.settle` keeps asking before it leaves the outcome unknown."""
SETTLE_RETRY_SECONDS = 0.5


class Forwards:
    def __init__(self, link: RedisLink, liveness: NodeLiveness) -> None:
        self.link = link
        self.liveness = liveness
        self.node = liveness.node
        # The intents' readers are made now, not by the first intent forwarded: making
        # them takes about 0.1 s, which a forward's deadline (``timeout``) must not pay.
        prepare_intents()
        self._pending: dict[str, asyncio.Future[ForwardAnswer]] = {}
        self._requests = itertools.count(1)
        self._serve: Serve | None = None
        self._outage: Callable[[], None] = lambda: None
        self._tasks: list[asyncio.Task[None]] = []
        self.replies = 0
        """Forwarded intents this node answered apart (not with the update they caused)."""

    def start(self, outage: Callable[[], None]) -> None:
        self._outage = outage

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    def serve(self, handler: Serve) -> None:
        self._serve = handler

    async def ask(
        self, node: str, code: str, intent: Intent, caller: Caller, *, listening: bool
    ) -> ForwardAnswer | None:
        """The owner's answer; None if nobody listens at ``node`` (it is gone)."""
        # Unique among every node's requests (an update names the ones it answers, and
        # every node in the room hears it), without a system call for randomness.
        ident = self.new_ident()
        future: asyncio.Future[ForwardAnswer] = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        # With the request's id the owner may answer with the update it causes.
        sender = replace(caller, request=ident if listening else "")
        request = encode_node(Forward(ident, self.node, code, intent, sender))
        try:
            # The request and its answer within one deadline: past it, the owner may
            # have applied the intent or not (or may yet, once Redis passes it on).
            async with asyncio.timeout(self.link.timeout):
                heard = await self.link.pipe.publish(self.link.keys.inbox(node), request)
                if not heard:
                    if self.liveness.seeing():
                        self.liveness.gone.add(node)
                    return None
                reply = await future
        except (Unanswered, TimeoutError):
            self._outage()
            raise OutcomeLost(code) from None
        except (RedisError, OSError):
            self._outage()  # never sent: nothing changed
            raise unavailable() from None
        finally:
            self._pending.pop(ident, None)
        if isinstance(reply.refused, OutcomeUnknown):
            raise OutcomeLost(code)  # the owner's own commit went unanswered
        return reply

    def new_ident(self) -> str:
        """An id for an intent, unique among every node's."""
        return f"{self.node}.{next(self._requests)}"

    async def settle(self, code: str, ident: str) -> bool | None:
        """Whether the intent ``ident`` was applied, for a sender that lost its answer;
        None if Redis does not answer within ``SETTLE_SECONDS``.

        Once Redis answers, the intent is marked given up unless its commit got there
        first ('x', set only where nothing is): either way the mark is final, since the
        commit script applies nothing whose mark is there. An earlier try that went
        unanswered may have set the mark itself: it reads 'x' then, not applied.
        """
        key = self.link.keys.request(code, ident)
        give_up = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < give_up:
            try:
                async with asyncio.timeout(self.link.timeout):
                    if await self.link.redis.set(key, "x", nx=True, ex=REQUEST_SECONDS):
                        return False
                    return bool(await self.link.redis.get(key) == "a")
            except (RedisError, OSError):
                await asyncio.sleep(SETTLE_RETRY_SECONDS)
        return None

    def answered(self, idents: list[str]) -> None:
        """Forwarded intents answered by an update that just arrived on a room channel."""
        for ident in idents:
            future = self._pending.get(ident)
            if future is not None and not future.done():
                future.set_result(ForwardAnswer(ident))

    def on_node_message(self, message: Forward | ForwardAnswer) -> None:
        """A forwarded intent (for a room this node owns) or the answer to one it sent."""
        if isinstance(message, ForwardAnswer):
            future = self._pending.get(message.ident)
            if future is not None and not future.done():
                future.set_result(message)
        else:
            self._tasks.append(asyncio.create_task(self._answer(message)))
            self._tasks = [t for t in self._tasks if not t.done()]

    async def _answer(self, request: Forward) -> None:
        try:
            assert self._serve is not None
            result = await self._serve(request.code, request.intent, request.caller)
            if result == ANSWERED:
                return  # the update that carried the answer has gone out already
            reply = ForwardAnswer(request.ident, result)
        except NotOwner:
            reply = ForwardAnswer(request.ident, refused=NotOwning("not the owner"))
        except OutcomeLost:
            reply = ForwardAnswer(request.ident, refused=OutcomeUnknown())
        except ProtocolError as error:
            reply = ForwardAnswer(request.ident, refused=error)
        except Exception:
            log.exception("a forwarded intent failed")
            failed = Internal("the server failed; nothing changed")
            reply = ForwardAnswer(request.ident, refused=failed)
        self.replies += 1
        with contextlib.suppress(RedisError, OSError):
            await self.link.pipe.publish(self.link.keys.inbox(request.sender), encode_node(reply))
