"""Numbers in plain words, on a phone and on a big screen: the board picker says how long a
game of two usually takes and the range most games fall in, and the live odds give an
expected place as "about 2nd", not "expected place 1.96" (the figure is on the chart).
The replay's moments are held to their words in tests/browser/test_replay.py.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    checked_page,
    open_setup,
    start_game,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_board_picker_and_the_odds_speak_plainly(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    jungle = next(b for b in web_server.get("/api/boards") if b["name"] == "jungle")
    for page in checked_page(browser, web_server, viewport):
        page.goto("/")
        page.evaluate(
            "localStorage.setItem('snakes.settings',"
            " JSON.stringify({speed: 'instant', sound: false, showOdds: true}))"
        )
        page.reload()  # the app reads its settings when it starts
        page.wait_for_selector("[data-screen=home]")
        open_setup(page, "pass")
        length = page.locator(".board-card[data-board=jungle]").get_by_test_id("board-length")
        low, median, high = (jungle[f"game_{k}_turns"] for k in ("low", "median", "high"))
        expect(length).to_have_text(
            f"medium game · about {median} turns · most games {low}\N{EN DASH}{high}"
        )
        page.get_by_test_id("finish-last-one-standing").check()
        start_game(page)
        rows = page.get_by_test_id("odds-row")
        expect(rows).to_have_count(2)
        for i in range(2):
            expect(rows.nth(i)).to_have_text(re.compile(r"about (1st|2nd)$"))
            assert not re.search(r"\d\.\d", rows.nth(i).inner_text()), "a bare figure"
