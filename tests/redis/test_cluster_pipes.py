"""The hot path's commands on a Redis Cluster (``redis_cluster.ClusterPipes``), against a
local cluster of six real redis-server processes: a slot half moved (ASK), a slot moved
(MOVED), and a replica that does not confirm a write (WAIT).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

import redis
from snakes.server.backends.redis_cluster import WAIT_MILLISECONDS, ClusterPipes
from tests.redis.local_cluster import LocalCluster
from tests.support.inprocess import run

pytestmark = [pytest.mark.processes]

KEY = "pipes:{b7}:room"
WRITE = "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[1])"


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    with LocalCluster(tmp_path / "redis") as started:
        yield started


def _pipes(url: str) -> tuple[RedisCluster, ClusterPipes]:
    options = {"protocol": 2, "decode_responses": True}
    client = RedisCluster.from_url(url, **options)
    return client, ClusterPipes(client, dict(options), timeout=2.0)


def _node(port: int) -> redis.Redis:
    return redis.Redis(port=port, decode_responses=True)


def _ids(cluster: LocalCluster, *ports: int) -> list[str]:
    return [str(_node(port).execute_command("CLUSTER", "MYID")) for port in ports]


def _primaries(port: int) -> list[int]:
    return sorted(
        {
            int(node[1])
            for _, _, *nodes in _node(port).execute_command("CLUSTER", "SLOTS")
            for node in nodes[:1]
        }
    )


def _other_primary(cluster: LocalCluster, source: int) -> int:
    return next(port for port in _primaries(source) if port != source)


def test_a_key_moved_in_mid_migration_is_asked_for_on_its_new_primary(
    cluster: LocalCluster,
) -> None:
    source = cluster.primary_of(KEY)
    target = _other_primary(cluster, source)
    slot = int(_node(source).execute_command("CLUSTER", "KEYSLOT", KEY))
    source_id, target_id = _ids(cluster, source, target)
    _node(source).set(KEY, "before")
    # The slot on its way from source to target, and this key gone already.
    _node(target).execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", source_id)
    _node(source).execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", target_id)
    _node(source).execute_command("MIGRATE", "127.0.0.1", target, KEY, 0, 5000)

    async def scenario() -> None:
        client, pipes = _pipes(cluster.url)
        pipes.start()
        try:
            await client.initialize()
            assert await pipes.script(WRITE, [KEY], ["after"]) == "after"
            assert pipes.redirects == 1
        finally:
            await pipes.stop()
            await client.aclose()

    run(scenario())
    # Written where the key now lives, not left behind on the old primary.
    assert _asking_get(target, KEY) == "after"
    assert _node(source).execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 0


def _asking_get(port: int, key: str) -> str:
    """The key's value on a primary importing its slot (``ASKING``, then ``GET``, on one
    connection)."""
    connection = redis.Connection(port=port, decode_responses=True)
    try:
        connection.send_command("ASKING")
        connection.read_response()
        connection.send_command("GET", key)
        return str(connection.read_response())
    finally:
        connection.disconnect()


def test_a_slot_that_moved_is_followed_to_its_new_primary(cluster: LocalCluster) -> None:
    source = cluster.primary_of(KEY)
    target = _other_primary(cluster, source)

    async def scenario() -> None:
        client, pipes = _pipes(cluster.url)
        pipes.start()
        try:
            await client.initialize()
            assert await pipes.script(WRITE, [KEY], ["one"]) == "one"
            # The slot moves whole (redis-cli as an operator runs it) while this node's
            # map still names the old primary.
            slot = int(_node(source).execute_command("CLUSTER", "KEYSLOT", KEY))
            _move_slot(cluster, slot, source, target)
            assert await pipes.script(WRITE, [KEY], ["two"]) == "two"
            assert pipes.redirects >= 1
            assert pipes.primary(KEY).endswith(f":{target}")
        finally:
            await pipes.stop()
            await client.aclose()

    run(scenario())
    assert _node(target).get(KEY) == "two"


def _move_slot(cluster: LocalCluster, slot: int, source: int, target: int) -> None:
    source_id, target_id = _ids(cluster, source, target)
    _node(target).execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", source_id)
    _node(source).execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", target_id)
    keys = _node(source).execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100)
    if keys:
        _node(source).execute_command("MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", *keys)
    # The new owner first, then the old, then the other primaries (replicas follow).
    third = [p for p in _primaries(source) if p not in (source, target)]
    for port in (target, source, *third):
        _node(port).execute_command("CLUSTER", "SETSLOT", slot, "NODE", target_id)


def test_a_write_waits_for_a_replica_and_stops_waiting_for_one_that_is_stopped(
    cluster: LocalCluster,
) -> None:
    primary = cluster.primary_of(KEY)
    replica = cluster.replica_of(primary)

    async def scenario() -> None:
        client, pipes = _pipes(cluster.url)
        pipes.start()
        try:
            await client.initialize()
            began = time.monotonic()
            assert await pipes.script(WRITE, [KEY], ["kept"]) == "kept"
            assert pipes.unreplicated == 0  # the replica confirmed it
            assert time.monotonic() - began < WAIT_MILLISECONDS / 1000
            os.kill(cluster.processes[replica].pid, signal.SIGSTOP)
            try:
                began = time.monotonic()
                assert await pipes.script(WRITE, [KEY], ["unconfirmed"]) == "unconfirmed"
                # Told only once the wait ran out, and counted.
                assert time.monotonic() - began >= WAIT_MILLISECONDS / 1000
                assert pipes.unreplicated == 1
                # The next write does not wait on the stopped replica again.
                await pipes.script(WRITE, [KEY], ["again"])
                assert pipes.unreplicated == 1
            finally:
                os.kill(cluster.processes[replica].pid, signal.SIGCONT)
        finally:
            await pipes.stop()
            await client.aclose()

    run(scenario())


def test_the_pipes_refuse_nothing_they_should_pass_on(cluster: LocalCluster) -> None:
    """A script's own error is its caller's, not a redirect to follow."""

    async def scenario() -> None:
        client, pipes = _pipes(cluster.url)
        pipes.start()
        try:
            await client.initialize()
            with pytest.raises(aioredis.ResponseError):
                await pipes.script("return redis.error_reply('NOPE bad')", [KEY], [])
            assert pipes.redirects == 0
        finally:
            await pipes.stop()
            await client.aclose()

    run(scenario())
