"""Ladders, snakes and sixes get their moment on the board; reduced motion is honoured.

How to play: "Land exactly on the bottom of a ladder and your token climbs straight to
the top square", "Land on a snake's head and you slide down to its tail", "Roll a six
and you get one bonus roll". The brief: "reduced motion is respected".
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import script_dice
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
        page.reload()  # the app reads its settings when it starts
        page.goto("/#/setup/pass")
        page.wait_for_selector("[data-screen=setup]")
        # Player 1: 1 climbs 1 -> 38. Player 2: 2. Player 1: 6 (44, bonus), 3 -> 47 bites.
        script_dice(page, 1, 2, 6, 3)
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


# Counts every sound the page starts (oscillators and noise), before the app loads.
COUNT_SOUNDS = """
window.__sounds = 0;
const start = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) {
  window.__sounds += 1;
  return start.apply(this, args);
};
"""


@pytest.mark.parametrize("sound", [True, False])
def test_the_moments_play_sounds_only_when_sound_is_on(
    browser: Browser, hooks_server: ServerProcess, sound: bool
) -> None:
    # The brief: celebrations honour the sound setting; the moments themselves still show.
    context = browser.new_context(
        viewport={"width": 1440, "height": 900}, base_url=hooks_server.url
    )
    context.add_init_script(COUNT_SOUNDS)
    page = context.new_page()
    try:
        page.goto("/")
        page.evaluate(
            "sound => localStorage.setItem('snakes.settings',"
            " JSON.stringify({sound, speed: 'fast'}))",
            sound,
        )
        page.reload()  # the app reads its settings when it starts
        page.goto("/#/setup/pass")
        page.wait_for_selector("[data-screen=setup]")
        script_dice(page, 1, 2, 6, 3)  # a ladder, a six, a snake (as above)
        page.get_by_test_id("start-game").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        roll = page.get_by_test_id("roll")
        moment = page.get_by_test_id("moment")
        for _ in range(4):
            expect(roll).to_have_attribute("aria-disabled", "false", timeout=15_000)
            roll.click()
        expect(moment.filter(has_text="Hiss! 47 \u2192 26")).to_have_count(1, timeout=15_000)
        sounds = page.evaluate("window.__sounds")
        if sound:
            assert sounds > 10, sounds  # a roll, steps, a climb, a six, a hiss...
        else:
            assert sounds == 0, sounds
    finally:
        context.close()
