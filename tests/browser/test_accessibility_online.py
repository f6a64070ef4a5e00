"""axe-core on every screen and state of an online game: no serious or critical findings.

Product brief: "Accessible: ... contrast meets WCAG AA". The local screens are in
test_accessibility.py; here two browsers share a room from the create form to the
result: the invite page, the lobby of the host and of a guest, the game on your turn and
on another's with the countdown running, the leave dialog, the game log open, a player
back after a reload, a device that lost its connection, and a spectator.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import serious_violations, use_instant_animations
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

pytestmark = pytest.mark.browser

GAME = "[data-screen=game]:not([data-version=''])"


def _new_page(browser: Browser, server: ServerProcess, size: dict[str, int]) -> Page:
    context = browser.new_context(
        viewport={"width": size["width"], "height": size["height"]}, base_url=server.url
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    use_instant_animations(page)
    return page


def _open_log(page: Page) -> None:
    log = page.locator(".game-log")
    if not log.evaluate("d => d.open"):
        log.locator("summary").click()
    expect(page.get_by_test_id("log-list")).to_be_visible()


@pytest.mark.parametrize("width,height", [(360, 640), (1440, 900)])
def test_every_online_screen_and_state_has_no_serious_violations(
    browser: Browser, tmp_path: Path, width: int, height: int
) -> None:
    # A server of its own, stopped at the end to see the page without a connection; its
    # clock moves only by hand, so no countdown runs out while axe looks.
    with running_server(tmp_path / "data", *TEST_FLAGS) as server:
        _walk(browser, server, {"width": width, "height": height})


def _walk(browser: Browser, server: ServerProcess, size: dict[str, int]) -> None:
    host = _new_page(browser, server, size)
    guest = _new_page(browser, server, size)
    found: dict[str, list[str]] = {}
    try:
        host.goto("/#/online")
        host.wait_for_selector("[data-screen=online]")
        found["create and join"] = serious_violations(host)
        host.get_by_test_id("host-name").fill("Hana")
        host.get_by_test_id("create-room").click()
        host.wait_for_selector("[data-screen=lobby]")
        code = host.get_attribute("[data-screen=lobby]", "data-code")
        assert code

        guest.goto(f"/r/{code}")
        guest.wait_for_selector("[data-screen=online]")
        expect(guest.get_by_test_id("join-room")).to_be_visible()
        found["invite"] = serious_violations(guest)
        guest.get_by_test_id("join-name").fill("Gus")
        guest.get_by_test_id("join-room").click()
        guest.wait_for_selector("[data-screen=lobby]")
        expect(host.get_by_test_id("lobby-seat")).to_have_count(2)
        found["lobby, host"] = serious_violations(host)
        found["lobby, guest"] = serious_violations(guest)

        host.get_by_test_id("start-online").click()
        for page in (host, guest):
            page.wait_for_selector(GAME)
        expect(host.get_by_test_id("countdown")).to_be_visible()
        expect(guest.get_by_test_id("countdown")).to_be_visible()
        found["game, your turn, countdown"] = serious_violations(host)
        found["game, another's turn, countdown"] = serious_violations(guest)

        host.get_by_test_id("leave-game").click()
        expect(host.get_by_test_id("confirm-dialog")).to_be_visible()
        found["leave dialog"] = serious_violations(host)
        host.keyboard.press("Escape")
        expect(host.get_by_test_id("confirm-dialog")).to_be_hidden()

        host.get_by_test_id("roll").click()
        expect(guest.get_by_test_id("log-line")).to_contain_text("Hana rolled")
        _open_log(guest)
        found["game log open"] = serious_violations(guest)

        # Back after a reload: the seat and the whole state return.
        guest.reload()
        guest.wait_for_selector(GAME)
        expect(guest.get_by_test_id("log-line")).to_contain_text("Welcome back")
        found["reconnect"] = serious_violations(guest)

        watcher = _new_page(browser, server, size)
        try:
            watcher.goto(f"/#/game/{code}")
            watcher.wait_for_selector(GAME)
            expect(watcher.get_by_test_id("watching")).to_be_visible()
            found["spectator"] = serious_violations(watcher)
        finally:
            watcher.context.close()
        # The server goes away: the page says so and keeps trying.
        server.stop()
        expect(guest.get_by_test_id("turn-banner")).to_have_text("Server unreachable")
        expect(guest.get_by_test_id("log-line")).to_contain_text("cannot be reached")
        found["connection lost"] = serious_violations(guest)
    finally:
        guest.context.close()
        host.context.close()
    assert {state: v for state, v in found.items() if v} == {}
