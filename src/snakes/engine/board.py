"""The board: squares 1-100 in snaking order, and the ladders and snakes on it.

>>> JUNGLE.destination(28)
84
>>> JUNGLE.destination(99)
27
>>> JUNGLE.destination(84)  # landing on a ladder's top does nothing
84
>>> cell_of(1), cell_of(10), cell_of(11), cell_of(100)
((0, 0), (0, 9), (1, 9), (9, 0))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from snakes.engine.errors import BoardError

FINISH = 100
"""The last square; reaching it finishes a token."""

START = 0
"""Every token starts off the board, on square 0."""

SIDE = 10
"""The board is SIDE x SIDE squares."""


@dataclass(frozen=True, slots=True)
class Jump:
    """A ladder (start < end) or a snake (start > end)."""

    start: int
    end: int

    @property
    def is_ladder(self) -> bool:
        return self.end > self.start

    @property
    def is_snake(self) -> bool:
        return self.end < self.start


@dataclass(frozen=True, slots=True)
class Board:
    """A validated board. Build one with :meth:`from_data` or :func:`make_board`."""

    name: str
    jumps: Mapping[int, int] = field(hash=False)

    def destination(self, square: int) -> int:
        """Where a token that lands on ``square`` ends up (one jump at most)."""
        return self.jumps.get(square, square)

    @property
    def ladders(self) -> tuple[Jump, ...]:
        return tuple(Jump(s, e) for s, e in sorted(self.jumps.items()) if e > s)

    @property
    def snakes(self) -> tuple[Jump, ...]:
        return tuple(Jump(s, e) for s, e in sorted(self.jumps.items()) if e < s)

    @property
    def biggest_ladder(self) -> Jump | None:
        return max(self.ladders, key=lambda j: (j.end - j.start, -j.start), default=None)

    @property
    def longest_snake(self) -> Jump | None:
        return max(self.snakes, key=lambda j: (j.start - j.end, j.start), default=None)

    def to_data(self) -> dict[str, object]:
        """A JSON-ready description; :meth:`from_data` reads it back."""
        return {
            "name": self.name,
            "ladders": [[j.start, j.end] for j in self.ladders],
            "snakes": [[j.start, j.end] for j in self.snakes],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Board:
        """Read and validate a board description (``name``, ``ladders``, ``snakes``).

        >>> dict(Board.from_data({"name": "tiny", "ladders": [[2, 50]], "snakes": [[60, 3]]}).jumps)
        {2: 50, 60: 3}
        """
        if not isinstance(data, Mapping):
            raise BoardError(["a board is an object with name, ladders and snakes"])
        problems: list[str] = []
        name = data.get("name", "custom")
        if not isinstance(name, str) or not name.strip():
            problems.append("name must be a non-empty string")
            name = "custom"
        pairs: dict[str, list[tuple[int, int]]] = {}
        for kind in ("ladders", "snakes"):
            raw = data.get(kind, [])
            pairs[kind] = []
            if not isinstance(raw, list):
                problems.append(f"{kind} must be a list of [start, end] pairs")
                continue
            for item in raw:
                if (
                    isinstance(item, list | tuple)
                    and len(item) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
                ):
                    pairs[kind].append((int(item[0]), int(item[1])))
                else:
                    problems.append(f"{kind} entry {item!r} is not a [start, end] pair of integers")
        return make_board(name, pairs["ladders"], pairs["snakes"], _earlier=problems)


def make_board(
    name: str,
    ladders: Iterable[tuple[int, int]],
    snakes: Iterable[tuple[int, int]],
    *,
    _earlier: list[str] | None = None,
) -> Board:
    """Validate ladders and snakes and build a :class:`Board`; report every problem at once."""
    problems = list(_earlier or [])
    jumps: dict[int, int] = {}
    tagged = [("ladder", s, e) for s, e in ladders] + [("snake", s, e) for s, e in snakes]
    for kind, start, end in tagged:
        label = f"{kind} {start}->{end}"
        if not 1 <= start <= FINISH - 1:
            problems.append(f"{label} must start on a square from 1 to {FINISH - 1}")
        if not 1 <= end <= FINISH:
            problems.append(f"{label} must end on a square from 1 to {FINISH}")
        if kind == "ladder" and end <= start:
            problems.append(f"{label} must go up")
        if kind == "snake" and end >= start:
            problems.append(f"{label} must go down")
        if start in jumps:
            problems.append(f"square {start} has more than one ladder or snake")
        else:
            jumps[start] = end
    for start, end in sorted(jumps.items()):
        if end in jumps:
            problems.append(
                f"the jump {start}->{end} ends where the jump {end}->{jumps[end]} starts"
            )
    if problems:
        raise BoardError(problems)
    return Board(name=name, jumps=MappingProxyType(dict(sorted(jumps.items()))))


JUNGLE = make_board(
    "jungle",
    ladders=[(1, 38), (4, 14), (9, 31), (21, 42), (28, 84), (36, 44), (51, 67), (71, 91), (80, 98)],
    snakes=[
        (16, 6),
        (47, 26),
        (49, 11),
        (56, 53),
        (62, 19),
        (64, 60),
        (87, 24),
        (93, 73),
        (95, 75),
        (99, 27),
    ],
)
"""The jungle board of the how-to page: nine ladders and ten snakes."""


def cell_of(square: int) -> tuple[int, int]:
    """(row, column) of a square, both from 0; row 0 is the bottom, column 0 the left.

    Rows snake: row 0 runs 1->10 left to right, row 1 runs 11->20 right to left.
    """
    if not 1 <= square <= FINISH:
        raise ValueError(f"square {square} is not on the board (1-{FINISH})")
    row, offset = divmod(square - 1, SIDE)
    column = offset if row % 2 == 0 else SIDE - 1 - offset
    return row, column


def square_at(row: int, column: int) -> int:
    """The square at (row, column); the inverse of :func:`cell_of`.

    >>> square_at(9, 0)
    100
    """
    if not (0 <= row < SIDE and 0 <= column < SIDE):
        raise ValueError(f"({row}, {column}) is not on the board")
    offset = column if row % 2 == 0 else SIDE - 1 - column
    return row * SIDE + offset + 1
