"""The compute pool and the per-address budget (transport/compute.py).

Stories, odds and QR codes are worked out in one worker process with a bounded queue,
and each address pays for what its requests cost: CPU seconds and requests a minute, and
a few requests under way at once. Work here waits for a file the test makes (a gate
between processes), never for time.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from snakes.server.rooms.errors import BadRecord, ProtocolError
from snakes.server.transport.compute import Compute, ComputeBudget, ComputePool
from tests.support.inprocess import run

pytestmark = pytest.mark.processes  # the pool starts a worker process


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _blocked(gate: str, started: str | None = None) -> str:
    """Wait in the worker until the file ``gate`` exists (first making ``started``)."""
    if started is not None:
        Path(started).touch()
    for _ in range(12_000):  # a hang guard of two minutes
        if Path(gate).exists():
            return "done"
        time.sleep(0.01)
    raise AssertionError("the gate never opened")


def _until(path: Path) -> None:
    for _ in range(60_000):
        if path.exists():
            return
        time.sleep(0.01)
    raise AssertionError(f"{path} never came")


def _refuse_after(seconds: float) -> None:
    _spin(seconds)
    raise BadRecord("no")


def _crash() -> None:
    os._exit(1)


def _spin(seconds: float) -> float:
    """Burn about ``seconds`` of this thread's CPU."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
    return seconds


def test_a_full_pool_refuses_at_once_with_busy_and_a_retry_after(tmp_path: Path) -> None:
    gate = tmp_path / "gate"

    async def scenario() -> None:
        pool = ComputePool(workers=1, waiting=2)
        held = [asyncio.ensure_future(pool.run(_blocked, str(gate))) for _ in range(3)]
        await asyncio.sleep(0)
        with pytest.raises(ProtocolError) as refused:  # at once; the limit is a hang guard
            await asyncio.wait_for(pool.run(_blocked, str(gate)), 60)
        assert refused.value.code == "busy" and refused.value.retry_after == 2
        assert pool.refused == 1
        gate.touch()
        assert await asyncio.gather(*held) == ["done"] * 3
        assert await pool.run(sum, [1, 2]) == 3  # room again once the work ended
        pool.close()

    run(scenario())


def test_a_request_whose_client_went_away_holds_its_slot_until_its_work_ends(
    tmp_path: Path,
) -> None:
    # Cancelling the awaiting request does not stop work under way: the slot must stay
    # taken, or a client that hangs up at once could queue work without bound.
    gate, started = tmp_path / "gate", tmp_path / "started"

    async def scenario() -> None:
        pool = ComputePool(workers=1, waiting=0)
        first = asyncio.ensure_future(pool.run(_blocked, str(gate), str(started)))
        await asyncio.to_thread(_until, started)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        with pytest.raises(ProtocolError, match="other requests"):
            await asyncio.wait_for(pool.run(sum, [1]), 60)
        gate.touch()
        for _ in range(1000):  # the slot comes back when the thread's work is done
            try:
                assert await pool.run(sum, [1]) == 1
                break
            except ProtocolError:
                await asyncio.sleep(0.01)
        else:
            raise AssertionError("the slot never came back")
        pool.close()

    run(scenario())


def test_work_that_fails_is_raised_to_the_caller_and_still_charged() -> None:
    async def scenario() -> None:
        clock = Clock()
        compute = Compute(ComputePool(), ComputeBudget(0.05, clock=clock))

        with pytest.raises(ProtocolError, match="no"):
            await compute.run("192.0.2.1", _refuse_after, 0.08)
        await asyncio.sleep(0)  # the charge is made on the loop, once the work ended
        with pytest.raises(ProtocolError) as refused:
            await compute.run("192.0.2.1", sum, [1])
        assert refused.value.code == "rate_limited"
        compute.pool.close()

    run(scenario())


def test_an_address_pays_for_the_cpu_its_requests_took_and_others_do_not() -> None:
    async def scenario() -> None:
        clock = Clock()
        compute = Compute(ComputePool(), ComputeBudget(0.1, requests=1000, clock=clock))
        spent = 0.0
        while True:  # the bucket lets requests in until their measured CPU has used it up
            try:
                spent += await compute.run("192.0.2.1", _spin, 0.03)
            except ProtocolError as error:
                assert error.code == "rate_limited" and error.retry_after is not None
                assert 1 <= error.retry_after <= 60
                break
            await asyncio.sleep(0)
        assert 0.1 <= spent <= 0.2
        # Another address, and the same address's IPv6 neighbours, are apart.
        assert await compute.run("192.0.2.2", sum, [2]) == 2
        clock.now += 60  # a minute on, the bucket is full again
        assert await compute.run("192.0.2.1", sum, [3]) == 3
        compute.pool.close()

    run(scenario())


def test_an_address_may_make_so_many_requests_a_minute() -> None:
    async def scenario() -> None:
        clock = Clock()
        compute = Compute(ComputePool(), ComputeBudget(60.0, requests=5, clock=clock))
        for _ in range(5):
            await compute.run("2001:db8::1", sum, [1])
        with pytest.raises(ProtocolError) as refused:
            await compute.run("2001:db8::2", sum, [1])  # the same /64
        assert refused.value.code == "rate_limited" and refused.value.retry_after == 12
        clock.now += 12
        assert await compute.run("2001:db8::3", sum, [1]) == 1
        compute.pool.close()

    run(scenario())


def test_an_address_may_have_so_many_requests_under_way(tmp_path: Path) -> None:
    gate = str(tmp_path / "gate")

    async def scenario() -> None:
        compute = Compute(ComputePool(waiting=8), ComputeBudget(60.0, in_flight=2))
        held = [asyncio.ensure_future(compute.run("192.0.2.1", _blocked, gate)) for _ in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(ProtocolError, match="too many requests under way"):
            await asyncio.wait_for(compute.run("192.0.2.1", _blocked, gate), 60)
        other = asyncio.ensure_future(compute.run("192.0.2.9", _blocked, gate))
        Path(gate).touch()
        assert await asyncio.gather(*held, other) == ["done"] * 3
        await asyncio.sleep(0)
        assert await compute.run("192.0.2.1", sum, [1]) == 1
        compute.pool.close()

    run(scenario())


def test_no_limit_means_none() -> None:
    async def scenario() -> None:
        compute = Compute(ComputePool(), ComputeBudget(0, requests=1, in_flight=1))
        for _ in range(20):
            assert await compute.run("192.0.2.1", _spin, 0.001)
        compute.pool.close()

    run(scenario())


def test_a_worker_that_dies_is_an_internal_error_and_the_next_request_gets_a_new_one() -> None:
    async def scenario() -> None:
        pool = ComputePool()
        with pytest.raises(ProtocolError) as failed:
            await pool.run(_crash)
        assert failed.value.code == "internal"
        assert await pool.run(sum, [4, 5]) == 9
        pool.close()

    run(scenario())


def test_the_worker_runs_at_a_lower_priority_than_the_server() -> None:
    async def scenario() -> int:
        pool = ComputePool()
        nice = await pool.run(os.nice, 0)
        pool.close()
        return nice

    assert run(scenario()) >= os.nice(0) + 10
