"""Every refusal of the HTTP API has the one typed shape, and the OpenAPI schema says so.

A live server; each operation the schema lists is sent what the web framework used to
answer by itself with ``{"detail": ...}``: a body that is not JSON, JSON that is not an
object or that the parser gives up on (nested too deep, a number of 5,000 digits, bytes
that are no text), a body sent as another content type, a method the path does not
take. A path no route has is tried too. Each answer must be ``{"error": {"code",
"message"}}`` and nothing else, with a status the operation documents with that shape,
and the server's log must hold no traceback.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.server import TEST_FLAGS, ServerProcess, running_server

ERROR_REF = "#/components/schemas/ErrorOut"
UNKNOWN_CODE = "ABCDEF"

BAD_BODIES: list[tuple[str, str | None, bytes]] = [
    ("not JSON", "application/json", b"not json"),
    ("cut short", "application/json", b'{"mode": '),
    ("empty", "application/json", b""),
    ("a list", "application/json", b"[1, 2]"),
    ("null", "application/json", b"null"),
    ("a string", "application/json", b'"text"'),
    ("a number", "application/json", b"42"),
    ("no UTF-8", "application/json", b'{"mode": "\xff\xfe"}'),
    ("UTF-16, no JSON", "application/json", "nope".encode("utf-16")),
    ("nested 30,000 deep", "application/json", b"[" * 30_000 + b"]" * 30_000),
    ("a 5,000-digit number", "application/json", b'{"mode": ' + b"9" * 5_000 + b"}"),
    ("sent as text", "text/plain", b'{"mode": "pass"}'),
    ("sent as a form", "application/x-www-form-urlencoded", b"mode=pass"),
    ("sent as multipart", "multipart/form-data; boundary=x", b"--x--\r\n"),
    ("no content type", None, b"not json"),
]
"""(what it is, Content-Type, body): bodies no operation can take."""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # No lookup limit: every code here is unknown, and 429s would hide the answers.
    folder = tmp_path_factory.mktemp("http-errors")
    with running_server(folder, *TEST_FLAGS, "--lookup-limit", "0") as server:
        yield server


@pytest.fixture(scope="module")
def schema(live: ServerProcess) -> dict[str, Any]:
    found: dict[str, Any] = live.get("/openapi.json")
    return found


def send(
    server: ServerProcess,
    method: str,
    path: str,
    body: bytes | None = None,
    content_type: str | None = None,
) -> tuple[int, bytes, dict[str, str]]:
    request = urllib.request.Request(server.url + path, data=body, method=method)
    if content_type is not None:
        request.add_header("Content-Type", content_type)
    elif body is not None:
        request.add_header("Content-Type", "")  # urllib would say it is a form
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def typed_error(status: int, raw: bytes) -> dict[str, str]:
    """The error in the one shape, or a failed assertion."""
    assert 400 <= status < 500, (status, raw[:300])
    body = json.loads(raw)
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}, body
    assert all(isinstance(value, str) and value for value in body["error"].values()), body
    assert "Traceback" not in body["error"]["message"]
    error: dict[str, str] = body["error"]
    return error


def documented_as_error(operation: dict[str, Any], status: int) -> bool:
    answer = operation["responses"].get(str(status)) or operation["responses"].get("default")
    if answer is None:
        return False
    return bool(answer["content"]["application/json"]["schema"] == {"$ref": ERROR_REF})


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield method.upper(), path.replace("{code}", UNKNOWN_CODE), operation


def test_the_schema_gives_every_operation_the_error_shape(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    assert components["ErrorOut"]["required"] == ["error"]
    assert set(components["ErrorBody"]["required"]) == {"code", "message"}
    assert "HTTPValidationError" not in components  # FastAPI's {"detail": [...]}
    listed = list(operations(schema))
    assert len(listed) >= 10
    for method, path, operation in listed:
        default = operation["responses"].get("default")
        assert default is not None, (method, path)
        assert documented_as_error(operation, 599), (method, path)
        for status, answer in operation["responses"].items():
            if status.startswith("4"):
                assert answer["content"]["application/json"]["schema"] == {"$ref": ERROR_REF}


@pytest.mark.parametrize(
    ("content_type", "body"),
    [pytest.param(kind, body, id=name) for name, kind, body in BAD_BODIES],
)
def test_a_body_no_operation_can_take_gets_a_typed_error(
    live: ServerProcess, schema: dict[str, Any], content_type: str | None, body: bytes
) -> None:
    offset = live.log_path.stat().st_size
    taking = [op for op in operations(schema) if "requestBody" in op[2]]
    assert {path for _, path, _ in taking} >= {"/api/rooms", f"/api/rooms/{UNKNOWN_CODE}/join"}
    for method, path, operation in taking:
        status, raw, _ = send(live, method, path, body, content_type)
        error = typed_error(status, raw)
        assert (status, error["code"]) == (422, "bad_request"), (path, error)
        assert error["message"].startswith("body"), error
        assert documented_as_error(operation, status), (path, status)
    assert "Traceback" not in live.log_path.read_bytes()[offset:].decode(errors="replace")


def test_a_body_sent_as_another_type_is_told_to_send_json(live: ServerProcess) -> None:
    status, raw, _ = send(live, "POST", "/api/rooms", b'{"mode": "pass"}', "text/plain")
    assert typed_error(status, raw)["message"] == (
        "body: a JSON object, sent with Content-Type: application/json"
    )
    status, raw, _ = send(live, "POST", "/api/rooms", b"[1]", "application/json")
    assert typed_error(status, raw)["message"] == "body: a JSON object"
    status, raw, _ = send(live, "POST", "/api/rooms", b"nope", "application/json")
    assert typed_error(status, raw)["message"].startswith("body: not JSON")


def test_a_method_a_path_does_not_take_gets_a_typed_405(
    live: ServerProcess, schema: dict[str, Any]
) -> None:
    for method, path, operation in operations(schema):
        for other in sorted({"GET", "POST", "PUT", "PATCH", "DELETE"} - {method}):
            status, raw, headers = send(live, other, path, b"{}", "application/json")
            error = typed_error(status, raw)
            assert (status, error["code"]) == (405, "method_not_allowed"), (other, path)
            assert method in headers["allow"] and method in error["message"]
            assert documented_as_error(operation, status), (path, status)


@pytest.mark.parametrize(
    "path",
    ["/api/nothing", f"/api/rooms/{UNKNOWN_CODE}/nothing", "/nothing", "/docs/assets/nothing"],
)
def test_a_path_no_route_has_gets_a_typed_404(live: ServerProcess, path: str) -> None:
    status, raw, _ = send(live, "GET", path)
    assert (status, typed_error(status, raw)["code"]) == (404, "not_found")
