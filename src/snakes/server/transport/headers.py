"""Security headers on every HTTP answer, as plain ASGI middleware.

Starlette's ``@app.middleware("http")`` would do the same through ``BaseHTTPMiddleware``,
which runs each request in an anyio task group: a dozen more objects per request, and
reference cycles (a cancel scope, its task, the ``CancelledError`` and its traceback)
that only a full garbage collection frees. Here the headers are added to the response's
start message on its way out, and nothing outlives the request.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
ASSET_HEADERS = {"X-Content-Type-Options": "nosniff"}


class SecurityHeaders:
    """Adds the page's security headers to every HTTP response that lacks them.

    A versioned script, style or image is no document: the page's policy covers what it
    may do, so it carries only what a subresource needs (nosniff). Every other answer,
    the page itself and every error included, carries them all.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                asset = headers.get("cache-control", "").endswith("immutable")
                for name, value in (ASSET_HEADERS if asset else SECURITY_HEADERS).items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
