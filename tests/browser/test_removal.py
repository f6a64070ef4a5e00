"""Removal is fair and explained: the host can remove a player whose network went only
once that player has missed a turn (docs/PROTOCOL.md, the room view), and the player
removed, coming back, is told who removed them and why, in their language, and offered
to watch the rest of the game or leave.

The server runs with the test hooks: its clock moves only when the test says, so the
missed turn comes exactly when the test makes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import DESKTOP, PHONE, shot
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

COUNTDOWN = 20


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    return dict(request.param)


def player_page(
    browser: Browser,
    server: ServerProcess,
    viewport: dict[str, int],
    code: str,
    secret: str,
    language: str = "en",
) -> Iterator[Page]:
    """A device holding ``secret``'s seat in room ``code``; fails on any page error."""
    context = browser.new_context(viewport=viewport, base_url=server.url)  # type: ignore[arg-type]
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto("/")
    page.evaluate(
        "([code, secret, language]) => {"
        " localStorage.setItem('snakes.settings',"
        "   JSON.stringify({speed: 'instant', sound: false, language}));"
        " localStorage.setItem('snakes.game', JSON.stringify("
        "  {code, secret, mode: 'online', over: false, saved: Date.now()})); }",
        [code, secret, language],
    )
    page.reload()  # the app reads its settings when it starts
    page.goto(f"/#/online/lobby/{code}")
    yield page
    context.close()
    assert not errors, f"the page reported errors: {errors}"


def card(page: Page, seat: int) -> Any:
    return page.locator(f"[data-testid=seat-card][data-seat='{seat}']")


def test_a_player_gone_is_removable_after_a_missed_turn_and_told_on_coming_back(
    browser: Browser, hooks_server: ServerProcess, viewport: dict[str, int]
) -> None:
    server = hooks_server
    created = server.post(
        "/api/rooms",
        {
            "mode": "online",
            "seats": [{"name": "Hana", "colour": "red"}],
            "countdown_seconds": COUNTDOWN,
        },
    )
    code, hana_secret = created["code"], created["secret"]
    lin_secret = server.post(f"/api/rooms/{code}/join", {"name": "Lin", "colour": "blue"})["secret"]
    # Cy stays, so the race goes on without Lin (two players and one removed is a win).
    cy_secret = server.post(f"/api/rooms/{code}/join", {"name": "Cy", "colour": "green"})["secret"]
    lin, cy = GameClient(server.ws_url), GameClient(server.ws_url)
    lin.hello(code, lin_secret)
    cy.hello(code, cy_secret)
    for hana in player_page(browser, server, viewport, code, hana_secret):
        hana.get_by_test_id("start-online").click()
        hana.wait_for_selector("[data-screen=game][data-version='0']")
        lin.close()  # Lin's network goes
        expect(card(hana, 1)).to_have_attribute("data-status", "disconnected")
        # Gone a moment ago: no Remove yet, whatever happens on Hana's own turn.
        expect(hana.get_by_test_id("remove-player")).to_have_count(0)
        server.script_dice(2)  # no six: the turn passes to Lin
        hana.get_by_test_id("roll").click()
        expect(card(hana, 1)).to_have_attribute("data-current", "true")
        expect(hana.get_by_test_id("remove-player")).to_have_count(0)
        shot(hana, "removal-not-yet")

        server.advance(COUNTDOWN + 1)  # Lin's countdown runs out: her turn is missed
        expect(card(hana, 2)).to_have_attribute("data-current", "true")
        cy.catch_up()
        server.script_dice(3)
        assert cy.roll(2)["type"] == "update"
        remove = hana.get_by_test_id("remove-player")
        expect(remove).to_have_count(1)
        expect(remove).to_have_text("Remove Lin")
        remove.click()
        dialog = hana.locator("#confirm")
        expect(dialog).to_contain_text("Remove Lin?")
        dialog.locator("[value=ok]").click()
        expect(card(hana, 1)).to_have_attribute("data-status", "left")
        shot(hana, "removal-done")
    cy.close()

    # Lin comes back, on a device in German: she is told who removed her, and why.
    for page in player_page(browser, server, viewport, code, lin_secret, language="de"):
        page.wait_for_selector("[data-screen=game]")
        told = page.locator("#confirm")
        expect(told).to_be_visible()
        expect(told.locator("#confirm-title")).to_have_text("Du wurdest aus diesem Spiel entfernt")
        expect(told.locator("#confirm-text")).to_contain_text("Hana hat dich entfernt")
        expect(told.locator("[value=cancel]")).to_be_focused()  # watching is the safe choice
        shot(page, "removal-told")
        told.locator("[value=cancel]").click()  # "Spiel zuschauen"
        expect(told).to_be_hidden()
        expect(page.get_by_test_id("watching")).to_be_visible()
        expect(page.get_by_test_id("roll")).to_be_hidden()

        page.reload()  # told again on coming back; this time she leaves
        expect(told).to_be_visible()
        told.locator("[value=ok]").click()  # "Gehen"
        page.wait_for_selector("[data-screen=home]")
