"""The online countdown on screen keeps time with the server's deadline.

How to play: "if someone stalls or disconnects, their turn is skipped after the
countdown so nobody is stuck waiting". The brief: "Every player sees the countdown."
A countdown that lags the server skips players while their screen still shows time
left; it must reach "0 s" before the server skips, never after.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import WEB_FLAGS
from tests.support.client import GameClient
from tests.support.server import ServerProcess, running_server

# It times what the screen shows against the server's deadline, to 150 ms: it runs
# alone, after the parallel tests, so the figure is the page's and not its neighbours'.
pytestmark = [pytest.mark.browser, pytest.mark.serial]

COUNTDOWN = 3
# The real clock: the server skips by itself when the deadline passes.
FLAGS = (*WEB_FLAGS, "--countdown-min", "2", "--countdown", str(COUNTDOWN))

# Records, for every countdown shown, the first moment (Date.now()) it read "0 s".
WATCH_ZERO = """() => {
  window.__zeroAt = [];
  let armed = true;
  const look = () => {
    const el = document.querySelector('[data-testid=countdown]');
    const text = el && !el.hidden ? el.textContent : '';
    if (text.startsWith('0 s') && armed) { window.__zeroAt.push(Date.now()); armed = false; }
    if (!text.startsWith('0 s')) armed = true;
  };
  const all = {subtree: true, childList: true, characterData: true, attributes: true};
  new MutationObserver(look).observe(document.body, all);
  setInterval(look, 10);
}"""


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(Path(tmp_path_factory.mktemp("countdown-data")), *FLAGS) as server:
        yield server


def test_the_screen_reaches_0_s_before_the_server_skips(
    browser: Browser, clock_server: ServerProcess
) -> None:
    server = clock_server
    created = server.post(
        "/api/rooms",
        {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}], "countdown_seconds": 3},
    )
    code, secret = created["code"], created["secret"]
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=server.url)
    page = context.new_page()
    guest = GameClient(server.ws_url)
    try:
        page.goto("/")
        page.evaluate(
            """([code, secret]) => {
              const settings = {speed: 'normal', sound: false};
              localStorage.setItem('snakes.settings', JSON.stringify(settings));
              const game = {code, secret, mode: 'online', over: false, saved: Date.now()};
              localStorage.setItem('snakes.game', JSON.stringify(game));
            }""",
            [code, secret],
        )
        joined = server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
        guest.hello(code, joined["secret"])
        page.goto(f"/#/online/lobby/{code}")
        page.get_by_test_id("start-online").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        page.evaluate(WATCH_ZERO)
        expect(page.get_by_test_id("countdown")).to_be_visible()

        # Nobody rolls: the server skips Hana, then Gus, each after its countdown.
        skipped_at: list[float] = []
        deadline = time.monotonic() + 4 * COUNTDOWN + 10
        while len(skipped_at) < 2 and time.monotonic() < deadline:
            message = guest.recv(timeout=4 * COUNTDOWN)
            if message["type"] == "update" and any(
                e["type"] == "skipped" for e in message["events"]
            ):
                skipped_at.append(time.time() * 1000)
        assert len(skipped_at) == 2, "the server skipped nobody"
        zero_at: list[float] = page.evaluate("window.__zeroAt")
        assert len(zero_at) >= 2, f"the screen never showed 0 s before each skip: {zero_at}"
        for shown, skipped in zip(zero_at, skipped_at, strict=False):
            assert shown <= skipped - 150, (
                f"0 s shown {shown - skipped:+.0f} ms from the skip; it must lead by 150 ms"
            )
    finally:
        guest.close()
        context.close()


def test_a_pong_echoes_the_clients_time_with_the_servers(clock_server: ServerProcess) -> None:
    # NTP-style: the browser sends its own time; the answer carries the server's, so the
    # page can measure its clock's offset. A bare ping still gets a bare pong.
    with GameClient(clock_server.ws_url) as client:
        before = round(time.time() * 1000)
        client.send({"type": "ping", "t": 12345})
        pong = client.wait_type("pong")
        after = round(time.time() * 1000)
        assert pong["t"] == 12345
        assert before <= pong["server_ms"] <= after
        client.send({"type": "ping"})
        assert client.wait_type("pong") == {"type": "pong"}


def test_the_countdown_carries_the_servers_absolute_deadline(
    clock_server: ServerProcess,
) -> None:
    created = clock_server.post(
        "/api/rooms",
        {"mode": "online", "seats": [{"name": "Ada", "colour": "red"}], "countdown_seconds": 3},
    )
    joined = clock_server.post(
        f"/api/rooms/{created['code']}/join", {"name": "Bo", "colour": "blue"}
    )
    with GameClient(clock_server.ws_url) as host, GameClient(clock_server.ws_url) as guest:
        host.hello(created["code"], created["secret"])
        guest.hello(created["code"], joined["secret"])
        host.send({"type": "start"})
        update = host.wait_for(lambda m: m["type"] == "update" and m["room"]["phase"] == "playing")
        countdown = update["room"]["countdown"]
        now_ms = time.time() * 1000
        assert abs(countdown["server_now_ms"] - now_ms) < 1000
        left = countdown["deadline_ms"] - countdown["server_now_ms"]
        assert countdown["remaining_ms"] - 5 <= left <= countdown["remaining_ms"] + 5
