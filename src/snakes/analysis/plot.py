"""A chart of an analysis: the turns one player needs, and each seat's chances."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from snakes.analysis.odds import Analysis
from snakes.engine import Finish


def rules_words(analysis: Analysis) -> str:
    """The rules in a few words, for titles and headings.

    >>> from snakes.analysis import analyze
    >>> from snakes.engine import JUNGLE, Rules
    >>> rules_words(analyze(JUNGLE, Rules(six_again=False), players=1))
    'classic, exact finish on, six again off'
    """
    rules = analysis.rules
    return (
        f"{rules.finish.value}, exact finish {'on' if rules.exact_finish else 'off'}, "
        f"six again {'on' if rules.six_again else 'off'}"
    )


def plot_analysis(analysis: Analysis, path: str | Path) -> Path:
    """Write a PNG chart of ``analysis`` to ``path`` and return the path."""
    import matplotlib  # noqa: PLC0415 - slow to import; only this command draws

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt  # noqa: PLC0415

    law = analysis.law
    last = max(law.quantile(0.995), law.p90 + 5)
    turns = np.arange(1, last + 1)
    panels = 2 if analysis.players > 1 else 1
    figure, axes = plt.subplots(
        1, panels, figsize=(11 if panels == 2 else 8, 4.8), width_ratios=[2, 1][:panels]
    )
    left = axes[0] if panels == 2 else axes
    left.bar(turns, law.pmf[1 : last + 1], color="#3a7d44", width=0.9, label="P(T = k)")
    left.set_xlabel("turns to reach 100 (k)")
    left.set_ylabel("chance of needing exactly k turns")
    left.set_xlim(0, last + 1)
    for value, label, style in (
        (law.p10, f"10% by {law.p10}", ":"),
        (law.median, f"median {law.median}", "--"),
        (law.p90, f"90% by {law.p90}", ":"),
    ):
        left.axvline(value, color="#555555", linestyle=style, linewidth=1)
        left.annotate(
            label,
            (value, 1.0),
            xycoords=("data", "axes fraction"),
            rotation=90,
            va="top",
            ha="right",
            fontsize=8,
        )
    cumulative = left.twinx()
    cumulative.plot(turns, law.cdf[1 : last + 1], color="#d9822b", linewidth=2, label="P(T <= k)")
    cumulative.set_ylim(0, 1.02)
    cumulative.set_ylabel("chance of finishing within k turns")
    left.set_title(f"One player's turns to 100 (mean {law.mean:.1f})", fontsize=10)
    handles = left.get_legend_handles_labels()
    more = cumulative.get_legend_handles_labels()
    left.legend(handles[0] + more[0], handles[1] + more[1], loc="center right", fontsize=8)
    if panels == 2:
        right = axes[1]
        seats = [f"Seat {n + 1}" for n in range(analysis.players)]
        if analysis.rules.finish is Finish.CLASSIC:
            bars = right.bar(seats, analysis.win_chance, color="#2b6cb0")
            right.bar_label(bars, labels=[f"{p:.1%}" for p in analysis.win_chance], fontsize=8)
            right.axhline(1 / analysis.players, color="#555555", linestyle="--", linewidth=1)
            right.set_ylabel("chance to win")
            right.set_title("Win chance (seat 1 rolls first)", fontsize=10)
        else:
            bottom = np.zeros(analysis.players)
            chances = np.array(analysis.place_chance)
            colours = plt.get_cmap("viridis")(np.linspace(0, 0.9, analysis.players))
            for place in range(analysis.players):
                right.bar(
                    seats,
                    chances[:, place],
                    bottom=bottom,
                    color=colours[place],
                    label=f"place {place + 1}",
                )
                bottom += chances[:, place]
            right.set_ylabel("chance of each place")
            right.set_title("Finishing places", fontsize=10)
            right.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
        right.set_ylim(0, 1.0 if analysis.rules.finish is not Finish.CLASSIC else None)
    figure.suptitle(
        f"Snakes & Ladders, {analysis.board.name} board: {analysis.players} player(s), "
        f"{rules_words(analysis)}",
        fontsize=11,
    )
    figure.tight_layout()
    target = Path(path)
    figure.savefig(target, format="png", dpi=110)
    plt.close(figure)
    return target
