"""House rules chosen in the browser reach the engine.

How to play: "The exact-finish rule and the six-rolls-again rule can each be toggled in
the Settings, so you can play the version your family grew up with."
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    open_setup,
    page_room,
    snap,
    start_game,
    use_instant_animations,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


def test_turning_off_sixes_roll_again_reaches_the_engine(
    page: Page, web_server: ServerProcess
) -> None:
    use_instant_animations(page)
    open_setup(page, "ai")
    six = page.get_by_test_id("rule-six-again")
    expect(six).to_be_checked()
    six.uncheck()
    expect(page.get_by_test_id("rule-exact-finish")).to_be_checked()
    start_game(page)
    rules = page_room(page)["rules"]
    assert rules == {"finish": "classic", "exact_finish": True, "six_again": False}
    expect(page.get_by_test_id("rules-summary")).to_have_text(
        "Classic · exact finish · no bonus sixes"
    )
    snap(page, "rules-game")


def test_settings_defaults_start_new_games_and_the_speed_is_chosen_on_screen(
    page: Page, web_server: ServerProcess
) -> None:
    page.goto("/#/settings")
    page.wait_for_selector("[data-screen=settings]")
    page.get_by_test_id("speed-instant").check()
    page.get_by_test_id("setting-exact-finish").uncheck()
    expect(page.get_by_test_id("settings-saved")).to_contain_text("exact finish off")
    snap(page, "settings")

    page.reload()  # the choices are kept on this device
    page.wait_for_selector("[data-screen=settings]")
    expect(page.get_by_test_id("speed-instant")).to_be_checked()
    expect(page.get_by_test_id("setting-exact-finish")).not_to_be_checked()

    open_setup(page, "pass")
    expect(page.get_by_test_id("rule-exact-finish")).not_to_be_checked()
    expect(page.get_by_test_id("rule-six-again")).to_be_checked()
    start_game(page)
    rules = page_room(page)["rules"]
    assert rules == {"finish": "classic", "exact_finish": False, "six_again": True}
