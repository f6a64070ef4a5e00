"""Make the README's screenshots in docs/screenshots/ (not a test; run it by hand).

    .venv/bin/python -m tests.browser.readme_screenshots [FOLDER]
    .venv/bin/python -m tests.browser.readme_screenshots --optimise FILE...

FOLDER (default ``after``) goes under docs/screenshots/. Each screen is taken at phone
(360x640) and desktop (1440x900) size: home, setup, a ladder and a snake moment, the
game mid-race, the result, and an online game with its countdown. A server with the
test hooks (manual clock, scripted dice) plays the same game every time: Ava against
three AI players. Every picture is saved with a 256-colour palette (a fifth of the size,
no visible loss); ``--optimise`` does the same to pictures taken elsewhere, such as
the "before" set taken from an older checkout with a copy of this script.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.helpers import script_dice
from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

ROOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {
    "phone": ViewportSize(width=360, height=640),
    "desktop": ViewportSize(width=1440, height=900),
}
PUBLIC = ("--public-url", "https://snakes.example.org")  # what an invite link looks like

# Ava (red) and the AI players Monkey, Tiger and Gecko, round by round (a six rolls again).
# Ava's first 1 climbs 1 -> 38; in round 4 Monkey's 5 lands on 47 and slides to 26.
MIDGAME = [
    *(1, 4, 2, 3),
    *(4, 5, 6, 1, 5),
    *(3, 2, 5, 1),
    *(6, 2, 5, 4, 5),
]
# Ava 69, Monkey 26, Tiger 48, Gecko 44; then Ava climbs to 91, 94 and rolls home.
ENDGAME = [*(2, 1, 2, 1), *(3, 1, 1, 3), 6]


def optimise(path: Path) -> None:
    """Rewrite a screenshot with a 256-colour palette, compressed as far as PNG goes."""
    with Image.open(path) as image:
        palette = image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    palette.save(path, optimize=True)


class Shots:
    def __init__(self, out: Path, size: str) -> None:
        self.out, self.size = out, size
        self.taken: set[str] = set()

    def take(self, page: Page, name: str) -> None:
        self.taken.add(name)
        path = self.out / f"{name}-{self.size}.png"
        page.screenshot(path=str(path))
        optimise(path)


def _settings(page: Page, speed: str, *, sound: bool = False) -> None:
    page.goto("/")
    page.evaluate(
        "([speed, sound]) =>"
        " localStorage.setItem('snakes.settings', JSON.stringify({speed, sound}))",
        [speed, sound],
    )
    page.reload()
    page.wait_for_selector("[data-screen=home]")


def _moment(page: Page, shots: Shots) -> None:
    """A ladder or snake lit up right now: take it once each."""
    for kind in ("ladder", "snake"):
        name = f"{kind}-moment"
        if name not in shots.taken and page.locator(f".{kind}.active").count():
            page.wait_for_timeout(250)
            shots.take(page, name)


def _my_turn(page: Page, server: ServerProcess, shots: Shots) -> None:
    """Let the AI seats roll (they wait on the server's clock) until the human may roll."""
    for _ in range(600):
        _moment(page, shots)
        if page.locator("[data-screen=result] [data-testid=result-list]").count():
            return
        roll = page.get_by_test_id("roll")
        if roll.count() and roll.get_attribute("aria-disabled") == "false":
            return
        server.advance(0.2)
        page.wait_for_timeout(40)
    raise AssertionError("the AI seats did not play")


def _play(page: Page, server: ServerProcess, shots: Shots, dice: list[int], rolls: int) -> None:
    script_dice(page, *dice)  # the game runs in the page: its die is scripted there
    for _ in range(rolls):
        _my_turn(page, server, shots)
        page.get_by_test_id("roll").click()
        for _ in range(40):
            _moment(page, shots)
            page.wait_for_timeout(25)
    _my_turn(page, server, shots)


def game_and_result(page: Page, server: ServerProcess, shots: Shots) -> None:
    page.goto("/#/setup/ai")
    page.wait_for_selector("[data-screen=setup]")
    page.get_by_test_id("seat-name").first.fill("Ava")
    page.get_by_test_id("ai-more").click()
    page.wait_for_timeout(200)
    shots.take(page, "setup")
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    _play(page, server, shots, MIDGAME, rolls=5)
    page.wait_for_timeout(600)
    shots.take(page, "game")
    _play(page, server, shots, ENDGAME, rolls=3)
    page.wait_for_selector("[data-screen=result] [data-testid=result-list]")
    page.wait_for_timeout(1600)  # the confetti is falling
    shots.take(page, "result")


def online(browser: Browser, server: ServerProcess, size: ViewportSize, shots: Shots) -> None:
    created = server.post(
        "/api/rooms", {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}]}
    )
    code = created["code"]
    context = browser.new_context(viewport=size, base_url=server.url)
    page = context.new_page()
    _settings(page, "fast")
    page.evaluate(
        "([code, secret]) => localStorage.setItem('snakes.game', JSON.stringify("
        "{code, secret, mode: 'online', over: false, saved: Date.now()}))",
        [code, created["secret"]],
    )
    friends = []
    for name, colour in (("Gus", "blue"), ("Cyrus", "green")):
        joined = server.post(f"/api/rooms/{code}/join", {"name": name, "colour": colour})
        client = GameClient(server.ws_url)
        client.hello(code, joined["secret"])
        friends.append(client)
    page.goto(f"/#/online/lobby/{code}")
    page.wait_for_selector("[data-testid=lobby-seat] >> nth=2")
    page.wait_for_timeout(300)
    shots.take(page, "lobby")
    page.get_by_test_id("start-online").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    page.wait_for_timeout(2600)  # a few seconds have ticked away
    shots.take(page, "online-countdown")
    for client in friends:
        client.close()
    context.close()


def main() -> None:
    if sys.argv[1:2] == ["--optimise"]:
        for name in sys.argv[2:]:
            optimise(Path(name))
        return
    out = ROOT / (sys.argv[1] if len(sys.argv) > 1 else "after")
    out.mkdir(parents=True, exist_ok=True)
    with (
        running_server(Path(tempfile.mkdtemp()), *TEST_FLAGS, *PUBLIC) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        for label, size in SIZES.items():
            shots = Shots(out, label)
            context = browser.new_context(viewport=size, base_url=server.url)
            page = context.new_page()
            _settings(page, "normal", sound=True)
            page.wait_for_timeout(600)
            shots.take(page, "home")
            context.close()

            context = browser.new_context(viewport=size, base_url=server.url)
            page = context.new_page()
            _settings(page, "normal")
            game_and_result(page, server, shots)
            context.close()
            online(browser, server, size, shots)
            missing = {"ladder-moment", "snake-moment"} - shots.taken
            if missing:
                print(f"{label}: no screenshot of {sorted(missing)}")
        browser.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
