"""The one transition: ``apply(state, action) -> (new state, events)``.

>>> from snakes.engine import new_game, Roll
>>> state, events = apply(new_game(2), Roll(seat=0, value=1))
>>> [e.kind for e in events]
['rolled', 'moved', 'climbed', 'turn_passed']
>>> state.positions
(38, 0)
"""

from __future__ import annotations

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
from snakes.engine.state import MAX_SIXES, GameState, racing_seats


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action. A refused action raises a :class:`RuleError` and changes nothing."""
    if state.over:
        raise GameOver(f"the game is over; {action.kind} refused")
    nxt = _Next(state)
    if isinstance(action, Roll):
        events = _roll(nxt, action)
    elif isinstance(action, Skip):
        events = _skip(nxt, action.seat)
    elif isinstance(action, Leave | Remove):
        events = _leave(nxt, action.seat, removed=isinstance(action, Remove))
    elif isinstance(action, Abandon):
        events = _end(nxt, "abandoned")
    else:  # pragma: no cover - the Action union is closed
        raise TypeError(f"not an action: {action!r}")
    nxt.version = state.version + 1
    return nxt.state(), events


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


class _Next:
    """The state one action is working out: plain fields, made a :class:`GameState` once.

    An action changes several fields one after another (the token moves, the misses
    reset, the turn passes); building the frozen state once at the end instead of after
    each change keeps a roll cheap, which every room of a server does many times a second.
    """

    __slots__ = (
        "board",
        "end_reason",
        "leavers",
        "missed",
        "over",
        "positions",
        "rules",
        "sixes",
        "standings",
        "turn",
        "turns",
        "version",
    )

    def __init__(self, state: GameState) -> None:
        self.rules = state.rules
        self.board = state.board
        self.positions = state.positions
        self.turn = state.turn
        self.sixes = state.sixes
        self.standings = state.standings
        self.leavers = state.leavers
        self.missed = state.missed
        self.turns = state.turns
        self.over = state.over
        self.end_reason = state.end_reason
        self.version = state.version

    @property
    def players(self) -> int:
        return len(self.positions)

    @property
    def racing(self) -> tuple[int, ...]:
        return racing_seats(self.players, self.standings, self.leavers)

    def state(self) -> GameState:
        return GameState(
            self.rules,
            self.board,
            self.positions,
            self.turn,
            self.sixes,
            self.standings,
            self.leavers,
            self.missed,
            self.turns,
            self.over,
            self.end_reason,
            self.version,
        )


def _check_seat(state: GameState | _Next, seat: object) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise UnknownSeat(f"seat {seat!r} is not in this game (0-{state.players - 1})")


def _check_turn(state: GameState | _Next, seat: int) -> None:
    _check_seat(state, seat)
    if seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {seat}'s")


def _roll(nxt: _Next, action: Roll) -> list[Event]:
    _check_turn(nxt, action.seat)
    seat, value = action.seat, action.value
    faces = 5 if nxt.rules.six_again and nxt.sixes >= MAX_SIXES else 6
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= faces:
        check_roll(nxt.state(), value)  # says which rule the value breaks
    start = nxt.positions[seat]
    events: list[Event] = [Rolled(seat, value, nxt.sixes > 0)]
    nxt.missed = _set(nxt.missed, seat, 0)
    target = start + value
    if target > FINISH and nxt.rules.exact_finish:
        events.append(Overshot(seat, start, value, FINISH - start))
        _pass_turn(nxt, events)
        return events
    walked = min(target, FINISH)
    events.append(Moved(seat, start, walked))
    landed = nxt.board.destination(walked)
    if landed > walked:
        events.append(Climbed(seat, walked, landed))
    elif landed < walked:
        events.append(Slid(seat, walked, landed))
    nxt.positions = _set(nxt.positions, seat, landed)
    if landed == FINISH:
        _finish(nxt, seat, events)
    elif value == 6 and nxt.rules.six_again:
        events.append(BonusRoll(seat))
        nxt.sixes += 1
    else:
        _pass_turn(nxt, events)
    return events


def _finish(nxt: _Next, seat: int, events: list[Event]) -> None:
    nxt.standings = (*nxt.standings, seat)
    events.append(Finished(seat, len(nxt.standings)))
    nxt.turns = _add(nxt.turns, seat)
    if nxt.rules.finish is Finish.CLASSIC or not nxt.racing:
        events += _end(nxt, "finished")
    else:
        # A bonus roll still owed is void: the next racer rolls.
        _next_turn(nxt, events, previous=seat)


def _skip(nxt: _Next, seat: int) -> list[Event]:
    _check_turn(nxt, seat)
    bonus_lost = nxt.sixes > 0
    # A bonus roll that times out is lost, but that turn does not count as missed.
    if not bonus_lost:
        nxt.missed = _add(nxt.missed, seat)
    events: list[Event] = [Skipped(seat, bonus_lost, nxt.missed[seat])]
    _pass_turn(nxt, events)
    return events


def _leave(nxt: _Next, seat: int, *, removed: bool) -> list[Event]:
    _check_seat(nxt, seat)
    if seat not in nxt.racing:
        raise SeatNotRacing(f"seat {seat} has already finished or left")
    nxt.leavers = (*nxt.leavers, seat)
    events: list[Event] = [Left(seat, removed)]
    racing = nxt.racing
    if not racing:
        return events + _end(nxt, "everyone-left" if not nxt.standings else "finished")
    if nxt.rules.finish is Finish.CLASSIC and len(racing) == 1 and nxt.players > 1:
        # Classic goes on without the leaver; the last player left wins at once.
        return events + _end(nxt, "last-player")
    if nxt.turn == seat:
        _next_turn(nxt, events, previous=None)
    return events


def _pass_turn(nxt: _Next, events: list[Event]) -> None:
    assert nxt.turn is not None
    seat = nxt.turn
    nxt.turns = _add(nxt.turns, seat)
    _next_turn(nxt, events, previous=seat)


def _next_turn(nxt: _Next, events: list[Event], *, previous: int | None) -> None:
    """Give the turn to the next racing seat after the current one, in seat order."""
    assert nxt.turn is not None
    racing = nxt.racing
    players = nxt.players
    seat = next(
        s for s in ((nxt.turn + step) % players for step in range(1, players + 1)) if s in racing
    )
    events.append(TurnPassed(previous, seat))
    nxt.turn = seat
    nxt.sixes = 0


def _end(nxt: _Next, reason: str) -> list[Event]:
    nxt.over, nxt.turn, nxt.sixes, nxt.end_reason = True, None, 0, reason
    state = nxt.state()
    return [GameEnded(state.standings, state.winner, reason)]


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _add(values: tuple[int, ...], index: int) -> tuple[int, ...]:
    return _set(values, index, values[index] + 1)
