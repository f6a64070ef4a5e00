"""``snakes replay --record FILE``: a recorded game move by move, with the odds after each."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from snakes.engine import RecordError
from snakes.engine.record import GameRecord
from snakes.words import describe


def _figure(kind: str, value: float) -> str:
    return f"{value:.1%}" if kind == "win" else f"{value:.2f}"


def _better(swing: float) -> str:
    return "better" if swing <= 0 else "worse"


def print_story(path: Path, *, plot: Path | None, as_json: bool) -> None:
    """Print every move of the record at ``path`` and each seat's odds after it."""
    from snakes.analysis import UnanalysableBoard, use_one_blas_thread  # noqa: PLC0415
    from snakes.analysis.story import game_story  # noqa: PLC0415 - numpy loads on demand

    use_one_blas_thread()

    try:
        record = GameRecord.from_json(path.read_text(encoding="utf-8"))
        story = game_story(record)
    except (OSError, UnicodeDecodeError) as error:
        raise click.BadParameter(f"cannot read {path}: {error}", param_hint="--record") from None
    except (RecordError, UnanalysableBoard) as error:
        raise click.BadParameter(f"{path}: {error}", param_hint="--record") from None
    if plot is not None:
        from snakes.analysis.story_plot import plot_story  # noqa: PLC0415 - matplotlib is slow

        try:
            plot_story(story, plot)
        except OSError as error:
            raise click.BadParameter(
                f"cannot write {plot}: {error.strerror or error}", param_hint="--plot"
            ) from None
    if as_json:
        data = story.to_data()
        if plot is not None:
            data["plot"] = str(plot)
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    names = [seat.name for seat in record.seats]
    kind = story.kind
    console = Console(highlight=False)
    console.print(
        f"[bold]{record.board.name}[/bold] board, {record.rules.finish.value}, "
        f"{len(record.seats)} seats, {len(record.actions)} moves."
    )
    table = Table(
        title="Chance to win after every move"
        if kind == "win"
        else "Expected place after every move"
    )
    table.add_column("Move", justify="right")
    table.add_column("What happened")
    for name in names:
        table.add_column(name, justify="right")
    for step in story.steps:
        what = " ".join(
            describe(event, names) for event in step.events if event.kind != "turn_passed"
        )
        squares = step.positions
        table.add_row(
            str(step.index),
            what or "Everyone on the start square.",
            *(
                f"{_figure(kind, odds)} ({square})"
                for odds, square in zip(step.odds, squares, strict=True)
            ),
        )
    console.print(table)
    key = [m for m in story.moments if m.key]
    if key:
        console.print("[bold]The moments that swung the game[/bold]")
        for moment in key:
            sign = "+" if moment.swing >= 0 else "-"
            change = (
                f"{sign}{abs(moment.swing):.1%} chance to win"
                if kind == "win"
                else f"expected place {abs(moment.swing):.2f} {_better(moment.swing)}"
            )
            console.print(
                f"  move {moment.step}: {names[moment.seat]}, {moment.kind} "
                f"{moment.start}→{moment.end} ({change})"
            )
    if plot is not None:
        console.print(f"Chart written to {plot}")
