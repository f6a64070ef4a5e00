"""A million provably fair rolls: how long they take, and a chi-square of their faces.

.venv/bin/python bench/fair_bench.py [--rolls N]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from snakes.fair import dice_key, fair_rolls, new_client_seed, new_server_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rolls", type=int, default=1_000_000)
    args = parser.parse_args()
    key = dice_key(new_server_seed(), [new_client_seed() for _ in range(4)])
    for faces in (6, 5):
        started = time.perf_counter()
        rolls = fair_rolls(key, args.rolls, faces=faces)
        seconds = time.perf_counter() - started
        counts = Counter(rolls)
        expected = args.rolls / faces
        chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, faces + 1))
        print(
            f"{faces} faces: {args.rolls:,} rolls in {seconds:.2f} s "
            f"({args.rolls / seconds:,.0f} rolls/s); chi-square {chi2:.2f} on {faces - 1} "
            f"degrees of freedom; counts {[counts[f] for f in range(1, faces + 1)]}"
        )


if __name__ == "__main__":
    main()
