"""Options shared by several commands: the rule set and the number of seats."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from snakes.engine import MAX_SEATS, MIN_SEATS, Finish, Rules

F = TypeVar("F", bound=Callable[..., Any])


def rule_options(func: F) -> F:
    """Add --mode, --no-exact-finish and --no-six-again to a command."""
    func = click.option(
        "--no-six-again",
        "no_six_again",
        is_flag=True,
        help="House rule off: a six is an ordinary roll, no bonus roll.",
    )(func)
    func = click.option(
        "--no-exact-finish",
        "no_exact_finish",
        is_flag=True,
        help="House rule off: a roll that reaches or passes 100 finishes.",
    )(func)
    func = click.option(
        "--mode",
        type=click.Choice([f.value for f in Finish]),
        default=Finish.CLASSIC.value,
        show_default=True,
        help="classic: the first on 100 wins. last-one-standing: race on until all finish.",
    )(func)
    return func


def players_option(default: int) -> Callable[[F], F]:
    return click.option(
        "--players",
        type=click.IntRange(MIN_SEATS, MAX_SEATS),
        default=default,
        show_default=True,
        help=f"Number of seats ({MIN_SEATS}-{MAX_SEATS}; 1 is a solo race).",
    )


def rules_from(mode: str, no_exact_finish: bool, no_six_again: bool) -> Rules:
    return Rules(finish=Finish(mode), exact_finish=not no_exact_finish, six_again=not no_six_again)
