"""``snakes simulate``: play many whole games through the engine and report."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from snakes.cli.analyze import board_option
from snakes.cli.options import players_option, rule_options, rules_from
from snakes.engine import Board, Finish
from snakes.simulate import SimulationReport, simulate

if TYPE_CHECKING:
    from snakes.fastsim import FastReport

_PROGRESS_FROM = 2_000
"""Runs shorter than this finish before a bar would be worth drawing."""


@click.command(name="simulate")
@click.option("--games", type=click.IntRange(1, 100_000_000), default=10_000, show_default=True)
@players_option(default=1)
@click.option("--seed", type=int, default=None, help="Seed for reproducible dice.")
@rule_options
@board_option
@click.option(
    "--fast",
    is_flag=True,
    help="Use the vectorised simulator (numpy): the same games and figures, far faster.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate_command(
    games: int,
    players: int,
    seed: int | None,
    mode: str,
    no_exact_finish: bool,
    no_six_again: bool,
    board: Board,
    fast: bool,
    as_json: bool,
) -> None:
    """Play N whole games through the engine; report how long they take and who wins.

    A turn is one player's go, bonus rolls included. Mean and median turns are over
    every player who reached 100.
    """
    rules = rules_from(mode, no_exact_finish, no_six_again)
    if fast:
        from snakes.fastsim import fast_simulate  # noqa: PLC0415 - numpy loads on demand

        fast_report = fast_simulate(games, players, rules, board, seed=seed)
        if as_json:
            click.echo(json.dumps(fast_report.to_data()))
        else:
            _print_report(fast_report, board.name)
        return
    show_bar = not as_json and sys.stderr.isatty() and games >= _PROGRESS_FROM
    if show_bar:
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        ) as bar:
            task = bar.add_task("Playing", total=games)
            step = max(1, games // 200)

            def advance(done: int) -> None:
                if done % step == 0 or done == games:
                    bar.update(task, completed=done)

            report = simulate(games, players, rules, board, seed=seed, progress=advance)
    else:
        report = simulate(games, players, rules, board, seed=seed)
    if as_json:
        click.echo(json.dumps({**report.to_data(), "board": board.name}))
    else:
        _print_report(report, board.name)


def _print_report(report: SimulationReport | FastReport, board: str = "jungle") -> None:
    console = Console()
    table = Table(title=f"{report.games:,} games, {report.players} seat(s)", show_header=False)
    table.add_row("Board", board)
    table.add_row("Rules", ", ".join(f"{k}={v}" for k, v in report.rules.to_data().items()))
    table.add_row("Mean turns to reach 100", f"{report.mean_turns:.2f}")
    table.add_row("Median turns to reach 100", f"{report.median_turns:g}")
    table.add_row("Longest game (turns, all seats)", str(report.longest_game))
    if report.players > 1:
        if report.rules.finish is Finish.CLASSIC:
            for seat, share in enumerate(report.win_share):
                table.add_row(f"Seat {seat + 1} wins", f"{share:.1%}")
        else:
            for seat, place in enumerate(report.mean_place):
                table.add_row(f"Seat {seat + 1} mean place", f"{place:.3f}")
    table.add_row("Games per second", f"{report.games_per_second:,.0f}")
    console.print(table)
