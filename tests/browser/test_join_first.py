"""Joining by code on a phone: a friend who was texted a code finds its field on the
first screen of "Play Online", without scrolling past the create-room form."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE, TOPBAR, checked_page
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_code_field_is_on_the_first_screen_of_play_online(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    for page in checked_page(browser, web_server, viewport):
        page.goto("/#/online")
        page.wait_for_selector("[data-screen=online]")
        doc_shot(page, "join-code")
        field = page.get_by_test_id("join-code")
        expect(field).to_be_visible()
        assert page.evaluate("window.scrollY") == 0
        box = field.bounding_box()
        assert box is not None
        assert box["y"] >= TOPBAR - 1 and box["y"] + box["height"] <= viewport["height"], (
            f"the code field is drawn at {box['y']:.0f} px on a {viewport['height']} px screen"
        )
        # Typing a code there and joining is the whole way in; creating is still here.
        expect(page.get_by_test_id("create-room")).to_have_count(1)
        # The keyboard meets the fields in the order the eye does.
        order = page.evaluate(
            """() => [...document.querySelectorAll(
                 '[data-testid=join-code], [data-testid=host-name]')]
               .map((e) => e.dataset.testid)"""
        )
        assert order[0] == "join-code", order
