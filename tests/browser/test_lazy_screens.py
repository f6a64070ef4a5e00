"""Screens the first game does not need load when first opened, and say so when they
cannot: a blank page is never what a player sees.

The result screen, the replay, Verify, Settings, How to play and the online screens are
fetched on first use (tests/browser/test_page_weight.py keeps them out of the first
load). If that fetch fails (the connection dropped before the service worker kept the
app shell), the screen says it could not be loaded and offers to try again.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.browser.helpers import snap
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


def test_a_screen_that_cannot_be_fetched_says_so_and_loads_on_try_again(
    browser: Browser, web_server: ServerProcess
) -> None:
    context = browser.new_context(
        base_url=web_server.url, service_workers="block", viewport={"width": 360, "height": 640}
    )
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        offline = {"on": True}

        def verify_module(route: Route) -> None:
            if offline["on"]:
                route.abort("internetdisconnected")
            else:
                route.continue_()

        page.route("**/js/screens/verify.js", verify_module)
        page.goto("/#/verify")
        unavailable = page.get_by_test_id("screen-unavailable")
        expect(unavailable).to_be_visible()
        expect(unavailable.get_by_role("heading", level=1)).to_be_focused()
        expect(unavailable).to_contain_text("could not be loaded")
        snap(page, "screen-unavailable-phone")

        offline["on"] = False
        unavailable.get_by_role("button", name="Try again").click()
        expect(page.get_by_test_id("verify-input")).to_be_visible()
        expect(unavailable).to_have_count(0)
        assert errors == []
    finally:
        context.close()


def test_the_story_style_sheet_comes_with_the_screens_that_use_it_once(
    browser: Browser, web_server: ServerProcess
) -> None:
    """story.css is no longer on the first page: the screens that use it add it once."""
    context = browser.new_context(base_url=web_server.url, service_workers="block")
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.get_by_test_id("nav-howto")).to_be_visible()
        sheets = (
            "Array.from(document.styleSheets, (s) => s.href || '')"
            ".filter((h) => h.includes('story.css'))"
        )
        assert page.evaluate(sheets) == []
        page.goto("/#/replay/NOSUCH")
        expect(page.locator("h1")).to_be_visible()
        assert len(page.evaluate(sheets)) == 1
        page.goto("/#/")
        page.goto("/#/replay/NOSUCH2")
        expect(page.locator("h1")).to_be_visible()
        assert len(page.evaluate(sheets)) == 1
    finally:
        context.close()
