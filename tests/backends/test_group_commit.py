"""Group commit: changes that come within the window share one transaction.

Issue 13: "Write the changes of the rooms that acted within a few milliseconds to
SQLite in one transaction. Each update is still sent only after its action is durable."
The scenarios run on virtual time (tests.support.virtual_time): the window is exact,
however busy the machine.
"""

from __future__ import annotations

import asyncio

import pytest

from snakes.server.backends.local import GroupCommit
from snakes.server.backends.memory import MemoryLog
from snakes.server.rooms.model import Room
from snakes.server.rooms.work import Work
from tests.support.virtual_time import run_on_virtual_time as run


class CountingLog(MemoryLog):
    """The memory log, counting the transactions it is asked for and their sizes."""

    def __init__(self) -> None:
        super().__init__()
        self.groups: list[int] = []

    def write_many(self, changes: list[tuple[Room, Work, bool]]) -> list[bool]:
        self.groups.append(len(changes))
        return super().write_many(changes)


def _room(code: str) -> Room:
    from snakes.engine import Rules
    from snakes.server.rooms.model import Mode, Seat

    return Room(code=code, mode=Mode.PASS, rules=Rules(), seats=[Seat("A", "red")])


def test_changes_within_the_window_share_a_transaction_and_each_waits_for_it() -> None:
    async def scenario() -> None:
        log = CountingLog()
        group = GroupCommit(log, window=0.2)
        done: list[str] = []

        async def change(code: str, after: float) -> None:
            await asyncio.sleep(after)
            assert await group.write(_room(code), Work(changed=True), True)
            assert code in log.rows  # durable before its writer goes on
            done.append(code)

        await asyncio.gather(change("AAAAAA", 0), change("BBBBBB", 0.01), change("CCCCCC", 0.02))
        assert log.groups == [3]
        assert sorted(done) == ["AAAAAA", "BBBBBB", "CCCCCC"]

    run(scenario())


def test_a_full_group_goes_at_once_and_a_lone_change_after_the_window() -> None:
    async def scenario() -> None:
        log = CountingLog()
        group = GroupCommit(log, window=0.05, most=4)
        codes = [f"ROOM{i:02d}" for i in range(4)]
        loop = asyncio.get_running_loop()
        started = loop.time()
        await asyncio.gather(*(group.write(_room(c), Work(changed=True), True) for c in codes))
        assert log.groups == [4]
        assert loop.time() == started  # full: no wait for the window
        started = loop.time()
        await group.write(_room("LONELY"), Work(changed=True), True)
        assert log.groups == [4, 1]
        assert loop.time() - started == pytest.approx(0.05)  # alone: when the window ends

    run(scenario())
