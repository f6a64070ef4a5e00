"""The ASGI application: pages, the HTTP API, the WebSocket, security headers."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from snakes import __version__, testing
from snakes.engine import DiceSource, SecureDice
from snakes.server.backends.local import Backend, LocalBackend
from snakes.server.backends.redis_backend import RedisBackend, SharedManualClock
from snakes.server.backends.sqlite import SQLiteStore
from snakes.server.clock import Clock, ManualClock, SystemClock, WallClock
from snakes.server.metrics import Metrics
from snakes.server.runtime.manager import RoomManager
from snakes.server.settings import Settings
from snakes.server.transport import api, config
from snakes.server.transport.limits import LookupLimiter
from snakes.server.transport.protocol import ProtocolError
from snakes.server.transport.ws import serve_connection

log = logging.getLogger("snakes.server")

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
PURGE_EVERY_SECONDS = 3600


GC_THRESHOLDS = (10_000, 2, 1000)


def tune_gc() -> None:
    """Fewer garbage collections, for a long-running server holding many connections.

    Every connection keeps ~100 objects alive, so 10,000 players mean a million objects
    that a full collection must walk (~0.3 s per 4,000 connections, during which nobody
    is served). With the default first threshold (700 new objects) the messages in
    flight get promoted so often that full collections ran every few seconds. A larger
    one lets reference counting free them first; objects made at start-up (modules, the
    app) are frozen out of collections altogether. Garbage cycles are still collected.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def static_dir() -> Path:
    """The page's files, shipped as package data."""
    return Path(str(resources.files("snakes") / "web" / "static"))


class SnakesApp(FastAPI):
    """FastAPI, except that the game's WebSocket goes straight to its endpoint.

    A player's connection lives for hours and carries every message of the game. Past
    the HTTP middleware stack it holds about fifteen fewer coroutine frames (memory, and
    time in every garbage collection) and each message sent skips a dozen wrappers.
    The route stays registered, so the schema and test clients see it as before.
    """

    ws_endpoint: Callable[[WebSocket], Awaitable[None]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws" and self.ws_endpoint:
            scope["app"] = self
            await self.ws_endpoint(WebSocket(scope, receive, send))
            return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings) -> FastAPI:
    # Nodes sharing Redis share wall-clock deadlines; tests move time by hand.
    clock: Clock = WallClock() if settings.redis_url else SystemClock()
    if settings.test_hooks:
        clock = SharedManualClock() if settings.redis_url else ManualClock()
    dice: DiceSource = testing.hooks.ScriptableDice() if settings.test_hooks else SecureDice()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.debug_stats and settings.debug_tracemalloc and not tracemalloc.is_tracing():
            tracemalloc.start()
        manager = RoomManager(settings, _backend(settings, clock), dice)
        await manager.start()
        metrics.gc.install()
        app.state.manager = manager
        purging = asyncio.create_task(_purge_forever(manager))
        try:
            yield
        finally:
            purging.cancel()
            metrics.gc.remove()
            await manager.stop()

    app = SnakesApp(
        title="Snakes & Ladders",
        version=__version__,
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.clock = clock
    app.state.dice = dice
    app.state.lookups = LookupLimiter(settings.lookup_limit)
    app.state.metrics = metrics = Metrics(lambda: getattr(app.state, "manager", None))
    app.include_router(api.router)
    app.include_router(config.router)
    if settings.test_hooks:
        app.include_router(testing.hooks.router)
    if settings.debug_stats:
        app.add_api_route("/debug/stats", api.debug_stats, include_in_schema=False)

    _install_error_handlers(app, metrics)

    @app.middleware("http")
    async def _headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.websocket("/ws")
    async def _ws(websocket: WebSocket) -> None:
        await serve_connection(
            websocket,
            websocket.app.state.manager,
            lookups=app.state.lookups,
            metrics=metrics,
            public_url=settings.public_url,
        )

    app.ws_endpoint = _ws

    index = static_dir() / "index.html"

    @app.get("/", include_in_schema=False)
    @app.get("/r/{code}", include_in_schema=False)
    async def _page(code: str | None = None) -> Any:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=static_dir()), name="static")
    return app


def _install_error_handlers(app: FastAPI, metrics: Metrics) -> None:
    """Every refusal is a typed error; a crash is an `internal` error, never a trace."""

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_: Request, error: Exception) -> Response:
        assert isinstance(error, ProtocolError)
        metrics.error(error.code)
        return api.protocol_error_response(error)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "body"
        message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        metrics.error("bad_request")
        return JSONResponse(
            {"error": {"code": "bad_request", "message": f"{where}: {message}"}}, status_code=422
        )

    @app.exception_handler(Exception)
    async def _crash(_: Request, error: Exception) -> Response:
        log.exception("request failed", exc_info=error)
        metrics.error("internal")
        return JSONResponse(
            {"error": {"code": "internal", "message": "the server failed; nothing changed"}},
            status_code=500,
        )


def _backend(settings: Settings, clock: Clock) -> Backend:
    if settings.redis_url:
        log.info("serving as one node of many, through %s", settings.redis_url)
        return RedisBackend(
            settings.redis_url,
            prefix=settings.redis_prefix,
            clock=clock,
            record_days=settings.record_days,
            idle_seconds=settings.idle_seconds,
        )
    store = SQLiteStore.in_folder(settings.data_dir)
    log.info("serving with data in %s", store.path)
    return LocalBackend(store, clock)


async def _purge_forever(manager: RoomManager) -> None:
    while True:
        try:
            await manager.purge()
        except Exception:
            log.exception("purge failed")
        await asyncio.sleep(PURGE_EVERY_SECONDS)
