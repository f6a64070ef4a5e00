"""Play with AI in a real browser: five AI opponents, Last One Standing, Skip to results.

How to play: "Last One Standing: reaching 100 locks in your finishing position — 1st,
2nd, 3rd… — and the rest keep racing until everyone reaches 100."
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    next_step,
    open_setup,
    page_room,
    play_to_result,
    script_dice,
    snap,
    start_game,
    use_instant_animations,
)
from tests.support.quick_game import first_seat_wins_quickly
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


def test_five_ai_last_one_standing_ends_with_the_complete_order(
    page: Page, web_server: ServerProcess
) -> None:
    use_instant_animations(page)
    open_setup(page, "ai")
    page.get_by_test_id("finish-last-one-standing").check()
    while page.get_by_test_id("ai-count").inner_text() != "5":
        page.get_by_test_id("ai-more").click()
    expect(page.get_by_test_id("ai-more")).to_be_disabled()
    page.get_by_test_id("seat-name").first.fill("Ana")
    snap(page, "ai-setup")

    # Ana finishes first in five turns; then only AI seats race, and Skip to results
    # plays out the rest (their dice random once the scripted ones are used up).
    script_dice(page, *first_seat_wins_quickly(6))
    start_game(page)
    room = page_room(page)
    assert room["rules"]["finish"] == "last-one-standing"
    assert [s["kind"] for s in room["seats"]] == ["human"] + ["ai"] * 5
    expect(page.get_by_test_id("seat-card")).to_have_count(6)
    expect(page.get_by_test_id("rules-summary")).to_contain_text("Last One Standing")

    # Race until the human has finished and only AI seats are left: then skip.
    saw_skip = False
    for _ in range(2000):
        step = next_step(page)
        if step == "skip":
            saw_skip = True
            snap(page, "ai-skip-offered")
            break
        if step == "result":
            break
        page.get_by_test_id("roll").click()
    play_to_result(page)

    rows = page.get_by_test_id("result-row")
    expect(rows).to_have_count(6)
    places = [rows.nth(i).get_attribute("data-place") for i in range(6)]
    assert places == ["1", "2", "3", "4", "5", "6"]
    for i in range(6):
        expect(rows.nth(i)).to_have_attribute("data-status", "finished")
    # The first three carry medals; the order matches the engine's standings.
    expect(page.locator("[data-testid=result-row] .medal")).to_have_count(3)
    final = page_room(page)
    assert final["over"] is True
    seats = [int(rows.nth(i).get_attribute("data-seat") or -1) for i in range(6)]
    assert seats == final["standings"]
    assert final["standings"][0] == 0  # Ana, as scripted
    assert saw_skip  # offered once only AI seats are racing
    snap(page, "ai-result")
