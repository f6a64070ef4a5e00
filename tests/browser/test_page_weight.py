"""The JavaScript the page loads before the first game stays under 250 KB uncompressed.

Issue 14, "Done when". Counted from the home screen through setup to the first roll:
every script the page fetched (modules loaded later, such as the replay and the odds
chart, only load when someone opens them). A language catalogue the page does not use
is never fetched, so it is not counted.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Response

from tests.browser.helpers import open_setup, start_game, use_instant_animations
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

BUDGET = 250 * 1024


def test_the_javascript_before_the_first_game_is_under_250_kb(
    browser: Browser, web_server: ServerProcess
) -> None:
    # No service worker: every script then comes over the network, where it is counted.
    context = browser.new_context(base_url=web_server.url, service_workers="block")
    scripts: dict[str, int] = {}

    def count(response: Response) -> None:
        kind = response.request.resource_type
        if kind == "script" or response.url.endswith((".js", ".mjs")):
            scripts[response.url] = len(response.body())

    try:
        page = context.new_page()
        page.on("response", count)
        use_instant_animations(page)
        open_setup(page, "ai")
        start_game(page)
        page.wait_for_load_state("networkidle")
        total = sum(scripts.values())
        assert any(url.endswith("/static/js/main.js") for url in scripts)
        assert not any("replay.js" in url or "odds-chart.js" in url for url in scripts)
        listing = "\n".join(f"{size:>8} {url}" for url, size in sorted(scripts.items()))
        assert total < BUDGET, f"{total} bytes of JavaScript before the first game:\n{listing}"
    finally:
        context.close()
