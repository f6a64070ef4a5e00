"""Redis for tests: the machine's Redis, a key prefix of each test's own, cleaned up.

Under CI=true a missing Redis fails the tests that need it; elsewhere they are skipped,
saying so.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest

import redis

REDIS_URL = os.environ.get("SNAKES_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _reachable(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(scope="session")
def redis_url() -> str:
    if not _reachable(REDIS_URL):
        message = f"Redis is not reachable at {REDIS_URL}; the scale-out tests need it"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return REDIS_URL


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of this test's own; every key under it is deleted afterwards."""
    value = f"snakes-test-{secrets.token_hex(4)}:"
    yield value
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{value}*", count=500))
    if keys:
        client.delete(*keys)
    client.close()
