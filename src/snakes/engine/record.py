"""Game records: engine version, rules, board, seats and every action; they replay exactly."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from snakes.engine.actions import Action, action_from_data, action_to_data
from snakes.engine.board import JUNGLE, Board
from snakes.engine.errors import BoardError, RecordError, RuleError
from snakes.engine.game import apply
from snakes.engine.rules import Rules
from snakes.engine.state import MAX_SEATS, MIN_SEATS, GameState, new_game
from snakes.engine.version import ENGINE_VERSION


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat, as the record keeps it."""

    name: str
    colour: str = ""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A complete, replayable account of one game.

    >>> from snakes.engine import Roll
    >>> record = GameRecord(seats=(SeatInfo("Ana"), SeatInfo("Ben")), actions=(Roll(0, 1),))
    >>> replay(record).positions
    (38, 0)
    >>> GameRecord.from_json(record.to_json()) == record
    True
    """

    seats: tuple[SeatInfo, ...]
    actions: tuple[Action, ...] = ()
    rules: Rules = field(default_factory=Rules)
    board: Board = JUNGLE
    first: int = 0
    engine_version: str = ENGINE_VERSION

    def with_actions(self, actions: Iterable[Action]) -> GameRecord:
        return GameRecord(
            seats=self.seats,
            actions=(*self.actions, *actions),
            rules=self.rules,
            board=self.board,
            first=self.first,
            engine_version=self.engine_version,
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "engine_version": self.engine_version,
            "rules": self.rules.to_data(),
            "board": self.board.to_data(),
            "seats": [{"name": s.name, "colour": s.colour} for s in self.seats],
            "first": self.first,
            "actions": [action_to_data(a) for a in self.actions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_data(), ensure_ascii=False)

    @classmethod
    def from_data(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a game record is a JSON object")
        try:
            seats = tuple(_seat_from_data(s) for s in data["seats"])
            first = data.get("first", 0)
            if not MIN_SEATS <= len(seats) <= MAX_SEATS:
                raise RecordError(f"a game has {MIN_SEATS}-{MAX_SEATS} seats, not {len(seats)}")
            if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(seats):
                raise RecordError(f"first seat {first!r} is not one of the {len(seats)} seats")
            actions = data.get("actions", [])
            if not isinstance(actions, list):
                raise RecordError("actions are a list")
            return cls(
                seats=seats,
                actions=tuple(action_from_data(a) for a in actions),
                rules=Rules.from_data(data.get("rules", {})),
                board=Board.from_data(data["board"]) if "board" in data else JUNGLE,
                first=first,
                engine_version=str(data.get("engine_version", ENGINE_VERSION)),
            )
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, BoardError) as error:
            raise RecordError(f"unreadable game record: {error}") from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"a game record is JSON: {error}") from None
        return cls.from_data(data)


def _seat_from_data(data: Any) -> SeatInfo:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise RecordError(f"a seat is an object with a name: {data!r}")
    colour = data.get("colour", "")
    if not isinstance(colour, str):
        raise RecordError(f"a seat's colour is a string: {colour!r}")
    return SeatInfo(data["name"], colour)


def start_state(record: GameRecord) -> GameState:
    """The state before the record's first action."""
    return new_game(len(record.seats), record.rules, record.board, first=record.first)


def replay(record: GameRecord) -> GameState:
    """Apply every action of the record from the start; the state it reaches."""
    try:
        state = start_state(record)
    except ValueError as error:
        raise RecordError(f"the record's table is impossible: {error}") from None
    for index, action in enumerate(record.actions):
        try:
            state, _ = apply(state, action)
        except RuleError as error:
            raise RecordError(
                f"action {index + 1} ({action.kind}) does not replay: {error}"
            ) from None
    return state
