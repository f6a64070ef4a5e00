"""Properties of the handlers over random sequences of intents.

work.py: "A handler ... never changes the room it was given: it works on a Step, whose
``room`` is a draft". Every intent a room can receive is applied here as the typed value
the runtime hands to ``handle``, read back from its kind and arguments as another node
would, with presence changing as connections come and go.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from snakes.engine import Finish, Rules
from snakes.fair import commit
from snakes.server.rooms import turns
from snakes.server.rooms.errors import ProtocolError
from snakes.server.rooms.intents import INTENTS, Intent, handle
from snakes.server.rooms.messages import intent_args, intent_from
from snakes.server.rooms.model import COLOURS, Phase, Room
from snakes.server.rooms.reactions import REACTIONS
from snakes.server.rooms.timers import TIMER_NAMES
from snakes.server.rooms.work import Caller, Presence, Step, run_handler
from tests.rooms.helpers import (
    NOW,
    SPECTATOR,
    assert_unchanged,
    caller,
    context,
    local,
    online_game,
    online_lobby,
    present,
    snapshot,
)

UP, WATCHER = -2, -1
CHANGING = frozenset(
    ["leave", "start", "rules", "add_ai", "remove", "rematch", "finish_ai", "reactions"]
)
"""Intents that name the room's ``change`` their sender saw."""
SEATS = st.sampled_from([UP, UP, UP, WATCHER, 0, 1, 2, 3, 6])
"""Mostly whoever is up, else a spectator, a seat's holder, or no seat at all."""
NAMES = sorted(set(INTENTS) - {"resync"}) + ["roll"] * 8 + ["fire"] * 2
"""Every operation, rolls most often: games get played to their end."""
RULES = st.fixed_dictionaries(
    {
        "finish": st.sampled_from(["classic", "last-one-standing"]),
        "exact_finish": st.booleans(),
        "six_again": st.booleans(),
    }
)


@st.composite
def intents(draw: st.DrawFn) -> tuple[str, int, dict[str, Any]]:
    """(operation, who sends it (UP, WATCHER or a seat's first holder), arguments)."""
    name = draw(st.sampled_from(NAMES))
    seat = draw(SEATS)
    args: dict[str, Any] = {}
    if name in ("roll", "leave", "remove", "react"):
        args["seat"] = seat if name == "roll" and draw(st.booleans()) else draw(SEATS)
    if name in CHANGING:
        args["change"] = draw(st.sampled_from([-1, -1, -1, 0, 1]))  # -1: the current one
    if name == "roll":
        args["version"] = draw(st.sampled_from([-1, -1, -1, 0, 1]))  # -1: the current one
    elif name == "start":
        args["shuffle"] = draw(st.booleans())
    elif name == "rules":
        args["rules"] = draw(RULES)
        args["countdown_seconds"] = draw(st.sampled_from([None, 5, 10, 45, 61]))
        args["board"] = draw(st.sampled_from([None, "short", "jungle"]))
    elif name == "seed":
        args["seed"] = draw(st.sampled_from(["a1" * 16, "b2" * 16]))
        args["commitment"] = draw(st.sampled_from(["", "", "0" * 64]))  # "": the current one
    elif name in ("add_ai", "join"):
        args["name"] = draw(st.sampled_from(["Robo", "Zoë", "P"]))
        args["colour"] = draw(st.sampled_from(COLOURS))
        if name == "join":
            args["secret_hash"] = caller(max(seat, 0)).secret_hash
    elif name in ("connect", "drop"):
        args["key"] = f"local/{seat}"
    elif name == "fire":
        args["name"] = draw(st.sampled_from(TIMER_NAMES))
    elif name == "react":
        args["reaction"] = draw(st.sampled_from([*REACTIONS, "shrug"]))
    elif name == "reactions":
        args["on"] = draw(st.booleans())
    return name, seat, args


ROOMS = st.sampled_from(["lobby", "online", "pass", "ai_lobby", "pass_endgame", "online_endgame"])


def _start(kind: str) -> Room:
    if kind == "lobby":
        return online_lobby(3)
    if kind == "ai_lobby":
        return online_lobby(2, ai=1)
    if kind == "online":
        return online_game(3)
    if kind == "online_endgame":
        return _near_the_end(online_game(2, rules=Rules(exact_finish=False)))
    if kind == "pass_endgame":
        return _near_the_end(local(rules=Rules(Finish.LAST_ONE_STANDING, exact_finish=False)))
    return local()


def _roll(holder: Caller, seat: int, version: int) -> Callable[[Step], None]:
    return lambda step: turns.roll(step, holder, seat, version)


def _near_the_end(room: Room) -> Room:
    """Roll 5s until someone is past 80: a few more rolls end the game."""
    while room.game is not None and max(room.game.positions) < 80:
        turn = room.game.turn or 0
        holder = caller(0) if room.is_local else caller(turn)
        version = room.version
        step, _ = run_handler(
            room,
            context(present(*range(len(room.seats))), rolls=LoopedDice([5])),
            _roll(holder, turn, version),
        )
        room = step.room
    return room


class LoopedDice:
    """The drawn values over and over, as the die allows: the same script, the same game."""

    def __init__(self, values: list[int]) -> None:
        self.values = values
        self.index = 0

    def next_roll(self, room: Room, faces: int) -> int:
        value = self.values[self.index % len(self.values)]
        self.index += 1
        return min(value, faces)


def _up(room: Room) -> int:
    game = room.game
    playing = room.phase is Phase.PLAYING and game is not None and game.turn is not None
    return game.turn if playing and game is not None and game.turn is not None else 0


def _intent(intent: Intent, who: Caller, before: Presence) -> Callable[[Step], Any]:
    return lambda step: handle(step, intent, who, before)


def _presence(members: dict[str, str]) -> Presence:
    return Presence(frozenset(d for d in members.values() if d), len(members))


Walked = tuple[str, Caller, Step | None]
"""(operation, its caller, its step; None when it was refused)."""


def _walk(
    kind: str, script: list[tuple[str, int, dict[str, Any]]], values: list[int]
) -> list[Walked]:
    """Apply the script to a room as the runtime would; each handler is checked not to
    change the room it was given."""
    room = _start(kind)
    members: dict[str, str] = {}
    rolls = LoopedDice(values)
    now = NOW
    walked: list[Walked] = []
    for name, seat, drawn in script:
        args = dict(drawn)
        now += 1.5
        up = _up(room)
        if seat == UP:
            who = Caller("up", room.seats[up].secret_hash) if up < len(room.seats) else SPECTATOR
        else:
            who = SPECTATOR if seat == WATCHER else caller(seat)
        if args.get("seat") == UP:
            args["seat"] = up
        if name == "roll" and args["version"] < 0:
            args["version"] = room.version
        if args.get("change", 0) < 0:
            args["change"] = room.change
        if name == "seed" and not args["commitment"] and room.server_seed:
            args["commitment"] = commit(bytes.fromhex(room.server_seed))
        if name == "fire":
            args["due"] = room.timers.get(args["name"], now)
            now = max(now, args["due"])
        try:
            intent = intent_from(name, args)
        except ProtocolError:
            continue  # refused at the door (a reaction of no list, no commitment): no room sees it
        assert intent_from(name, intent_args(intent)) == intent  # as forwarded to an owner
        before_presence = _presence(members)
        if name == "connect":
            members[args["key"]] = who.secret_hash
        elif name == "drop":
            members.pop(args["key"], None)
        ctx = context(_presence(members), now=now, rolls=rolls)
        before = snapshot(room)
        try:
            step, _ = run_handler(room, ctx, _intent(intent, who, before_presence))
        except ProtocolError:
            assert_unchanged(room, before)
            walked.append((name, who, None))
            continue
        assert_unchanged(room, before)
        walked.append((name, who, step))
        if step.work.delete:
            break
        room = step.room
    return walked


SCRIPTS = {
    "kind": ROOMS,
    "script": st.lists(intents(), min_size=10, max_size=60),
    "values": st.lists(st.integers(1, 6), min_size=1, max_size=40),
}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**SCRIPTS)
def test_a_handler_never_changes_the_room_it_was_given(
    kind: str, script: list[tuple[str, int, dict[str, Any]]], values: list[int]
) -> None:
    assert _walk(kind, script, values)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**SCRIPTS)
def test_no_intent_sends_more_than_one_message_to_the_others(
    kind: str, script: list[tuple[str, int, dict[str, Any]]], values: list[int]
) -> None:
    """No amplification: whatever one connection sends, each other connection of the
    room gets at most one message from it (an update, or a small presence message for a
    hello or a drop), and only its sender gets a welcome. "Skip to results" sends all its
    moves in that one update."""
    for name, who, step in _walk(kind, script, values):
        if step is None:
            continue
        to_others = [m for m in step.work.messages if not m.to and m.skip != who.connection]
        to_sender = [m for m in step.work.messages if m.to]
        assert len(to_others) <= 1, (name, to_others)
        assert all(m.to == who.connection for m in to_sender) and len(to_sender) <= 1
        if any(m.presence for m in step.work.messages):
            assert name in ("connect", "drop"), name  # only presence changes send it
            assert all(len(m.body) < 400 for m in to_others)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**SCRIPTS)
def test_an_intent_is_applied_only_at_the_change_it_names_and_each_change_once(
    kind: str, script: list[tuple[str, int, dict[str, Any]]], values: list[int]
) -> None:
    """Every applied intent that names a ``change`` named the room's, and moved it on:
    a stale or repeated one is never applied. Every update moves it on by one."""
    named: list[int] = []
    for name, _, step in _walk(kind, script, values):
        if step is None:
            continue
        updates = [m for m in step.work.messages if m.body.startswith('{"type":"update"')]
        if name in CHANGING and updates:
            named.append(step.room.change - 1)
        if updates and name != "seed":
            assert all(f'"change":{step.room.change},' in m.body for m in updates)
    assert len(named) == len(set(named))


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
