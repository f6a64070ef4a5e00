"""The ``snakes`` command group. Bad arguments exit with status 2 and one clear message."""

from __future__ import annotations

import click

from snakes import __version__
from snakes.cli.analyze import analyze, boards_command
from snakes.cli.board import board
from snakes.cli.replay import replay
from snakes.cli.serve import serve
from snakes.cli.simulate import simulate_command
from snakes.cli.verify import verify


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="snakes")
def cli() -> None:
    """Snakes & Ladders: play, replay and simulate games, or serve the web game."""


cli.add_command(replay)
cli.add_command(simulate_command)
cli.add_command(board)
cli.add_command(serve)
cli.add_command(analyze)
cli.add_command(boards_command)
cli.add_command(verify)


def main() -> None:
    cli(prog_name="snakes")
