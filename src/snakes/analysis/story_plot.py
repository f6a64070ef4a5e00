"""A chart of a game's story: each seat's odds after every move, turning points marked."""

from __future__ import annotations

from pathlib import Path

from snakes.analysis.story import Story

SEAT_COLOURS = {
    "red": "#d1312b",
    "blue": "#1e6fd9",
    "green": "#12a150",
    "yellow": "#c99a00",
    "purple": "#8e3ccb",
    "orange": "#ff8a00",
}
FALLBACK = ("#d1312b", "#1e6fd9", "#12a150", "#c99a00", "#8e3ccb", "#ff8a00")


def plot_story(story: Story, path: str | Path) -> Path:
    """Write a PNG of ``story``'s odds after every move to ``path`` and return the path."""
    import matplotlib  # noqa: PLC0415 - slow to import; only this command draws

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt  # noqa: PLC0415

    record = story.record
    figure, axes = plt.subplots(figsize=(10, 4.8))
    moves = [step.index for step in story.steps]
    for seat, info in enumerate(record.seats):
        colour = SEAT_COLOURS.get(info.colour, FALLBACK[seat % len(FALLBACK)])
        values = [step.odds[seat] for step in story.steps]
        axes.plot(moves, values, color=colour, linewidth=2, label=info.name)
    for moment in story.moments:
        if not moment.key:
            continue
        value = story.steps[moment.step].odds[moment.seat]
        axes.plot(
            [moment.step], [value], marker="^" if moment.kind == "ladder" else "v", color="#222222"
        )
        axes.annotate(
            f"{moment.start}→{moment.end}",
            (moment.step, value),
            textcoords="offset points",
            xytext=(0, 9 if moment.kind == "ladder" else -14),
            ha="center",
            fontsize=8,
        )
    axes.set_xlabel("move")
    axes.set_xlim(0, max(moves[-1], 1))
    if story.kind == "win":
        axes.set_ylabel("chance to win")
        axes.set_ylim(0, 1.02)
    else:
        axes.set_ylabel("expected place (1 is first)")
        axes.set_ylim(len(record.seats) + 0.2, 0.8)
    axes.legend(fontsize=8, loc="best")
    axes.set_title(
        f"Snakes & Ladders, {record.board.name} board, {record.rules.finish.value}: "
        f"{'chance to win' if story.kind == 'win' else 'expected place'} after every move",
        fontsize=10,
    )
    figure.tight_layout()
    target = Path(path)
    figure.savefig(target, format="png", dpi=110)
    plt.close(figure)
    return target
