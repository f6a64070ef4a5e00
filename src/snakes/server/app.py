"""The ASGI application: pages, the HTTP API, the WebSocket, security headers."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import tracemalloc
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from snakes import __version__
from snakes.analysis import use_one_blas_thread
from snakes.server.backends.interfaces import Backend, Owners
from snakes.server.backends.local import LocalBackend
from snakes.server.backends.sqlite import SQLiteLog
from snakes.server.clock import Clock, SystemClock, WallClock
from snakes.server.metrics import Metrics
from snakes.server.rooms.dice import ServerDice
from snakes.server.rooms.work import RoomDice
from snakes.server.runtime.hub import Hub
from snakes.server.runtime.owners import LocalOwners
from snakes.server.runtime.runtime import RoomRuntime
from snakes.server.settings import Settings
from snakes.server.transport import api, config, protocol_schema, records, static, story
from snakes.server.transport.bodylimit import BodyLimit
from snakes.server.transport.compute import Compute, ComputeBudget, ComputePool
from snakes.server.transport.debug import DebugStats, debug_stats
from snakes.server.transport.gamesocket import SocketPolicy
from snakes.server.transport.headers import SecurityHeaders
from snakes.server.transport.http_errors import document_errors, install_error_handlers
from snakes.server.transport.limits import LookupLimiter, RoomBudget, TrustedProxies

log = logging.getLogger("snakes.server")

PURGE_EVERY_SECONDS = 60


GC_THRESHOLDS = (50_000, 5, 1000)


def tune_gc() -> None:
    """Fewer garbage collections, for a long-running server holding many connections.

    Every connection keeps ~100 objects alive, so 10,000 players mean a million objects
    that a full collection must walk (~0.3 s per 4,000 connections, during which nobody
    is served). With the default first threshold (700 new objects) the messages in
    flight get promoted so often that full collections ran every few seconds. A larger
    one lets reference counting free them first; objects made at start-up (modules, the
    app) are frozen out of collections altogether. Garbage cycles are still collected.

    A young collection costs about what is alive among the objects made since the last
    one (messages in flight), whatever the threshold: at 50,000 rather than 10,000 they
    run a fifth as often and the time in them fell from 0.7% to 0.1% at 4,000 players
    (docs/BENCHMARKS.md). Closed connections leave no reference cycles, so what waits for
    the rare full collection is small.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def static_dir() -> Path:
    """The page's files, shipped as package data."""
    return Path(str(resources.files("snakes") / "web" / "static"))


def create_app(settings: Settings) -> FastAPI:
    use_one_blas_thread()  # the rooms' live odds are worked out on the event loop
    # Nodes sharing Redis share wall-clock deadlines; tests move time by hand.
    clock: Clock = WallClock() if settings.redis_url else SystemClock()
    dice: RoomDice = ServerDice()
    hooks: Any = None
    if settings.test_hooks:
        from snakes.testing import hooks  # noqa: PLC0415  (never loaded in production)

        clock = hooks.hand_moved_clock(settings)
        dice = hooks.ScriptableDice(dice)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        tracing = settings.debug_stats_token and settings.debug_tracemalloc
        if tracing and not tracemalloc.is_tracing():
            tracemalloc.start()
        runtime = build_runtime(settings, clock, dice)
        await runtime.start()
        metrics.gc.install()
        app.state.runtime = runtime
        purging = asyncio.create_task(_purge_forever(runtime))
        try:
            yield
        finally:
            purging.cancel()
            metrics.gc.remove()
            await runtime.stop()
            app.state.compute.pool.close()

    app = FastAPI(
        title="Snakes & Ladders",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,  # served below from local assets: nothing from a CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.clock = clock
    app.state.dice = dice
    app.state.lookups = LookupLimiter(
        settings.lookup_limit,
        settings.lookup_limit_total,
        network_per_minute=settings.lookup_limit_network,
    )
    app.state.rooms_budget = RoomBudget(
        settings.room_limit,
        settings.room_limit_hour,
        settings.room_limit_total,
        settings.max_rooms,
    )
    app.state.compute = Compute(ComputePool(), ComputeBudget(settings.compute_limit))
    app.state.metrics = metrics = Metrics(lambda: getattr(app.state, "runtime", None))
    app.include_router(api.router)
    app.include_router(protocol_schema.router)
    app.include_router(story.router)
    app.include_router(records.router)
    app.include_router(config.router)
    if hooks is not None:
        app.include_router(hooks.router)
    if settings.debug_stats_token:
        app.state.debug_stats = DebugStats(
            settings.debug_stats_token, settings.debug_stats_interval
        )
        app.add_api_route("/debug/stats", debug_stats, include_in_schema=False)

    install_error_handlers(app, metrics)
    app.add_middleware(
        BodyLimit, max_bytes=settings.max_body_bytes, timeout=settings.header_timeout
    )
    _install_openapi(app)

    # Outermost but for Starlette's own error handler: the body limit's refusals get
    # the headers too.
    app.add_middleware(SecurityHeaders)

    app.include_router(static.router)
    _install_docs(app)
    return app


DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Snakes &amp; Ladders API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
"""
DOCS_INIT = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout"
});
"""


LINKS = {
    ("post", "/api/rooms"): {
        "GetRoom": ("get", "/api/rooms/{code}"),
        "JoinRoom": ("post", "/api/rooms/{code}/join"),
        "GetRecord": ("get", "/api/rooms/{code}/record"),
        "GetQr": ("get", "/api/rooms/{code}/qr.svg"),
    },
    ("post", "/api/rooms/{code}/join"): {
        "GetRoom": ("get", "/api/rooms/{code}"),
        "JoinAgain": ("post", "/api/rooms/{code}/join"),
    },
}
"""OpenAPI links: the code a room's creation or a join answers names the room the
other operations take (clients, and stateful testing, follow them)."""


def _install_openapi(app: FastAPI) -> None:
    """The schema with every operation's error shape, and its links."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = FastAPI.openapi(app)
        document_errors(schema)
        paths = schema["paths"]
        for (method, path), links in LINKS.items():
            response = paths[path][method]["responses"]["201"]
            response["links"] = {
                name: {
                    "operationId": paths[target][verb]["operationId"],
                    "parameters": {"code": "$response.body#/code"},
                }
                for name, (verb, target) in links.items()
            }
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _install_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI from the assets fastapi-offline ships, under the strict CSP.

    FastAPI's own page loads its scripts from a CDN and starts them with an inline
    script; the CSP (``script-src 'self'``) blocks both, so the page was blank. Here
    every script is a file of this server.
    """
    assets = Path(str(resources.files("fastapi_offline") / "static"))

    @app.get("/docs", include_in_schema=False)
    async def _docs() -> Response:
        return Response(DOCS_PAGE, media_type="text/html; charset=utf-8")

    @app.get("/docs/init.js", include_in_schema=False)
    async def _docs_init() -> Response:
        return Response(DOCS_INIT, media_type="text/javascript; charset=utf-8")

    app.mount("/docs/assets", StaticFiles(directory=assets), name="docs-assets")


def socket_policy(app: FastAPI, settings: Settings) -> SocketPolicy:
    """What the game's WebSocket needs of this app: its runtime, limits and metrics.

    The socket is served below the ASGI app (``transport/gamesocket.py``); the runtime
    it reaches is the one the app's lifespan starts.
    """
    return SocketPolicy(
        runtime=lambda: app.state.runtime,
        keepalive=settings.keepalive,
        public_url=settings.public_url,
        allowed_hosts=(*settings.allowed_hosts, settings.host),
        proxies=TrustedProxies(settings.trusted_proxies) if settings.trusted_proxies else None,
        lookups=app.state.lookups,
        metrics=app.state.metrics,
        access_log=settings.access_log,
    )


def build_runtime(settings: Settings, clock: Clock, dice: RoomDice) -> RoomRuntime:
    """The runtime over the backend the settings choose: SQLite here, or Redis."""
    hub = Hub()
    backend: Backend
    owners: Owners
    if settings.redis_url:
        from snakes.server.backends.redis_backend import RedisBackend  # noqa: PLC0415

        log.info("serving as one node of many, through %s", settings.redis_url)
        redis_backend = RedisBackend(
            settings.redis_url,
            hub,
            prefix=settings.redis_prefix,
            clock=clock,
            record_days=settings.record_days,
            idle_seconds=settings.idle_seconds,
            unopened_seconds=settings.unopened_seconds,
            window=settings.redis_window,
            timeout=settings.redis_timeout,
            replica_wait_ms=settings.redis_replica_wait_ms,
        )
        backend, owners = redis_backend, redis_backend.owners
        return RoomRuntime(settings, backend, dice, hub, owners, deadline=settings.redis_timeout)
    else:
        room_log = SQLiteLog.in_folder(settings.data_dir)
        log.info("serving with data in %s", room_log.path)
        backend = LocalBackend(room_log, clock, settings.commit_window)
        owners = LocalOwners()
    return RoomRuntime(settings, backend, dice, hub, owners)


async def _purge_forever(runtime: RoomRuntime) -> None:
    while True:
        try:
            await runtime.purge()
        except Exception:
            log.exception("purge failed")
        await asyncio.sleep(PURGE_EVERY_SECONDS)
