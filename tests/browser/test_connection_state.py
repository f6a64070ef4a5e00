"""A lost connection a player can read: the top bar and the game's banner say offline
(and what the game waits for) within 3 s of the network going, and connected again
once it is back; offline on a phone, Start Game's error shows on the screen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    checked_page,
    use_instant_animations,
    wait_for_online_table,
)
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

WITHIN = 3_000
"""Milliseconds: the longest a change of state may go unshown."""


WATCH_OFFLINE = """() => {
  // Milliseconds from now (the network about to go) to when the page first showed each
  // part of the news: the top bar's dot and words, the banner, the line under it.
  const start = performance.now();
  const told = (window.__told = {});
  const seen = (what, shown) => {
    if (shown && !(what in told)) told[what] = performance.now() - start;
  };
  const look = () => {
    const connection = document.querySelector('[data-testid=connection]');
    seen('connection', connection.dataset.state === 'offline' && !connection.hidden);
    const banner = document.querySelector('[data-testid=turn-banner]');
    seen('banner', banner.textContent === 'You are offline');
    const line = document.querySelector('[data-testid=log-line]');
    seen('line', line.textContent.includes('your turn may be skipped'));
  };
  new MutationObserver(look).observe(document.body, {
    subtree: true, childList: true, characterData: true, attributes: true,
  });
}"""
"""Records, in the page, when the news of the network gone was shown."""

OFFLINE_NOISE = "net::ERR_INTERNET_DISCONNECTED"
"""The browser's own console line for a request made while offline: expected here."""


def offline_page(
    browser: Browser, server: ServerProcess, viewport: dict[str, int]
) -> Iterator[Page]:
    """A fresh page that fails the test on any page error but the offline requests'."""
    return checked_page(browser, server, viewport, noise=OFFLINE_NOISE)


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    return dict(request.param)


def test_an_online_game_says_offline_within_3_s_and_what_it_means(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    """Online, the server decides: a player who loses the network is told the game goes
    on without them (a local game needs no network, so it has nothing to say)."""
    server = web_server
    created = server.post(
        "/api/rooms", {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}]}
    )
    code, secret = created["code"], created["secret"]
    guest = GameClient(server.ws_url)
    try:
        for page in offline_page(browser, server, viewport):
            use_instant_animations(page)
            page.goto("/")
            page.evaluate(
                """([code, secret]) => {
                  const game = {code, secret, mode: 'online', over: false, saved: Date.now()};
                  localStorage.setItem('snakes.game', JSON.stringify(game));
                }""",
                [code, secret],
            )
            joined = server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
            guest.hello(code, joined["secret"])
            page.goto(f"/#/online/lobby/{code}")
            page.get_by_test_id("start-online").click()
            page.wait_for_selector("[data-screen=game]:not([data-version=''])")
            connection = page.get_by_test_id("connection")
            expect(connection).to_have_attribute("data-state", "open")
            wait_for_online_table(page)

            page.evaluate(WATCH_OFFLINE)
            page.context.set_offline(True)
            banner = page.get_by_test_id("turn-banner")
            try:
                expect(connection).to_have_attribute("data-state", "offline")
                expect(connection).to_be_visible()
                expect(connection).to_contain_text("Offline")
                expect(banner).to_have_text("You are offline")
                expect(page.get_by_test_id("log-line")).to_contain_text("your turn may be skipped")
                expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "true")
                # Within 3 s by the page's own clock: when each was shown, not when a
                # check from here (as slow as the machine is busy) came to look.
                told = page.evaluate("window.__told")
                late = {what: ms for what, ms in told.items() if ms > WITHIN}
                assert set(told) == {"connection", "banner", "line"} and not late, told
            finally:
                doc_shot(page, "connection-offline")  # what the player sees by then

            page.context.set_offline(False)
            expect(connection).to_have_attribute("data-state", "open")
            expect(banner).not_to_have_text("You are offline")
            expect(page.get_by_test_id("log-line")).not_to_contain_text("offline")
    finally:
        guest.close()


def test_start_games_error_shows_on_a_phone_screen(
    browser: Browser, web_server: ServerProcess
) -> None:
    for page in offline_page(browser, web_server, PHONE):
        page.goto("/#/setup/ai")
        page.wait_for_selector("[data-screen=setup][data-mode=ai]")
        # Offline, a game at your own table starts all the same: what Start Game can
        # refuse is the setup itself, such as a seat without a name.
        page.context.set_offline(True)
        page.get_by_test_id("seat-name").first.fill("")
        page.get_by_test_id("start-game").click()
        error = page.get_by_test_id("form-error")
        expect(error).not_to_be_empty()
        doc_shot(page, "start-error")
        box = error.bounding_box()
        assert box is not None and box["height"] > 0
        assert box["y"] >= 50 and box["y"] + box["height"] <= PHONE["height"], (
            f"the error is drawn at {box['y']:.0f} px on a {PHONE['height']} px screen"
        )
        page.context.set_offline(False)
