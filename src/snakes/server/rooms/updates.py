"""The messages a change sends: an update with its events and the new view, a welcome,
and a small presence message when only who is connected changed."""

from __future__ import annotations

from typing import Any

from snakes.server.rooms import messages
from snakes.server.rooms.timers import all_racers_away, connected_seats, schedule
from snakes.server.rooms.views import connected_flags, countdown_view, room_view
from snakes.server.rooms.work import Message, PendingUpdate, Step


def view(step: Step, connected: set[int] | None = None) -> dict[str, Any]:
    """The draft room as every viewer sees it (``connected``: its connected seats, when
    the caller has them already)."""
    room, ctx = step.room, step.ctx
    if connected is None:
        connected = connected_seats(room, ctx.presence)
    return room_view(
        room,
        connected=connected,
        now=ctx.now,
        wall=ctx.wall,
        paused=all_racers_away(room, ctx.presence, connected),
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
    counted: bool = True,
) -> None:
    """Reschedule the room's timers, then send everyone an update with the new view.

    A change sends one update however many steps it takes (a host leaving mid-game both
    leaves and passes the host on): a second publish folds its events into the first.
    The first bumps the room's ``change``, which every intent that changes the room must
    name; ``counted=False`` for a change no such intent can depend on (a device's seed).
    """
    if counted and not step.counted:
        step.room.change += 1
        step.counted = True
    connected = connected_seats(step.room, step.ctx.presence)
    schedule(step, new_turn=new_turn, allowance=allowance, connected=connected)
    step.work.changed = True
    messages = step.work.messages
    earlier = step.updates[0] if step.updates else None
    if earlier is not None and earlier.skip == skip:
        # One update for the change, after everything else it sends, as if sent last.
        del messages[next(i for i, m in enumerate(messages) if m is earlier.slot)]
        step.updates.remove(earlier)
        events, instant = earlier.events + events, earlier.instant or instant
    # Written as text once, when the change is done (Step.finish).
    slot = Message("", skip=skip)
    messages.append(slot)
    step.updates.append(PendingUpdate(events, instant, skip, view(step, connected), slot))


def welcome(step: Step, connection: str) -> None:
    """The whole state, to one connection (after its hello, or after an outage)."""
    step.work.messages.append(Message(messages.welcome(view(step)), to=connection))


def presence(step: Step, *, skip: str = "") -> None:
    """Who is connected, and the countdown, to everyone (``skip``: the connection that
    said hello, which has its welcome): a seat coming or going changes nothing else.

    About 200 bytes instead of the whole view (1.4 KB for two seats, more with more),
    nothing to store, and the hub sends a room at most one of these per window, the latest
    (see :class:`~snakes.server.runtime.hub.Hub`): connections that come and go cost
    the others little.
    """
    room, ctx = step.room, step.ctx
    text = messages.presence(
        connected_flags(room, connected_seats(room, ctx.presence)),
        countdown_view(
            room, now=ctx.now, wall=ctx.wall, paused=all_racers_away(room, ctx.presence)
        ),
    )
    step.work.messages.append(Message(text, skip=skip, presence=True))
