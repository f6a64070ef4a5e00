"""Memory a game's kept rolls cost: a new ``Roll`` per roll against the shared ones.

A room keeps its game's actions until the game ends; in the 10-minute soak at 5,000
players about 375,000 rolls are made (docs/BENCHMARKS.md). This measures, with
tracemalloc, what that many rolls cost when each is its own object and when each is
``roll_of``'s shared one.

    python bench/roll_memory.py
    python bench/roll_memory.py --rolls 1000000
"""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable

import click

from snakes.engine import Roll, roll_of


def kept_bytes(make: Callable[[int, int], Roll], pairs: list[tuple[int, int]]) -> int:
    tracemalloc.start()
    kept = [make(seat, value) for seat, value in pairs]
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(kept) == len(pairs)
    return current


@click.command()
@click.option("--rolls", default=375_000, show_default=True, help="Rolls kept at once.")
@click.option("--seats", default=4, show_default=True)
def main(rolls: int, seats: int) -> None:
    draw = random.Random(1)
    pairs = [(draw.randrange(seats), draw.randrange(1, 7)) for _ in range(rolls)]
    for seat in range(seats):  # the shared table filled, as in a running server
        for value in range(1, 7):
            roll_of(seat, value)
    for name, make in (("a new Roll per roll", Roll), ("roll_of (shared)", roll_of)):
        size = kept_bytes(make, pairs)
        print(f"{name:>20}: {size / rolls:5.1f} B per roll, {size / 2**20:5.1f} MiB in all")


if __name__ == "__main__":
    main()
