"""A bound on HTTP request bodies: refused with 413 before they are read, or as they stream.

The API's bodies are a few hundred bytes (a room's seats and rules). Without a bound,
FastAPI reads a body whole before validating it: one 150 MB POST held 232 MB. Here a
``Content-Length`` over the bound is answered at once, without reading a byte of the
body; a body without one (chunked) is counted as it arrives and refused the moment it
passes the bound. A body must also arrive within the header timeout (a slow body holds
a connection just as a slow head does).
"""

from __future__ import annotations

import asyncio
import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from snakes.server.transport.connections import QuietLog


class BodyLimit:
    """ASGI middleware: bodies of at most ``max_bytes``, arriving within ``timeout`` s."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, timeout: float, quiet: QuietLog | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.quiet = quiet or QuietLog()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is None and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body at all
            return
        if length is not None and int(length) > self.max_bytes:  # h11 checked it is a number
            await self._refuse(
                send, 413, "too_large", f"a request body is at most {self.max_bytes} bytes"
            )
            return
        body = bytearray()
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    body += message.get("body", b"")
                    if len(body) > self.max_bytes:
                        await self._refuse(
                            send,
                            413,
                            "too_large",
                            f"a request body is at most {self.max_bytes} bytes",
                        )
                        return
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await self._refuse(send, 408, "too_slow", "the request body came too slowly")
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, status: int, code: str, message: str) -> None:
        self.quiet.hit(code, "refused a request body: %s", message)
        payload = json.dumps({"error": {"code": code, "message": message}}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
