"""Properties of the handlers over random sequences of intents.

work.py: "A handler ... never changes the room it was given: it works on a Step, whose
``room`` is a draft". Every intent a room can receive is applied here by its operation
name, as the runtime does, with presence changing as connections come and go.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.model import COLOURS, Room
from snakes.server.rooms.timers import TIMER_NAMES
from snakes.server.rooms.work import Caller, Presence, Step, run_handler
from snakes.server.runtime.intents import OPERATIONS, Operation
from tests.rooms.helpers import (
    NOW,
    SPECTATOR,
    assert_unchanged,
    caller,
    context,
    dice,
    local,
    online_game,
    online_lobby,
    snapshot,
)

SEATS = st.integers(min_value=-1, max_value=6)
RULES = st.fixed_dictionaries(
    {
        "finish": st.sampled_from(["classic", "last-one-standing"]),
        "exact_finish": st.booleans(),
        "six_again": st.booleans(),
    }
)


@st.composite
def intents(draw: st.DrawFn) -> tuple[str, int, dict[str, Any]]:
    """(operation, who sends it: a seat's holder or -1 for a spectator, arguments)."""
    name = draw(st.sampled_from(sorted(set(OPERATIONS) - {"resync"})))
    seat = draw(SEATS)
    args: dict[str, Any] = {}
    if name in ("roll", "leave", "remove"):
        args["seat"] = draw(SEATS)
    if name == "roll":
        args["version"] = draw(st.sampled_from([-1, 0, 1, 2]))  # -1: the current one
    elif name == "start":
        args["shuffle"] = draw(st.booleans())
    elif name == "rules":
        args["rules"] = draw(RULES)
        args["countdown"] = draw(st.sampled_from([None, 5, 10, 45, 61]))
        args["board"] = draw(st.sampled_from([None, "short", "jungle"]))
    elif name == "seed":
        args["seed"] = draw(st.sampled_from(["a1" * 16, "b2" * 16]))
    elif name in ("add_ai", "join"):
        args["name"] = draw(st.sampled_from(["Robo", "Zoë", "P"]))
        args["colour"] = draw(st.sampled_from(COLOURS))
        args["secret_hash"] = caller(max(seat, 0)).secret_hash
    elif name in ("connect", "drop"):
        args["key"] = f"local/{seat}"
    elif name == "fire":
        args["name"] = draw(st.sampled_from(TIMER_NAMES))
    return name, seat, args


ROOMS = st.sampled_from(["lobby", "online", "pass", "ai_lobby"])


def _start(kind: str) -> Room:
    if kind == "lobby":
        return online_lobby(3)
    if kind == "ai_lobby":
        return online_lobby(2, ai=1)
    if kind == "online":
        return online_game(3)
    return local()


def _intent(
    operation: Operation, who: Caller, before: Presence, args: dict[str, Any]
) -> Callable[[Step], Any]:
    return lambda step: operation.handler(step, who, before, args)


def _presence(members: dict[str, str]) -> Presence:
    return Presence(frozenset(d for d in members.values() if d), len(members))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=ROOMS,
    script=st.lists(intents(), min_size=1, max_size=25),
    values=st.lists(st.integers(1, 6), max_size=40),
)
def test_a_handler_never_changes_the_room_it_was_given(
    kind: str, script: list[tuple[str, int, dict[str, Any]]], values: list[int]
) -> None:
    room = _start(kind)
    members: dict[str, str] = {}
    rolls = dice(*values)
    now = NOW
    for name, seat, drawn in script:
        args = dict(drawn)
        now += 1.5
        who = SPECTATOR if seat < 0 else caller(seat)
        if name == "roll" and args["version"] < 0:
            args["version"] = room.version
        if name == "fire":
            args["due"] = room.timers.get(args["name"], now)
            now = max(now, args["due"])
        operation = OPERATIONS[name]
        before_presence = _presence(members)
        if name == "connect":
            members[args["key"]] = who.secret_hash
        elif name == "drop":
            members.pop(args["key"], None)
        ctx = context(_presence(members), now=now, rolls=rolls)
        before = snapshot(room)
        try:
            step, _ = run_handler(room, ctx, _intent(operation, who, before_presence, args))
        except ProtocolError:
            assert_unchanged(room, before)
            continue
        assert_unchanged(room, before)
        if step.work.delete:
            return
        room = step.room


def test_the_property_sees_a_handler_that_changes_its_input() -> None:
    """The check above is not vacuous: a handler that writes to the room it was given
    (rather than the draft) is caught."""
    room = online_game(2)
    before = snapshot(room)

    def careless(_: object) -> None:
        room.timers["turn"] = 0.0

    run_handler(room, context(), careless)
    with pytest.raises(AssertionError, match="changed the room"):
        assert_unchanged(room, before)
