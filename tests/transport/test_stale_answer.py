"""A stale intent is answered by a welcome alone: the room as it is now, and no error.

Its page draws the room again from the welcome; with an error beside it, the page used
to close its socket and say hello again, which cost a second welcome for nothing.
"""

from __future__ import annotations

from typing import Any

from snakes.server import jsontext
from tests.support.inprocess import Table, Viewer, run, settle, socket_message


async def sent(viewer: Viewer, table: Table, **message: Any) -> list[dict[str, Any]]:
    """What the viewer is sent in answer to one message, through the socket's own path."""
    viewer.inbox()
    await socket_message(jsontext.dumps(message).encode(), viewer.session, table.runtime)
    await settle()
    return viewer.inbox()


def test_a_stale_roll_and_a_stale_lobby_intent_get_a_welcome_and_nothing_else() -> None:
    async def scenario() -> None:
        async with Table() as table:
            code, (host, ann) = await table.lobby(2)
            old = host.room["change"]
            await sent(host, table, type="reactions", on=False, change=old)
            answer = await sent(ann, table, type="add_ai", name="Robo", colour="green", change=old)
            assert [m["type"] for m in answer] == ["welcome"], answer
            assert answer[0]["room"]["change"] == old + 1 and not answer[0]["room"]["reactions"]

            await sent(host, table, type="start", change=host.room["change"])
            table.script(3)
            await host.roll(0)
            answer = await sent(host, table, type="roll", seat=0, version=0, ref="again")
            assert [m["type"] for m in answer] == ["welcome"], answer
            assert answer[0]["room"]["version"] == 1
            assert answer[0]["you"] == {"seats": [0], "host": True, "spectator": False}
            assert table.current(code).version == 1  # and it was not applied

    run(scenario())


def test_an_intent_that_is_not_stale_is_still_refused_with_an_error() -> None:
    async def scenario() -> None:
        async with Table() as table:
            _, (host, ann) = await table.online(2)
            answer = await sent(ann, table, type="roll", seat=1, version=0, ref="early")
            assert [(m["type"], m.get("code"), m.get("ref")) for m in answer] == [
                ("error", "not_your_turn", "early")
            ]
            assert host.inbox() == []

    run(scenario())
