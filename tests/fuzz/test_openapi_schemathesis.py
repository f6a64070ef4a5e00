"""Schemathesis over the HTTP API's OpenAPI schema, against a live server: no 5xx.

Every operation in /openapi.json is called with bodies, paths and queries generated
from the schema (valid ones and ones that break it); the answer may refuse, but the
server must never fail (a 5xx) and must keep running, and every answer must be one the
schema describes (status, content type, body: a refusal in the typed error shape).

The drawn calls assert only that. What they reach (a room that exists, a join that
succeeds) is chance, so the links into real rooms are followed in a fixed chain of
their own: a room is created, and every link the schema gives is followed with the code
the answer named.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.support.server import TEST_FLAGS, ServerProcess, running_server

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "40"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
"""No 5xx, and every answer is one the schema describes: its status, its content type
and its body (a refusal in the error shape the schema gives every operation)."""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # No lookup limit: generated codes are all unknown, and 429s would hide the rest.
    folder = tmp_path_factory.mktemp("schemathesis")
    with running_server(folder, *TEST_FLAGS, "--lookup-limit", "0") as server:
        yield server


def test_no_operation_of_the_http_api_answers_a_server_error(live: ServerProcess) -> None:
    schema = schemathesis.openapi.from_url(live.url + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    paths = {f"{op.method.upper()} {op.path}" for op in operations}
    assert {"POST /api/rooms", "POST /api/rooms/{code}/join", "GET /api/rooms/{code}"} <= paths
    calls = 0
    for operation in operations:

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def check(case: schemathesis.Case) -> None:
            nonlocal calls
            response = case.call(base_url=live.url, timeout=10)
            calls += 1
            case.validate_response(response, checks=CHECKS)

        check()
    assert calls >= len(operations)
    assert live.process is not None and live.process.poll() is None
    assert live.get("/healthz")["status"] == "ok"


LINKED = {
    # link name: (the body it sends, or None; the status a real room answers)
    "GetRoom": (None, 200),
    "GetQr": (None, 200),
    # No game has finished in a new room yet (an unknown room's answer is the same).
    "GetRecord": (None, 404),
    "JoinRoom": ({"name": "Ana", "colour": "blue"}, 201),
    "JoinAgain": ({"name": "Ben", "colour": "green"}, 201),
}
"""What each link of the schema leads to, followed from a room just created."""


def _follow(
    live: ServerProcess, schema: Any, source: schemathesis.Case, answer: Any
) -> list[tuple[str, int]]:
    """Every link of ``source``'s answer, followed with the code it names: each call is
    checked against the schema, and its answer, when it has links, is followed too."""
    raw = schema.raw_schema["paths"][source.operation.path][source.method.lower()]
    links = raw["responses"][str(answer.status_code)].get("links", {})
    followed = []
    for name, link in links.items():
        assert link["parameters"] == {"code": "$response.body#/code"}, link
        body, status = LINKED[name]
        target = schema.find_operation_by_id(link["operationId"])
        case = target.Case(
            path_parameters={"code": answer.json()["code"]},
            **({"body": body, "media_type": "application/json"} if body else {}),
        )
        response = case.call(base_url=live.url, timeout=10)
        case.validate_response(response, checks=CHECKS)
        followed.append((name, response.status_code))
        assert response.status_code == status, (name, response.status_code, response.text)
        if name == "JoinRoom":
            followed += _follow(live, schema, case, response)
    return followed


def test_the_links_lead_from_a_created_room_into_it(live: ServerProcess) -> None:
    """Create a room, then follow every link its answer has (look it up, join it, fetch
    its QR code and record), and every link the join's answer has: each reaches the
    room just created."""
    schema = schemathesis.openapi.from_url(live.url + "/openapi.json")
    create = schema["/api/rooms"]["POST"].Case(
        body={"mode": "online", "seats": [{"name": "Host", "colour": "red"}]},
        media_type="application/json",
    )
    created = create.call(base_url=live.url, timeout=10)
    create.validate_response(created, checks=CHECKS)
    assert created.status_code == 201, created.text
    followed = _follow(live, schema, create, created)
    from_create = [("GetRoom", 200), ("GetQr", 200), ("GetRecord", 404), ("JoinRoom", 201)]
    from_join = [("GetRoom", 200), ("JoinAgain", 201)]
    assert sorted(followed) == sorted(from_create + from_join), followed
    room = live.get(f"/api/rooms/{created.json()['code']}")
    assert [seat["name"] for seat in room["seats"]] == ["Host", "Ana", "Ben"]


STATEFUL_EXAMPLES = int(os.environ.get("SCHEMATHESIS_STATEFUL_EXAMPLES", "40"))


def test_stateful_chains_of_linked_calls_never_fail(live: ServerProcess) -> None:
    """Chains of calls that follow the OpenAPI links (the code a creation or a join
    answered) into the rooms they made: none of them fails."""
    schema = schemathesis.openapi.from_url(live.url + "/openapi.json")
    # Valid requests only: a chain of calls goes on only from a room that was created.
    schema.config.generation.update(modes=[GenerationMode.POSITIVE])
    statuses: list[int] = []

    @schema.hook("flatmap_body")  # type: ignore[untyped-decorator]
    def playable(context: Any, body: Any) -> st.SearchStrategy[Any]:
        # The schema cannot say "an online room starts with its host alone" or "a name
        # shows something": half the generated bodies stay as they are, half are made
        # to fit, so that chains reach lobbies and full tables too.
        operation = f"{context.operation.method.upper()} {context.operation.path}"
        if operation == "POST /api/rooms" and isinstance(body, dict):
            fitted = st.fixed_dictionaries(
                {"mode": st.just("online"), "seats": st.just([{"name": "Host", "colour": "red"}])}
            ).map(lambda fit: {**body, **fit})
            return st.one_of(st.just(body), fitted)
        if operation == "POST /api/rooms/{code}/join" and isinstance(body, dict):
            names = st.sampled_from(["Ana", "Zoë", "李", "Ben 2", "H\u043est", "\u3164"])
            return st.one_of(st.just(body), names.map(lambda name: {**body, "name": name}))
        return st.just(body)

    class Run(schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            return {"base_url": live.url, "timeout": 10}

        def after_call(self, response: Any, case: schemathesis.Case) -> None:
            statuses.append(response.status_code)

        def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Run.run(
        settings=settings(
            max_examples=STATEFUL_EXAMPLES,
            stateful_step_count=6,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    assert all(status < 500 for status in statuses), statuses
    assert live.get("/healthz")["status"] == "ok"
