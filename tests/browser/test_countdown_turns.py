"""The countdown shows the time the player really has, through a turn change and a skip:
the moment an update starts a new countdown, the screen counts to its deadline (never
the last turn's leftover), and after a skip the banner, the seat cards and the countdown
agree at once (a player whose own turn was missed is never told "Your turn" above the next
player's countdown). The server runs with the test hooks: its clock moves only when the test
says, so a skip comes exactly when the test makes it."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE
from tests.support.client import GameClient
from tests.support.server import ServerProcess

# It times what the screen shows against the server's deadline, to 150 ms: it runs
# alone, after the parallel tests, so the figure is the page's and not its neighbours'.
pytestmark = [pytest.mark.browser, pytest.mark.serial]

COUNTDOWN = 10
FRESH_WITHIN_MS = 150
"""How soon after an update arrives the screen must show its countdown."""
SAFETY_MS = 300
"""The screen runs this far ahead of the deadline (countdown.js), besides the trip."""

# Every update's arrival, and every change of what the countdown and the banner say.
RECORD = """() => {
  window.__updates = [];
  window.__shown = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        try {
          const msg = JSON.parse(event.data);
          if (msg.type === 'update') {
            window.__updates.push({at: Date.now(), version: msg.room.version,
              countdown: msg.room.countdown, turn: msg.room.turn,
              skipped: msg.events.some((e) => e.type === 'skipped')});
          }
        } catch (e) { /* not ours */ }
      });
    }
  };
  const look = () => {
    const el = document.querySelector('[data-screen=game] [data-testid=countdown]');
    const banner = document.querySelector('[data-testid=turn-banner]');
    const current = document.querySelector('[data-testid=seat-card].current');
    const now = {left: el && !el.hidden ? Number(el.dataset.left) : null,
      banner: banner ? banner.textContent : '', current: current ? current.dataset.seat : null};
    const last = window.__shown[window.__shown.length - 1];
    const same = last && last.left === now.left && last.banner === now.banner
      && last.current === now.current;
    if (!same) {
      window.__shown.push({at: Date.now(), ...now});
    }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true,
    attributes: true, characterData: true});
}"""


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def page(request: pytest.FixtureRequest, browser: Browser, server: ServerProcess) -> Iterator[Page]:
    context = browser.new_context(viewport=request.param, base_url=server.url)
    context.set_default_timeout(20_000)
    context.add_init_script(f"({RECORD})()")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def _arrival(page: Page, accept: str) -> dict[str, Any]:
    handle = page.wait_for_function(f"() => window.__updates.find({accept})")
    update: dict[str, Any] = handle.json_value()
    return update


def _after(page: Page, at: float, until: float) -> list[dict[str, Any]]:
    """What the screen showed from ``at`` to ``until`` (the state at ``at`` first)."""
    shown: list[dict[str, Any]] = page.evaluate("window.__shown")
    before = [s for s in shown if s["at"] <= at]
    return before[-1:] + [s for s in shown if at < s["at"] <= until]


def _expected(countdown: dict[str, Any], at: float) -> tuple[int, int]:
    """The seconds a screen may show at ``at`` for this countdown (0.3 s either way)."""
    total = countdown["total_ms"]
    left = countdown["deadline_ms"] - at
    low = math.ceil(max(0, min(total, left - SAFETY_MS - 300)) / 1000)
    high = math.ceil(max(0, min(total, left + 300)) / 1000)
    return low, high


def test_the_countdown_is_never_stale_through_a_turn_change_and_a_skip(
    page: Page, server: ServerProcess
) -> None:
    created = server.post(
        "/api/rooms",
        {
            "mode": "online",
            "seats": [{"name": "Hana", "colour": "red"}],
            "countdown_seconds": COUNTDOWN,
            "rules": {"finish": "classic", "exact_finish": True, "six_again": False},
        },
    )
    code, secret = created["code"], created["secret"]
    with GameClient(server.ws_url) as gus:
        page.goto("/")
        page.evaluate(
            """([code, secret]) => {
              localStorage.setItem('snakes.settings',
                JSON.stringify({speed: 'normal', sound: false}));
              localStorage.setItem('snakes.game', JSON.stringify(
                {code, secret, mode: 'online', over: false, saved: Date.now()}));
            }""",
            [code, secret],
        )
        joined = server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
        gus.hello(code, joined["secret"])
        page.goto(f"/#/online/lobby/{code}")
        page.get_by_test_id("start-online").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        countdown = page.get_by_test_id("countdown")
        expect(countdown).to_be_visible()

        # Hana lets her countdown run a little, then rolls: Gus's turn begins.
        page.wait_for_function(
            "() => Number(document.querySelector('[data-testid=countdown]').dataset.left) <= 7"
        )
        server.script_dice(2)
        page.get_by_test_id("roll").click()
        rolled = _arrival(page, "(u) => u.turn === 1")
        doc_shot(page, "countdown-turn")  # at once: Gus's 10 s, or Hana's leftover
        # What the screen shows over the next 1.5 s is the observation itself.
        page.wait_for_function(f"() => Date.now() > {rolled['at']} + 1500")
        for shown in _after(page, rolled["at"] + FRESH_WITHIN_MS, rolled["at"] + 1500):
            low, high = _expected(rolled["countdown"], shown["at"])
            assert shown["left"] is not None and low <= shown["left"] <= high, (
                f"{shown['at'] - rolled['at']:.0f} ms after Gus's turn began the screen"
                f" showed {shown['left']} s; Gus has {low}-{high} s"
            )

        # Gus's countdown runs nearly out on screen; then the server skips him.
        page.wait_for_function(
            "() => Number(document.querySelector('[data-testid=countdown]').dataset.left) <= 2"
        )
        server.advance(COUNTDOWN + 1)
        skipped = _arrival(page, "(u) => u.skipped")
        page.wait_for_function(f"() => Date.now() > {skipped['at']} + 1500")
        for shown in _after(page, skipped["at"] + FRESH_WITHIN_MS, skipped["at"] + 1500):
            low, high = _expected(skipped["countdown"], shown["at"])
            moment = f"{shown['at'] - skipped['at']:.0f} ms after the skip"
            assert shown["left"] is not None and low <= shown["left"] <= high, (
                f"{moment} the screen showed {shown['left']} s; Hana has {low}-{high} s"
            )
            if shown["banner"].startswith("Your turn"):
                assert shown["current"] == "0", f"{moment}: 'Your turn' with seat {shown}"
        expect(page.get_by_test_id("turn-banner")).to_have_text("Your turn, Hana!")
        expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")

        # Now Hana misses her own turn. Her screen never names her "Your turn, Hana!" above
        # Gus's fresh countdown (it did for about 0.25 s while the skip's moment played):
        # the turn it passes to is shown with its countdown, at once.
        server.advance(COUNTDOWN + 1)
        missed = _arrival(page, "(u) => u.skipped && u.turn === 1")
        page.wait_for_function(f"() => Date.now() > {missed['at']} + 1000")
        for shown in _after(page, missed["at"] + FRESH_WITHIN_MS, missed["at"] + 1000):
            moment = f"{shown['at'] - missed['at']:.0f} ms after Hana's turn was missed"
            assert not shown["banner"].startswith("Your turn"), f"{moment}: {shown}"
        expect(page.get_by_test_id("turn-banner")).not_to_contain_text("Your turn")
