"""Steps the browser tests share: opening screens, playing turns, screenshots."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.support.server import ServerProcess

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
SIZES = ((360, 640), (1440, 900))
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1440, "height": 900}
TOPBAR = 50
"""The phone's top bar, in CSS pixels: nothing that must be seen may sit under it."""


def checked_page(
    browser: Browser,
    server: ServerProcess,
    viewport: dict[str, int] | None = None,
    locale: str | None = None,
    reduced_motion: Literal["reduce", "no-preference"] | None = None,
    *,
    noise: str | None = None,
    service_workers: Literal["allow", "block"] | None = None,
) -> Iterator[Page]:
    """A fresh page (own storage) on ``server``; fails the test on any page error.
    ``reduced_motion``: what the page is told the player prefers (the browser fixture
    asks for "reduce" unless a test names it). ``noise``: a console error holding it is
    expected (the browser's own line for a request cut off by a test). ``service_workers``:
    "block" keeps the page's service worker out."""
    options: dict[str, Any] = {"viewport": viewport or DESKTOP, "base_url": server.url}
    if locale is not None:
        options["locale"] = locale
    if reduced_motion is not None:
        options["reduced_motion"] = reduced_motion
    if service_workers is not None:
        options["service_workers"] = service_workers
    context = browser.new_context(**options)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and (noise is None or noise not in message.text)
            else None
        ),
    )
    yield page
    context.close()
    assert not errors, f"the page reported errors: {errors}"


def assert_on_phone_screen(page: Page, testids: list[str]) -> None:
    """Each element is on the 360x640 screen without scrolling, below the top bar."""
    assert page.evaluate("window.scrollY") == 0
    for testid in testids:
        # The countdown's box may be its parts' (its text and its bar).
        selector = f"[data-testid={testid}]"
        if testid == "countdown":
            selector += " .countdown-text"
        box = page.locator(selector).first.bounding_box()
        assert box is not None, f"{testid} is not shown"
        assert box["y"] >= TOPBAR - 1, f"{testid} hides under the top bar: {box}"
        assert box["y"] + box["height"] <= PHONE["height"], f"{testid} is below the fold: {box}"
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"{testid}: {box}"


def snap(page: Page, name: str) -> None:
    """Save the current screen at phone and desktop size, then restore the viewport."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    original = page.viewport_size or {"width": 1440, "height": 900}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}x{height}.png"))
    page.set_viewport_size(original)


def shot(page: Page, name: str) -> None:
    """Save the screen as it is, at the page's own size (``name-phone`` or
    ``name-desktop``), for a test that runs at each size itself."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = "phone" if page.viewport_size == PHONE else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"{name}-{size}.png"))


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the current screen, in words."""
    results = Axe().run(page)
    violations: list[dict[str, Any]] = results.response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}"
        for v in violations
        if v.get("impact") in ("serious", "critical")
    ]


def use_instant_animations(page: Page) -> None:
    """Set the 'instant' speed through localStorage before the app loads."""
    page.goto("/")
    page.evaluate(
        "localStorage.setItem('snakes.settings', JSON.stringify({speed: 'instant', sound: false}))"
    )
    page.reload()
    page.wait_for_selector("[data-screen=home]")


def open_setup(page: Page, mode: str) -> None:
    page.goto(f"/#/setup/{mode}")
    page.wait_for_selector(f"[data-screen=setup][data-mode={mode}]")


def start_game(page: Page) -> str:
    """Press Start Game; returns the room code once the board has its first state."""
    page.get_by_test_id("start-game").click()
    return wait_for_game(page)


def start_pass_and_play(page: Page, *names: str) -> str:
    """A Pass & Play game of these players (two seats unless more are added first),
    started; returns its room code."""
    open_setup(page, "pass")
    fields = page.locator("[data-screen=setup] input[type=text]")
    for index, name in enumerate(names):
        fields.nth(index).fill(name)
    return start_game(page)


def wait_for_game(page: Page) -> str:
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    code = page.get_attribute("[data-screen=game]", "data-code")
    assert code and re.fullmatch(r"[A-Z0-9]{6}", code), code
    return code


def wait_for_online_table(page: Page) -> None:
    """An online game's own parts are on its screen: the countdown, the outage's words and
    the reactions (js/online-table.js, and the catalogue's later part) come after the
    game screen and its first state. A test that takes the network or the server away
    waits for them first: taken away while they load, they never come (the banner keeps
    the plain "Offline" words, and the failed load is a page error)."""
    page.wait_for_selector("[data-screen=game] [data-testid=countdown]", state="attached")
    page.wait_for_selector("[data-screen=game] [data-testid=reaction-bar]", state="attached")


# Resolves to: "roll" (this device may roll), "skip" (only AI racing), "result".
_NEXT_STEP = """() => {
  if (document.querySelector('[data-screen=result] [data-testid=result-list]')) return 'result';
  const skip = document.querySelector('[data-testid=skip-to-results]');
  if (skip && !skip.hidden && !skip.disabled) return 'skip';
  const roll = document.querySelector('[data-testid=roll]');
  if (roll && roll.getAttribute('aria-disabled') === 'false') return 'roll';
  return false;
}"""


def next_step(page: Page, timeout: float = 20_000) -> str:
    handle = page.wait_for_function(_NEXT_STEP, timeout=timeout)
    step = handle.json_value()
    assert isinstance(step, str)
    return step


RESULT_LIST = "[data-screen=result] [data-testid=result-list]"
SKIP_SHOWN = """() => {
  const skip = document.querySelector('[data-testid=skip-to-results]');
  return Boolean(skip && !skip.hidden && !skip.disabled);
}"""


def play_to_result(page: Page, *, skip: bool = True, max_rolls: int = 2000) -> int:
    """Roll whenever this device may, until the result screen; returns the rolls made."""
    rolls = 0
    while rolls < max_rolls:
        step = next_step(page)
        if step == "result":
            return rolls
        if step == "skip" and skip:
            button = page.get_by_test_id("skip-to-results")
            try:
                button.click(timeout=3_000)
            except PlaywrightTimeoutError:
                # Two things can keep Playwright from clicking: the AI turns still running
                # move the button a little with every banner they change (it is never
                # "stable" on a slow machine), or they end the race on their own and the
                # button goes. A tap needs no stillness: press it if it is still there;
                # either way the result screen must follow (the wait below fails if not).
                if page.evaluate(SKIP_SHOWN):
                    button.dispatch_event("click")
            page.wait_for_selector(RESULT_LIST)
            return rolls
        page.get_by_test_id("roll").click()
        rolls += 1
    raise AssertionError(f"no result after {max_rolls} rolls")


def seat_squares(page: Page) -> dict[int, int]:
    cards = page.locator("[data-testid=seat-card]")
    squares: dict[int, int] = {}
    for index in range(cards.count()):
        card = cards.nth(index)
        squares[int(card.get_attribute("data-seat") or -1)] = int(
            card.get_attribute("data-square") or -1
        )
    return squares


def module_url(page: Page, name: str) -> str:
    """The versioned URL the page loaded one of its modules from (js/<name>)."""
    # The preloaded ones are named in the page itself too (a page whose clock a test
    # installed has no resource timings).
    urls: list[str] = page.evaluate(
        """() => [...(performance.getEntriesByType?.('resource') || []).map((e) => e.name),
                  ...[...document.querySelectorAll('link[rel=modulepreload]')]
                    .map((link) => link.href)]"""
    )
    found = next((u for u in urls if re.search(rf"/js/{re.escape(name)}(\?|$)", u)), None)
    assert found, f"the page has not loaded js/{name}"
    return found


def page_room(page: Page) -> dict[str, Any]:
    """The room view the page holds now: a game at your own table is in the page only."""
    room = page.evaluate(
        "async (url) => (await import(url)).currentRoom()?.getState().room ?? null",
        module_url(page, "store.js"),
    )
    assert isinstance(room, dict), "no room is open in the page"
    return room


def script_dice(page: Page, *values: int) -> None:
    """Queue the next values of the page's die (games at your own table roll there)."""
    page.evaluate(
        "async ([url, values]) => (await import(url)).scriptDice(...values)",
        [module_url(page, "local-dice.js"), list(values)],
    )


def page_story(page: Page, code: str) -> dict[str, Any]:
    """The story the page drew for game ``code`` (a local game's comes from its record)."""
    story = page.evaluate(
        "async ([url, code]) => (await import(url)).getStory(code)",
        [module_url(page, "story-data.js"), code],
    )
    assert isinstance(story, dict)
    return story
