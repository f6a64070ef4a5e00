"""Events told in plain words, for the command line and the server's logs."""

from __future__ import annotations

from collections.abc import Sequence

from snakes.engine import (
    BonusRoll,
    Climbed,
    Event,
    Finished,
    GameEnded,
    Left,
    Moved,
    Overshot,
    Rolled,
    Skipped,
    Slid,
    TurnPassed,
)

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th ...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11)]
    ['1st', '2nd', '3rd', '4th', '11th']
    """
    return _ORDINALS.get(place, f"{place}th")


def describe(event: Event, names: Sequence[str]) -> str:
    """One event as a sentence.

    >>> describe(Climbed(seat=0, start=28, end=84), ["Ana"])
    'Ana climbed a ladder from 28 to 84.'
    """
    match event:
        case Rolled(seat=seat, value=value, bonus=bonus):
            return f"{names[seat]} rolled {value}{' (bonus roll)' if bonus else ''}."
        case Moved(seat=seat, start=start, end=end):
            where = "onto the board at" if start == 0 else "to"
            return f"{names[seat]} moved from {start} {where} {end}."
        case Climbed(seat=seat, start=start, end=end):
            return f"{names[seat]} climbed a ladder from {start} to {end}."
        case Slid(seat=seat, start=start, end=end):
            return f"{names[seat]} slid down a snake from {start} to {end}."
        case Overshot(seat=seat, square=square, value=value, needed=needed):
            return f"{names[seat]} needed exactly {needed} and stays on {square}."
        case BonusRoll(seat=seat):
            return f"Six! {names[seat]} rolls again."
        case Finished(seat=seat, place=place):
            return f"{names[seat]} reached 100 and takes {ordinal(place)} place!"
        case Skipped(seat=seat, bonus_lost=bonus_lost, missed=missed):
            if bonus_lost:
                return f"{names[seat]}'s bonus roll timed out and is lost."
            return f"{names[seat]} ran out of time; the turn is skipped ({missed} missed in a row)."
        case Left(seat=seat, removed=removed):
            return f"{names[seat]} {'was removed by the host' if removed else 'left the game'}."
        case TurnPassed(seat=seat):
            return f"{names[seat]}'s turn."
        case GameEnded(winner=winner, reason=reason):
            if winner is not None:
                return f"Game over: {names[winner]} wins!"
            if reason == "abandoned":
                return "Game over: everyone still racing stayed away."
            if reason == "everyone-left":
                return "Game over: everyone left."
            return "Game over: everyone has reached 100."
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover
