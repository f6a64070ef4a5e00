"""Shared by the analysis tests: rules written again from the page, and goodness of fit."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np

from snakes.engine import JUNGLE, Board, Rules, make_board

ALL_RULES = [
    Rules(exact_finish=exact, six_again=six) for exact in (True, False) for six in (True, False)
]
"""The four house-rule combinations."""


def rules_id(rules: Rules) -> str:
    return f"exact-{'on' if rules.exact_finish else 'off'}/six-{'on' if rules.six_again else 'off'}"


TO_100 = make_board("to-100", ladders=[(2, 30), (70, 100), (41, 60)], snakes=[(99, 1), (45, 20)])
"""A board with a ladder that finishes and a snake on 99."""

BOARDS: dict[str, Board] = {"jungle": JUNGLE, "to-100": TO_100}


def turn_ends(board: Board, rules: Rules, square: int, sixes: int = 0) -> dict[int, Fraction]:
    """Where one turn from ``square`` ends (100: finished), with exact chances.

    Written from the how-to-play page and PRODUCT.md, without the engine: roll, walk,
    one jump; a six rolls again unless it overshot or finished; after two sixes the die
    shows 1-5; a roll past 100 leaves the token where it is (exact finish) or finishes.
    """
    faces = 5 if rules.six_again and sixes == 2 else 6
    result: dict[int, Fraction] = {}
    for value in range(1, faces + 1):
        chance = Fraction(1, faces)
        target = square + value
        if target > 100 and rules.exact_finish:
            ends = {square: Fraction(1)}
        else:
            landed = board.jumps.get(min(target, 100), min(target, 100))
            if landed != 100 and value == 6 and rules.six_again:
                ends = turn_ends(board, rules, landed, sixes + 1)
            else:
                ends = {landed: Fraction(1)}
        for end, p in ends.items():
            result[end] = result.get(end, Fraction(0)) + chance * p
    return result


def wilson_hilferty_z(statistic: float, dof: int) -> float:
    """How many standard deviations a chi-square statistic lies above its mean (normal approx.)."""
    return ((statistic / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))


def chi_square_z(observed: Sequence[float], expected: Sequence[float]) -> float:
    """The chi-square statistic of counts against expected counts, as a z-score."""
    obs, exp = np.asarray(observed, dtype=float), np.asarray(expected, dtype=float)
    assert exp.min() >= 5, "bins too small for a chi-square test"
    statistic = float(((obs - exp) ** 2 / exp).sum())
    return wilson_hilferty_z(statistic, len(obs) - 1)


def binned_fit(counts: Mapping[int, int] | Sequence[int], cdf: np.ndarray, bins: int) -> float:
    """Chi-square z of turn counts against an exact CDF, in ``bins`` bins of equal chance.

    ``counts[k]`` is how many times ``k`` turns were needed. The last bin takes the tail.
    """
    histogram = (
        np.bincount(list(counts.keys()), weights=list(counts.values()))
        if isinstance(counts, Mapping)
        else np.asarray(counts, dtype=float)
    )
    total = histogram.sum()
    edges = sorted({int(np.searchsorted(cdf, q)) for q in np.linspace(0, 1, bins + 1)[1:-1]})
    observed, expected, start = [], [], 0
    for edge in [*edges, None]:
        stop = len(histogram) if edge is None else edge + 1
        observed.append(histogram[start:stop].sum())
        high = 1.0 if edge is None else float(cdf[min(edge, len(cdf) - 1)])
        low = 0.0 if start == 0 else float(cdf[min(start - 1, len(cdf) - 1)])
        expected.append(total * (high - low))
        start = stop
    return chi_square_z(observed, expected)


def ks_distance(counts: Sequence[int], cdf: np.ndarray) -> float:
    """sqrt(n) times the largest gap between the empirical and the exact CDF."""
    histogram = np.asarray(counts, dtype=float)
    total = histogram.sum()
    size = max(len(histogram), len(cdf))
    empirical = np.cumsum(np.pad(histogram, (0, size - len(histogram)))) / total
    exact = np.pad(cdf, (0, size - len(cdf)), constant_values=1.0)
    return float(np.max(np.abs(empirical - exact)) * math.sqrt(total))
