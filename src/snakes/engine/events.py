"""Events: what happened, in the order it happened, with everything a viewer needs."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class _Event:
    kind: ClassVar[str] = "event"

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready form: ``{"type": kind, ...fields}``."""
        return {"type": self.kind, **asdict(self)}


@dataclass(frozen=True, slots=True)
class Rolled(_Event):
    """``seat`` rolled ``value``; ``bonus`` says it was a bonus roll after a six."""

    kind: ClassVar[str] = "rolled"
    seat: int
    value: int
    bonus: bool


@dataclass(frozen=True, slots=True)
class Moved(_Event):
    """The token walked square by square from ``start`` to ``end``."""

    kind: ClassVar[str] = "moved"
    seat: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Climbed(_Event):
    """The token landed on a ladder's bottom and climbed to its top."""

    kind: ClassVar[str] = "climbed"
    seat: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Slid(_Event):
    """The token landed on a snake's head and slid down to its tail."""

    kind: ClassVar[str] = "slid"
    seat: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Overshot(_Event):
    """The roll would pass 100: the token stayed on ``square`` (it needed ``needed``)."""

    kind: ClassVar[str] = "overshot"
    seat: int
    square: int
    value: int
    needed: int


@dataclass(frozen=True, slots=True)
class BonusRoll(_Event):
    """A six: ``seat`` rolls again."""

    kind: ClassVar[str] = "bonus_roll"
    seat: int


@dataclass(frozen=True, slots=True)
class Finished(_Event):
    """``seat`` reached 100 and took ``place`` (1 is first)."""

    kind: ClassVar[str] = "finished"
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class Skipped(_Event):
    """The countdown ran out: ``seat``'s roll was skipped, never made for them.

    ``bonus_lost`` says it was a bonus roll (that turn does not count as missed);
    ``missed`` is the seat's count of missed turns in a row afterwards.
    """

    kind: ClassVar[str] = "skipped"
    seat: int
    bonus_lost: bool
    missed: int


@dataclass(frozen=True, slots=True)
class Left(_Event):
    """``seat`` left the race; ``removed`` says the host removed them."""

    kind: ClassVar[str] = "left"
    seat: int
    removed: bool


@dataclass(frozen=True, slots=True)
class TurnPassed(_Event):
    """The turn went from ``previous`` (None if that seat left) to ``seat``."""

    kind: ClassVar[str] = "turn_passed"
    previous: int | None
    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(_Event):
    """The game is over. ``standings`` are the seats that reached 100, in order.

    ``reason``: ``finished`` (Classic winner or everyone finished), ``last-player``
    (Classic: everyone else left), ``abandoned`` (everyone racing stayed away),
    ``everyone-left``.
    """

    kind: ClassVar[str] = "game_ended"
    standings: tuple[int, ...]
    winner: int | None
    reason: str


Event = (
    Rolled
    | Moved
    | Climbed
    | Slid
    | Overshot
    | BonusRoll
    | Finished
    | Skipped
    | Left
    | TurnPassed
    | GameEnded
)
