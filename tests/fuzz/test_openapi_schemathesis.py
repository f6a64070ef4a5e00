"""Schemathesis over the HTTP API's OpenAPI schema, against a live server: no 5xx.

Every operation in /openapi.json is called with bodies, paths and queries generated
from the schema (valid ones and ones that break it); the answer may refuse, but the
server must never fail (a 5xx) and must keep running.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from tests.support.server import TEST_FLAGS, ServerProcess, running_server

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "40"))


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
            case.validate_response(response, checks=[not_a_server_error])

        check()
    assert calls >= len(operations)
    assert live.process is not None and live.process.poll() is None
    assert live.get("/healthz")["status"] == "ok"
