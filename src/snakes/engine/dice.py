"""Dice sources. Dice are an input to the engine, so every game replays from its record.

A source is asked for a face from 1 to ``faces``; ``faces`` is 5 after two sixes in one
turn (when sixes roll again), else 6. The engine checks every value it is given, so a
source can never smuggle in a forbidden roll.

>>> a, b = SeededDice(7), SeededDice(7)
>>> [a.roll(6) for _ in range(5)] == [b.roll(6) for _ in range(5)]
True
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from typing import Protocol


class DiceSource(Protocol):
    """Anything that can roll a die with ``faces`` faces."""

    def roll(self, faces: int) -> int: ...


class DiceExhausted(LookupError):
    """A scripted source ran out of rolls."""


class SeededDice:
    """Reproducible dice for tests and simulation."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)

    def roll(self, faces: int) -> int:
        return self._random.randint(1, faces)


class SecureDice:
    """Dice from the operating system's secure source, for real play."""

    def roll(self, faces: int) -> int:
        return secrets.randbelow(faces) + 1


class ScriptedDice:
    """Replays given values in order, whatever ``faces`` asks; the engine judges them.

    >>> dice = ScriptedDice([6, 6, 4])
    >>> [dice.roll(6), dice.roll(6), dice.roll(5)]
    [6, 6, 4]
    """

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    def roll(self, faces: int) -> int:
        if self._next >= len(self._values):
            raise DiceExhausted(f"no scripted roll left after {len(self._values)}")
        value = self._values[self._next]
        self._next += 1
        return value
