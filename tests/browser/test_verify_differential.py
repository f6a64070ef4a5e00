"""The browser's fair-dice replay (js/verify.js) against the Python verifier, record by record.

verify.js re-implements the engine so that checking a game needs no trust in the server.
Here hypothesis builds whole games with the engine itself: fair dice on every shipped
board and rule set, with skips, leaves, removals, abandons, sixes (and the 1-5 die after
two of them) and overshoots; some records are then tampered with. Each record goes through
``verify_record`` (what ``snakes verify`` calls) and through verify.js in one Chromium page,
and both must say the same: status, rolls checked, the commitment, every mismatched roll,
the action where the replay broke, and the state the replay reached (positions, turn,
places, leavers, over).

Every case the replay must get right (each interruption, sixes and the five-faced die,
each way of tampering, each verdict) is a fixed record of tests/support/fair_records.py,
checked on every run as an explicit example; tests/analysis/test_fair_records.py checks
that each still reaches its case. The drawn records explore beyond them, and only the
agreement is asserted: what they happen to reach is chance.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, note, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

from snakes.engine import GameRecord, SeatInfo
from snakes.engine.rules import Finish, Rules
from snakes.fair import FairDice
from tests.support.fair_records import (
    BOARDS,
    FIXED_RECORDS,
    TAMPERS,
    Game,
    build_record,
    python_verdict,
)

pytestmark = pytest.mark.browser

EXAMPLES = 250
# Abandon ends the game, so it is drawn least.
INTERRUPTS = ["skip", "skip", "skip", "leave", "leave", "remove", "abandon"]

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
        board=draw(st.sampled_from(list(BOARDS.values()))),
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
    # Untouched records and changed values come most often.
    kind = draw(st.sampled_from(["none"] * 4 + ["value", *TAMPERS[1:]]))
    tamper = (kind, draw(st.integers(0, 10**6)), draw(st.integers(0, 10**6)))
    return build_record(table, dice, interrupts, stop, tamper)


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


def fixed_examples(test: Any) -> Any:
    """Every fixed record, checked first on every run (the cases it must cover)."""
    for script in reversed(FIXED_RECORDS):
        test = example(script.game())(test)
    return test


def test_the_browser_replay_agrees_with_the_python_verifier(page: Page, verify_js: str) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(games())
    @fixed_examples
    def agree(game: Game) -> None:
        note(json.dumps(game.record))
        expected = python_verdict(game.record)
        found: dict[str, Any] = page.evaluate(JS_VERIFY, [verify_js, game.record])
        if expected["status"] == "unverifiable":
            found = {"status": found["status"]}
        assert found == expected

    agree()
