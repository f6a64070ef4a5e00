"""How to play opens with its content, without a "Loading…" flash first (before: about
0.7 s of "Loading…" on a first visit while its text came from the server)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE, checked_page
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

# How many of the page's requests (fetch) are still awaited.
PENDING = """
window.pendingFetches = 0;
const fetched = window.fetch;
window.fetch = function (...args) {
  window.pendingFetches += 1;
  const asked = fetched.apply(this, args);
  asked.finally(() => { window.pendingFetches -= 1; }).catch(() => {});
  return asked;
};
"""

# From the press of "How to play", each frame notes whether the screen says it is loading,
# until its first section is there.
WATCH = """() => {
  window.howtoWatch = { loading: [], shown: null, pressed: null };
  const watch = window.howtoWatch;
  document.addEventListener('click', (e) => {
    if (!e.target.closest('[data-testid=nav-howto]')) return;
    watch.pressed = performance.now();
    window.howtoWatch.pressedAt = watch.pressed;
    const frame = () => {
      const at = Math.round(performance.now() - watch.pressed);
      if (document.querySelector('[data-screen=howto] [data-testid=howto-section]')) {
        watch.shown = at;
        return;
      }
      if (document.querySelector('[data-screen=howto] .loading')) watch.loading.push(at);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, true);
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_how_to_play_opens_without_a_loading_flash(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    for page in checked_page(browser, web_server, viewport):
        # A first visit: nothing of How to play has been seen on this device before. The
        # player looks at Home for a moment: the page has been idle, and whatever it asked
        # for then has arrived.
        page.add_init_script(PENDING)
        page.goto("/")
        page.wait_for_selector("[data-screen=home]")
        page.evaluate("() => new Promise((done) => requestIdleCallback(() => done()))")
        page.wait_for_function("() => window.pendingFetches === 0")
        page.evaluate(WATCH)
        page.get_by_test_id("nav-howto").click()
        doc_shot(page, "howto-loading")
        expect(page.get_by_test_id("howto-section").first).to_be_visible()
        page.wait_for_function("() => window.howtoWatch.shown !== null")
        watch: dict[str, Any] = page.evaluate("window.howtoWatch")
        asked = page.evaluate(
            """() => performance.getEntriesByType('resource')
                 .filter((e) => e.name.includes('/api/content'))
                 .map((e) => [Math.round(e.startTime - window.howtoWatch.pressedAt),
                              Math.round(e.responseEnd - window.howtoWatch.pressedAt)])"""
        )
        assert not watch["loading"], (
            f"'Loading…' showed from {watch['loading'][0]} to {watch['loading'][-1]} ms "
            f"after the press; the content at {watch['shown']} ms; its requests (start, end, "
            f"ms from the press): {asked}"
        )
