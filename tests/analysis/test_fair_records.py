"""The fixed records the browser's fair-dice replay checks reach the cases they are for.

The verify differential (tests/browser/test_verify_differential.py) replays each fixed
record of tests/support/fair_records.py on every run, beside the records hypothesis
draws. What the drawn ones reach is chance; these checks make sure each fixed record,
played and verified in Python, still reaches its case, every time.
"""

from __future__ import annotations

import pytest

from tests.support.fair_records import CASES, FIXED_RECORDS, TAMPERS, FairScript, cases_of


@pytest.mark.parametrize("script", FIXED_RECORDS, ids=lambda script: script.reaches[0])
def test_each_fixed_record_reaches_its_cases(script: FairScript) -> None:
    cases = cases_of(script.game())
    assert set(script.reaches) <= cases, set(script.reaches) - cases


def test_the_fixed_records_reach_every_interruption_tampering_and_verdict() -> None:
    wanted = {"skip", "leave", "remove", "abandon", "six", "five-faced roll", "overshoot"}
    wanted |= {"bounce-free finish", "finished", "unfinished"}
    wanted |= {f"tamper: {kind}" for kind in TAMPERS if kind != "none"}
    wanted |= {"ok", "tampered", "unverifiable", "broken replay", "mismatched roll"}
    wanted |= {"commitment broken"}
    assert wanted <= CASES, wanted - CASES


def test_a_fixed_record_is_the_same_record_every_time() -> None:
    for script in FIXED_RECORDS:
        assert script.game() == script.game()
