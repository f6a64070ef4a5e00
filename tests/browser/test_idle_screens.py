"""A screen that waits costs nothing: its decorations play when a turn starts, then rest.

Reported on the tree before: an idle game screen waiting for Roll cost 48% of a core at
360x640 and 100% at 1440x900 in headless Chromium, a paused replay 36%: endless CSS
animations of paint properties (ten snake tongues, the token's halo, the Roll pulse, the
seat's glow) repainted the board for as long as the player waited. Online players spend
most of a game waiting. ``bench/idle_cpu.py`` measures the CPU (docs/BENCHMARKS.md);
this test holds the cause: on every screen a player leaves open, no animation is
endless, and every one has ended within a few seconds. Full motion: the player did not
ask for less. An online game whose server is out of reach waits too, for as long as the
outage lasts: the top bar's dot blinks a few times as the page starts trying again (it
blinked without end), then rests, amber.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import (
    SIZES,
    checked_page,
    next_step,
    script_dice,
    shot,
    start_pass_and_play,
    use_instant_animations,
)
from tests.browser.test_outage import COUNTDOWN, Table
from tests.support.quick_game import first_seat_wins_quickly
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

ENDLESS = """() => document.getAnimations()
  .filter((a) => a.effect && a.effect.getComputedTiming().iterations === Infinity)
  .map((a) => `${a.animationName} on ${a.effect.target?.getAttribute('class')}`)"""
RUNNING = """() => document.getAnimations()
  .filter((a) => a.playState === 'running')
  .map((a) => `${a.animationName} on ${a.effect?.target?.getAttribute('class')}`)"""
REST_SECONDS = 12
"""The longest decoration ends well within this (the token's halo: 6 x 1.1 s)."""


@pytest.fixture(params=SIZES, ids=["phone", "desktop"])
def full_motion_page(
    request: pytest.FixtureRequest, browser: Browser, hooks_server: ServerProcess
) -> Iterator[Page]:
    width, height = request.param
    viewport = {"width": width, "height": height}
    yield from checked_page(browser, hooks_server, viewport, reduced_motion="no-preference")


def assert_comes_to_rest(page: Page, screen: str) -> None:
    """Nothing endless now, and nothing running once the decorations have played."""
    assert page.evaluate(ENDLESS) == [], f"the {screen} screen animates without end"
    page.wait_for_function(f"() => ({RUNNING})().length === 0", timeout=REST_SECONDS * 1000)
    assert page.evaluate(RUNNING) == []


def test_the_game_the_result_and_the_paused_replay_come_to_rest(full_motion_page: Page) -> None:
    page = full_motion_page
    use_instant_animations(page)
    start_pass_and_play(page, "Ava", "Ben")
    assert next_step(page) == "roll"
    assert_comes_to_rest(page, "game")
    # Still waiting for Roll: the button is ready, drawn as ready, and still.
    assert "ready" in (page.get_by_test_id("roll").get_attribute("class") or "")
    shot(page, "idle-game")

    script_dice(page, *first_seat_wins_quickly(2))
    while next_step(page) == "roll":
        page.keyboard.press("Space")
    page.wait_for_selector("[data-screen=result] [data-testid=result-list]")
    assert_comes_to_rest(page, "result")
    shot(page, "idle-result")

    page.get_by_test_id("watch-replay").click()
    page.wait_for_selector("[data-screen=replay][data-step]:not([data-playing=true])")
    assert_comes_to_rest(page, "replay")
    shot(page, "idle-replay")


@pytest.mark.parametrize("size", SIZES, ids=["phone", "desktop"])
def test_an_online_game_trying_to_reconnect_comes_to_rest(
    browser: Browser, tmp_path: Path, size: tuple[int, int]
) -> None:
    width, height = size
    server = ServerProcess(
        tmp_path / "data", "--animation-scale", "0", "--countdown", str(COUNTDOWN)
    )
    server.start()
    try:
        table = Table(
            browser, server, {"width": width, "height": height}, reduced_motion="no-preference"
        )
        try:
            page = table.page
            connection = page.get_by_test_id("connection")
            dot = connection.locator(".connection-dot")
            server.kill()
            expect(connection).to_have_attribute("data-state", "reconnecting")
            # The change is shown: the dot blinks, a few times only.
            blink = dot.evaluate(
                """(el) => { const style = getComputedStyle(el);
                  return [style.animationName, style.animationIterationCount]; }"""
            )
            assert blink[0] == "blink" and blink[1] != "infinite", blink
            assert_comes_to_rest(page, "reconnecting game")
            # Still trying, and still saying so: the dot rests amber and whole.
            expect(connection).to_have_attribute("data-state", "reconnecting")
            expect(connection).to_contain_text("Reconnecting")
            assert dot.evaluate("(el) => getComputedStyle(el).opacity") == "1"
            shot(page, "idle-reconnecting")
        finally:
            table.close()
        assert not table.errors, table.errors
    finally:
        server.kill()
