"""Outages in an online game told truly, within 3 s, and changing as they last.

This device offline (the browser says so) is told apart from the game server out of
reach (its process killed): the first means the game goes on without you, the second
that nothing can go on until the server is back. Either way the turn's countdown stops
where it was and says why (never "0 s left to roll"), and after about 10 s the game says
what happens next. The page's clock is Playwright's (``page.clock``): the 10 s pass by a
jump of that clock, not by waiting; every other wait is for the page's own state.
Screenshots at 3 s and at 15 s of each outage, at phone and desktop size. In German and
French, whose notes are the longest, a 360 x 640 phone shows every word of the note at
3 s and at 15 s: nothing clamped, nothing past the bottom of the screen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from snakes.server.languages import catalogue_dir
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    assert_on_phone_screen,
    shot,
    wait_for_online_table,
)
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

WITHIN = 3_000
"""Milliseconds: the longest an outage may go untold."""
COUNTDOWN = 60
"""The room's turn countdown, seconds: far longer than the test takes to reach the outage."""
ANY = re.compile(r".*")
OFFLINE_NOISE = "net::ERR_"
"""In the browser's own console line for a request or socket that could not go out or
was cut off (offline, refused, reset, left unconnected by the killed server): expected
here."""


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    return dict(request.param)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test's own (one test kills it), the countdown starting at once."""
    process = ServerProcess(
        tmp_path / "data", "--animation-scale", "0", "--countdown", str(COUNTDOWN)
    )
    process.start()
    yield process
    process.kill()


class Table:
    """Hana on this page, Gus on a socket of the test's, Hana's turn with its countdown."""

    def __init__(
        self, browser: Browser, server: ServerProcess, viewport: dict[str, int], **options: Any
    ):
        """``options``: the browser context's others (``locale``, ``reduced_motion``)."""
        self.context = browser.new_context(viewport=viewport, base_url=server.url, **options)
        self.context.set_default_timeout(20_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        # The page's clock runs as ever until the test moves it on.
        self.page.clock.install()
        created = server.post(
            "/api/rooms", {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}]}
        )
        self.code: str = created["code"]
        self.page.goto("/")
        self.page.evaluate(
            """([code, secret]) => {
              const settings = {speed: 'instant', sound: false};
              localStorage.setItem('snakes.settings', JSON.stringify(settings));
              const game = {code, secret, mode: 'online', over: false, saved: Date.now()};
              localStorage.setItem('snakes.game', JSON.stringify(game));
            }""",
            [self.code, created["secret"]],
        )
        joined = server.post(f"/api/rooms/{self.code}/join", {"name": "Gus", "colour": "blue"})
        self.guest = GameClient(server.ws_url)
        self.guest.hello(self.code, joined["secret"])
        self.page.goto(f"/#/online/lobby/{self.code}")
        self.page.get_by_test_id("start-online").click()
        self.page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        wait_for_online_table(self.page)
        self.banner = self.page.get_by_test_id("turn-banner")
        self.note = self.page.get_by_test_id("log-line")
        self.countdown = self.page.get_by_test_id("countdown")
        expect(self.page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
        if "locale" not in options:
            expect(self.countdown).to_contain_text("left to roll")
        expect(self.countdown).not_to_have_attribute("data-frozen", ANY)
        self.version = server.get(f"/api/rooms/{self.code}")["version"]

    def _console(self, message: object) -> None:
        text = getattr(message, "text", "")
        if getattr(message, "type", "") == "error" and OFFLINE_NOISE not in text:
            self.errors.append(text)

    def told(self, reach: str, words: str, note: str, countdown_words: str, name: str) -> None:
        """Within 3 s: the banner's words and what they mean, the countdown stopped and
        saying why."""
        page = self.page
        expect(self.banner).to_have_text(words, timeout=WITHIN)
        expect(self.note).to_have_text(note, timeout=WITHIN)
        expect(self.countdown).to_have_attribute("data-frozen", reach, timeout=WITHIN)
        expect(self.countdown).to_contain_text(countdown_words)
        expect(self.countdown).not_to_contain_text("left")
        expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "true")
        frozen = self.countdown.locator(".countdown-fill").get_attribute("style")
        shot(page, f"{name}-3s")
        if page.viewport_size == PHONE:
            assert_on_phone_screen(page, ["turn-banner", "log-line", "countdown"])
        # 12 s more of the page's clock: the outage has lasted 15 s.
        page.clock.fast_forward(12_000)
        assert self.countdown.locator(".countdown-fill").get_attribute("style") == frozen

    def close(self) -> None:
        self.guest.close()
        self.context.close()


@pytest.fixture
def table(browser: Browser, server: ServerProcess, viewport: dict[str, int]) -> Iterator[Table]:
    setup = Table(browser, server, viewport)
    yield setup
    setup.close()
    assert not setup.errors, setup.errors


def test_this_device_offline_is_told_and_what_follows(table: Table) -> None:
    page = table.page
    page.context.set_offline(True)
    table.told(
        "offline",
        "You are offline",
        "The game goes on without you; your turn may be skipped.",
        "Countdown unknown",
        "outage-offline",
    )
    expect(table.banner).to_have_text("You are offline")
    expect(table.note).to_contain_text("a turn whose countdown runs out is skipped")
    expect(table.note).to_contain_text("You are back in your seat once online")
    expect(table.countdown).to_have_attribute("data-frozen", "offline")
    shot(page, "outage-offline-15s")
    if page.viewport_size == PHONE:
        assert_on_phone_screen(page, ["turn-banner", "log-line", "countdown"])
    # Online again: back in the seat, the countdown running.
    page.context.set_offline(False)
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    expect(table.countdown).not_to_have_attribute("data-frozen", ANY)
    expect(table.countdown).to_contain_text("left to roll")
    expect(table.banner).not_to_contain_text("offline")
    expect(table.note).not_to_contain_text("offline")


def test_the_server_out_of_reach_is_told_and_what_follows(
    table: Table, server: ServerProcess
) -> None:
    page = table.page
    server.kill()
    table.told(
        "unreachable",
        "Server unreachable",
        "The game server cannot be reached. Trying again…",
        "Countdown paused",
        "outage-unreachable",
    )
    expect(table.banner).to_have_text("Server unreachable")
    expect(table.note).to_contain_text("the game goes on where it stopped")
    expect(table.note).to_contain_text("the countdown starts again in full")
    expect(table.countdown).to_have_attribute("data-frozen", "unreachable")
    shot(page, "outage-unreachable-15s")
    if page.viewport_size == PHONE:
        assert_on_phone_screen(page, ["turn-banner", "log-line", "countdown"])
    # What it said: the server back (its data kept), the game goes on where it stopped,
    # Hana's turn with the countdown started again in full.
    server.start()
    room = server.get(f"/api/rooms/{table.code}")
    assert room["turn"] == 0 and room["version"] == table.version, room
    assert room["countdown"]["remaining_ms"] > (COUNTDOWN - 5) * 1000, room["countdown"]
    # The page's next try comes by its clock (its backoff is at most 15 s).
    page.clock.fast_forward(16_000)
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    expect(table.countdown).not_to_have_attribute("data-frozen", ANY)
    expect(table.countdown).to_contain_text("left to roll")


def _clipped(page: Page) -> dict[str, Any] | None:
    """The outage note's box against its words: None when every word shows, else what
    cut them off (a line clamp, a box shorter or narrower than its text)."""
    result: dict[str, Any] | None = page.get_by_test_id("log-line").evaluate(
        """(el) => {
          const style = getComputedStyle(el);
          const clamp = style.webkitLineClamp;
          const box = {
            scrollHeight: el.scrollHeight, clientHeight: el.clientHeight,
            scrollWidth: el.scrollWidth, clientWidth: el.clientWidth,
            clamp, overflow: style.overflow, textOverflow: style.textOverflow,
          };
          const cut = el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth;
          return cut ? box : null;
        }"""
    )
    return result


@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize("outage", ["offline", "unreachable"])
def test_the_outage_note_shows_whole_on_a_phone_in_german_and_french(
    browser: Browser, server: ServerProcess, lang: str, outage: str
) -> None:
    """German and French say it at length: at 3 s and at 15 s of either outage, on a
    360 x 640 phone, every word of the note shows (no clamp, no ellipsis, nothing
    hidden past the note's box), and the card still fits the screen."""
    messages = json.loads((catalogue_dir() / f"{lang}.json").read_text("utf-8"))["messages"]
    table = Table(browser, server, dict(PHONE), locale=lang)
    try:
        page = table.page
        assert page.get_attribute("html", "lang") == lang
        if outage == "offline":
            page.context.set_offline(True)
        else:
            server.kill()
        for at, key in ((3, outage), (15, f"{outage}Long")):
            if at == 15:
                page.clock.fast_forward(12_000)
            expect(table.note).to_have_text(messages[f"online.outageNote.{key}"], timeout=WITHIN)
            expect(table.banner).to_have_text(messages[f"online.outage.{outage}"])
            shot(page, f"outage-{outage}-{at}s-{lang}")
            assert _clipped(page) is None, f"{lang}, {at} s: the note is cut off: {_clipped(page)}"
            assert_on_phone_screen(page, ["turn-banner", "log-line", "countdown"])
    finally:
        table.close()
    assert not table.errors, table.errors
