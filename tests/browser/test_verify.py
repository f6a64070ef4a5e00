"""The Verify screen recomputes a game's fair dice in the browser (docs/FAIR_DICE.md).

Product brief, What every screen offers: "Verify (when fair dice exist): recomputes a
game's rolls in the browser, so that checking needs no trust in the server. This is the
one place the browser computes."

The records are made by the Python side (``snakes.fair``), and the browser's verdict is
held against ``verify_record``'s, roll by roll.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page, expect

from snakes.engine import GameRecord, Rules, SeatInfo
from snakes.engine.rules import Finish
from snakes.fair import play_fair_game, verify_record
from tests.browser.helpers import serious_violations, snap, use_instant_animations
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

SEEDS = ["3f1c0a9be27d4c55a0e1d2c3b4a59687", "", "ü-seed from a phone"]


def _has_five_faced_roll(record: dict[str, Any]) -> bool:
    """Two sixes by one seat in a row, then a third roll by it: a 1-5 die was used."""
    actions = record["actions"]
    for first, second, third in zip(actions, actions[1:], actions[2:], strict=False):
        same_seat = first["seat"] == second["seat"] == third["seat"]
        if same_seat and first["value"] == second["value"] == 6:
            return True
    return False


def _fair_record() -> dict[str, Any]:
    """A whole Last One Standing game with fair dice, including a roll on the 1-5 die."""
    table = GameRecord(
        seats=(SeatInfo("Ana", "red"), SeatInfo("Ben", "blue"), SeatInfo("Cy", "green")),
        rules=Rules(finish=Finish.LAST_ONE_STANDING),
    )
    for n in range(200):
        record = play_fair_game(bytes([n]) * 32, SEEDS, record=table)
        if _has_five_faced_roll(record):
            return record
    raise AssertionError("no seed gave two sixes in a row")


def _check(page: Page, record: dict[str, Any]) -> None:
    page.get_by_test_id("verify-input").fill(json.dumps(record))
    page.get_by_test_id("verify-check").click()
    expect(page.get_by_test_id("verify-result")).not_to_have_attribute("data-status", "checking")


def _mismatches(page: Page) -> list[tuple[int, int, int]]:
    rows = page.get_by_test_id("verify-mismatch")
    return [
        (
            int(rows.nth(i).get_attribute("data-index") or -1),
            int(rows.nth(i).get_attribute("data-expected") or -1),
            int(rows.nth(i).get_attribute("data-recorded") or -1),
        )
        for i in range(rows.count())
    ]


def test_the_browser_recomputes_every_roll_and_names_a_tampered_one(page: Page) -> None:
    record = _fair_record()
    rolls = sum(action["type"] == "roll" for action in record["actions"])
    assert verify_record(record).ok

    page.goto("/#/verify")
    page.wait_for_selector("[data-screen=verify]")
    _check(page, record)
    result = page.get_by_test_id("verify-result")
    expect(result).to_have_attribute("data-status", "ok")
    expect(page.get_by_test_id("verify-headline")).to_have_text(f"All {rolls} rolls match")
    expect(result).to_contain_text(record["fair"]["commitment"])
    snap(page, "verify-ok")
    assert serious_violations(page) == []

    # Change one roll: the browser names it, with the value the seeds give.
    tampered = copy.deepcopy(record)
    roll_actions = [a for a in tampered["actions"] if a["type"] == "roll"]
    index = 7
    original = roll_actions[index]["value"]
    roll_actions[index]["value"] = original % 5 + 1 if original != 5 else 4
    expected = [(m.index, m.expected, m.recorded) for m in verify_record(tampered).mismatches]
    assert expected[0] == (index, original, roll_actions[index]["value"])
    _check(page, tampered)
    expect(result).to_have_attribute("data-status", "tampered")
    first = page.get_by_test_id("verify-mismatch").first
    action = next(n for n, a in enumerate(tampered["actions"], 1) if a is roll_actions[index])
    expect(first).to_contain_text(f"Roll #{index} (action {action}, ")
    expect(first).to_contain_text(
        f"the seeds give {original}, but the record says {roll_actions[index]['value']}"
    )
    assert _mismatches(page) == expected
    snap(page, "verify-tampered")
    assert serious_violations(page) == []

    # A server seed that does not match its commitment is caught too.
    swapped = copy.deepcopy(record)
    swapped["fair"]["server_seed"] = "ab" * 32
    _check(page, swapped)
    expect(result).to_have_attribute("data-status", "tampered")
    expect(result).to_contain_text("does not match the commitment")

    # Before the reveal (or without fair dice) a record cannot be checked, and says why.
    unrevealed = copy.deepcopy(record)
    del unrevealed["fair"]["server_seed"]
    _check(page, unrevealed)
    expect(result).to_have_attribute("data-status", "unverifiable")
    expect(result).to_contain_text("has not been revealed yet")
    page.get_by_test_id("verify-input").fill("{not json")
    page.get_by_test_id("verify-check").click()
    expect(result).to_have_attribute("data-status", "unverifiable")

    # A downloaded file can be opened instead of pasted.
    upload = FilePayload(
        name="game.json", mimeType="application/json", buffer=json.dumps(record).encode()
    )
    page.get_by_test_id("verify-file").set_input_files(files=[upload])
    expect(result).to_have_attribute("data-status", "ok")


def test_an_online_game_links_to_its_verification_from_the_result(
    page: Page, web_server: ServerProcess
) -> None:
    use_instant_animations(page)
    page.goto("/#/online")
    page.wait_for_selector("[data-screen=online]")
    page.get_by_test_id("host-name").fill("Vera")
    page.get_by_test_id("create-room").click()
    page.wait_for_selector("[data-screen=lobby]")
    code = page.get_attribute("[data-screen=lobby]", "data-code")
    assert code
    # The browser adds its own seed to the dice once it has seen the commitment.
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('snakes.seeds') || '[]').length === 1"
    )
    joined = web_server.post(f"/api/rooms/{code}/join", {"name": "Walt", "colour": "blue"})
    with GameClient(web_server.ws_url) as walt:
        walt.hello(code, joined["secret"])
        expect(page.get_by_test_id("lobby-seat")).to_have_count(2)
        page.get_by_test_id("start-online").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        # Vera rolls until the turn passes (a six rolls again), then Walt gives up.
        while web_server.get(f"/api/rooms/{code}")["turn"] == 0:
            version = web_server.get(f"/api/rooms/{code}")["version"]
            roll = page.get_by_test_id("roll")
            expect(roll).to_have_attribute("aria-disabled", "false")
            roll.click()
            page.wait_for_selector(f"[data-screen=game][data-version='{version + 1}']")
        walt.send({"type": "leave", "seat": 1})
        page.wait_for_selector("[data-screen=result] [data-testid=result-list]")
    expect(page.get_by_test_id("winner")).to_have_text("You won!")
    expect(page.get_by_test_id("download-record")).to_have_attribute(
        "href", f"/api/rooms/{code}/record?game=1"
    )
    record = web_server.get(f"/api/rooms/{code}/record")
    rolls = sum(action["type"] == "roll" for action in record["actions"])
    assert rolls >= 1 and verify_record(record).ok

    page.get_by_test_id("verify-game").click()
    page.wait_for_selector("[data-screen=verify]")
    expect(page.get_by_test_id("verify-result")).to_have_attribute("data-status", "ok")
    expect(page.get_by_test_id("verify-headline")).to_have_text(
        f"All {rolls} rolls match" if rolls > 1 else "The one roll matches"
    )
    expect(page.get_by_test_id("verify-own-seed")).to_contain_text(
        "Your device\N{RIGHT SINGLE QUOTATION MARK}s own random seed is in this record"
    )
