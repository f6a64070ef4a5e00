"""``snakes board``: the board's ladders and snakes."""

from __future__ import annotations

import json

import click

from snakes.engine import JUNGLE


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the board as JSON.")
def board(as_json: bool) -> None:
    """List the board's ladders and snakes."""
    if as_json:
        click.echo(json.dumps(JUNGLE.to_data()))
        return
    click.echo(
        f"The {JUNGLE.name} board: {len(JUNGLE.ladders)} ladders, {len(JUNGLE.snakes)} snakes."
    )
    click.echo("Ladders (up):")
    for jump in JUNGLE.ladders:
        click.echo(f"  {jump.start:>2} -> {jump.end}")
    click.echo("Snakes (down):")
    for jump in JUNGLE.snakes:
        click.echo(f"  {jump.start:>2} -> {jump.end}")
