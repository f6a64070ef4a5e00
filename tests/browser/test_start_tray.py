"""The START tray under the board shows only while some token waits on square 0.

How to play: "Everyone starts off the board, on square 0". Once every token is on the
board the tray is wasted space (on a phone it pushes the controls down), so it goes.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import open_setup, script_dice, start_game, use_instant_animations
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

TRAY_SHOWN = """() => {
  const board = document.querySelector('[data-testid=board]');
  const tray = board.querySelector('.tray');
  return board.classList.contains('with-tray') && getComputedStyle(tray).display !== 'none'
    && tray.getBoundingClientRect().bottom <= board.getBoundingClientRect().bottom + 1;
}"""


def test_the_start_tray_goes_once_every_token_is_on_the_board(
    hooks_page: Page, hooks_server: ServerProcess
) -> None:
    page = hooks_page
    use_instant_animations(page)
    open_setup(page, "pass")
    # Seat 1 rolls 1 (climbs to 38), seat 2 rolls 2: then nobody is on 0 any more.
    script_dice(page, 1, 2, 3)
    start_game(page)
    roll = page.get_by_test_id("roll")
    assert page.evaluate(TRAY_SHOWN) is True
    board_height = page.get_by_test_id("board").bounding_box()
    assert board_height is not None

    expect(roll).to_have_attribute("aria-disabled", "false")
    roll.click()
    expect(page.get_by_test_id("log-line")).to_contain_text("climbed")
    expect(roll).to_have_attribute("aria-disabled", "false")
    assert page.evaluate(TRAY_SHOWN) is True  # the second token still waits

    roll.click()
    expect(page.get_by_test_id("log-line")).to_contain_text("entered the board on 2")
    page.wait_for_function(f"() => !({TRAY_SHOWN})()")
    box = page.get_by_test_id("board").bounding_box()
    assert box is not None and box["height"] < board_height["height"] - 40, (box, board_height)

    # Back after a reload, still without the tray.
    page.reload()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    expect(roll).to_have_attribute("aria-disabled", "false")
    assert page.evaluate(TRAY_SHOWN) is False
