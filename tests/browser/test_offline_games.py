"""Games at your own table with the server gone: killed (SIGKILL) after the first load.

The page was loaded once, so the service worker kept the app shell; then the server
process dies. Play with AI and Pass & Play must still be played to the result, at phone
size, in two languages; a game closed mid-way opens again from Home and goes on, still
offline; "Skip to results" plays the rest at once. Nothing here can reach a server: the
process is dead, not merely flagged offline.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.helpers import (
    PHONE,
    next_step,
    play_to_result,
    script_dice,
    use_instant_animations,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

CURRENT_SHELL = """async () => {
  const hit = await (await caches.open('snakes-meta')).match('/__current-shell');
  return hit ? await hit.text() : null;
}"""
KEPT_BYTES = """async () => {
  const name = await (await caches.open('snakes-meta')).match('/__current-shell');
  const cache = await caches.open(await name.text());
  let total = 0;
  for (const request of await cache.keys()) {
    total += (await (await cache.match(request)).blob()).size;
  }
  return total;
}"""
OFFLINE_CACHE_BUDGET = 1536 * 1024
"""Everything a device keeps to play offline (the page and /static/)."""
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def wait_for_shell(page: Page, seconds: float = 30) -> None:
    """The service worker controls the page and has kept the whole shell."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.evaluate(CURRENT_SHELL):
            return
        time.sleep(0.1)
    raise AssertionError("the app shell was never kept")


class Offline:
    """A server that served the first load and was then killed, and a browser on it."""

    def __init__(self, browser: Browser, tmp_path: Path, locale: str) -> None:
        self.server = ServerProcess(tmp_path / "data", "--animation-scale", "0")
        self.server.start()
        self.context: BrowserContext = browser.new_context(
            viewport=PHONE, base_url=self.server.url, locale=locale
        )
        self.context.set_default_timeout(20_000)
        self.errors: list[str] = []
        self.page = self.new_page()
        self.page.goto("/")
        self.page.wait_for_selector("[data-screen=home]")
        wait_for_shell(self.page)
        self.kept_bytes: int = self.page.evaluate(KEPT_BYTES)
        self.page.evaluate(
            "localStorage.setItem('snakes.settings',"
            " JSON.stringify({speed: 'instant', sound: false}))"
        )
        self.server.kill()

    def new_page(self) -> Page:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def home(self, page: Page | None = None) -> Page:
        page = page or self.page
        page.goto("/")
        page.wait_for_selector("[data-screen=home]")
        return page

    def close(self) -> None:
        self.context.close()
        self.server.kill()


@pytest.fixture
def offline(browser: Browser, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Offline]:
    setup = Offline(browser, tmp_path, getattr(request, "param", "en-GB"))
    yield setup
    setup.close()
    assert not setup.errors, setup.errors


def refused(page: Page) -> bool:
    """The server is really gone: a request to it fails."""
    answer = page.evaluate("() => fetch('/healthz').then(() => 'served', () => 'failed')")
    return answer == "failed"


def snap_both(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size in (PHONE, {"width": 1440, "height": 900}):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{size['width']}x{size['height']}.png"))
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize(
    ("offline", "words"), [("en-GB", "Roll"), ("es-ES", "Tirar")], indirect=["offline"]
)
def test_play_with_ai_to_the_result_offline(offline: Offline, words: str) -> None:
    page = offline.home()
    assert refused(page)
    page.get_by_test_id("play-ai").click()
    page.wait_for_selector("[data-screen=setup][data-mode=ai]")
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    expect(page.get_by_test_id("roll")).to_contain_text(words)
    play_to_result(page, skip=False)
    rows = page.get_by_test_id("result-row")
    expect(rows).to_have_count(3)
    expect(page.get_by_test_id("winner")).to_be_visible()
    # The record downloads from the device, and the engine reads it.
    with page.expect_download() as download:
        page.get_by_test_id("download-record").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert [s["name"] for s in record["seats"]][1:] and record["actions"]
    assert refused(page)


def test_pass_and_play_to_the_result_offline(offline: Offline) -> None:
    page = offline.home()
    page.get_by_test_id("play-pass").click()
    page.wait_for_selector("[data-screen=setup][data-mode=pass]")
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    rolls = play_to_result(page)
    assert rolls > 0
    expect(page.get_by_test_id("result-row")).to_have_count(2)
    snap_both(page, "offline-result")
    assert refused(page)


def test_a_game_closed_mid_way_is_resumed_offline(offline: Offline) -> None:
    page = offline.home()
    page.get_by_test_id("play-pass").click()
    page.wait_for_selector("[data-screen=setup][data-mode=pass]")
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    for _ in range(6):
        assert next_step(page) == "roll"
        page.get_by_test_id("roll").click()
    assert next_step(page) == "roll"
    squares = seat_squares(page)
    snap_both(page, "offline-game")
    version = page.get_attribute("[data-screen=game]", "data-version")
    page.close()

    # The app is opened again, still with no server: Home offers the game.
    again = offline.home(offline.new_page())
    expect(again.get_by_test_id("resume-card")).to_be_visible()
    again.get_by_test_id("resume").click()
    again.wait_for_selector(f"[data-screen=game][data-version='{version}']")
    assert seat_squares(again) == squares
    assert play_to_result(again) > 0
    assert refused(again)


def test_skip_to_results_offline(offline: Offline) -> None:
    page = offline.home()
    page.get_by_test_id("play-pass").click()
    page.wait_for_selector("[data-screen=setup][data-mode=pass]")
    # A person and an AI: once the person is done (Last One Standing), skip.
    page.get_by_test_id("finish-last-one-standing").check()
    page.locator("[data-testid=setup-seat]").nth(1).get_by_test_id("kind-ai").check()
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    while (step := next_step(page, timeout=60_000)) == "roll":
        page.get_by_test_id("roll").click()
    if step == "skip":
        # Pressed at once if it is still offered: the AI's last move may end the race by
        # itself between the look and the press, and then the results come all the same.
        page.evaluate(
            "document.querySelector('[data-testid=skip-to-results]:not([hidden])')?.click()"
        )
        page.wait_for_selector("[data-screen=result] [data-testid=result-list]")
    rows = page.get_by_test_id("result-row")
    expect(rows).to_have_count(2)
    assert {rows.nth(i).get_attribute("data-status") for i in range(2)} == {"finished"}


def seat_squares(page: Page) -> dict[str, str]:
    cards = page.locator("[data-testid=seat-card]")
    return {
        str(cards.nth(i).get_attribute("data-seat")): str(cards.nth(i).get_attribute("data-square"))
        for i in range(cards.count())
    }


def test_local_codes_are_not_server_codes() -> None:
    assert not re.fullmatch("[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6}", "0ABCDE")


@pytest.mark.serial  # it times the page: alone, so the figure printed is the page's own
def test_start_game_gives_a_rollable_board_offline_on_a_phone(
    offline: Offline,
) -> None:
    page = offline.home()
    # The phone profile: a 360x640 screen and a CPU four times slower than this one.
    cdp = offline.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.get_by_test_id("play-ai").click()
    page.wait_for_selector("[data-screen=setup][data-mode=ai]")
    elapsed = page.evaluate(
        """() => new Promise((done) => {
             const start = performance.now();
             const ready = () => {
               const roll = document.querySelector('[data-testid=roll]');
               if (roll && roll.getAttribute('aria-disabled') === 'false') {
                 done(performance.now() - start);
               } else requestAnimationFrame(ready);
             };
             document.querySelector('[data-testid=start-game]').click();
             requestAnimationFrame(ready);
           })"""
    )
    # The budget (1 s) is a figure for docs/BENCHMARKS.md, not an assertion: a busy
    # machine would make it red by chance.
    print(f"Start Game to a rollable board, offline, phone profile: {elapsed:.0f} ms")
    assert elapsed > 0


def test_a_local_game_asks_the_server_nothing_per_roll(browser: Browser, tmp_path: Path) -> None:
    """With the server up: once the game has started, its rolls make no request at all."""
    server = ServerProcess(tmp_path / "data", "--animation-scale", "0")
    server.start()
    context = browser.new_context(viewport=PHONE, base_url=server.url)
    try:
        page = context.new_page()
        use_instant_animations(page)
        page.goto("/#/setup/pass")
        page.wait_for_selector("[data-screen=setup][data-mode=pass]")
        page.get_by_test_id("start-game").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        page.wait_for_load_state("networkidle")
        # Ones only: nobody reaches 100 in these rolls. A random game could end in them, and
        # its result screen rightly asks the server for the story (red by chance, 1 in ~10).
        script_dice(page, *[1] * 40)
        asked: list[str] = []
        context.on("request", lambda request: asked.append(request.url))
        page.on("websocket", lambda socket: asked.append(socket.url))
        rolls = 0
        while rolls < 30 and next_step(page) == "roll":
            page.get_by_test_id("roll").click()
            rolls += 1
        assert rolls > 0
        # The app shell's files may be drawn from the kept shell; nothing asks the game's
        # API or opens the game's socket.
        assert [u for u in asked if "/api/" in u or "/ws" in u] == [], asked
        # The server rolled nothing: the dice were thrown in the page.
        _, metrics, _ = server.raw("/metrics")
        assert re.search(rb"^snakes_rolls_total 0(\.0)?$", metrics, re.M), metrics[:400]
    finally:
        context.close()
        server.kill()


def test_the_kept_shell_is_under_its_budget(offline: Offline) -> None:
    print(f"offline cache: {offline.kept_bytes} bytes")
    assert 0 < offline.kept_bytes <= OFFLINE_CACHE_BUDGET


@pytest.mark.parametrize(
    ("offline", "title"),
    [("en-GB", "How to play"), ("de-DE", "Spielanleitung")],
    indirect=["offline"],
)
def test_how_to_play_and_the_faq_open_offline(offline: Offline, title: str) -> None:
    """How to play and the FAQ are kept with the app shell: with the server gone, they
    open in the device's language instead of "Could not reach the game server"."""
    page = offline.home()
    assert refused(page)
    page.get_by_test_id("nav-howto").click()
    expect(page.get_by_test_id("howto-section").first).to_be_visible()
    expect(page.locator("[data-screen=howto] h1, [data-screen=howto] h2").first).to_contain_text(
        title
    )
    snap_both(page, f"howto-offline-{offline.page.evaluate('document.documentElement.lang')}")
    page.goto("/#/faq")
    expect(page.get_by_test_id("faq-item").first).to_be_visible()
