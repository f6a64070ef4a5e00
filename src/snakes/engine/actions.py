"""Actions: everything that can change a game. A game record is a list of them."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from snakes.engine.errors import RecordError


@dataclass(frozen=True, slots=True)
class Roll:
    """``seat`` rolled ``value``. The value comes from a dice source, never from a client."""

    kind: ClassVar[str] = "roll"
    seat: int
    value: int


@dataclass(frozen=True, slots=True)
class Skip:
    """The countdown ran out for ``seat``, whose turn it was: the turn passes, unrolled."""

    kind: ClassVar[str] = "skip"
    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """``seat`` gave up its place in the race."""

    kind: ClassVar[str] = "leave"
    seat: int


@dataclass(frozen=True, slots=True)
class Remove:
    """The host removed ``seat`` (away or disconnected); it is ranked as having left."""

    kind: ClassVar[str] = "remove"
    seat: int


@dataclass(frozen=True, slots=True)
class Abandon:
    """Everyone still racing stayed away too long: the game ends, unfinished."""

    kind: ClassVar[str] = "abandon"


Action = Roll | Skip | Leave | Remove | Abandon


@functools.lru_cache(maxsize=256)
def roll_of(seat: int, value: int) -> Roll:
    """The one shared ``Roll`` of ``seat`` and ``value``.

    Actions are frozen, so every game can hold the same few dozen of them: a game keeps
    its actions until it ends, and a pointer per roll is a seventh of a new object.

    >>> roll_of(1, 6) is roll_of(1, 6)
    True
    """
    return Roll(seat, value)


_BY_KIND: dict[str, type[Roll] | type[Skip] | type[Leave] | type[Remove] | type[Abandon]] = {
    cls.kind: cls for cls in (Roll, Skip, Leave, Remove, Abandon)
}


def action_to_data(action: Action) -> dict[str, Any]:
    """A JSON-ready form of an action.

    >>> action_to_data(Roll(seat=1, value=6))
    {'type': 'roll', 'seat': 1, 'value': 6}
    """
    data: dict[str, Any] = {"type": action.kind}
    if not isinstance(action, Abandon):
        data["seat"] = action.seat
    if isinstance(action, Roll):
        data["value"] = action.value
    return data


def action_from_data(data: Any) -> Action:
    """Read an action back from :func:`action_to_data`'s form."""
    if not isinstance(data, dict) or data.get("type") not in _BY_KIND:
        raise RecordError(f"not an action: {data!r}")
    cls = _BY_KIND[data["type"]]
    fields = {k: v for k, v in data.items() if k != "type"}
    expected = {"roll": {"seat", "value"}, "abandon": set()}.get(cls.kind, {"seat"})
    if set(fields) != expected or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in fields.values()
    ):
        raise RecordError(f"malformed {cls.kind} action: {data!r}")
    if cls is Roll:
        return roll_of(fields["seat"], fields["value"])
    return cls(**fields)
