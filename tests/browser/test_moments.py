"""Ladders, snakes and sixes get their moment on the board; reduced motion is honoured.

How to play: "Land exactly on the bottom of a ladder and your token climbs straight to
the top square", "Land on a snake's head and you slide down to its tail", "Roll a six
and you get one bonus roll". The brief: "reduced motion is respected".
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_ladder_a_six_and_a_snake_each_get_a_moment(
    browser: Browser, hooks_server: ServerProcess, motion: str
) -> None:
    context = browser.new_context(
        viewport={"width": 1440, "height": 900}, base_url=hooks_server.url, reduced_motion=motion
    )
    page = context.new_page()
    try:
        page.goto("/")
        page.evaluate("localStorage.setItem('snakes.settings', JSON.stringify({sound: false}))")
        page.goto("/#/setup/pass")
        page.wait_for_selector("[data-screen=setup]")
        # Player 1: 1 climbs 1 -> 38. Player 2: 2. Player 1: 6 (44, bonus), 3 -> 47 bites.
        hooks_server.script_dice(1, 2, 6, 3)
        page.get_by_test_id("start-game").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        roll = page.get_by_test_id("roll")
        moment = page.get_by_test_id("moment")

        roll.click()
        expect(moment.filter(has_text="Up the ladder! 1 \u2192 38")).to_have_count(1)
        # A drawn icon, not an emoji: without an emoji font that would be an empty box.
        expect(moment.first.locator("svg.moment-icon")).to_have_count(1)
        assert all(ord(c) < 0x2600 for c in moment.first.text_content() or ""), (
            moment.first.text_content()
        )
        if motion == "reduce":
            expect(moment.first).to_have_class("moment moment-ladder still")
        expect(roll).to_have_attribute("aria-disabled", "false")
        roll.click()
        expect(roll).to_have_attribute("aria-disabled", "false")
        roll.click()
        expect(moment.filter(has_text="Six!")).to_have_count(1)
        expect(roll).to_have_attribute("aria-disabled", "false")
        roll.click()
        expect(moment.filter(has_text="Hiss! 47 \u2192 26")).to_have_count(1)
        expect(page.locator(".snake.biting")).to_have_count(1)
    finally:
        context.close()
