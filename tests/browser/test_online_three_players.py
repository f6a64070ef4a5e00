"""Three browsers play an online Last One Standing game to the end (the Play Online issue).

Product brief, Play Online: "Every player sees the countdown ... When it runs out — the
player stalled or disconnected — the turn is skipped and everyone is told. No roll is ever
made on a player's behalf." and "a per-seat secret kept in the browser brings a player who
reloads ... back to their seat, with the whole state". "A player whose tab is in the
background gets a 'your turn' signal (title, sound, vibration where the device has it)."

The server runs with the test hooks: a manual clock (the countdown only runs out when the
test says so) and scripted dice, so the whole game is deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.helpers import snap
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

pytestmark = pytest.mark.browser

COUNTDOWN = 10
# Exact finish off, sixes do not roll again: 1 → 38 (ladder), 39, 45, 51 → 67 (ladder),
# 71 → 91 (ladder), 94, then 100. Seven rolls home, no snake on the way.
PATH = (1, 1, 6, 6, 4, 3, 6)
SQUARES = (38, 39, 45, 67, 91, 94, 100)


@dataclass
class Player:
    name: str
    context: BrowserContext
    page: Page = field(init=False)
    errors: list[str] = field(default_factory=list)
    rolls: int = 0

    def open_page(self) -> Page:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        self.page = page
        return page


@pytest.fixture
def hooked_server(tmp_path: Path) -> Iterator[ServerProcess]:
    with running_server(tmp_path / "data", *TEST_FLAGS) as process:
        yield process


def _player(browser: Browser, server: ServerProcess, name: str, width: int, height: int) -> Player:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server.url)
    context.set_default_timeout(15_000)
    player = Player(name, context)
    player.open_page()
    player.page.goto("/")
    player.page.evaluate(
        "localStorage.setItem('snakes.settings', JSON.stringify({speed: 'instant', sound: false}))"
    )
    player.page.reload()  # the settings are read when the app starts
    return player


def _version(server: ServerProcess, code: str) -> int:
    return int(server.get(f"/api/rooms/{code}")["version"])


def _settled(page: Page, version: int) -> None:
    page.wait_for_selector(
        f"[data-screen=game][data-version='{version}'], [data-screen=result][data-version]"
    )


def _roll(server: ServerProcess, code: str, player: Player, watchers: list[Player]) -> None:
    """Script the player's next step on PATH, roll it from their page, wait for everyone."""
    value = PATH[player.rolls]
    roll = player.page.get_by_test_id("roll")
    expect(roll).to_have_attribute("aria-disabled", "false")
    before = _version(server, code)
    server.script_dice(value)
    roll.click()
    for watcher in watchers:
        _settled(watcher.page, before + 1)
    player.rolls += 1
    square = SQUARES[player.rolls - 1]
    seat = {"Hana": 0, "Gus": 1, "Cy": 2}[player.name]
    for watcher in watchers:
        card = watcher.page.locator(f"[data-testid=seat-card][data-seat='{seat}']")
        if watcher.page.locator("[data-screen=game]").count():
            expect(card).to_have_attribute("data-square", str(square))


def test_three_browsers_play_last_one_standing_through_a_skip_and_a_return(
    browser: Browser, hooked_server: ServerProcess
) -> None:
    server = hooked_server
    hana = _player(browser, server, "Hana", 1440, 900)
    gus = _player(browser, server, "Gus", 360, 640)
    cy = _player(browser, server, "Cy", 1440, 900)
    everyone = [hana, gus, cy]
    try:
        # ---- Hana creates the room: Last One Standing, no exact finish, no bonus sixes.
        host = hana.page
        host.goto("/#/online")
        host.wait_for_selector("[data-screen=online]")
        host.get_by_test_id("host-name").fill("Hana")
        host.get_by_role("radio", name=re.compile("^Last One Standing")).check()
        host.get_by_test_id("online-exact-finish").uncheck()
        host.get_by_test_id("online-six-again").uncheck()
        host.get_by_test_id("countdown-seconds").fill(str(COUNTDOWN))
        host.get_by_test_id("create-room").click()
        host.wait_for_selector("[data-screen=lobby]")
        code = host.get_attribute("[data-screen=lobby]", "data-code")
        assert code
        invite = host.get_by_test_id("invite-link").inner_text()
        assert invite == f"{server.url}/r/{code}"

        # ---- Gus and Cy join with the invite link; the free colours are offered.
        for guest in (gus, cy):
            guest.page.goto(f"/r/{code}")
            guest.page.wait_for_selector("[data-screen=online]")
            expect(guest.page.get_by_test_id("join-code")).to_have_value(code)
            guest.page.get_by_test_id("join-name").fill(guest.name)
            guest.page.get_by_test_id("join-room").click()
            guest.page.wait_for_selector("[data-screen=lobby]")
        for player in everyone:
            expect(player.page.get_by_test_id("lobby-seat")).to_have_count(3)
        room = server.get(f"/api/rooms/{code}")
        assert [(s["name"], s["colour"]) for s in room["seats"]] == [
            ("Hana", "red"),
            ("Gus", "blue"),
            ("Cy", "green"),
        ]
        assert room["rules"] == {
            "finish": "last-one-standing",
            "exact_finish": False,
            "six_again": False,
        }
        assert room["countdown_seconds"] == COUNTDOWN
        snap(host, "online3-lobby")

        host.get_by_test_id("start-online").click()
        for player in everyone:
            _settled(player.page, 0)
            expect(player.page.get_by_test_id("rules-summary")).to_have_text(
                "Last One Standing · no exact finish · no bonus sixes"
            )

        # ---- Two rounds: everyone climbs 1 → 38, then steps to 39.
        for _ in range(2):
            for player in everyone:
                _roll(server, code, player, everyone)

        # ---- Cy closes the page. The others see Cy disconnected.
        cy.page.close()
        for player in (hana, gus):
            expect(player.page.locator("[data-testid=seat-card][data-seat='2']")).to_have_attribute(
                "data-status", "disconnected"
            )
        _roll(server, code, hana, [hana, gus])
        _roll(server, code, gus, [hana, gus])

        # ---- Cy's turn: everyone still here sees the countdown running for Cy.
        for player in (hana, gus):
            page = player.page
            card = page.locator("[data-testid=seat-card][data-seat='2']")
            expect(card).to_have_attribute("data-current", "true")
            expect(page.get_by_test_id("countdown")).to_be_visible()
            expect(page.get_by_test_id("countdown")).to_contain_text(re.compile(r"\d+ s left"))
            expect(page.get_by_test_id("turn-banner")).to_have_text("Waiting for Cy…")
            expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "true")
        snap(hana.page, "online3-countdown")

        # ---- The countdown runs out: skipped, everyone is told, nobody rolled for Cy.
        before = _version(server, code)
        server.advance(COUNTDOWN)
        for player in (hana, gus):
            page = player.page
            _settled(page, before + 1)
            expect(page.get_by_test_id("log-line")).to_have_text(
                "Cy ran out of time — turn skipped."
            )
            expect(page.locator("[data-testid=seat-card][data-seat='2']")).to_have_attribute(
                "data-square", "39"
            )
            expect(page.get_by_test_id("log-list")).to_contain_text("Cy ran out of time")
            # Cy's two rolls of the first rounds, and none since.
            cy_rolls = page.get_by_test_id("log-list").locator("li", has_text="Cy rolled")
            expect(cy_rolls).to_have_count(2)
        expect(hana.page.get_by_test_id("announcer")).to_contain_text("Cy ran out of time")
        room = server.get(f"/api/rooms/{code}")
        assert room["seats"][2]["square"] == 39 and room["turn"] == 0
        snap(gus.page, "online3-skipped")

        # ---- Gus's tab goes to the background: when his turn comes, the title says so
        # and the device vibrates (the page's visibility and vibrate are stubbed here).
        gus.page.evaluate(
            """() => {
              Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
              Object.defineProperty(document, 'visibilityState',
                {configurable: true, get: () => 'hidden'});
              window.__buzz = [];
              navigator.vibrate = (pattern) => { window.__buzz.push(pattern); return true; };
            }"""
        )

        # ---- Cy opens the invite link again in a new page: back in the seat, whole state.
        cy_page = cy.open_page()
        cy_page.goto(f"/r/{code}")
        _settled(cy_page, before + 1)
        me = cy_page.locator("[data-testid=seat-card][data-seat='2']")
        expect(me).to_contain_text("You")
        expect(me).to_have_attribute("data-square", "39")
        expect(cy_page.locator("[data-testid=seat-card][data-seat='0']")).to_have_attribute(
            "data-square", "45"
        )
        for player in (hana, gus):
            expect(player.page.locator("[data-testid=seat-card][data-seat='2']")).to_have_attribute(
                "data-status", "racing"
            )

        _roll(server, code, hana, everyone)  # now it is Gus's turn, in a background tab
        expect(gus.page).to_have_title(re.compile(r"^● Your turn, Gus!"))
        assert gus.page.evaluate("window.__buzz") == [[120, 60, 120]]
        gus.page.evaluate(
            """() => {
              delete document.hidden;
              delete document.visibilityState;
              document.dispatchEvent(new Event('visibilitychange'));
            }"""
        )
        expect(gus.page).to_have_title("Game — Snakes & Ladders")
        _roll(server, code, gus, everyone)
        _roll(server, code, cy, everyone)  # Cy plays on: 39 + 6 = 45

        # ---- Race on to the end: Hana 1st, Gus 2nd, Cy (one turn behind) 3rd.
        while cy.rolls < len(PATH):
            for player in everyone:
                if player.rolls < len(PATH):
                    _roll(server, code, player, everyone)

        for player in everyone:
            page = player.page
            page.wait_for_selector("[data-screen=result] [data-testid=result-list]")
            rows = page.get_by_test_id("result-row")
            expect(rows).to_have_count(3)
            for place, (seat, name) in enumerate(((0, "Hana"), (1, "Gus"), (2, "Cy")), start=1):
                row = rows.nth(place - 1)
                expect(row).to_have_attribute("data-seat", str(seat))
                expect(row).to_have_attribute("data-place", str(place))
                expect(row).to_have_attribute("data-status", "finished")
                expect(row).to_contain_text(name)
        expect(hana.page.locator(".winner-name")).to_have_text("You came 1st!")
        expect(gus.page.locator(".winner-name")).to_have_text("You came 2nd!")
        results = server.get(f"/api/rooms/{code}")["results"]
        assert [(r["seat"], r["place"]) for r in results] == [(0, 1), (1, 2), (2, 3)]
        snap(hana.page, "online3-result")
        for player in everyone:
            assert not player.errors, f"{player.name}'s page reported errors: {player.errors}"
    finally:
        for player in everyone:
            player.context.close()
