"""``snakes replay``: play given rolls from the start and tell what happened."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from snakes.cli.options import players_option, rule_options, rules_from
from snakes.engine import Roll, RuleError, apply, new_game, placings
from snakes.words import describe

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
"""ASCII digits only: ``str.isdigit`` also accepts '²', which ``int`` refuses."""


def _parse_rolls(text: str) -> list[int]:
    values = []
    for index, raw in enumerate(text.split(","), start=1):
        part = raw.strip()
        shown = part if len(part) <= 20 else part[:20] + "..."
        if not _WHOLE_NUMBER.fullmatch(part):
            raise click.BadParameter(
                f"roll #{index} {shown!r} is not a whole number", param_hint="--rolls"
            )
        if len(part.lstrip("-")) > 3:
            # Far off the die anyway; int() refuses very long digit strings.
            raise click.BadParameter(
                f"roll #{index} {shown} is not a face of the die (1-6)", param_hint="--rolls"
            )
        values.append(int(part))
    return values


@click.command()
@players_option(default=2)
@rule_options
@click.option("--rolls", default=None, help="Die values in the order they were rolled: 6,6,4,...")
@click.option(
    "--record",
    "record_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Replay a game record (a downloaded snakes-CODE.json) instead: every move with "
    "each seat's exact chance to win (Last One Standing: expected place) after it.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=None,
    metavar="FILE.png",
    help="With --record: also draw each seat's odds after every move into a PNG file.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="End with one JSON object of the final state (with --record: the whole story).",
)
def replay(
    players: int,
    mode: str,
    no_exact_finish: bool,
    no_six_again: bool,
    rolls: str | None,
    record_file: Path | None,
    plot: Path | None,
    as_json: bool,
) -> None:
    """Play the given rolls in order from the start; print each event, then the final state.

    The seat to roll next always rolls the next value. A roll the rules forbid at that
    point (0, 7, a third six in one turn, a roll after the game is over) stops the replay
    with status 2.

    With --record FILE, replay a game record instead: the record's own table, rules and
    board; after every move, each seat's exact odds, and the moments that swung the game.
    """
    if rolls is None and record_file is None:
        raise click.UsageError("Missing option '--rolls' (or --record FILE).")
    if rolls is not None and record_file is not None:
        raise click.UsageError("give --rolls or --record FILE, not both")
    if record_file is not None:
        from snakes.cli.story import print_story  # noqa: PLC0415 - numpy loads on demand

        print_story(record_file, plot=plot, as_json=as_json)
        return
    if plot is not None:
        raise click.UsageError("--plot needs --record FILE")
    assert rolls is not None
    values = _parse_rolls(rolls)
    names = [f"Player {n}" for n in range(1, players + 1)]
    state = new_game(players, rules_from(mode, no_exact_finish, no_six_again))
    for index, value in enumerate(values, start=1):
        seat = state.turn if state.turn is not None else 0
        try:
            state, events = apply(state, Roll(seat=seat, value=value))
        except RuleError as error:
            click.echo(f"error: roll #{index} ({value}) refused: {error}", err=True)
            sys.exit(2)
        for event in events:
            click.echo(describe(event, names))
    click.echo("")
    for placing in placings(state):
        click.echo(
            f"{names[placing.seat]}: square {placing.square}"
            + ("" if placing.status.value == "racing" else f", {placing.status.value}")
        )
    if state.over:
        click.echo("The game is over.")
    else:
        click.echo(f"Next to roll: {names[state.turn or 0]}.")
    if as_json:
        click.echo(
            json.dumps(
                {
                    "positions": list(state.positions),
                    "turn": state.turn,
                    "over": state.over,
                    "standings": list(state.standings),
                    "winner": state.winner,
                    "bonus_roll": state.is_bonus_roll,
                    "version": state.version,
                }
            )
        )
