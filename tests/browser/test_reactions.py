"""Reactions at the table: three browsers in one online room, one reacts, all see it.

The brief: "Any seated player (not a spectator) sends one from a small tray. It floats up
from that player's seat card on every device, and the announcer says it ("Ava: clap").
... Settings has a switch to mute everyone's reactions. The host can turn reactions off
for the room." The tray is keyboard operable, axe-clean when open, and leaves the phone's
die, Roll, countdown and seats on screen.

The server runs with the test hooks: its clock only moves when the test says so, so the
one-a-second limit is passed by moving it, never by waiting.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from snakes.server.rooms.reactions import REACTIONS
from tests.browser.helpers import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    assert_on_phone_screen,
    serious_violations,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


@dataclass
class Player:
    name: str
    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)


def _player(
    browser: Browser, server: ServerProcess, name: str, code: str, secret: str, size: dict[str, int]
) -> Player:
    context = browser.new_context(  # the reactions float up: full motion
        viewport=size,  # type: ignore[arg-type]
        base_url=server.url,
        reduced_motion="no-preference",
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    player = Player(name, context, page)
    page.on("pageerror", lambda error: player.errors.append(str(error)))
    page.on(
        "console",
        lambda message: player.errors.append(message.text) if message.type == "error" else None,
    )
    page.goto("/")
    page.evaluate(
        "([code, secret]) => {"
        " localStorage.setItem('snakes.settings',"
        "   JSON.stringify({speed: 'instant', sound: false}));"
        " localStorage.setItem('snakes.game', JSON.stringify("
        "  {code, secret, mode: 'online', over: false, saved: Date.now()})); }",
        [code, secret],
    )
    page.reload()  # the app reads its settings when it starts
    page.goto(f"/#/online/lobby/{code}")
    page.wait_for_selector("[data-screen=lobby]")
    return player


def _float(page: Page, seat: int, reaction: str) -> str:
    return f"[data-testid=reaction-float][data-seat='{seat}'][data-reaction='{reaction}']"


def _freeze_floats(page: Page, at_ms: int) -> None:
    """Hold every reaction mid-flight, for a screenshot that shows one rising: a copy,
    paused, takes its place (the page's own timer removes only the original)."""
    page.evaluate(
        """(at) => document.querySelectorAll('[data-testid=reaction-float]').forEach((el) => {
             const held = el.cloneNode(true);
             el.replaceWith(held);
             for (const a of held.getAnimations()) { a.pause(); a.currentTime = at; }
           })""",
        at_ms,
    )


def _shot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


@pytest.fixture
def room(hooks_server: ServerProcess) -> Iterator[tuple[str, list[str]]]:
    # The longest countdown: the page counts down on real time while the server's clock
    # stands still, and the screenshots should not show a countdown at zero.
    created = hooks_server.post(
        "/api/rooms",
        {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}], "countdown_seconds": 60},
    )
    code = created["code"]
    secrets = [created["secret"]]
    for name, colour in (("Gus", "blue"), ("Cy", "green")):
        secrets.append(
            hooks_server.post(f"/api/rooms/{code}/join", {"name": name, "colour": colour})["secret"]
        )
    yield code, secrets


def test_three_players_one_reacts_the_others_see_it_float_up_and_hear_it(
    browser: Browser, hooks_server: ServerProcess, room: tuple[str, list[str]]
) -> None:
    server = hooks_server
    code, (hana_secret, gus_secret, cy_secret) = room
    hana = _player(browser, server, "Hana", code, hana_secret, DESKTOP)
    gus = _player(browser, server, "Gus", code, gus_secret, PHONE)
    cy = _player(browser, server, "Cy", code, cy_secret, DESKTOP)
    everyone = [hana, gus, cy]
    try:
        # The host's switch is in the lobby with the rules; the others read it there.
        expect(hana.page.get_by_test_id("lobby-reactions")).to_be_checked()
        expect(gus.page.get_by_test_id("lobby-reactions-line")).to_have_text("Reactions on")
        hana.page.get_by_test_id("start-online").click()
        for player in everyone:
            player.page.wait_for_selector("[data-screen=game][data-version='0']")
            expect(player.page.get_by_test_id("reaction-open")).to_be_visible()
        version = server.get(f"/api/rooms/{code}")["version"]

        # ---- Gus, on a phone, opens the tray by keyboard and sends "laugh".
        phone = gus.page
        opener = phone.get_by_test_id("reaction-open")
        assert_on_phone_screen(
            phone, ["board", "turn-banner", "countdown", "die", "roll", "seat-card"]
        )
        assert_on_phone_screen(phone, ["reaction-open"])
        opener.focus()
        phone.keyboard.press("Enter")
        expect(phone.get_by_test_id("reaction-tray")).to_be_visible()
        expect(opener).to_have_attribute("aria-expanded", "true")
        # The server's eight, in its order (GET /api/config), each drawn as its emoji.
        choices = phone.get_by_test_id("reaction-choice")
        ids = [choices.nth(i).get_attribute("data-reaction") for i in range(choices.count())]
        assert tuple(ids) == REACTIONS
        assert choices.nth(7).inner_text() == "👋"
        first = phone.locator("[data-testid=reaction-choice][data-reaction=clap]")
        expect(first).to_be_focused()
        # Opening the tray moves nothing: the die, Roll, countdown and seats stay put.
        assert_on_phone_screen(
            phone, ["board", "turn-banner", "countdown", "die", "roll", "seat-card"]
        )
        assert serious_violations(phone) == []
        shots = [_shot(phone, "reaction-tray-phone")]
        phone.keyboard.press("ArrowRight")
        laugh = phone.locator("[data-testid=reaction-choice][data-reaction=laugh]")
        expect(laugh).to_be_focused()
        expect(laugh).to_have_attribute("aria-label", "laugh")
        phone.keyboard.press("Enter")
        expect(phone.get_by_test_id("reaction-tray")).to_be_hidden()
        expect(opener).to_be_focused()  # back where the keyboard was

        for player in everyone:
            # Held mid-flight the moment it is seen, for the checks and the screenshots.
            expect(player.page.locator(_float(player.page, 1, "laugh"))).to_have_count(1)
            _freeze_floats(player.page, 450)
        shots += [_shot(phone, "reaction-phone"), _shot(hana.page, "reaction-desktop")]
        for player in everyone:
            expect(player.page.get_by_test_id("announcer")).to_contain_text("Gus: laugh")
        # It rises from Gus's own card.
        card = hana.page.locator("[data-testid=seat-card][data-seat='1']").bounding_box()
        bubble = hana.page.locator(_float(hana.page, 1, "laugh")).bounding_box()
        assert card is not None and bubble is not None
        assert card["x"] <= bubble["x"] + bubble["width"] / 2 <= card["x"] + card["width"]
        # Not a game action: the room's version did not move.
        assert server.get(f"/api/rooms/{code}")["version"] == version
        for player in everyone:
            floats = "document.querySelectorAll('[data-testid=reaction-float]')"
            player.page.evaluate(f"{floats}.forEach((e) => e.remove())")

        # ---- Another at once is refused with the wait; Gus is told, nothing floats.
        opener.click()
        phone.locator("[data-testid=reaction-choice][data-reaction=wow]").click()
        expect(phone.get_by_test_id("game-notice")).to_contain_text("next reaction can go in 1 s")
        expect(hana.page.locator(_float(hana.page, 1, "wow"))).to_have_count(0)

        # ---- Hana's tray on the desktop, open, is axe-clean too (with her switch).
        hana.page.get_by_test_id("reaction-open").click()
        expect(hana.page.get_by_test_id("reactions-switch")).to_be_visible()
        assert serious_violations(hana.page) == []
        shots.append(_shot(hana.page, "reaction-tray-desktop"))
        hana.page.keyboard.press("Escape")
        expect(hana.page.get_by_test_id("reaction-tray")).to_be_hidden()

        # ---- Cy mutes reactions in Settings (remembered), and comes back to the game.
        cy.page.goto("/#/settings")
        cy.page.get_by_test_id("confirm-ok").click()  # "Leave this game?": for a moment
        cy.page.get_by_test_id("setting-mute-reactions").check()
        cy.page.reload()
        expect(cy.page.get_by_test_id("setting-mute-reactions")).to_be_checked()
        cy.page.goto(f"/#/game/{code}")
        cy.page.wait_for_selector("[data-screen=game][data-version='0']")
        server.advance(1.5)
        opener.click()
        phone.locator("[data-testid=reaction-choice][data-reaction=party]").click()
        expect(hana.page.locator(_float(hana.page, 1, "party"))).to_have_count(1)
        # A card that moves during the flight takes its reaction along.
        moved = hana.page.evaluate(
            """([selector, card]) => {
                 const float = document.querySelector(selector);
                 const seat = document.querySelector(card);
                 const centre = (r) => r.left + r.width / 2;
                 const x0 = centre(float.getBoundingClientRect());
                 seat.style.translate = "40px 0";
                 // Two frames: the float follows its card frame by frame, so by the
                 // second one it has been placed by the moved card (a fixed wait could
                 // outlast the flight on a busy machine).
                 return new Promise((done) => requestAnimationFrame(() =>
                   requestAnimationFrame(() => {
                     const x1 = centre(float.getBoundingClientRect());
                     seat.style.translate = "";
                     done(float.isConnected ? x1 - x0 : null);
                   })));
               }""",
            [_float(hana.page, 1, "party"), "[data-testid=seat-card][data-seat='1']"],
        )
        assert 38 <= moved <= 42, moved
        expect(hana.page.get_by_test_id("announcer")).to_contain_text("Gus: party")
        expect(phone.locator(_float(phone, 1, "party"))).to_have_count(1)
        cy.page.wait_for_timeout(300)
        expect(cy.page.get_by_test_id("reaction-float")).to_have_count(0)
        expect(cy.page.get_by_test_id("announcer")).not_to_contain_text("Gus: party")

        # ---- The host turns reactions off for the room: nobody else has a tray.
        hana.page.get_by_test_id("reaction-open").click()
        hana.page.get_by_test_id("reactions-switch").uncheck()
        for player in (gus, cy):
            expect(player.page.get_by_test_id("reaction-bar")).to_be_hidden()
        expect(phone.get_by_test_id("announcer")).to_contain_text("turned reactions off")
        expect(hana.page.get_by_test_id("reaction-tray")).to_contain_text("Reactions are off")
        assert server.get(f"/api/rooms/{code}")["reactions"] is False
        hana.page.get_by_test_id("reactions-switch").check()
        expect(phone.get_by_test_id("reaction-bar")).to_be_visible()
        assert server.get(f"/api/rooms/{code}")["version"] == version

        for player in everyone:
            assert not player.errors, f"{player.name}'s page reported errors: {player.errors}"
        assert all(shot.stat().st_size > 10_000 for shot in shots)
    finally:
        for player in everyone:
            player.context.close()
