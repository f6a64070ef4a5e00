"""Replies and pushed messages read straight off a Redis connection, parsed by hiredis.

redis-py reads one reply per call: each passes its retry wrapper, its timeout, a
health check (for pub/sub) and a dict built per message. On a node's hot path (the
replies to its commits, the updates and forwarded intents in its inbox) that came to
about a tenth of the node's CPU. Here whatever one read of the socket holds is parsed
at once: many replies, one wake-up. redis-py still opens the connection (address, TLS,
password, database), which stays its job.
"""

from __future__ import annotations

from typing import Any

import hiredis
from redis.exceptions import NoScriptError, ResponseError

READ_BYTES = 1 << 16
_INCOMPLETE = object()
"""What the parser returns when no whole reply is left (not False: RESP3 has booleans)."""


class Replies:
    """The replies arriving on one connection that redis-py has opened."""

    def __init__(self, connection: Any) -> None:
        # redis-py's asyncio connections keep their stream reader here once connected;
        # reading from it directly skips its per-reply machinery (pinned redis==8.1.0).
        self._stream = connection._reader
        self._parser = hiredis.Reader(
            encoding="utf-8", replyError=ResponseError, notEnoughData=_INCOMPLETE
        )

    async def some(self) -> list[Any]:
        """Every reply complete so far, waiting for at least one. An error reply is
        returned as its exception (NoScriptError where Redis lacks a script), not raised."""
        while True:
            data = await self._stream.read(READ_BYTES)
            if not data:
                raise ConnectionError("Redis closed the connection")
            self._parser.feed(data)
            replies: list[Any] = []
            while (reply := self._parser.gets()) is not _INCOMPLETE:
                if isinstance(reply, ResponseError) and str(reply).startswith("NOSCRIPT"):
                    reply = NoScriptError(str(reply))
                replies.append(reply)
            if replies:
                return replies
