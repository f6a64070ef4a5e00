"""The whole game by keyboard alone: Tab and Enter through setup, Space to roll.

Product brief: "Accessible: keyboard alone plays a whole game".
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import next_step, script_dice, snap, use_instant_animations
from tests.support.quick_game import first_seat_wins_quickly

pytestmark = pytest.mark.browser


def _tab_to(page: Page, testid: str, limit: int = 60) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement && document.activeElement.dataset.testid")
        if focused == testid:
            return
    raise AssertionError(f"Tab never reached {testid}")


def test_a_whole_game_by_keyboard_alone(page: Page) -> None:
    use_instant_animations(page)
    script_dice(page, *first_seat_wins_quickly(2))  # a short whole game
    _tab_to(page, "play-pass")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-screen=setup]")
    _tab_to(page, "start-game")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
    snap(page, "keyboard-game")

    rolls = 0
    while (step := next_step(page)) == "roll":
        # Focus is not on a form field, so Space rolls for the glowing seat.
        page.keyboard.press("Space" if rolls % 2 == 0 else "Enter")
        rolls += 1
        assert rolls < 2000
    assert step == "result"
    assert rolls > 0
    expect(page.get_by_test_id("result-row")).to_have_count(2)

    _tab_to(page, "result-home")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-screen=home]")


def test_escape_from_the_leave_dialog_puts_focus_back_on_roll(page: Page) -> None:
    # On your turn, the next Enter after "Keep playing" rolls; it does not reopen the dialog.
    use_instant_animations(page)
    page.goto("/#/setup/pass")
    page.wait_for_selector("[data-screen=setup]")
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
    page.get_by_test_id("home").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("confirm-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("confirm-dialog")).to_be_hidden()
    expect(page.get_by_test_id("roll")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("log-line")).to_contain_text("rolled")
    expect(page.get_by_test_id("confirm-dialog")).to_be_hidden()
