"""Fair-dice game records for the browser's replay to check, built with the engine.

:func:`build_record` plays a game with :class:`FairDice` (whoever is up rolls; skips,
leaves, removals and an abandon at given places), then may tamper with the record.
It notes the cases the record holds ("six", "five-faced roll", "tamper: drop", ...), and
:func:`cases_of` adds what the Python verifier says of it ("ok", "broken replay", ...).
The fixed records below, one per case, are checked to reach their cases
(tests/analysis/test_fair_records.py) and replayed by the verify differential
(tests/browser/test_verify_differential.py) on every run, beside the drawn ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from snakes.boards import shipped_boards
from snakes.engine import (
    Abandon,
    Action,
    GameRecord,
    GameState,
    Leave,
    Remove,
    Roll,
    RuleError,
    SeatInfo,
    Skip,
    apply,
    start_state,
)
from snakes.engine.board import FINISH
from snakes.engine.rules import Finish, Rules
from snakes.fair import FairDice, UnverifiableRecord, verify_record

BOARDS = {shipped.board.name: shipped.board for shipped in shipped_boards()}
MAX_ACTIONS = 3000
BREAK = re.compile(r"^action (\d+) \(\w+\) does not replay", re.IGNORECASE)
TAMPERS = ("none", "value", "seat", "drop", "swap", "seed", "long client seed", "unrevealed")


@dataclass
class Game:
    """A generated record, and the cases it holds."""

    record: dict[str, Any]
    features: set[str] = field(default_factory=set)


def _final(state: GameState) -> dict[str, Any]:
    return {
        "positions": list(state.positions),
        "turn": state.turn,
        "standings": list(state.standings),
        "leavers": list(state.leavers),
        "over": state.over,
    }


def python_verdict(record: dict[str, Any]) -> dict[str, Any]:
    """What the Python side says, in the shape the browser's check returns."""
    try:
        report = verify_record(record)
    except UnverifiableRecord:
        return {"status": "unverifiable"}
    broken = next((int(m[1]) for p in report.problems if (m := BREAK.match(p))), None)
    # The state the replay reached: the engine, up to the action that broke it.
    table = GameRecord.from_data({k: v for k, v in record.items() if k != "fair"})
    state = start_state(table)
    for action in table.actions:
        try:
            state, _ = apply(state, action)
        except RuleError:
            break
    return {
        "status": "ok" if report.ok else "tampered",
        "rolls_checked": report.rolls_checked,
        "commitment_ok": report.commitment_ok,
        "mismatches": [
            [m.index, m.action, m.seat, m.expected, m.recorded] for m in report.mismatches
        ],
        "broken_at": broken,
        "final": _final(state),
    }


def cases_of(game: Game) -> set[str]:
    """What the record holds, and what the verifier says of it."""
    verdict = python_verdict(game.record)
    cases = game.features | {verdict["status"]}
    if verdict.get("broken_at"):
        cases.add("broken replay")
    if verdict.get("mismatches"):
        cases.add("mismatched roll")
    if verdict.get("commitment_ok") is False:
        cases.add("commitment broken")
    return cases


def _interrupt(state: GameState, kind: str, pick: int) -> Action:
    assert state.turn is not None
    if kind == "skip":
        return Skip(seat=state.turn)
    if kind == "abandon":
        return Abandon()
    seat = state.racing[pick % len(state.racing)]
    return Leave(seat=seat) if kind == "leave" else Remove(seat=seat)


def _play(
    table: GameRecord,
    dice: FairDice,
    interrupts: dict[int, tuple[str, int]],
    stop: int | None,
    features: set[str],
) -> list[Action]:
    """Fair rolls by whoever is up, with the interruptions at their places, to the end."""
    state = start_state(table)
    actions: list[Action] = []
    while not state.over and len(actions) != stop and len(actions) < MAX_ACTIONS:
        planned = interrupts.get(len(actions))
        if planned:
            action = _interrupt(state, *planned)
            features.add(action.kind)
        else:
            assert state.turn is not None
            if state.faces == 5:
                features.add("five-faced roll")
            action = Roll(seat=state.turn, value=dice.roll(state.faces))
            start = state.positions[action.seat]
            if start + action.value > FINISH:
                features.add("overshoot" if table.rules.exact_finish else "bounce-free finish")
            if action.value == 6:
                features.add("six")
        state, _ = apply(state, action)
        actions.append(action)
    features.add("finished" if state.over else "unfinished")
    return actions


def _tamper(record: dict[str, Any], kind: str, pick: int, shift: int) -> bool:
    """Change the record as ``kind`` says; False if this record has nothing to change."""
    actions = record["actions"]
    rolls = [a for a in actions if a["type"] == "roll"]
    seats = len(record["seats"])
    if kind == "value" and rolls:
        roll = rolls[pick % len(rolls)]
        roll["value"] = (roll["value"] - 1 + 1 + shift % 5) % 6 + 1
    elif kind == "seat" and rolls and seats > 1:
        roll = rolls[pick % len(rolls)]
        roll["seat"] = (roll["seat"] + 1 + shift % (seats - 1)) % seats
    elif kind == "drop" and actions:
        del actions[pick % len(actions)]
    elif kind == "swap" and len(actions) > 1:
        i = pick % (len(actions) - 1)
        actions[i], actions[i + 1] = actions[i + 1], actions[i]
    elif kind == "seed":
        record["fair"]["server_seed"] = bytes((shift + n) % 256 for n in range(32)).hex()
    elif kind == "long client seed":
        record["fair"]["client_seeds"][pick % seats] = "x" * 129
    elif kind == "unrevealed":
        del record["fair"]["server_seed"]
    else:
        return kind == "none"
    return True


def build_record(
    table: GameRecord,
    dice: FairDice,
    interrupts: dict[int, tuple[str, int]],
    stop: int | None = None,
    tamper: tuple[str, int, int] = ("none", 0, 0),
) -> Game:
    """The record of a fair game played to the end (or to ``stop``), then tampered with
    (``tamper`` is the kind and two numbers that pick what to change)."""
    game = Game(record={})
    actions = _play(table, dice, interrupts, stop, game.features)
    game.record = table.with_actions(actions).to_data()
    game.record["fair"] = dice.fair_section(reveal=True)
    if _tamper(game.record, *tamper):
        game.features.add(f"tamper: {tamper[0]}")
    return game


@dataclass(frozen=True)
class FairScript:
    """A fixed record: its table, its seeds, its interruptions and its tampering, and
    the cases it is there to reach."""

    reaches: tuple[str, ...]
    seats: int
    rules: Rules
    board: str
    seed: int
    """The server seed is 32 bytes counting up from this."""
    interrupts: tuple[tuple[int, str, int], ...] = ()
    """(action index, kind, pick)"""
    stop: int | None = None
    tamper: tuple[str, int, int] = ("none", 0, 0)
    first: int = 0

    def table(self) -> GameRecord:
        return GameRecord(
            seats=tuple(SeatInfo(f"Seat {n + 1}") for n in range(self.seats)),
            rules=self.rules,
            board=BOARDS[self.board],
            first=self.first,
        )

    def game(self) -> Game:
        server_seed = bytes((self.seed + n) % 256 for n in range(32))
        dice = FairDice(server_seed, [f"device {n}" for n in range(self.seats)])
        planned = {index: (kind, pick) for index, kind, pick in self.interrupts}
        return build_record(self.table(), dice, planned, self.stop, self.tamper)


CLASSIC = Rules()
LOS = Rules(finish=Finish.LAST_ONE_STANDING)
LOOSE = Rules(exact_finish=False, six_again=False)


FIXED_RECORDS: tuple[FairScript, ...] = (
    FairScript(("ok", "finished", "six", "five-faced roll", "overshoot"), 2, CLASSIC, "jungle", 1),
    FairScript(("bounce-free finish",), 3, LOOSE, "short", 2),
    FairScript(("skip", "leave", "remove", "ok"), 4, LOS, "ladders-galore", 2,
               interrupts=((3, "skip", 0), (8, "leave", 1), (15, "remove", 0))),
    FairScript(("abandon",), 2, CLASSIC, "treacherous", 3, interrupts=((9, "abandon", 0),)),
    FairScript(("unfinished",), 3, CLASSIC, "bare", 4, stop=20),
    FairScript(("tamper: value", "mismatched roll", "tampered"), 2, CLASSIC, "jungle", 5,
               tamper=("value", 4, 1)),
    FairScript(("tamper: seat", "broken replay"), 3, CLASSIC, "jungle", 6, tamper=("seat", 2, 0)),
    FairScript(("tamper: drop",), 2, LOS, "short", 7, tamper=("drop", 5, 0)),
    FairScript(("tamper: swap",), 2, CLASSIC, "jungle", 8, tamper=("swap", 2, 0)),
    FairScript(("tamper: seed", "commitment broken"), 2, CLASSIC, "jungle", 9,
               tamper=("seed", 0, 77)),
    FairScript(("tamper: long client seed", "unverifiable"), 2, CLASSIC, "jungle", 10,
               tamper=("long client seed", 1, 0)),
    FairScript(("tamper: unrevealed",), 2, CLASSIC, "jungle", 11, tamper=("unrevealed", 0, 0)),
)  # fmt: skip
"""Fixed records, each with the cases it is there to reach (tests/analysis/
test_fair_records.py checks that it does); the verify differential replays them all."""

CASES = frozenset(case for script in FIXED_RECORDS for case in script.reaches)
"""Every case the browser's replay must get right, each reached by a fixed record."""
