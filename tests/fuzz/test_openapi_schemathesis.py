"""Schemathesis over the HTTP API's OpenAPI schema, against a live server: no 5xx.

Every operation in /openapi.json is called with bodies, paths and queries generated
from the schema (valid ones and ones that break it); the answer may refuse, but the
server must never fail (a 5xx) and must keep running, and every answer must be one the
schema describes (status, content type, body: a refusal in the typed error shape).
"""

from __future__ import annotations

import os
from collections import Counter
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


STATEFUL_EXAMPLES = int(os.environ.get("SCHEMATHESIS_STATEFUL_EXAMPLES", "40"))


def test_stateful_runs_follow_the_links_into_real_rooms(live: ServerProcess) -> None:
    """Create a room, then look it up, join it, fetch its QR code and record, through the
    OpenAPI links (the code the creation answered): the calls reach real rooms, not only
    404s, and none of them fails."""
    schema = schemathesis.openapi.from_url(live.url + "/openapi.json")
    # Valid requests only: a chain of calls goes on only from a room that was created.
    schema.config.generation.update(modes=[GenerationMode.POSITIVE])
    reached: Counter[tuple[str, int]] = Counter()

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
            reached[(f"{case.method.upper()} {case.path}", response.status_code)] += 1

        def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Run.run(
        settings=settings(
            max_examples=STATEFUL_EXAMPLES,
            stateful_step_count=6,
            derandomize=True,  # the same chains every run: the counts below are stable
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    # Links were followed into rooms that exist: a random code would always be a 404.
    assert reached[("GET /api/rooms/{code}", 200)] > 0, reached
    joined = reached[("POST /api/rooms/{code}/join", 201)]
    assert joined + reached[("POST /api/rooms/{code}/join", 409)] > 0, reached
    assert all(status < 500 for _, status in reached), reached
    assert live.get("/healthz")["status"] == "ok"
