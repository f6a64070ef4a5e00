"""``snakes analyze`` and ``snakes boards``: exact odds from the game's Markov chain."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from snakes.cli.options import players_option, rule_options, rules_from
from snakes.engine import JUNGLE, Board, Finish, Rules

if TYPE_CHECKING:
    from snakes.analysis import Analysis

F = TypeVar("F", bound=Callable[..., Any])

_WITHIN = (5, 10, 15, 20, 30, 40, 50, 75, 100, 150, 200, 300, 500)
"""Turn counts the plain output shows the chance of finishing within."""


def _board_from_option(ctx: click.Context, param: click.Parameter, value: str | None) -> Board:
    if value is None:
        return JUNGLE
    from snakes.boards import BoardFileError, load_board  # noqa: PLC0415 - loads on demand

    try:
        return load_board(value)
    except BoardFileError as error:
        problems = "\n".join(f"  - {p}" for p in error.problems)
        raise click.BadParameter(f"{error.source}:\n{problems}", ctx, param) from None


def board_option(func: F) -> F:
    """Add ``--board FILE|NAME``: a board file (JSON or TOML) or a shipped board's name."""
    decorated: F = click.option(
        "--board",
        "board",
        metavar="FILE|NAME",
        default=None,
        callback=_board_from_option,
        help="A board file (JSON or TOML, see docs/BOARDS.md) or a shipped board "
        "(snakes boards lists them). Default: the jungle board.",
    )(func)
    return decorated


@click.command()
@players_option(default=2)
@rule_options
@board_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=None,
    metavar="FILE.png",
    help="Also draw the distribution and the seats' chances into a PNG file.",
)
def analyze(
    players: int,
    mode: str,
    no_exact_finish: bool,
    no_six_again: bool,
    board: Board,
    as_json: bool,
    plot: Path | None,
) -> None:
    """Exact odds from the game's Markov chain (no sampling): turns to finish, who wins.

    A turn is one player's go, bonus rolls included. The figures are exact up to a tail
    of less than 1e-12, which is reported.
    """
    from snakes.analysis import UnanalysableBoard, use_one_blas_thread  # noqa: PLC0415
    from snakes.analysis import analyze as run  # noqa: PLC0415 - numpy loads on demand

    use_one_blas_thread()

    rules = rules_from(mode, no_exact_finish, no_six_again)
    try:
        result = run(board, rules, players)
    except UnanalysableBoard as error:
        raise click.BadParameter(str(error), param_hint="--board") from None
    if plot is not None:
        from snakes.analysis.plot import plot_analysis  # noqa: PLC0415 - matplotlib is slow

        try:
            plot_analysis(result, plot)
        except OSError as error:
            raise click.BadParameter(
                f"cannot write {plot}: {error.strerror or error}", param_hint="--plot"
            ) from None
    if as_json:
        data = result.to_data()
        if plot is not None:
            data["plot"] = str(plot)
        click.echo(json.dumps(data))
        return
    _print_analysis(result)
    if plot is not None:
        click.echo(f"Chart written to {plot}")


def _percent(p: float) -> str:
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 < p < 1:
        return ">99.9%"
    return f"{p:.1%}"


def _print_analysis(result: Analysis) -> None:
    from snakes.analysis.plot import rules_words  # noqa: PLC0415

    console = Console()
    law = result.law
    board = result.board
    console.print(
        f"[bold]{board.name}[/bold] board ({len(board.ladders)} ladders, "
        f"{len(board.snakes)} snakes), {rules_words(result)}, {result.players} seat(s)."
    )
    console.print("Exact figures from the game's Markov chain, one player's turn at a time.")
    turns = Table(title="Turns one player needs to reach 100", show_header=False)
    turns.add_row("Mean", f"{law.mean:.2f}")
    turns.add_row("Standard deviation", f"{law.sd:.2f}")
    turns.add_row("Median", str(law.median))
    turns.add_row("10th percentile", str(law.p10))
    turns.add_row("90th percentile", str(law.p90))
    for k in _WITHIN:
        if k <= law.quantile(0.9999):
            turns.add_row(f"Finished within {k} turns", _percent(law.within(k)))
    console.print(turns)
    if result.players > 1:
        seats = Table(title=f"{result.players} seats, seat 1 rolls first")
        seats.add_column("Seat")
        if result.rules.finish is Finish.CLASSIC:
            seats.add_column("Win chance", justify="right")
            for seat, chance in enumerate(result.win_chance):
                seats.add_row(str(seat + 1), f"{chance:.3%}")
        else:
            for place in range(result.players):
                seats.add_column(f"Place {place + 1}", justify="right")
            seats.add_column("Mean place", justify="right")
            for seat, row in enumerate(result.place_chance):
                seats.add_row(
                    str(seat + 1),
                    *(f"{p:.2%}" for p in row),
                    f"{result.expected_place[seat]:.3f}",
                )
        console.print(seats)
        if result.rules.finish is Finish.CLASSIC:
            console.print(
                f"The game ends after {result.expected_rounds:.1f} rounds on average; "
                f"the winner needs {result.winning_turns.mean:.2f} turns on average."
            )
        else:
            console.print(f"Everyone is home after {result.expected_rounds:.1f} rounds on average.")
    console.print(f"Probability left beyond the last turn followed: {result.unaccounted:.1e}.")


@click.command(name="boards")
@click.option(
    "--no-exact-finish", is_flag=True, help="House rule off: reaching or passing 100 finishes."
)
@click.option("--no-six-again", is_flag=True, help="House rule off: no bonus roll for a six.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def boards_command(no_exact_finish: bool, no_six_again: bool, as_json: bool) -> None:
    """List the shipped boards with how long a game on each takes (exact figures).

    Turns are one player's turns to reach 100: pick a board whose 90th percentile fits
    the time you have. Use one with --board NAME in analyze and simulate.
    """
    from snakes.analysis import turns_law, use_one_blas_thread  # noqa: PLC0415
    from snakes.boards import shipped_boards  # noqa: PLC0415

    use_one_blas_thread()

    rules = Rules(exact_finish=not no_exact_finish, six_again=not no_six_again)
    rows = []
    for shipped in shipped_boards():
        law = turns_law(shipped.board, rules)
        rows.append(
            {
                "name": shipped.name,
                "description": shipped.description,
                "ladders": len(shipped.board.ladders),
                "snakes": len(shipped.board.snakes),
                "mean_turns": round(law.mean, 2),
                "median_turns": law.median,
                "p10_turns": law.p10,
                "p90_turns": law.p90,
            }
        )
    if as_json:
        click.echo(json.dumps({"rules": rules.to_data(), "boards": rows}))
        return
    table = Table(title="Shipped boards: turns one player needs to reach 100")
    for heading in ("Board", "Ladders", "Snakes", "Mean", "Median", "10%", "90%"):
        table.add_column(heading, justify="left" if heading == "Board" else "right")
    for row in rows:
        table.add_row(
            str(row["name"]),
            str(row["ladders"]),
            str(row["snakes"]),
            f"{row['mean_turns']:.1f}",
            str(row["median_turns"]),
            str(row["p10_turns"]),
            str(row["p90_turns"]),
        )
    console = Console()
    console.print(table)
    console.print(
        "10% and 90%: one player in ten is home within the first figure, nine in ten "
        "within the second."
    )
    for row in rows:
        console.print(f"[bold]{row['name']}[/bold]: {row['description']}")
