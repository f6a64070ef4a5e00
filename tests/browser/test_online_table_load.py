"""An online game's own parts come once the network does, without a reload.

The online table (the turn's countdown, its outage words, the reactions) loads after the
game screen: its code (js/online-table.js, js/reactions.js) and the catalogue's later
words. When the network drops while they load, the page tries again when the browser
says it is online, or after a short wait (2 s at first, by the page's clock, which the
test stops or moves): the player never has to reload for the countdown. The service
worker is kept out here (it could serve the files from its cache, which a first visit
does not have yet).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.helpers import DESKTOP, PHONE, checked_page, shot, wait_for_online_table
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

LATE_PARTS = re.compile(r"/(online-table|reactions)\.js(\?.*)?$")
"""What the online table needs after the game screen is drawn."""
OFFLINE_NOISE = "net::ERR_"


class Cut:
    """The late parts' requests fail (as with the network gone) until ``mend``."""

    def __init__(self) -> None:
        self.failing = True
        self.refused: list[str] = []

    def route(self, route: Route) -> None:
        if self.failing:
            self.refused.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    return dict(request.param)


@pytest.fixture
def cut_page(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> Iterator[tuple[Page, Cut]]:
    for page in checked_page(
        browser, web_server, viewport, noise=OFFLINE_NOISE, service_workers="block"
    ):
        # The page's clock, for the test to stop or move: a try again by the online event
        # is told apart from one by the wait.
        page.clock.install()
        yield page, Cut()


def _online_game(page: Page, server: ServerProcess, cut: Cut) -> GameClient:
    """Hana on this page, Gus on a socket of the test's; the network cut for the table's
    parts once the lobby is drawn (the lobby needs some of the same code), and the game
    started."""
    created = server.post(
        "/api/rooms", {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}]}
    )
    code = created["code"]
    page.goto("/")
    page.evaluate(
        """([code, secret]) => {
          localStorage.setItem('snakes.settings', JSON.stringify({speed: 'instant', sound: false}));
          const game = {code, secret, mode: 'online', over: false, saved: Date.now()};
          localStorage.setItem('snakes.game', JSON.stringify(game));
        }""",
        [code, created["secret"]],
    )
    joined = server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
    guest = GameClient(server.ws_url)
    guest.hello(code, joined["secret"])
    page.goto(f"/#/online/lobby/{code}")
    start = page.get_by_test_id("start-online")
    expect(start).to_be_enabled()
    page.route(LATE_PARTS, cut.route)
    start.click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    return guest


def _until_refused(page: Page, cut: Cut) -> None:
    """Until the page has asked for the table's code and been refused (the route's
    handler runs as Playwright hears of the request, between the test's calls)."""
    deadline = time.monotonic() + 20
    while not any("online-table.js" in url for url in cut.refused):
        assert time.monotonic() < deadline, "the page never asked for js/online-table.js"
        page.wait_for_timeout(50)


def test_the_online_table_comes_when_the_network_comes_back(
    cut_page: tuple[Page, Cut], web_server: ServerProcess
) -> None:
    page, cut = cut_page
    guest = _online_game(page, web_server, cut)
    try:
        # The table's code was asked for and refused: no countdown yet.
        _until_refused(page, cut)
        expect(page.get_by_test_id("countdown")).to_have_count(0)
        # From here the page's timers stand still: only the online event can try again.
        now = page.evaluate("Date.now()") / 1000
        page.clock.pause_at(datetime.fromtimestamp(now + 0.1, tz=UTC))
        # The network comes back: the browser says so, and the page loads them then.
        cut.failing = False
        page.context.set_offline(True)
        page.context.set_offline(False)
        wait_for_online_table(page)
        expect(page.get_by_test_id("countdown")).to_contain_text("left to roll")
        expect(page.get_by_test_id("reaction-bar")).to_be_attached()
        shot(page, "online-table-after-network")
    finally:
        guest.close()


def test_the_online_table_comes_by_itself_when_no_online_event_is_heard(
    cut_page: tuple[Page, Cut], web_server: ServerProcess
) -> None:
    """A network that drops a request while the browser still says online (a flaky
    mobile link) raises no event: the page tries again after a short wait."""
    page, cut = cut_page
    guest = _online_game(page, web_server, cut)
    try:
        _until_refused(page, cut)
        expect(page.get_by_test_id("countdown")).to_have_count(0)
        cut.failing = False
        page.clock.fast_forward(2_000)  # the first wait before trying again
        wait_for_online_table(page)
        expect(page.get_by_test_id("countdown")).to_contain_text("left to roll")
    finally:
        guest.close()
