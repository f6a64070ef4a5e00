"""The result screen's order: finishers first, then everyone else, each with a status."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from snakes.engine.rules import Finish
from snakes.engine.state import GameState


class Status(StrEnum):
    FINISHED = "finished"
    """Reached 100."""
    WINNER = "winner"
    """Classic: won without reaching 100, because everyone else left."""
    NOT_FINISHED = "not-finished"
    """Classic: still racing when someone won."""
    DID_NOT_FINISH = "did-not-finish"
    """Still racing when the game was abandoned."""
    LEFT = "left"
    """Left the game or was removed by the host."""
    RACING = "racing"
    """The game is not over yet."""


@dataclass(frozen=True, slots=True)
class Placing:
    place: int
    seat: int
    square: int
    status: Status


def placings(state: GameState) -> list[Placing]:
    """Every seat in result order.

    Finishers in the order they reached 100; then the others by square reached
    (Classic "not finished", or "did not finish" for an abandoned game); leavers last,
    a later leaver above an earlier one.

    >>> from snakes.engine import new_game, apply, Roll
    >>> state = new_game(2)
    >>> [p.status.value for p in placings(state)]
    ['racing', 'racing']
    """
    square = state.positions
    order: list[tuple[int, Status]] = [(s, Status.FINISHED) for s in state.standings]
    others = sorted(state.racing, key=lambda s: (-square[s], s))
    if not state.over:
        rest = Status.RACING
    elif state.end_reason == "abandoned":
        rest = Status.DID_NOT_FINISH
    elif state.end_reason == "last-player":
        rest = Status.WINNER
    elif state.rules.finish is Finish.CLASSIC:
        rest = Status.NOT_FINISHED
    else:
        rest = Status.DID_NOT_FINISH
    order += [(s, rest) for s in others]
    order += [(s, Status.LEFT) for s in reversed(state.leavers)]
    return [Placing(i + 1, s, square[s], status) for i, (s, status) in enumerate(order)]
