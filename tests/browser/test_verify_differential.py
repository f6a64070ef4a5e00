"""The browser's fair-dice replay (js/verify.js) against the Python verifier, record by record.

verify.js re-implements the engine so that checking a game needs no trust in the server.
Here hypothesis builds whole games with the engine itself: fair dice on every shipped
board and rule set, with skips, leaves, removals, abandons, sixes (and the 1-5 die after
two of them) and overshoots; some records are then tampered with. Each record goes through
``verify_record`` (what ``snakes verify`` calls) and through verify.js in one Chromium page,
and both must say the same: status, rolls checked, the commitment, every mismatched roll,
the action where the replay broke, and the state the replay reached (positions, turn,
places, leavers, over).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

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

pytestmark = pytest.mark.browser

BOARDS = [shipped.board for shipped in shipped_boards()]
EXAMPLES = 250
# Abandon ends the game, so it is drawn least.
INTERRUPTS = ["skip", "skip", "skip", "leave", "leave", "remove", "abandon"]
BREAK = re.compile(r"^action (\d+) \(\w+\) does not replay", re.IGNORECASE)

# One call per record: import verify.js (as the Verify screen does) and check the record.
JS_VERIFY = """async ([url, record]) => {
  const { verifyRecord } = await import(url);
  const report = await verifyRecord(record);
  return {
    status: report.status,
    rolls_checked: report.rollsChecked,
    commitment_ok: report.status === "unverifiable" ? null : report.commitmentOk,
    mismatches: report.mismatches.map((m) => [m.index, m.action, m.seat, m.expected, m.recorded]),
    broken_at: report.brokenAt,
    final: report.final ?? null,
  };
}"""


@dataclass
class Game:
    """A generated record, and what it holds (to show that every case was reached)."""

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
    """What the Python side says, in the shape JS_VERIFY returns."""
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
    while not state.over and len(actions) != stop and len(actions) < 3000:
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


def _tamper(record: dict[str, Any], kind: str, pick: int, shift: int) -> None:
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


@st.composite
def games(draw: st.DrawFn) -> Game:
    seats = draw(st.integers(1, 6))
    rules = Rules(
        finish=draw(st.sampled_from(Finish)),
        exact_finish=draw(st.booleans()),
        six_again=draw(st.booleans()),
    )
    table = GameRecord(
        seats=tuple(SeatInfo(f"Seat {n + 1}") for n in range(seats)),
        rules=rules,
        board=draw(st.sampled_from(BOARDS)),
        first=draw(st.integers(0, seats - 1)),
    )
    client_seeds = draw(st.lists(st.text(max_size=20), min_size=seats, max_size=seats))
    dice = FairDice(draw(st.binary(min_size=32, max_size=32)), client_seeds)
    interrupts = draw(
        st.dictionaries(
            st.integers(0, 120),
            st.tuples(st.sampled_from(INTERRUPTS), st.integers(0, 5)),
            max_size=5,
        )
    )
    stop = draw(st.none() | st.none() | st.integers(0, 300))
    game = Game(record={})
    actions = _play(table, dice, interrupts, stop, game.features)
    game.record = table.with_actions(actions).to_data()
    game.record["fair"] = dice.fair_section(reveal=True)
    tamper = draw(
        st.sampled_from(
            ["none"] * 4
            + ["value", "value", "seat", "drop", "swap", "seed", "long client seed", "unrevealed"]
        )
    )
    _tamper(game.record, tamper, draw(st.integers(0, 10**6)), draw(st.integers(0, 10**6)))
    game.features.add(f"tamper: {tamper}")
    return game


@pytest.fixture
def verify_js(page: Page) -> Iterator[str]:
    """The versioned URL of verify.js, as the Verify screen loaded it."""
    page.goto("/#/verify")
    page.wait_for_selector("[data-screen=verify]")
    urls: list[str] = page.evaluate(
        "() => performance.getEntriesByType('resource').map((e) => e.name)"
    )
    url = next(u for u in urls if re.search(r"/js/verify\.js(\?|$)", u))
    yield url


def test_the_browser_replay_agrees_with_the_python_verifier(page: Page, verify_js: str) -> None:
    seen: Counter[str] = Counter()
    verdicts: Counter[str] = Counter()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(games())
    def agree(game: Game) -> None:
        note(json.dumps(game.record))
        expected = python_verdict(game.record)
        found: dict[str, Any] = page.evaluate(JS_VERIFY, [verify_js, game.record])
        if expected["status"] == "unverifiable":
            found = {"status": found["status"]}
        assert found == expected
        seen.update(game.features)
        verdicts[expected["status"]] += 1
        if expected.get("broken_at"):
            verdicts["broken replay"] += 1
        if expected.get("mismatches"):
            verdicts["mismatched roll"] += 1

    agree()
    # Every case the replay has to get right came up (not only in some lucky run).
    wanted = {"skip", "leave", "remove", "abandon", "six", "five-faced roll", "overshoot"}
    assert wanted <= set(seen), seen
    assert {"ok", "tampered", "unverifiable", "broken replay", "mismatched roll"} <= set(
        verdicts
    ), verdicts
