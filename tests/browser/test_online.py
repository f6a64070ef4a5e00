"""Play Online in two browsers: create a room, join by invite link, start, roll, leave.

How to play: "Play Online to race friends in a private room." and "In online rooms the
host picks the rule for the whole table."
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import snap
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


def _instant(page: Page) -> None:
    page.goto("/")
    page.evaluate(
        "localStorage.setItem('snakes.settings', JSON.stringify({speed: 'instant', sound: false}))"
    )
    page.reload()  # the app reads its settings when it starts


def test_two_browsers_share_a_room_from_lobby_to_result(
    page: Page, browser: Browser, web_server: ServerProcess
) -> None:
    _instant(page)
    page.goto("/#/online")
    page.wait_for_selector("[data-screen=online]")
    page.get_by_test_id("host-name").fill("Hana")
    page.get_by_test_id("create-room").click()
    page.wait_for_selector("[data-screen=lobby]")
    code = page.get_attribute("[data-screen=lobby]", "data-code")
    assert code
    expect(page.get_by_test_id("invite-link")).to_have_text(f"{web_server.url}/r/{code}")

    guest_context = browser.new_context(
        viewport={"width": 360, "height": 640}, base_url=web_server.url
    )
    guest = guest_context.new_page()
    try:
        _instant(guest)
        guest.goto(f"/r/{code}")
        guest.wait_for_selector("[data-screen=online]")
        expect(guest.get_by_test_id("join-code")).to_have_value(code)
        # An invited friend sees only what joining needs.
        expect(guest.get_by_test_id("create-room")).to_have_count(0)
        expect(guest.get_by_test_id("join-room")).to_be_visible()
        # The host's colour is taken: the picker offers the free ones only.
        expect(guest.get_by_test_id("join-colour").get_by_test_id("colour-red")).to_be_disabled()
        guest.get_by_test_id("join-name").fill("Gus")
        guest.get_by_test_id("join-room").click()
        guest.wait_for_selector("[data-screen=lobby]")

        expect(page.get_by_test_id("lobby-seat")).to_have_count(2)
        expect(guest.get_by_test_id("lobby-seat")).to_have_count(2)
        expect(guest.get_by_test_id("start-online")).to_be_hidden()
        # The host sets the rules for the whole table; the guest sees them change.
        page.get_by_test_id("lobby-six-again").uncheck()
        expect(guest.locator(".lobby-rules")).to_contain_text("No bonus sixes")
        assert web_server.get(f"/api/rooms/{code}")["rules"]["six_again"] is False
        snap(page, "online-lobby")

        page.get_by_test_id("start-online").click()
        for p in (page, guest):
            p.wait_for_selector("[data-screen=game]:not([data-version=''])")
        expect(page.get_by_test_id("countdown")).to_be_visible()
        # Only the seat whose turn it is may roll, on its own device.
        expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
        expect(guest.get_by_test_id("roll")).to_have_attribute("aria-disabled", "true")
        page.get_by_test_id("roll").click()
        expect(guest.get_by_test_id("log-line")).to_contain_text("Hana rolled")
        snap(guest, "online-game")

        # Gus gives up his seat: in Classic the last player left wins at once.
        guest.get_by_test_id("leave-game").click()
        guest.get_by_test_id("confirm-ok").click()
        guest.wait_for_selector("[data-screen=home]")
        page.wait_for_selector("[data-screen=result] [data-testid=result-list]")
        expect(page.get_by_test_id("winner")).to_have_text("You won!")
        rows = page.get_by_test_id("result-row")
        expect(rows.nth(0)).to_have_attribute("data-status", "winner")
        expect(rows.nth(1)).to_have_attribute("data-status", "left")
        snap(page, "online-result")
    finally:
        guest_context.close()
