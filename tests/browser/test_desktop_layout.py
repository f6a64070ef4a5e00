"""On a desktop window the whole board, START tray included, is on screen without scrolling.

The brief: "works from 360 x 640 phones to large screens". At the start every token
waits in the START tray under the board; a board pushed below the window's edge would
hide them (a pop-up's positioning once moved it down by the top bar's height).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import open_setup, start_game, use_instant_animations
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("width,height", [(1440, 900), (1280, 720), (1024, 768)])
def test_the_whole_board_and_its_start_tray_fit_a_desktop_window(
    browser: Browser, web_server: ServerProcess, width: int, height: int
) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": height}, base_url=web_server.url
    )
    page = context.new_page()
    try:
        use_instant_animations(page)
        open_setup(page, "pass")
        start_game(page)
        expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
        assert page.evaluate("window.scrollY") == 0
        boxes = page.evaluate(
            """() => Object.fromEntries([
              ['board', document.querySelector('[data-testid=board]')],
              ['tray', document.querySelector('.tray-label')],
              ['layout', document.querySelector('.game-layout')],
            ].map(([name, el]) => { const b = el.getBoundingClientRect();
              return [name, {top: b.top, bottom: b.bottom}]; }))"""
        )
        assert boxes["board"]["bottom"] <= height, boxes
        assert boxes["tray"]["bottom"] <= height, boxes
        # The board starts where the layout does: no gap above it.
        assert abs(boxes["board"]["top"] - boxes["layout"]["top"]) <= 1, boxes
    finally:
        context.close()
