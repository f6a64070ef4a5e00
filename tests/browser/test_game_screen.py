"""The game screen tells the truth about whose turn it is, for players and watchers.

How to play: "On your turn, tap the big Roll button." and "In pass & play, hand the
device to whoever the glowing seat card names." The brief: "When only AI seats are
still racing (Last One Standing), offer 'Skip to results'".
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from snakes.engine import JUNGLE
from tests.browser.helpers import (
    open_setup,
    script_dice,
    serious_violations,
    start_game,
    use_instant_animations,
)
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

# Me: 1 climbs to 38; 6, 6 and 1 reach 51 and climb to 67; 4 lands on 71 and climbs to
# 91; 5 reaches 96; 4 finishes. Each AI rolls a 2 in between (2, 4 -> 14, 16 -> 6, 8).
FINISH_FIRST = [1, 2, 2, 6, 6, 1, 2, 2, 4, 2, 2, 5, 2, 2, 4]

# Every text the turn banner shows, in order.
WATCH_BANNER = """() => {
  const banner = document.querySelector('[data-testid=turn-banner]');
  window.__banners = [banner.textContent];
  new MutationObserver(() => window.__banners.push(banner.textContent))
    .observe(banner, {subtree: true, childList: true, characterData: true});
}"""

# Every line the game log gains.
WATCH_LOG = """() => {
  window.__logged = [];
  new MutationObserver((changes) => changes.forEach((c) =>
    c.addedNodes.forEach((node) => window.__logged.push(node.textContent))))
    .observe(document.querySelector('[data-testid=log-list]'), {childList: true});
}"""


def _settings(page: Page, speed: str = "fast") -> None:
    """The speed, and the page's own clock stopped: its timers run only when ``_until``
    moves it (a game at your own table times its AI seats on the page's clock)."""
    page.goto("/")
    page.evaluate(
        "speed => localStorage.setItem('snakes.settings', JSON.stringify({speed, sound: false}))",
        speed,
    )
    page.clock.install()
    page.reload()
    page.wait_for_selector("[data-screen=home]")


def _until(page: Page, script: str, rounds: int = 400) -> None:
    """Move the page's clock (AI seats wait on it) until ``script`` is true on the page."""
    for _ in range(rounds):
        if page.evaluate(script):
            return
        page.clock.run_for(300)
    squares = page.evaluate("document.querySelector('[data-testid=log-list]').textContent")
    raise AssertionError(f"never true: {script}; squares {squares}")


ROLL_READY = (
    "() => document.querySelector('[data-testid=roll]')?.getAttribute('aria-disabled') === 'false'"
)
SKIP_READY = """() => {
  const b = document.querySelector('[data-testid=skip-to-results]');
  return b && !b.hidden && !b.disabled;
}"""


def test_skip_to_results_never_calls_a_finished_player(page: Page) -> None:
    # Instant: the AI turns the clock below plays faster than any animation, and they
    # are not what this test watches.
    _settings(page, "instant")
    open_setup(page, "ai")
    page.get_by_test_id("seat-name").first.fill("Me")
    page.get_by_test_id("finish-last-one-standing").check()
    page.get_by_test_id("rule-exact-finish").uncheck()  # a shorter race for the AI
    # Two AI seats: when Me finishes, both still race, and Skip to results plays them out.
    while page.get_by_test_id("setup-seat").count() > 3:
        page.get_by_test_id("ai-fewer").click()
    script_dice(page, *FINISH_FIRST)
    start_game(page)
    for _ in range(7):  # 1 | 6, 6, 1 | 4 | 5 | 4
        _until(page, ROLL_READY)
        version = page.locator(".screen.game").get_attribute("data-version") or ""
        page.get_by_test_id("roll").click()
        expect(page.locator(".screen.game")).not_to_have_attribute("data-version", version)
    _until(page, SKIP_READY)
    expect(page.locator("[data-testid=seat-card][data-seat='0']")).to_have_attribute(
        "data-status", "finished"
    )
    page.evaluate(WATCH_BANNER)
    page.evaluate(WATCH_LOG)
    # The page's clock stands still until the skip: only Skip to results ends the race.
    # (Dispatched: a click would wait for the navigation it starts, on the stopped clock.)
    page.get_by_test_id("skip-to-results").dispatch_event("click")
    page.clock.resume()
    expect(page.locator("[data-screen=result] [data-testid=result-list]")).to_be_visible()
    banners: list[str] = page.evaluate("window.__banners")
    assert not [b for b in banners if "Me" in b], banners
    assert page.get_by_test_id("result-list").locator("li").count() == 3
    # The skipped turns are not played out on screen: after "Playing the remaining
    # turns", the log tells the finishes only (the rolls that reached 100). The AI seats
    # (in the page, on its own clock) may have moved before the button was pressed.
    logged: list[str] = page.evaluate("window.__logged")
    rest = next(i for i, line in enumerate(logged) if "remaining" in line)
    assert 1 <= len(logged[rest + 1 :]) <= 2, logged
    assert all("place" in line for line in logged[rest + 1 :]), logged


def test_the_open_game_log_is_reachable_by_keyboard_and_axe_clean(page: Page) -> None:
    # The brief: "keyboard alone plays a whole game; screen readers hear every event".
    page.set_viewport_size({"width": 800, "height": 700})  # where the log's box scrolls
    use_instant_animations(page)
    open_setup(page, "pass")
    start_game(page)
    for _ in range(16):
        expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
        page.get_by_test_id("roll").click()
    # Open on a big screen from the start; opened by hand elsewhere.
    if not page.locator(".game-log").evaluate("d => d.open"):
        page.locator(".game-log summary").click()
    log = page.get_by_test_id("log-list")
    expect(log).to_be_visible()
    assert log.evaluate("el => el.scrollHeight > el.clientHeight"), "the log does not scroll yet"
    assert serious_violations(page) == []
    log.focus()
    expect(log).to_be_focused()


def test_how_to_play_lists_every_ladder_and_snake_of_the_board(page: Page) -> None:
    # How to play: "The jungle board uses these nine ladders and ten snakes."
    page.goto("/#/howto")
    ladders = page.get_by_test_id("howto-ladders").locator("li")
    snakes = page.get_by_test_id("howto-snakes").locator("li")
    expect(ladders).to_have_text([f"{j.start} \u2192 {j.end}" for j in JUNGLE.ladders])
    expect(snakes).to_have_text([f"{j.start} \u2192 {j.end}" for j in JUNGLE.snakes])
    assert serious_violations(page) == []


def test_the_reduce_motion_switch_shows_the_system_setting_and_overrides_it(
    browser: Browser, web_server: ServerProcess
) -> None:
    # The brief: "reduced motion is respected"; the switch says what is in effect.
    context = browser.new_context(reduced_motion="reduce", base_url=web_server.url)
    page = context.new_page()
    try:
        page.goto("/#/settings")
        switch = page.get_by_test_id("setting-reduced-motion")
        expect(switch).to_be_checked()
        html = page.locator("html")
        expect(html).to_have_class(re.compile(r"\breduce-motion\b"))
        switch.uncheck()
        expect(html).not_to_have_class(re.compile(r"\breduce-motion\b"))
        page.reload()
        expect(page.get_by_test_id("setting-reduced-motion")).not_to_be_checked()
        # Animations run again although the system asks for less motion.
        duration = page.evaluate(
            "() => { const d = document.createElement('div'); d.className = 'die die-waiting';"
            " document.body.append(d); const b = document.createElement('div');"
            " b.className = 'die-bounce'; d.append(b);"
            " return getComputedStyle(b).animationDuration; }"
        )
        assert duration == "0.28s", duration
    finally:
        context.close()
    context = browser.new_context(reduced_motion="no-preference", base_url=web_server.url)
    page = context.new_page()
    try:
        page.goto("/#/settings")
        switch = page.get_by_test_id("setting-reduced-motion")
        expect(switch).not_to_be_checked()
        switch.check()
        expect(page.locator("html")).to_have_class(re.compile(r"\breduce-motion\b"))
    finally:
        context.close()


def test_a_spectator_sees_watching_and_where_everyone_is_and_no_roll_button(
    page: Page, web_server: ServerProcess
) -> None:
    # The brief: "spectators: anyone opening the link after the start watches, read-only."
    created = web_server.post(
        "/api/rooms", {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}]}
    )
    code = created["code"]
    joined = web_server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
    with GameClient(web_server.ws_url) as host, GameClient(web_server.ws_url) as guest:
        host.hello(code, created["secret"])
        guest.hello(code, joined["secret"])
        host.send({"type": "start"})
        host.wait_for(lambda m: m["type"] == "update" and m["room"]["phase"] == "playing")
        assert host.roll(0)["type"] == "update"
        use_instant_animations(page)
        page.goto(f"/#/game/{code}")
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        expect(page.get_by_test_id("watching")).to_be_visible()
        expect(page.get_by_test_id("turn-banner")).to_contain_text("Watching")
        expect(page.get_by_test_id("roll")).to_be_hidden()
        expect(page.get_by_test_id("log-line")).to_contain_text("You are watching")
        expect(page.get_by_test_id("log-line")).to_contain_text("Hana on")
        assert page.get_by_test_id("die").get_attribute("data-value") != "1" or (
            host.events_of("rolled")[0]["value"] == 1
        )
        assert serious_violations(page) == []


def test_before_the_first_roll_the_die_shows_no_number(page: Page) -> None:
    use_instant_animations(page)
    open_setup(page, "pass")
    start_game(page)
    die = page.get_by_test_id("die")
    expect(die).to_have_attribute("data-value", "")
    expect(die).to_have_attribute("aria-label", "The die, not rolled yet")
    page.get_by_test_id("roll").click()
    expect(die).not_to_have_attribute("data-value", "")


def test_back_after_a_reload_the_page_says_where_everyone_is(page: Page) -> None:
    # The brief: a player who reloads is back "with the whole state".
    use_instant_animations(page)
    open_setup(page, "pass")
    start_game(page)
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("log-line")).to_contain_text("rolled")
    page.reload()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    expect(page.get_by_test_id("log-line")).to_contain_text("Welcome back!")
    expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
    assert serious_violations(page) == []
