"""Turns: rolling, skipping a stalled player, AI seats, and 'Skip to results'.

Every game action goes through :func:`act` (or :func:`apply_action` for several at once),
which applies it through the engine, notes it in the work, and ends the game's record
in the same change as its last action.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from snakes.engine import Action, Climbed, Moved, Roll, RuleError, Skip, Slid, roll_of
from snakes.server.rooms.access import check_seat, playing
from snakes.server.rooms.errors import NotAllowed, NotYourTurn, StaleVersion, refusal
from snakes.server.rooms.model import Kind, Phase
from snakes.server.rooms.updates import publish
from snakes.server.rooms.views import event_data
from snakes.server.rooms.work import Caller, Step

log = logging.getLogger("snakes.rooms")

MAX_FAST_FORWARD = 50_000
"""'Skip to results' plays at most this many rolls (a game never needs close to it)."""


def roll(step: Step, caller: Caller, seat: int, version: int) -> None:
    """The seat's holder rolls; the server draws the die. A stale version is refused."""
    room = step.room
    check_seat(room, caller, seat)
    game = playing(room)
    if version != room.version:
        raise StaleVersion(f"that roll was made at version {version}; it is {room.version}")
    if game.turn != seat:
        raise NotYourTurn(f"it is {room.seats[game.turn or 0].name}'s turn")
    act(step, roll_of(seat, step.ctx.dice.next_roll(room, game.faces)))


def finish_ai(step: Step) -> None:
    """'Skip to results': the remaining AI turns are really played, all at once."""
    room = step.room
    game = playing(room)
    if not all(room.seats[s].kind is Kind.AI for s in game.racing):
        raise NotAllowed("people are still racing")
    events: list[dict[str, Any]] = []
    for _ in range(MAX_FAST_FORWARD):
        game = playing(room)
        value = step.ctx.dice.next_roll(room, game.faces)
        events += apply_action(step, roll_of(game.turn or 0, value))
        if room.phase is Phase.OVER:
            break
    publish(step, events, new_turn=True, instant=True)


def skip_stalled(step: Step) -> None:
    """The countdown ran out: the turn passes, and no roll is made for the player."""
    room = step.room
    clock, room.turn_clock = room.turn_clock, None
    game = room.game
    if clock is not None and game is not None and not game.over and game.turn == clock.seat:
        act(step, Skip(clock.seat))


def roll_for_ai(step: Step) -> None:
    game = step.room.game
    if game is not None and game.turn is not None and not game.over:
        act(step, roll_of(game.turn, step.ctx.dice.next_roll(step.room, game.faces)))


def act(step: Step, action: Action) -> None:
    """One game action, and an update that tells everyone what happened."""
    events = apply_action(step, action)
    allowance = move_allowance(step, events)
    publish(step, events, new_turn=True, allowance=allowance)


def apply_action(step: Step, action: Action) -> list[dict[str, Any]]:
    room = step.room
    try:
        events = room.play(action)
    except RuleError as error:
        raise refusal(error.code, str(error)) from None
    step.touch()
    step.work.actions.append(action)
    if isinstance(action, Roll):
        step.rolls += 1
    if room.phase is Phase.OVER:
        step.work.record = (room.game_number, room.record_json())
        if room.fair:
            # The seed is revealed in the record; the next game gets a new one, and the
            # players' devices send fresh seeds after seeing its commitment.
            room.server_seed = step.ctx.chance.server_seed().hex()
            room.client_seeds = {}
        log.info("room %s game %d over", room.code, room.game_number)
    return [event_data(e) for e in events]


def move_allowance(step: Step, events: Iterable[dict[str, Any]]) -> float:
    """The time the browsers are given to show these events before the next countdown."""
    squares = jumps = 0
    for event in events:
        if event["type"] == Moved.kind:
            squares += event["end"] - event["start"]
        elif event["type"] in (Climbed.kind, Slid.kind):
            jumps += 1
    return step.ctx.settings.move_allowance(squares, jumps)
