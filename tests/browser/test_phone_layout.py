"""On a 360 x 640 phone, your own turn fits on one screen beside the whole board.

The brief: "works from 360 x 640 phones to large screens"; How to play: "hand the device
to whoever the glowing seat card names" and "Every player sees the countdown". Whose
turn it is, the countdown, the die, Roll and the last event must all be visible without
scrolling, with the whole board.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import (
    PHONE,
    assert_on_phone_screen,
    open_setup,
    start_game,
    use_instant_animations,
)
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


def test_online_turn_shows_turn_countdown_die_roll_and_last_event_on_a_phone(
    browser: Browser, web_server: ServerProcess
) -> None:
    created = web_server.post(
        "/api/rooms",
        {
            "mode": "online",
            "seats": [{"name": "Hana", "colour": "red"}],
            "rules": {"finish": "last-one-standing"},  # the longest rules line
        },
    )
    code = created["code"]
    joined = web_server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
    context = browser.new_context(viewport=PHONE, base_url=web_server.url)
    page = context.new_page()
    guest = GameClient(web_server.ws_url)
    try:
        use_instant_animations(page)
        page.evaluate(
            "([code, secret]) => localStorage.setItem('snakes.game', JSON.stringify("
            "{code, secret, mode: 'online', over: false, saved: Date.now()}))",
            [code, created["secret"]],
        )
        guest.hello(code, joined["secret"])
        page.goto(f"/#/online/lobby/{code}")
        page.get_by_test_id("start-online").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
        expect(page.get_by_test_id("countdown")).to_be_visible()
        page.wait_for_timeout(300)
        assert_on_phone_screen(
            page, ["board", "turn-banner", "countdown", "die", "roll", "log-line", "seat-card"]
        )
        current = page.locator("[data-testid=seat-card][data-current=true]")
        box = current.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"]

        # Below the game: the rules line whole (not "sixes …"), and Leave game no
        # full-width neighbour of Home, where a thumb going home could give up the seat.
        rules = page.get_by_test_id("rules-summary")
        expect(rules).to_have_text("Last One Standing · exact finish · sixes roll again")
        assert rules.evaluate(
            "e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"
        )
        leave, home = page.get_by_test_id("leave-game"), page.get_by_test_id("home")
        expect(leave).to_be_visible()
        leave_box, home_box = leave.bounding_box(), home.bounding_box()
        assert leave_box is not None and home_box is not None
        assert leave_box["width"] <= PHONE["width"] * 0.6, leave_box
        assert home_box["y"] - (leave_box["y"] + leave_box["height"]) >= 24, (leave_box, home_box)
    finally:
        guest.close()
        context.close()


def test_pass_and_play_turn_fits_a_phone_with_six_players(
    browser: Browser, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=web_server.url)
    page = context.new_page()
    try:
        use_instant_animations(page)
        open_setup(page, "pass")
        while page.get_by_test_id("seat-name").count() < 6:
            page.get_by_test_id("add-seat").click()
        page.get_by_test_id("seat-name").nth(0).fill("Grandma Rosalind")
        start_game(page)
        page.get_by_test_id("roll").click()
        expect(page.get_by_test_id("log-line")).to_contain_text("rolled")
        expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
        page.evaluate("window.scrollTo(0, 0)")
        assert_on_phone_screen(
            page, ["board", "turn-banner", "die", "roll", "log-line", "seat-card"]
        )
        cards = page.get_by_test_id("seat-card")
        expect(cards).to_have_count(6)
        for index in range(6):
            box = cards.nth(index).bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"]
        # Six chips on a phone: a long name shows whole, not "Grand…".
        name = cards.nth(0).locator(".seat-name")
        expect(name).to_have_text("Grandma Rosalind")
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth"), "the name is cut"
        board = page.get_by_test_id("board").bounding_box()
        assert board is not None and board["width"] >= 0.85 * PHONE["width"], board
    finally:
        context.close()
