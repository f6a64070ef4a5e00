"""A game in a hidden tab costs nothing: the turn countdown stops ticking while the tab is
hidden, and is right again the moment it is shown (it counts to the server's deadline,
not by its ticks). The board's decorations already rest (tests/browser/test_idle_screens.py).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import DESKTOP, PHONE, checked_page
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

# Every change the countdown makes to what it shows (its bar moves each tick).
WATCH = """() => {
  window.__ticks = 0;
  const el = document.querySelector('[data-testid=countdown]');
  new MutationObserver((changes) => { window.__ticks += changes.length; })
    .observe(el, {subtree: true, attributes: true, childList: true, characterData: true});
}"""


def set_hidden(hidden: bool) -> str:
    """The page told its tab is hidden (or shown), as a browser tells it."""
    state = "hidden" if hidden else "visible"
    return (
        "() => {"
        f" Object.defineProperty(document, 'hidden', {{value: {str(hidden).lower()},"
        " configurable: true});"
        f" Object.defineProperty(document, 'visibilityState', {{value: '{state}',"
        " configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_countdown_stops_ticking_in_a_hidden_tab_and_is_right_when_shown(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    server = web_server
    created = server.post(
        "/api/rooms",
        {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}], "countdown_seconds": 60},
    )
    code, secret = created["code"], created["secret"]
    joined = server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
    gus = GameClient(server.ws_url)
    try:
        for page in checked_page(browser, server, viewport):
            page.goto("/")
            page.evaluate(
                "([code, secret]) => localStorage.setItem('snakes.game', JSON.stringify("
                "{code, secret, mode: 'online', over: false, saved: Date.now()}))",
                [code, secret],
            )
            gus.hello(code, joined["secret"])
            page.goto(f"/#/online/lobby/{code}")
            page.get_by_test_id("start-online").click()
            countdown = page.get_by_test_id("countdown")
            expect(countdown).to_be_visible()
            page.evaluate(WATCH)
            page.wait_for_function("() => window.__ticks > 3")  # it ticks while seen

            page.evaluate(set_hidden(True))
            page.evaluate("() => { window.__ticks = 0; }")
            # No tick may come while hidden: a second is ten ticks' time.
            page.wait_for_timeout(1_000)
            assert page.evaluate("window.__ticks") == 0, "the countdown ticked in a hidden tab"

            page.evaluate(set_hidden(False))
            page.wait_for_function("() => window.__ticks > 0")
            room = server.get(f"/api/rooms/{code}")
            left = int(countdown.get_attribute("data-left") or "0")
            assert 0 < left <= room["countdown_seconds"]
            assert left >= room["countdown"]["remaining_ms"] / 1000 - 3, (left, room["countdown"])
    finally:
        gus.close()
