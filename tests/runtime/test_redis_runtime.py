"""Two runtimes in this process sharing a real Redis: one owner per room, forwarding,
takeover from the snapshot when the owner goes, and a commit fenced off a node that
lost its room. One hand-moved clock serves both nodes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import pytest

from snakes.engine import JUNGLE, Rules
from snakes.server.backends.redis_backend import RedisBackend
from snakes.server.clock import ManualClock
from snakes.server.rooms.dice import ServerDice
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.intents import React, Remove, Roll, Start
from snakes.server.rooms.model import Mode, Seat
from snakes.server.rooms.work import Caller, Work
from snakes.server.runtime.hub import Hub
from snakes.server.runtime.runtime import RoomRuntime
from snakes.testing.hooks import ScriptableDice
from tests.support.inprocess import FAST, Viewer, run

pytestmark = pytest.mark.usefixtures("redis_url")


@asynccontextmanager
async def nodes(redis_url: str, prefix: str, count: int = 2) -> AsyncIterator[list[RoomRuntime]]:
    clock = ManualClock()
    runtimes = []
    for _ in range(count):
        hub = Hub()
        backend = RedisBackend(redis_url, hub, prefix=prefix, clock=clock)
        dice = ScriptableDice(ServerDice())
        runtimes.append(RoomRuntime(FAST, backend, dice, hub, backend.owners))
    for runtime in runtimes:
        await runtime.start()
    try:
        yield runtimes
    finally:
        for runtime in runtimes:
            await runtime.stop()


async def arrived(viewer: Viewer, check: Any, seconds: float = 5.0) -> dict[str, Any]:
    """Wait (real time: Redis is real) for a message that passes ``check``."""
    for _ in range(int(seconds / 0.01)):
        for message in viewer.inbox():
            if check(message):
                return message
        await asyncio.sleep(0.01)
    raise AssertionError(f"nothing arrived; got {viewer.received}")


async def seated(a: RoomRuntime, b: RoomRuntime) -> tuple[str, Viewer, Viewer]:
    """A room created on node a; its two players sit on node b."""
    created = await a.create(
        Mode.ONLINE, [Seat("Ava", "red")], Rules(), shuffle=False,
        countdown_seconds=20, board=JUNGLE,
    )  # fmt: skip
    code, seat, ben_secret = await b.join(created.code, "Ben", "blue")
    assert seat == 1
    ava, ben = Viewer(b, secret=created.secret), Viewer(b, secret=ben_secret)
    await b.hello(ava.session, code, created.secret)
    await b.hello(ben.session, code, ben_secret)
    await b.intent(ava.session, Start(ava.room["change"]))
    for viewer in (ava, ben):
        await arrived(viewer, lambda m: m.get("room", {}).get("phase") == "playing")
    return code, ava, ben


def test_intents_from_another_node_are_applied_by_the_owner_once(
    redis_url: str, prefix: str
) -> None:
    async def scenario() -> None:
        async with nodes(redis_url, prefix) as (a, b):
            code, ava, ben = await seated(a, b)
            assert a.current(code) is not None and b.current(code) is None  # a owns it
            version = ava.room["version"]
            replies = a.backend.owners.replies  # type: ignore[attr-defined]
            a.dice.queued.append(3)  # type: ignore[attr-defined]
            assert await b.intent(ava.session, Roll(0, version))
            # The same roll again is stale: not applied, and Ava is shown the room again.
            assert not await b.intent(ava.session, Roll(0, version))
            await arrived(ava, lambda m: m["type"] == "welcome" and m["room"]["version"] == 1)
            update = await arrived(ben, lambda m: m["type"] == "update" and m["events"])
            assert update["room"]["seats"][0]["square"] == 3
            # The roll was answered by its own update; only the refused one was answered
            # apart (a welcome to one connection carries no answer).
            assert a.backend.owners.replies == replies + 1  # type: ignore[attr-defined]
            logged = await a.backend.log.action_log(code)  # type: ignore[attr-defined]
            assert [entry["seq"] for entry in logged] == [1]

    run(scenario())


def test_when_the_owner_goes_another_node_takes_the_room_over_from_its_snapshot(
    redis_url: str, prefix: str
) -> None:
    async def scenario() -> None:
        async with nodes(redis_url, prefix, 3) as (a, b, c):
            code, ava, ben = await seated(a, b)
            a.dice.queued.append(2)  # type: ignore[attr-defined]
            await b.intent(ava.session, Roll(0, ava.room["version"]))
            await arrived(ben, lambda m: m["type"] == "update" and m["room"]["version"] == 1)
            await a.stop()  # the owner is gone (its inbox stops listening)
            c.dice.queued.append(5)  # type: ignore[attr-defined]
            b.dice.queued.append(5)  # type: ignore[attr-defined]
            await b.intent(ben.session, Roll(1, 1))
            update = await arrived(
                ben, lambda m: m["type"] == "update" and m["room"]["version"] == 2
            )
            assert update["room"]["seats"][1]["square"] == 5
            assert b.current(code) is not None  # b took it over: snapshot plus tail
            restored = b.current(code)
            assert restored is not None and restored.game is not None
            assert restored.game.positions == (2, 5) and len(restored.actions) == 2

    run(scenario())


def test_a_node_that_lost_its_room_can_never_write_to_it_again(redis_url: str, prefix: str) -> None:
    async def scenario() -> None:
        async with nodes(redis_url, prefix) as (a, b):
            code, _, _ = await seated(a, b)
            stale = a.current(code)
            assert stale is not None
            # Another node takes the room (as if a's lease had run out).
            await b.backend.redis.set(f"{prefix}room:{{{code}}}:owner", b.backend.owners.node)  # type: ignore[attr-defined]
            draft = stale.draft()
            draft.rev = stale.rev + 1
            assert await a.backend.commit(draft, Work(changed=True)) is False
            # a's next intent finds it is no longer the owner and forwards it to b.
            b.dice.queued.append(4)  # type: ignore[attr-defined]
            viewer = Viewer(a)
            await a.hello(viewer.session, code, None)
            assert a.current(code) is None

    run(scenario())


def test_a_reaction_sent_on_one_node_reaches_viewers_on_both_and_its_limit_holds_across_nodes(
    redis_url: str, prefix: str
) -> None:
    """Reactions go through the room's owner (which keeps their limits) and out on the
    room's channel, with no write: the log, the version and the revision stay as they were."""

    async def scenario() -> None:
        async with nodes(redis_url, prefix) as (a, b):
            code, ava, ben = await seated(a, b)  # a owns the room; Ava and Ben are on b
            watcher = Viewer(a)
            await a.hello(watcher.session, code, None)
            await arrived(watcher, lambda m: m["type"] == "welcome")
            owned = a.current(code)
            assert owned is not None
            rev, version = owned.rev, owned.version
            await b.intent(ava.session, React(0, "clap"))
            for viewer in (watcher, ava, ben):
                seen = await arrived(viewer, lambda m: m["type"] == "reaction")
                assert (seen["seat"], seen["reaction"]) == (0, "clap")
            # Ava again at once, from a second device on the other node: the owner's
            # limit is the seat's, wherever its connections are.
            again = Viewer(a)
            await a.hello(again.session, code, ava.secret)
            with pytest.raises(ProtocolError) as refused:
                await a.intent(again.session, React(0, "wow"))
            assert refused.value.code == "too_many_reactions"
            with pytest.raises(ProtocolError) as forwarded:
                await b.intent(ava.session, React(0, "wow"))
            assert forwarded.value.code == "too_many_reactions"
            assert forwarded.value.retry_after is not None and forwarded.value.retry_after <= 1
            after = a.current(code)
            assert after is not None and (after.rev, after.version) == (rev, version)
            assert await a.backend.log.action_log(code) == []  # type: ignore[attr-defined]
            stored = await a.backend.redis.hget(f"{prefix}room:{{{code}}}", "rev")  # type: ignore[attr-defined]
            assert int(stored) == rev

    run(scenario())


def test_every_key_of_a_room_expires_and_a_roll_sets_the_expiry_again_only_when_it_ran_down(
    redis_url: str, prefix: str
) -> None:
    async def scenario() -> None:
        async with nodes(redis_url, prefix) as (a, b):
            backend: RedisBackend = a.backend  # type: ignore[assignment]
            backend.log.online_ttl = 80  # seconds, so that an eighth of it is in a countdown
            code, ava, ben = await seated(a, b)
            keys = [backend.keys.room(code), backend.keys.actions(code)]
            keys += [backend.keys.owner(code), backend.keys.presence(code)]
            a.dice.queued.append(3)  # type: ignore[attr-defined]
            await b.intent(ava.session, Roll(0, ava.room["version"]))
            await arrived(ben, lambda m: m["type"] == "update" and m["room"]["version"] == 1)
            for key in keys:  # none is left to live for ever
                assert 0 < await backend.redis.ttl(key) <= 80, key
            for key in keys:
                await backend.redis.expire(key, 50)
            a.dice.queued.append(2)  # type: ignore[attr-defined]
            await b.intent(ben.session, Roll(1, 1))
            await arrived(ben, lambda m: m["type"] == "update" and m["room"]["version"] == 2)
            assert await backend.redis.ttl(backend.keys.room(code)) <= 50  # left standing
            # Past an eighth of the time to live, the next commit (here the countdown's
            # skip of a seat that did not roll, 20 s on) sets the expiry again.
            a.clock.advance(20)  # type: ignore[attr-defined]
            await arrived(ben, lambda m: m["type"] == "update" and m["room"]["version"] == 3)
            for key in keys:
                assert await backend.redis.ttl(key) > 50, key

    run(scenario())


def test_a_room_abandoned_by_everyone_leaves_no_key_behind(redis_url: str, prefix: str) -> None:
    """The idle timer ends the game (an action) and releases the room in one commit: the
    action must not bring the deleted log back, where nothing would expire it."""

    async def scenario() -> None:
        async with nodes(redis_url, prefix) as (a, b):
            backend: RedisBackend = a.backend  # type: ignore[assignment]
            code, ava, ben = await seated(a, b)
            a.dice.queued.append(3)  # type: ignore[attr-defined]
            await b.intent(ava.session, Roll(0, ava.room["version"]))
            await arrived(ben, lambda m: m["type"] == "update" and m["room"]["version"] == 1)
            await b.disconnect(ava.session)
            await b.disconnect(ben.session)
            keys = [backend.keys.room(code), backend.keys.actions(code)]
            keys += [backend.keys.owner(code), backend.keys.presence(code)]
            a.clock.advance(FAST.idle_seconds + 1)  # type: ignore[attr-defined]
            for _ in range(500):
                if not await backend.redis.exists(*keys):
                    break
                await asyncio.sleep(0.01)
            left = [key for key in keys if await backend.redis.exists(key)]
            assert left == []

    run(scenario())


def test_an_intent_given_up_by_its_sender_never_applies_and_one_applied_is_settled_as_such(
    redis_url: str, prefix: str
) -> None:
    """The outcome kept under an intent's id: the sender that lost an answer marks the id
    given up unless the commit got there first, and the commit applies nothing so
    marked. Forwarded from node b to the lobby's owner, node a."""

    async def scenario() -> None:
        async with nodes(redis_url, prefix) as (a, b):
            created = await a.create(
                Mode.ONLINE, [Seat("Hana", "red")], Rules(), shuffle=False,
                countdown_seconds=20, board=JUNGLE,
            )  # fmt: skip
            code = created.code
            for name, colour in (("Ivo", "blue"), ("Jan", "green"), ("Kim", "yellow")):
                await a.join(code, name, colour)
            hana = Viewer(b, secret=created.secret)
            await b.hello(hana.session, code, created.secret)
            host = Caller(hana.session.id, hana.session.secret_hash)

            given_up = b.owners.new_ident()
            assert await b.owners.settle(code, given_up) is False  # the sender gave it up
            change = (await b.view(code))["change"]
            with pytest.raises(ProtocolError) as refused:  # ...then it reaches the owner
                await b._run(code, Remove(change, 1), replace(host, ident=given_up))
            assert refused.value.code == "unavailable"
            assert [s["name"] for s in (await b.view(code))["seats"]] == [
                "Hana", "Ivo", "Jan", "Kim"
            ]  # fmt: skip

            applied = b.owners.new_ident()
            await b._run(code, Remove(change, 1), replace(host, ident=applied))
            assert await b.owners.settle(code, applied) is True  # and it stays applied
            assert await b.owners.settle(code, applied) is True
            assert [s["name"] for s in (await b.view(code))["seats"]] == ["Hana", "Jan", "Kim"]

    run(scenario())
