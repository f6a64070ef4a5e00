"""The state of one game: a frozen value, replaced (never changed) by each action."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from snakes.engine.board import JUNGLE, Board
from snakes.engine.rules import Finish, Rules

MAX_SEATS = 6
"""The most seats a game can have (six token colours)."""

MIN_SEATS = 1
"""A one-seat solo race is allowed for analysis and simulation; the modes use 2-6."""

MAX_SIXES = 2
"""Two sixes in a row is the limit: the roll after them is drawn from 1-5."""

AWAY_AFTER = 3
"""Missed turns in a row after which a seat is shown as away (until it rolls again)."""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the rules need to know about a game in progress or over."""

    rules: Rules
    board: Board
    positions: tuple[int, ...]
    """Each seat's square; 0 is off the board, 100 is finished."""
    turn: int | None
    """The seat to roll next; None once the game is over."""
    sixes: int = 0
    """Sixes rolled so far in the current turn (0, 1 or 2)."""
    standings: tuple[int, ...] = ()
    """Seats that reached 100, in the order they did."""
    leavers: tuple[int, ...] = ()
    """Seats that left or were removed, in the order they did."""
    missed: tuple[int, ...] = ()
    """Each seat's missed turns in a row (countdowns that ran out)."""
    turns: tuple[int, ...] = ()
    """Each seat's completed turns; a turn is one go, bonus rolls included."""
    over: bool = False
    end_reason: str | None = None
    version: int = 0
    """Bumped by every accepted action; clients send the version they saw."""

    @property
    def players(self) -> int:
        return len(self.positions)

    @property
    def racing(self) -> tuple[int, ...]:
        """Seats still in the race: neither finished nor left, in seat order."""
        return racing_seats(len(self.positions), self.standings, self.leavers)

    @property
    def winner(self) -> int | None:
        """Classic: the first seat on 100, or the last one left. None otherwise."""
        if self.rules.finish is not Finish.CLASSIC:
            return None
        if self.standings:
            return self.standings[0]
        if self.end_reason == "last-player":
            return self.racing[0]
        return None

    @property
    def faces(self) -> int:
        """How many faces the next roll has: 5 after two sixes in one turn, else 6."""
        return 5 if self.rules.six_again and self.sixes >= MAX_SIXES else 6

    @property
    def is_bonus_roll(self) -> bool:
        """The next roll is a bonus roll earned by a six."""
        return self.sixes > 0

    def is_away(self, seat: int) -> bool:
        """Three missed turns in a row: shown as away until the seat rolls again."""
        return self.missed[seat] >= AWAY_AFTER

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready summary (no rules or board; those travel once with the game)."""
        return {
            "positions": list(self.positions),
            "turn": self.turn,
            "sixes": self.sixes,
            "faces": self.faces,
            "bonus": self.is_bonus_roll,
            "standings": list(self.standings),
            "leavers": list(self.leavers),
            "missed": list(self.missed),
            "turns": list(self.turns),
            "over": self.over,
            "end_reason": self.end_reason,
            "version": self.version,
        }


def racing_seats(
    players: int, standings: tuple[int, ...], leavers: tuple[int, ...]
) -> tuple[int, ...]:
    """Seats neither finished nor gone, in seat order (everyone, most of a game).

    >>> racing_seats(4, (2,), (0,))
    (1, 3)
    """
    if not standings and not leavers:
        return _EVERYONE[players]
    return tuple(s for s in range(players) if s not in standings and s not in leavers)


_EVERYONE = [tuple(range(n)) for n in range(MAX_SEATS + 1)]


def state_to_snapshot(state: GameState) -> dict[str, Any]:
    """Everything of a state but its rules and board, to store beside them.

    >>> state = new_game(2)
    >>> state_from_snapshot(state_to_snapshot(state), state.rules, state.board) == state
    True
    """
    return {
        "positions": list(state.positions),
        "turn": state.turn,
        "sixes": state.sixes,
        "standings": list(state.standings),
        "leavers": list(state.leavers),
        "missed": list(state.missed),
        "turns": list(state.turns),
        "over": state.over,
        "end_reason": state.end_reason,
        "version": state.version,
    }


def state_from_snapshot(data: dict[str, Any], rules: Rules, board: Board) -> GameState:
    """The state :func:`state_to_snapshot` stored, with the game's rules and board."""
    return GameState(
        rules=rules,
        board=board,
        positions=tuple(data["positions"]),
        turn=data["turn"],
        sixes=data["sixes"],
        standings=tuple(data["standings"]),
        leavers=tuple(data["leavers"]),
        missed=tuple(data["missed"]),
        turns=tuple(data["turns"]),
        over=data["over"],
        end_reason=data["end_reason"],
        version=data["version"],
    )


def new_game(
    players: int, rules: Rules | None = None, board: Board = JUNGLE, *, first: int = 0
) -> GameState:
    """A game with every token on square 0 and ``first`` to roll.

    >>> state = new_game(3)
    >>> state.positions, state.turn, state.over
    ((0, 0, 0), 0, False)
    """
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise ValueError(f"a game has {MIN_SEATS}-{MAX_SEATS} seats, not {players}")
    if not 0 <= first < players:
        raise ValueError(f"first seat {first} is not one of the {players} seats")
    zeros = (0,) * players
    return GameState(
        rules=rules or Rules(),
        board=board,
        positions=zeros,
        turn=first,
        missed=zeros,
        turns=zeros,
    )
