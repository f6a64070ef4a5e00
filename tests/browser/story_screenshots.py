"""Make the README's screenshots of the replay, the result's chart and the offline screen.

    .venv/bin/python -m tests.browser.story_screenshots

Not a test; run it by hand. A server with scripted dice plays the same Pass & Play game
every time (Ava climbs 28 -> 84 at move 6 and wins at move 10), as in test_replay.py.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.test_replay import LADDER_MOVE, play_scripted_game
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _calm(page: Page) -> None:
    """No confetti, no glide: the screenshots show still screens."""
    page.emulate_media(reduced_motion="reduce")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        with running_server(Path(folder) / "data", *TEST_FLAGS) as server:
            for name, size in (("desktop", (1440, 900)), ("phone", (360, 640))):
                context = browser.new_context(
                    viewport={"width": size[0], "height": size[1]}, base_url=server.url
                )
                page = context.new_page()
                _calm(page)
                code = play_scripted_game(page, server)
                if name == "desktop":
                    page.get_by_test_id("story-panel").scroll_into_view_if_needed()
                    page.wait_for_selector("[data-testid=odds-chart-mini]")
                    page.screenshot(path=str(OUT / "result-story-desktop.png"))
                page.goto(f"/#/replay/{code}/1")
                page.wait_for_selector("[data-screen=replay][data-step='0']")
                for _ in range(LADDER_MOVE):
                    page.keyboard.press("ArrowRight")
                page.wait_for_selector(f"[data-screen=replay][data-step='{LADDER_MOVE}']")
                page.screenshot(path=str(OUT / f"replay-{name}.png"))
                if name == "phone":
                    page.get_by_test_id("odds-chart").scroll_into_view_if_needed()
                    page.screenshot(path=str(OUT / "replay-chart-phone.png"))
                context.close()
        # The installed app with its server stopped.
        offline = ServerProcess(Path(folder) / "offline", "--animation-scale", "0")
        offline.start()
        context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=offline.url)
        page = context.new_page()
        page.goto("/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.wait_for_timeout(1500)  # the shell is cached
        offline.stop()
        page.reload()
        page.wait_for_selector("[data-testid=offline]")
        page.screenshot(path=str(OUT / "offline-phone.png"))
        context.close()
        browser.close()
    for path in sorted(OUT.glob("*")):
        print(path)


if __name__ == "__main__":
    main()
