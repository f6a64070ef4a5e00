"""Skip to results at the normal speed: the result screen follows promptly, and no AI is
seen rolling once the skip is pressed (before: 4.4 s, with an AI still "rolling")."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    RESULT_LIST,
    checked_page,
    module_url,
    next_step,
    open_setup,
    script_dice,
    start_game,
    use_instant_animations,
)
from tests.support.quick_game import first_seat_wins_quickly
from tests.support.server import ServerProcess

# It times the page to the result screen (under 1 s): it runs alone, after the parallel
# tests, so the figure is the page's and not its neighbours'.
pytestmark = [pytest.mark.browser, pytest.mark.serial]

# From the press of Skip to results, each frame notes how long since the press and
# whether the game screen says anyone is rolling, until the result list is there.
WATCH = """() => {
  window.skipWatch = { frames: [], pressed: null, result: null };
  const watch = window.skipWatch;
  document.addEventListener('click', (e) => {
    if (!e.target.closest('[data-testid=skip-to-results]') || watch.pressed !== null) return;
    watch.pressed = performance.now();
    const frame = () => {
      const now = performance.now() - watch.pressed;
      if (document.querySelector('[data-screen=result] [data-testid=result-list]')) {
        watch.result = now;
        return;
      }
      const game = document.querySelector('[data-screen=game]');
      const text = game ? game.innerText : '';
      const banner = document.querySelector('[data-testid=turn-banner]');
      watch.frames.push({ at: Math.round(now), rolling: /rolling/i.test(text),
                          banner: banner ? banner.textContent : '' });
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, true);
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_skip_to_results_goes_to_the_results_at_once_and_no_ai_rolls_after_it(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    for page in checked_page(browser, web_server, viewport):
        # The human's part of the race at the instant speed: it is only the way there.
        use_instant_animations(page)
        open_setup(page, "ai")
        page.get_by_test_id("finish-last-one-standing").check()
        while page.get_by_test_id("ai-count").inner_text() != "3":
            page.get_by_test_id("ai-more").click()
        script_dice(page, *first_seat_wins_quickly(4))
        start_game(page)
        while (step := next_step(page)) == "roll":
            page.get_by_test_id("roll").click()
        assert step == "skip"

        # Then the normal speed, as players have it, while the AI seats race on.
        page.evaluate(
            "async (url) => (await import(url)).updateSettings({ speed: 'normal' })",
            module_url(page, "settings.js"),
        )
        banner = page.get_by_test_id("turn-banner")
        expect(banner).to_contain_text("rolling")
        page.evaluate(WATCH)
        page.get_by_test_id("skip-to-results").dispatch_event("click")
        doc_shot(page, "skip-to-results")
        page.wait_for_selector(RESULT_LIST)
        page.wait_for_function("() => window.skipWatch.result !== null")
        watch: dict[str, Any] = page.evaluate("window.skipWatch")
        rolling = [f for f in watch["frames"] if f["rolling"]]
        assert not rolling, f"an AI is shown rolling after the skip: {rolling[:3]}"
        assert watch["result"] < 1000, (
            f"the results came {watch['result']:.0f} ms after the skip: {watch['frames'][-3:]}"
        )
