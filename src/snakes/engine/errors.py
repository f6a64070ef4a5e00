"""Typed rule errors: every refusal the engine makes has a name and a stable code."""

from __future__ import annotations


class RuleError(ValueError):
    """An action the rules refuse. The state it was applied to is unchanged."""

    code = "rule_error"


class NotYourTurn(RuleError):
    """A seat acted while it was another seat's turn."""

    code = "not_your_turn"


class GameOver(RuleError):
    """An action arrived after the game had ended."""

    code = "game_over"


class ForbiddenRoll(RuleError):
    """A die value the rules do not allow at this point (0, 7, a third six, ...)."""

    code = "forbidden_roll"


class UnknownSeat(RuleError):
    """An action named a seat the game does not have."""

    code = "unknown_seat"


class SeatNotRacing(RuleError):
    """An action named a seat that has already finished or left."""

    code = "seat_not_racing"


class BoardError(ValueError):
    """A board given as data breaks the board rules; ``problems`` lists every one."""

    code = "invalid_board"

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("invalid board: " + "; ".join(problems))


class RecordError(ValueError):
    """A game record that cannot be read or does not replay."""

    code = "invalid_record"
