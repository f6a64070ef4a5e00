"""Every HTTP refusal in one shape: ``{"error": {"code": ..., "message": ...}}``.

The game's own refusals (:class:`ProtocolError`) have that shape already. What the web
framework refuses by itself did not: a path no route has (404), a method a route does
not take (405), a body that would not parse (FastAPI's 400, "There was an error parsing
the body": JSON nested too deep, a number of over 4,300 digits, bytes that are no
text) all answered ``{"detail": ...}``. Here they get a code from docs/PROTOCOL.md's
table like any other refusal, and a body that is not JSON, not an object, or not sent
as JSON says so in its message. A crash is an ``internal`` error, never a trace.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from snakes.server.metrics import Metrics
from snakes.server.rooms.errors import (
    BadRequest,
    Internal,
    MethodNotAllowed,
    NotFound,
    ProtocolError,
)
from snakes.server.transport.api import ErrorBody, ErrorOut, protocol_error_response

log = logging.getLogger("snakes.server")

UNREADABLE = "body: not JSON this server can read (nested too deep, or a number too long)"
NOT_JSON = "body: a JSON object, sent with Content-Type: application/json"


class MalformedBody(BadRequest):
    """A body a route reads itself that is not a JSON object: 422 ``bad_request``, as
    FastAPI's own refusals of a body are."""


def install_error_handlers(app: FastAPI, metrics: Metrics) -> None:
    """Typed errors for the game's refusals, the framework's and a crash."""

    def refuse(error: ProtocolError, headers: Mapping[str, str] | None = None) -> Response:
        metrics.error(error.code)
        return protocol_error_response(error, headers)

    def malformed(message: str) -> Response:
        """A request that does not fit the schema: 422, as FastAPI's own refusals were
        (a route's own ``bad_request``, a language no catalogue has, stays a 400)."""
        metrics.error("bad_request")
        return JSONResponse({"error": {"code": "bad_request", "message": message}}, status_code=422)

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_: Request, error: Exception) -> Response:
        assert isinstance(error, ProtocolError)
        return refuse(error)

    @app.exception_handler(MalformedBody)
    async def _malformed(_: Request, error: Exception) -> Response:
        assert isinstance(error, MalformedBody)
        return malformed(error.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        return malformed(validation_message(request, error.errors()))

    @app.exception_handler(HTTPException)
    async def _framework(_: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        status = error.status_code
        if status == 400:  # FastAPI's "There was an error parsing the body"
            return malformed(UNREADABLE)
        if status == 404:
            return refuse(NotFound("no page or API path here"))
        if status == 405:
            allowed = (error.headers or {}).get("Allow", "other methods")
            message = f"this path takes {allowed} only"
            return refuse(MethodNotAllowed(message), error.headers)
        metrics.error("bad_request")  # no route of the API raises others (the test hooks do)
        body = {"error": {"code": "bad_request", "message": str(error.detail)}}
        return JSONResponse(body, status_code=status, headers=error.headers)

    @app.exception_handler(Exception)
    async def _crash(_: Request, error: Exception) -> Response:
        log.exception("request failed", exc_info=error)
        return refuse(Internal("the server failed; nothing changed"))


def validation_message(request: Request, errors: Sequence[Any]) -> str:
    """The first thing wrong with a request, as ``where: what``."""
    first: Mapping[str, Any] = errors[0] if errors else {"loc": (), "msg": "invalid request"}
    loc = tuple(first.get("loc", ()))
    if first.get("type") == "json_invalid":
        at = f" at character {loc[1]}" if len(loc) > 1 else ""
        return f"body: not JSON ({first.get('ctx', {}).get('error', 'unreadable')}{at})"
    if loc == ("body",):
        # None, not parsed at all (sent as another Content-Type), or JSON but no object.
        return NOT_JSON if _sent_as_other(request) else "body: a JSON object"
    where = ".".join(str(p) for p in loc[1:]) or "body"
    return f"{where}: " + str(first.get("msg", "invalid")).removeprefix("Value error, ")


def _sent_as_other(request: Request) -> bool:
    """Was the body sent as something other than JSON (FastAPI then never parses it)?"""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return bool(kind) and not (kind.startswith("application/") and kind.endswith("json"))


def document_errors(schema: dict[str, Any]) -> None:
    """Say in the OpenAPI schema that every answer not listed is an error in the one shape.

    Routes list the refusals they give (``responses=`` in transport/api.py); what any
    route may answer besides (413 and 408 from the body limit, 500, 503, a path's 404 and
    405) is each operation's ``default`` response.
    """
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    for name, model in (("ErrorOut", ErrorOut), ("ErrorBody", ErrorBody)):
        schemas.setdefault(
            name, model.model_json_schema(ref_template="#/components/schemas/{model}")
        )
    described = {
        "description": "A refusal: a code from the table in docs/PROTOCOL.md and a message",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
    }
    for operations in schema["paths"].values():
        for operation in operations.values():
            operation["responses"].setdefault("default", described)
