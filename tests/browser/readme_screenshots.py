"""Make the README's screenshots in docs/screenshots/ (not a test; run it by hand).

    .venv/bin/python -m tests.browser.readme_screenshots

A server with the test hooks (manual clock, scripted dice) plays the same game every time:
Ava against three AI players, a spread of tokens in mid-game, then Ava wins. The online
lobby has a host, two friends and an AI seat.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, sync_playwright

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP = ViewportSize(width=1440, height=900)
PHONE = ViewportSize(width=360, height=640)
PUBLIC = ("--public-url", "https://snakes.example.org")  # what an invite link looks like

# Ava (red) and the AI players Monkey, Tiger and Gecko, round by round (a six rolls again).
MIDGAME = [
    *(1, 4, 2, 3),
    *(4, 5, 6, 1, 5),
    *(3, 2, 5, 1),
    *(6, 2, 5, 4, 5),
]
# Ava 69, Monkey 26, Tiger 48, Gecko 44; then Ava climbs to 91, 94 and rolls home.
ENDGAME = [*(2, 1, 2, 1), *(3, 1, 1, 3), 6]


def _settings(page: Page, speed: str, *, sound: bool = False) -> None:
    page.goto("/")
    page.evaluate(
        "([speed, sound]) =>"
        " localStorage.setItem('snakes.settings', JSON.stringify({speed, sound}))",
        [speed, sound],
    )
    page.reload()
    page.wait_for_selector("[data-screen=home]")


def _my_turn(page: Page, server: ServerProcess) -> None:
    """Let the AI seats roll (they wait on the server's clock) until the human may roll."""
    for _ in range(400):
        if page.locator("[data-screen=result] [data-testid=result-list]").count():
            return
        roll = page.get_by_test_id("roll")
        if roll.count() and roll.get_attribute("aria-disabled") == "false":
            return
        server.advance(0.2)
        page.wait_for_timeout(60)
    raise AssertionError("the AI seats did not play")


def _play(page: Page, server: ServerProcess, dice: list[int], human_rolls: int) -> None:
    server.script_dice(*dice)
    for _ in range(human_rolls):
        _my_turn(page, server)
        page.get_by_test_id("roll").click()
    _my_turn(page, server)


def game_and_result(page: Page, server: ServerProcess) -> None:
    page.goto("/#/setup/ai")
    page.wait_for_selector("[data-screen=setup]")
    page.get_by_test_id("seat-name").first.fill("Ava")
    page.get_by_test_id("ai-more").click()
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    _play(page, server, MIDGAME, human_rolls=5)
    page.wait_for_timeout(400)
    page.screenshot(path=str(OUT / "game-desktop.png"))
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    page.screenshot(path=str(OUT / "game-phone.png"))
    page.set_viewport_size(DESKTOP)
    _play(page, server, ENDGAME, human_rolls=3)
    page.wait_for_selector("[data-screen=result] [data-testid=result-list]")
    page.wait_for_timeout(1600)  # the confetti is falling
    page.screenshot(path=str(OUT / "result-desktop.png"))


def lobby(page: Page, server: ServerProcess) -> None:
    page.goto("/#/online")
    page.wait_for_selector("[data-screen=online]")
    page.get_by_test_id("host-name").fill("Hana")
    page.get_by_test_id("create-room").click()
    page.wait_for_selector("[data-screen=lobby]")
    code = page.get_attribute("[data-screen=lobby]", "data-code")
    assert code
    friends = []
    for name, colour in (("Gus", "blue"), ("Cyrus", "green")):
        joined = server.post(f"/api/rooms/{code}/join", {"name": name, "colour": colour})
        client = GameClient(server.ws_url)
        client.hello(code, joined["secret"])
        friends.append(client)
    page.get_by_test_id("add-ai").click()
    page.wait_for_selector("[data-testid=lobby-seat] >> nth=3")
    page.wait_for_timeout(300)
    page.screenshot(path=str(OUT / "lobby-desktop.png"))
    for client in friends:
        client.close()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with (
        running_server(Path(tempfile.mkdtemp()), *TEST_FLAGS, *PUBLIC) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        phone = browser.new_context(viewport=PHONE, base_url=server.url)
        page = phone.new_page()
        _settings(page, "normal", sound=True)
        page.wait_for_timeout(600)
        page.screenshot(path=str(OUT / "home-phone.png"))
        phone.close()

        desktop = browser.new_context(viewport=DESKTOP, base_url=server.url)
        page = desktop.new_page()
        _settings(page, "fast")
        game_and_result(page, server)
        desktop.close()

        desktop = browser.new_context(viewport=DESKTOP, base_url=server.url)
        page = desktop.new_page()
        _settings(page, "fast")
        lobby(page, server)
        desktop.close()
        browser.close()
    print(f"screenshots in {OUT}")


if __name__ == "__main__":
    main()
