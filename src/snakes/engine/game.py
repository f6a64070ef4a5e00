"""The one transition: ``apply(state, action) -> (new state, events)``.

>>> from snakes.engine import new_game, Roll
>>> state, events = apply(new_game(2), Roll(seat=0, value=1))
>>> [e.kind for e in events]
['rolled', 'moved', 'climbed', 'turn_passed']
>>> state.positions
(38, 0)
"""

from __future__ import annotations

from dataclasses import replace

from snakes.engine.actions import Abandon, Action, Leave, Remove, Roll, Skip, roll_of
from snakes.engine.board import FINISH
from snakes.engine.dice import DiceSource
from snakes.engine.errors import ForbiddenRoll, GameOver, NotYourTurn, SeatNotRacing, UnknownSeat
from snakes.engine.events import (
    BonusRoll,
    Climbed,
    Event,
    Finished,
    GameEnded,
    Left,
    Moved,
    Overshot,
    Rolled,
    Skipped,
    Slid,
    TurnPassed,
)
from snakes.engine.rules import Finish
from snakes.engine.state import GameState


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action. A refused action raises a :class:`RuleError` and changes nothing."""
    if state.over:
        raise GameOver(f"the game is over; {action.kind} refused")
    if isinstance(action, Roll):
        new, events = _roll(state, action)
    elif isinstance(action, Skip):
        new, events = _skip(state, action.seat)
    elif isinstance(action, Leave | Remove):
        new, events = _leave(state, action.seat, removed=isinstance(action, Remove))
    elif isinstance(action, Abandon):
        new, events = _end(state, "abandoned")
    else:  # pragma: no cover - the Action union is closed
        raise TypeError(f"not an action: {action!r}")
    return replace(new, version=state.version + 1), events


def roll(state: GameState, dice: DiceSource) -> tuple[GameState, list[Event]]:
    """Roll for the seat whose turn it is, with a die drawn from ``dice``."""
    if state.over or state.turn is None:
        raise GameOver("the game is over; no more rolls")
    return apply(state, roll_of(state.turn, dice.roll(state.faces)))


def check_roll(state: GameState, value: object) -> None:
    """Raise :class:`ForbiddenRoll` unless ``value`` is a face the die may show now."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ForbiddenRoll(f"roll {value!r} is not a whole number")
    if not 1 <= value <= 6:
        raise ForbiddenRoll(f"roll {value} is not a face of the die (1-6)")
    if value > state.faces:
        raise ForbiddenRoll(
            f"roll {value} is forbidden: after two sixes in a turn the die shows 1-5"
        )


def _check_seat(state: GameState, seat: object) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise UnknownSeat(f"seat {seat!r} is not in this game (0-{state.players - 1})")


def _check_turn(state: GameState, seat: int) -> None:
    _check_seat(state, seat)
    if seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {seat}'s")


def _roll(state: GameState, action: Roll) -> tuple[GameState, list[Event]]:
    _check_turn(state, action.seat)
    check_roll(state, action.value)
    seat, value = action.seat, action.value
    start = state.positions[seat]
    events: list[Event] = [Rolled(seat, value, state.is_bonus_roll)]
    missed = _set(state.missed, seat, 0)
    target = start + value
    if target > FINISH and state.rules.exact_finish:
        events.append(Overshot(seat, start, value, FINISH - start))
        return _pass_turn(replace(state, missed=missed), events)
    walked = min(target, FINISH)
    events.append(Moved(seat, start, walked))
    landed = state.board.destination(walked)
    if landed > walked:
        events.append(Climbed(seat, walked, landed))
    elif landed < walked:
        events.append(Slid(seat, walked, landed))
    state = replace(state, positions=_set(state.positions, seat, landed), missed=missed)
    if landed == FINISH:
        return _finish(state, seat, events)
    if value == 6 and state.rules.six_again:
        events.append(BonusRoll(seat))
        return replace(state, sixes=state.sixes + 1), events
    return _pass_turn(state, events)


def _finish(state: GameState, seat: int, events: list[Event]) -> tuple[GameState, list[Event]]:
    standings = (*state.standings, seat)
    events.append(Finished(seat, len(standings)))
    state = replace(state, standings=standings, turns=_add(state.turns, seat))
    if state.rules.finish is Finish.CLASSIC or not state.racing:
        new, end_events = _end(state, "finished")
        return new, events + end_events
    # A bonus roll still owed is void: the next racer rolls.
    return _next_turn(state, events, previous=seat)


def _skip(state: GameState, seat: int) -> tuple[GameState, list[Event]]:
    _check_turn(state, seat)
    bonus_lost = state.is_bonus_roll
    # A bonus roll that times out is lost, but that turn does not count as missed.
    missed = state.missed if bonus_lost else _add(state.missed, seat)
    events: list[Event] = [Skipped(seat, bonus_lost, missed[seat])]
    return _pass_turn(replace(state, missed=missed), events)


def _leave(state: GameState, seat: int, *, removed: bool) -> tuple[GameState, list[Event]]:
    _check_seat(state, seat)
    if seat not in state.racing:
        raise SeatNotRacing(f"seat {seat} has already finished or left")
    state = replace(state, leavers=(*state.leavers, seat))
    events: list[Event] = [Left(seat, removed)]
    racing = state.racing
    if not racing:
        new, end = _end(state, "everyone-left" if not state.standings else "finished")
        return new, events + end
    if state.rules.finish is Finish.CLASSIC and len(racing) == 1 and state.players > 1:
        # Classic goes on without the leaver; the last player left wins at once.
        new, end = _end(state, "last-player")
        return new, events + end
    if state.turn == seat:
        return _next_turn(state, events, previous=None)
    return state, events


def _pass_turn(state: GameState, events: list[Event]) -> tuple[GameState, list[Event]]:
    assert state.turn is not None
    seat = state.turn
    return _next_turn(replace(state, turns=_add(state.turns, seat)), events, previous=seat)


def _next_turn(
    state: GameState, events: list[Event], *, previous: int | None
) -> tuple[GameState, list[Event]]:
    """Give the turn to the next racing seat after the current one, in seat order."""
    assert state.turn is not None
    racing = set(state.racing)
    following = ((state.turn + step) % state.players for step in range(1, state.players + 1))
    seat = next(s for s in following if s in racing)
    events.append(TurnPassed(previous, seat))
    return replace(state, turn=seat, sixes=0), events


def _end(state: GameState, reason: str) -> tuple[GameState, list[Event]]:
    state = replace(state, over=True, turn=None, sixes=0, end_reason=reason)
    return state, [GameEnded(state.standings, state.winner, reason)]


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _add(values: tuple[int, ...], index: int) -> tuple[int, ...]:
    return _set(values, index, values[index] + 1)
