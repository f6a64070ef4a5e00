"""The START tray under the board shows only while some token waits on square 0.

How to play: "Everyone starts off the board, on square 0". Once every token is on the
board the tray is wasted space (on a phone it pushes the controls down), so it goes.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    checked_page,
    open_setup,
    script_dice,
    start_game,
    use_instant_animations,
)
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


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("players", [2, 4], ids=["two", "four"])
def test_the_start_tray_has_a_slot_for_each_player(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int], players: int
) -> None:
    names = ["Ana", "Ben", "Cy", "Dee"][:players]
    colours = ["red", "blue", "green", "yellow"]
    seats = [{"name": n, "colour": c} for n, c in zip(names, colours, strict=False)]
    created = web_server.post("/api/rooms", {"mode": "pass", "seats": seats})
    for page in checked_page(browser, web_server, viewport):
        page.goto("/")
        page.evaluate(
            "([code, secret]) => { localStorage.setItem('snakes.game', JSON.stringify("
            "{code, secret, mode: 'pass', over: false, saved: Date.now()}));"
            " localStorage.setItem('snakes.settings', JSON.stringify({speed: 'instant'})); }",
            [created["code"], created["secret"]],
        )
        page.goto(f"/#/game/{created['code']}")
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        page.wait_for_function(TRAY_SHOWN)
        if players == 4:
            doc_shot(page, "start-tray-slots")
        slots = page.locator("[data-testid=board] .tray circle")
        expect(slots).to_have_count(players)
        # Each waiting token sits on its own slot.
        centres = page.evaluate(
            """() => {
              const c = (el) => { const b = el.getBoundingClientRect();
                                  return [b.x + b.width / 2, b.y + b.height / 2]; };
              const slots = [...document.querySelectorAll('[data-testid=board] .tray circle')];
              const tokens = [...document.querySelectorAll('.token')].map((t) => c(t));
              return {slots: slots.map(c), tokens};
            }"""
        )
        for token in centres["tokens"]:
            near = min(abs(token[0] - s[0]) + abs(token[1] - s[1]) for s in centres["slots"])
            assert near < 6, (token, centres["slots"])
