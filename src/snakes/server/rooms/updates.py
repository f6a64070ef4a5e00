"""The messages a change sends: an update with its events and the new view, a welcome."""

from __future__ import annotations

import json
from typing import Any

from snakes.server.rooms.timers import all_racers_away, connected_seats, schedule
from snakes.server.rooms.views import room_view
from snakes.server.rooms.work import Message, Step


def view(step: Step) -> dict[str, Any]:
    """The draft room as every viewer sees it."""
    room, ctx = step.room, step.ctx
    return room_view(
        room,
        connected=connected_seats(room, ctx.presence),
        now=ctx.now,
        paused=all_racers_away(room, ctx.presence),
        odds=ctx.presence.odds,
        public_url=ctx.public_url,
    )


def publish(
    step: Step,
    events: list[dict[str, Any]],
    *,
    new_turn: bool = False,
    allowance: float = 0.0,
    instant: bool = False,
    skip: str = "",
) -> None:
    """Reschedule the room's timers, then send everyone an update with the new view."""
    schedule(step, new_turn=new_turn, allowance=allowance)
    step.work.changed = True
    body = {"type": "update", "events": events, "instant": instant, "room": view(step)}
    step.work.messages.append(Message(json.dumps(body), skip=skip))


def welcome(step: Step, connection: str) -> None:
    """The whole state, to one connection (after its hello, or after an outage)."""
    body = {"type": "welcome", "room": view(step)}
    step.work.messages.append(Message(json.dumps(body), to=connection))
