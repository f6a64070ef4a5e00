"""Reactions at the table: a seated player sends one of a fixed set of emoji to the room.

A reaction is not a game action. It is never logged, never in a record, and never
bumps the room's version or revision: the handler only writes a message, which the
runtime sends without a store write (with Redis, published from the room's owner).
Children play, so there is no free text: a reaction is one of :data:`REACTIONS`.

The limits are kept by the room's owner, in the room value it holds (never stored), so
they hold whichever node a player's connection is on: one reaction a second and ten a
minute per seat holder. The host may turn reactions off for the room (a stored room
setting, like the rules).
"""

from __future__ import annotations

import math
from typing import Literal, get_args

from snakes.server.rooms import messages
from snakes.server.rooms.access import check_host, check_seat
from snakes.server.rooms.errors import (
    BadMessage,
    NotAllowed,
    ReactionsOff,
    Spectator,
    TooManyReactions,
)
from snakes.server.rooms.model import Mode
from snakes.server.rooms.updates import publish
from snakes.server.rooms.work import Caller, Message, Step

Reaction = Literal["clap", "laugh", "wow", "scream", "snake", "ladder", "party", "wave"]
"""👏 😂 😮 😱 🐍 🪜 🎉 👋, by their stable ids (the page draws the emoji)."""
REACTIONS: tuple[str, ...] = get_args(Reaction)

GAP_SECONDS = 1.0
"""At most one reaction a second per seat."""
PER_MINUTE = 10
WINDOW_SECONDS = 60.0


def react(step: Step, caller: Caller, seat: int, reaction: str) -> None:
    """Send a reaction from ``seat`` to everyone in the room (the sender included)."""
    room = step.room
    if room.mode is not Mode.ONLINE:
        raise NotAllowed("reactions are for online rooms")
    check_seat(room, caller, seat)
    if room.game is not None and seat in room.game.leavers:
        raise Spectator("you left this game; you watch it now")
    if not room.reactions:
        raise ReactionsOff("the host turned reactions off for this room")
    if reaction not in REACTIONS:
        raise BadMessage(f"a reaction is one of {', '.join(REACTIONS)}")
    now = step.ctx.now
    recent, wait = admit(room.reacted.get(caller.secret_hash, ()), now)
    if wait is not None:
        raise TooManyReactions(_why(recent, wait), retry_after=wait)
    room.reacted[caller.secret_hash] = recent
    step.work.messages.append(Message(messages.reaction(seat, reaction)))


def admit(times: tuple[float, ...], now: float) -> tuple[tuple[float, ...], float | None]:
    """A sliding window over one seat's recent reactions: (the times kept, None) with
    ``now`` added when it is allowed, or (the times kept, seconds to wait) when not.

    >>> admit((), 5.0)
    ((5.0,), None)
    >>> admit((5.0,), 5.4)
    ((5.0,), 0.6)
    >>> admit(tuple(float(t) for t in range(10)), 30.0)
    ((0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0), 30.0)
    """
    recent = tuple(t for t in times if now - t < WINDOW_SECONDS)
    if recent and now - recent[-1] < GAP_SECONDS:
        return recent, _seconds(GAP_SECONDS - (now - recent[-1]))
    if len(recent) >= PER_MINUTE:
        return recent, _seconds(recent[-PER_MINUTE] + WINDOW_SECONDS - now)
    return (*recent, now), None


def _seconds(wait: float) -> float:
    """Rounded up to a hundredth: a client that waits this long is let through."""
    return max(0.01, math.ceil(round(wait * 100, 6)) / 100)


def _why(recent: tuple[float, ...], wait: float) -> str:
    if len(recent) >= PER_MINUTE:
        return f"at most {PER_MINUTE} reactions a minute; try again in {math.ceil(wait)} s"
    return f"one reaction a second; try again in {wait:g} s"


def set_reactions(step: Step, caller: Caller, on: bool) -> None:
    """The host turns reactions on or off for everyone in the room, at any time."""
    room = step.room
    if room.mode is not Mode.ONLINE:
        raise NotAllowed("reactions are for online rooms")
    check_host(room, caller)
    if room.reactions == on:
        return
    room.reactions = on
    step.touch()
    publish(step, [{"type": "reactions_changed", "on": on}])
