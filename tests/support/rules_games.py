"""Games for the page's rules to replay, built with the engine from a script of steps.

A script is what happens at the table, in order: a die value for whoever is up, or an
interruption (a skip, a leave, a removal, an abandon, or an action the rules refuse).
:func:`build_game` plays it through the engine and notes the cases the game holds
("ended: last-player", "five-faced roll", ...), so that a fixed script can be checked to
reach the case it is there for (tests/engine/test_rules_games.py), and the rules
differential (tests/browser/test_rules_differential.py) replays every fixed game on
every run, beside the games hypothesis draws through the same builder.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from snakes.boards import shipped_boards
from snakes.engine import GameState, RuleError, apply, new_game
from snakes.engine.actions import action_from_data
from snakes.engine.board import FINISH, Board
from snakes.engine.rules import Finish, Rules

BOARDS = {shipped.board.name: shipped.board for shipped in shipped_boards()}
MAX_ACTIONS = 1500
"""A game is cut here: with an exact finish and unlucky dice it could go on a long time."""

BAD = ("wrong seat", "too high", "leave gone", "unknown seat")
"""The actions the rules refuse that a script can ask for."""

Interrupt = tuple[str, int, str]
"""(kind, pick, bad): ``skip``, ``leave`` or ``remove`` (of ``racing[pick % n]``),
``abandon``, or ``bad`` (the refused action ``bad`` names)."""
Step = int | Interrupt
"""A die value for whoever is up (cut to the die's faces), or an interruption."""


def skip() -> Interrupt:
    return ("skip", 0, "")


def leave(pick: int) -> Interrupt:
    return ("leave", pick, "")


def remove(pick: int) -> Interrupt:
    return ("remove", pick, "")


def abandon() -> Interrupt:
    return ("abandon", 0, "")


def bad(kind: str, pick: int = 0) -> Interrupt:
    assert kind in BAD, kind
    return ("bad", pick, kind)


@dataclass
class Game:
    """A game for both sides to replay: its table, its actions and the cases it holds."""

    players: int
    rules: Rules
    board: Board
    first: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    features: set[str] = field(default_factory=set)

    def to_data(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rules": self.rules.to_data(),
            "board": self.board.to_data(),
            "first": self.first,
            "actions": self.actions,
        }


@dataclass(frozen=True)
class Script:
    """A fixed game: the table, the steps, and the cases it is there to reach. After the
    steps, ``seed`` (if given) rolls on with ``random.Random(seed)`` until the game ends:
    a whole game on a board without writing out every roll."""

    reaches: tuple[str, ...]
    players: int
    rules: Rules
    board: str
    steps: tuple[Step, ...]
    first: int = 0
    seed: int | None = None

    def game(self) -> Game:
        steps: Iterable[Step] = self.steps
        if self.seed is not None:
            dice = random.Random(self.seed)
            steps = itertools.chain(steps, iter(lambda: dice.randint(1, 6), 0))
        return build_game(self.players, self.rules, BOARDS[self.board], self.first, steps)


def build_game(players: int, rules: Rules, board: Board, first: int, steps: Iterable[Step]) -> Game:
    """Play ``steps`` through the engine; once the game is over, one more action (a roll,
    which the rules refuse) and no more. A refused action changes nothing."""
    game = Game(players=players, rules=rules, board=board, first=first)
    state = new_game(players, rules, board, first=first)
    script = iter(steps)
    while len(game.actions) < MAX_ACTIONS:
        if state.over:
            game.actions.append({"type": "roll", "seat": 0, "value": 1})
            game.features.add("after the end")
            break
        step = next(script, None)
        if step is None:
            break
        assert state.turn is not None
        if isinstance(step, int):
            data = _roll(state, step, game.features)
        else:
            data, feature = _interrupt(state, *step)
            game.features.add(feature)
        game.actions.append(data)
        with contextlib.suppress(RuleError):
            after, events = apply(state, action_from_data(data))
            game.features |= _cases_of(state, data, [e.to_data() for e in events], after)
            state = after
    if state.over:
        game.features.add(f"ended: {state.end_reason}")
    game.features.add(f"finish: {rules.finish.value}")
    game.features.add(f"board: {board.name}")
    return game


def _roll(state: GameState, value: int, features: set[str]) -> dict[str, Any]:
    assert state.turn is not None
    value = min(value, state.faces)
    if state.faces == 5:
        features.add("five-faced roll")
    if state.positions[state.turn] + value > FINISH:
        features.add("overshoot" if state.rules.exact_finish else "past 100")
    return {"type": "roll", "seat": state.turn, "value": value}


def _interrupt(state: GameState, kind: str, pick: int, bad: str) -> tuple[dict[str, Any], str]:
    """The action an interruption stands for, and the case it is (what it really is: a
    "wrong seat" with one player is an unknown seat)."""
    assert state.turn is not None
    racing = state.racing
    if kind == "skip":
        return {"type": "skip", "seat": state.turn}, "skip"
    if kind == "abandon":
        return {"type": "abandon"}, "abandon"
    if kind in ("leave", "remove"):
        return {"type": kind, "seat": racing[pick % len(racing)]}, kind
    assert kind == "bad", kind
    if bad == "wrong seat" and state.players > 1:
        return {"type": "roll", "seat": (state.turn + 1) % state.players, "value": 3}, bad
    if bad == "too high":
        six = " (a six on the five-faced die)" if state.faces == 5 else ""
        return {"type": "roll", "seat": state.turn, "value": state.faces + 1}, bad + six
    if bad == "leave gone" and (state.standings or state.leavers):
        return {"type": "leave", "seat": (state.standings + state.leavers)[0]}, bad
    return {"type": "roll", "seat": state.players + pick, "value": 1}, "unknown seat"


def _cases_of(
    before: GameState, data: dict[str, Any], events: list[dict[str, Any]], after: GameState
) -> set[str]:
    """The rule corners an applied action went through, read from its events."""
    kinds = {event["type"] for event in events}
    cases = set()
    if "bonus_roll" in kinds:
        cases.add("bonus roll")
    if any(e["type"] == "skipped" and e["bonus_lost"] for e in events):
        cases.add("bonus lost on a skip")
    six = data["type"] == "roll" and data["value"] == 6 and before.rules.six_again
    if six and "finished" in kinds and not after.over:
        cases.add("a finishing six earns no bonus")
    if data["type"] in ("leave", "remove") and data["seat"] == before.turn and not after.over:
        cases.add("the seat whose turn it is leaves")
    if after.over and after.end_reason == "finished" and data["type"] in ("leave", "remove"):
        cases.add("finished by the last racer leaving")
    if "finished" in kinds and not after.over:
        cases.add("a finisher, the race goes on")
    return cases


CLASSIC = Rules()
LOS = Rules(finish=Finish.LAST_ONE_STANDING)
LOOSE = Rules(exact_finish=False, six_again=False)
"""Classic, with no exact finish and no bonus for a six."""
LOOSE_LOS = Rules(finish=Finish.LAST_ONE_STANDING, exact_finish=False, six_again=False)

FIXED_GAMES: tuple[Script, ...] = (
    # Classic: two leave (one of them removed), and the last one left wins at once.
    Script(("ended: last-player", "leave", "remove"), 3, CLASSIC, "jungle",
           (3, 5, leave(1), 2, remove(1))),
    Script(("ended: abandoned", "abandon", "after the end"), 2, CLASSIC, "short",
           (4, 2, 3, 1, abandon())),
    # Nobody finished, and nobody is left.
    Script(("ended: everyone-left",), 2, LOS, "jungle", (2, leave(0), remove(0))),
    # One player runs 6s on the bare board (17 turns: 102 is past 100); the other, left
    # alone in the race, leaves too: the game is finished.
    Script(("past 100", "a finisher, the race goes on", "finished by the last racer leaving"),
           2, LOOSE_LOS, "bare", (6, 1) * 17 + (1, leave(0))),
    # Two sixes, then the die has five faces: a 4, and later a six it cannot show.
    Script(("bonus roll", "five-faced roll", "too high (a six on the five-faced die)"),
           2, CLASSIC, "bare", (6, 6, 4, 1, 6, 6, bad("too high"), 2)),
    Script(("too high",), 2, LOOSE, "bare", (2, bad("too high"), 3)),
    Script(("bonus lost on a skip", "skip"), 2, CLASSIC, "jungle", (6, skip(), 2, skip(), 3)),
    Script(("wrong seat",), 3, CLASSIC, "jungle", (2, bad("wrong seat"), 3), first=1),
    Script(("unknown seat",), 2, CLASSIC, "jungle", (bad("unknown seat", 3), 1)),
    # A leave by a seat that has already left.
    Script(("leave gone", "the seat whose turn it is leaves"), 3, LOS, "treacherous",
           (2, leave(1), bad("leave gone"), 4)),
    # One seat, 5s to 95 on the bare board: a 6 would pass 100 and is refused; 5 finishes.
    Script(("overshoot", "ended: finished", "finish: classic"), 1, CLASSIC, "bare",
           (5,) * 19 + (6, 5)),
    # Last One Standing: 5s to 90, a 4 to 94, and a six that lands on 100 passes the turn.
    Script(("a finishing six earns no bonus",), 2, LOS, "bare", (5, 1) * 18 + (4, 1, 6, 1)),
    # Whole games on every board, to the end, on fixed dice.
    Script(("board: jungle", "ended: finished"), 3, CLASSIC, "jungle", (), seed=1),
    Script(("board: ladders-galore", "finish: last-one-standing", "ended: finished"),
           3, LOS, "ladders-galore", (), first=2, seed=2),
    Script(("board: short", "ended: finished"), 2, LOOSE, "short", (), seed=3),
    Script(("board: treacherous", "ended: finished"), 2, CLASSIC, "treacherous", (), seed=4),
    Script(("board: bare", "ended: finished"), 4, LOS, "bare", (), first=3, seed=5),
)  # fmt: skip
"""Fixed games, each with the cases it is there to reach (tests/engine/test_rules_games.py
checks that it does); the rules differential replays them all on every run."""

CASES = frozenset(case for script in FIXED_GAMES for case in script.reaches)
"""Every case the page's rules must get right, each reached by a fixed game."""
