"""The replay of a game at your own table, its odds chart and its moments, with no server.

Issue 33, "Offline is whole": after an offline game, "Watch the replay" said "The replay
could not be loaded", because the page sent the record to the server for its odds. The
page now works the story out itself. Here the first load keeps the app (the service
worker), then the server process is killed and the browser is put offline; a quick Pass &
Play game is played to its result, and the result's chart and the replay (its board, its
chart and the moments that swung the game) must all be shown, at phone and desktop size,
as must the live odds beside the board while it is played.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    play_to_result,
    script_dice,
    shot,
    start_pass_and_play,
)
from tests.support.quick_game import first_seat_wins_quickly
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

KEEP_SHELL = """async () => {
  await navigator.serviceWorker.ready;
  const kept = async () => Boolean(navigator.serviceWorker.controller
    && await (await caches.open('snakes-meta')).match('/__current-shell'));
  while (!(await kept())) await new Promise((done) => setTimeout(done, 100));
}"""
"""Resolves once the service worker controls the page and has kept the whole shell
(checked every 0.1 s in the page: wait_for_function does not wait for a promise)."""
REFUSED = "() => fetch('/healthz').then(() => false, () => true)"


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def offline_page(
    browser: Browser, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """A page whose first load kept the app; the server then dies and the browser is
    offline. Fails the test on any page error."""
    server = ServerProcess(tmp_path / "data", "--animation-scale", "0")
    server.start()
    context = browser.new_context(viewport=request.param, base_url=server.url)
    context.set_default_timeout(20_000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/")
        # Instant moves, and the live odds beside the board shown.
        page.evaluate(
            "localStorage.setItem('snakes.settings',"
            " JSON.stringify({speed: 'instant', sound: false, showOdds: true}))"
        )
        page.reload()
        page.wait_for_selector("[data-screen=home]")
        page.evaluate(KEEP_SHELL)
        server.kill()
        context.set_offline(True)
        assert page.evaluate(REFUSED)
        yield page
    finally:
        context.close()
        server.kill()
    assert not errors, errors


def test_the_replay_of_a_game_played_offline_shows_its_chart_and_moments(
    offline_page: Page,
) -> None:
    page = offline_page
    start_pass_and_play(page, "Ana", "Ben")
    # Ana climbs 1->38, 51->67 and 71->91, and wins in five turns; Ben rolls 2s.
    script_dice(page, *first_seat_wins_quickly(2))
    # The live odds beside the board are worked out in the page too: Ana's climb from 1
    # to 38 puts her ahead.
    page.get_by_test_id("roll").click()
    rows = page.get_by_test_id("odds-row")
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-value", "0.5304")
    expect(page.get_by_test_id("odds-note")).not_to_contain_text("connection")
    play_to_result(page)
    expect(page.get_by_test_id("odds-chart-mini")).to_be_visible()
    expect(page.get_by_test_id("story-offline")).to_have_count(0)
    page.get_by_test_id("story-panel").scroll_into_view_if_needed()
    shot(page, "offline-result-story")

    page.get_by_test_id("watch-replay").click()
    page.wait_for_selector("[data-screen=replay]")
    expect(page.get_by_test_id("odds-chart")).to_be_visible()
    expect(page.get_by_test_id("replay-error")).to_have_count(0)
    moments = page.get_by_test_id("replay-moment")
    expect(moments.first).to_be_visible()
    # Ana's 71->91 climb (move 7) is one of the moments that swung the race.
    climb = moments.filter(has_text="71")
    expect(climb).to_have_count(1)
    expect(climb).to_have_attribute("data-step", "7")
    expect(page.get_by_test_id("replay-odds").locator("li")).to_have_count(2)
    shot(page, "offline-replay")

    # A moment jumps the replay there, and the board and the odds follow.
    climb.click()
    expect(page.locator("[data-screen=replay]")).to_have_attribute("data-step", "7")
    expect(page.get_by_test_id("replay-counter")).to_contain_text("7")
    shot(page, "offline-replay-moment")
    assert page.evaluate(REFUSED)
