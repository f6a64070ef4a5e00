"""Rules are data: one frozen value, with named presets. No subclass per variant.

>>> Rules()
Rules(finish=<Finish.CLASSIC: 'classic'>, exact_finish=True, six_again=True)
>>> PRESETS["quick"].exact_finish
False
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any


class Finish(StrEnum):
    """How a game ends."""

    CLASSIC = "classic"
    """The first token on 100 wins and the game ends on the spot."""

    LAST_ONE_STANDING = "last-one-standing"
    """Each finisher takes the next place; the race goes on until everyone has finished."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule set of one game: how it finishes and the two house rules."""

    finish: Finish = Finish.CLASSIC
    exact_finish: bool = True
    """A roll that would pass 100 leaves the token where it is."""
    six_again: bool = True
    """A six gives one bonus roll; two sixes in a row is the limit."""

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data["finish"] = self.finish.value
        return data

    @classmethod
    def from_data(cls, data: Any) -> Rules:
        if not isinstance(data, dict):
            raise ValueError("rules are an object with finish, exact_finish and six_again")
        unknown = set(data) - {"finish", "exact_finish", "six_again"}
        if unknown:
            raise ValueError(f"unknown rule field(s): {', '.join(sorted(unknown))}")
        finish = data.get("finish", Finish.CLASSIC.value)
        try:
            mode = Finish(finish)
        except ValueError:
            raise ValueError(
                f"finish must be one of {', '.join(f.value for f in Finish)}, not {finish!r}"
            ) from None
        flags = {k: data.get(k, True) for k in ("exact_finish", "six_again")}
        for key, value in flags.items():
            if not isinstance(value, bool):
                raise ValueError(f"{key} must be true or false, not {value!r}")
        return cls(finish=mode, **flags)


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "last-one-standing": Rules(finish=Finish.LAST_ONE_STANDING),
    "quick": Rules(exact_finish=False),
    "plain": Rules(exact_finish=False, six_again=False),
}
"""Named rule sets: the defaults, Last One Standing, and two common family variants."""
