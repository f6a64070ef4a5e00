"""A countdown starts when its player can act. PRODUCT.md: the countdown "starts once the
previous move has been shown (the server allows a short, fixed time for the animation)".

Gus climbs the long ladder from 1 to 38 on Hana's screen; the moment her Roll button
wakes up, her 10 s countdown must still show (nearly) 10 s. It showed about 8 s when the
server's allowance was shorter than the move's animation, and less at the slow animation
speed, whose screen took longer than any allowance. The server runs with the test hooks
(a frozen clock, so nobody is skipped, and scripted dice) but with the real allowance.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE
from tests.support.client import GameClient
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

# It times what the screen shows against the countdown, to a few hundred ms: it runs
# alone, after the parallel tests, so the figure is the page's and not its neighbours'.
pytestmark = [pytest.mark.browser, pytest.mark.serial]

COUNTDOWN = 10
SHOWN_AT_LEAST_MS = 9_400
"""What the countdown may have lost when the Roll button wakes up: the safety margin the
screen keeps (300 ms, js/countdown.js), a bar redrawn every 100 ms and a late frame."""

# Every moment the Roll button wakes up, with what the countdown's bar shows then.
RECORD = """() => {
  window.__canRoll = [];
  let was = 'true';
  new MutationObserver(() => {
    const roll = document.querySelector('[data-testid=roll]');
    const now = roll ? roll.getAttribute('aria-disabled') : 'true';
    if (now === 'false' && was !== 'false') {
      const fill = document.querySelector('[data-screen=game] .countdown-fill');
      window.__canRoll.push({at: Date.now(), fill: fill ? parseFloat(fill.style.width) : null});
    }
    was = now;
  }).observe(document, {subtree: true, childList: true, attributes: true});
}"""


@pytest.fixture(scope="module")
def allowance_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    data: Path = tmp_path_factory.mktemp("countdown-start")
    with running_server(data, *TEST_FLAGS, "--animation-scale", "1") as server:
        yield server


@pytest.fixture(params=[(PHONE, "normal"), (DESKTOP, "slow")], ids=["phone-normal", "desktop-slow"])
def setting(request: pytest.FixtureRequest) -> tuple[dict[str, int], str]:
    viewport, speed = request.param
    return viewport, speed


@pytest.fixture
def page(
    setting: tuple[dict[str, int], str], browser: Browser, allowance_server: ServerProcess
) -> Iterator[Page]:
    viewport, _ = setting
    context = browser.new_context(
        viewport=viewport, base_url=allowance_server.url, reduced_motion="no-preference"
    )
    context.add_init_script(f"({RECORD})()")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def test_the_countdown_starts_in_full_when_the_player_can_roll(
    page: Page, setting: tuple[dict[str, int], str], allowance_server: ServerProcess
) -> None:
    server = allowance_server
    _, speed = setting
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
            """([code, secret, speed]) => {
              localStorage.setItem('snakes.settings', JSON.stringify({speed, sound: false}));
              localStorage.setItem('snakes.game', JSON.stringify(
                {code, secret, mode: 'online', over: false, saved: Date.now()}));
            }""",
            [code, secret, speed],
        )
        joined = server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
        gus.hello(code, joined["secret"])
        page.goto(f"/#/online/lobby/{code}")
        page.get_by_test_id("start-online").click()
        roll = page.get_by_test_id("roll")
        expect(roll).to_have_attribute("aria-disabled", "false")

        server.script_dice(2)
        roll.click()
        gus.wait_for(lambda m: m["type"] == "update" and m["room"]["turn"] == 1)
        server.script_dice(1)  # 0 → 1, then the ladder to 38
        answer = gus.roll(1)
        assert answer["type"] == "update", answer
        assert any(e["type"] == "climbed" for e in answer["events"]), answer["events"]

        page.wait_for_function("() => window.__canRoll.length >= 2")
        doc_shot(page, f"countdown-start-{speed}")
        woke = page.evaluate("window.__canRoll[1]")
        assert woke["fill"] is not None, "no countdown on screen when Hana could roll"
        shown_ms = woke["fill"] / 100 * COUNTDOWN * 1000
        assert shown_ms >= SHOWN_AT_LEAST_MS, (
            f"at the {speed} speed Hana's Roll woke up with {shown_ms / 1000:.2f} s of her"
            f" {COUNTDOWN} s on screen: the countdown ran during Gus's move"
        )
        expect(page.get_by_test_id("turn-banner")).to_have_text("Your turn, Hana!")
