"""The page itself through nginx with the repository's site file: its WebSocket names the
room (``/ws?room=CODE``, what ``hash $arg_room consistent;`` reads), nginx passes the
browser's Origin on so a node accepts it, and when the page's node is killed the page
reconnects by itself, through nginx, to a live node, in its own seat, and rolls there.

Debian's nginx, two ``snakes serve --redis`` nodes (tests/support/nginx.py), Chromium.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

import redis
from tests.browser.conftest import WEB_FLAGS
from tests.support.client import GameClient
from tests.support.nginx import Nginx
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture
def front(tmp_path: Path, redis_url: str, prefix: str) -> Iterator[tuple[Nginx, list[str]]]:
    """nginx in front of two nodes on Redis; the nodes' names, in the nodes' order."""
    flags = (*WEB_FLAGS, "--redis", redis_url, "--redis-prefix", prefix)
    nodes = [
        ServerProcess(tmp_path / f"node{i}", *flags, "--trusted-proxy", "127.0.0.1")
        for i in range(2)
    ]
    try:
        for node in nodes:
            node.start()
        names = [node.get("/healthz")["node"] for node in nodes]
        with Nginx(tmp_path / "nginx", nodes) as nginx:
            yield nginx, names
    finally:
        for node in nodes:
            node.kill()


def test_the_page_through_nginx_reconnects_to_a_live_node_in_its_seat(
    browser: Browser, front: tuple[Nginx, list[str]], redis_url: str, prefix: str
) -> None:
    nginx, names = front
    store = redis.Redis.from_url(redis_url)
    created = nginx.post(
        "/api/rooms", {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}]}
    )
    code, secret = created["code"], created["secret"]
    joined = nginx.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
    guest = GameClient(nginx.ws_url(code), origin=nginx.origin)
    context = browser.new_context(base_url=nginx.url)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    try:
        guest.hello(code, joined["secret"])
        page.goto("/")
        page.evaluate(
            """([code, secret]) => {
              const settings = {speed: 'instant', sound: false};
              localStorage.setItem('snakes.settings', JSON.stringify(settings));
              const game = {code, secret, mode: 'online', over: false, saved: Date.now()};
              localStorage.setItem('snakes.game', JSON.stringify(game));
            }""",
            [code, secret],
        )
        page.goto(f"/#/online/lobby/{code}")
        page.get_by_test_id("start-online").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        connection = page.get_by_test_id("connection")
        expect(connection).to_have_attribute("data-state", "open")
        assert sockets == [f"ws://127.0.0.1:{nginx.port}/ws?room={code}"]

        # Both sockets of the room sit on one node (the page's and the guest's): kill it.
        presence = f"{prefix}room:{{{code}}}:presence"
        deadline = time.monotonic() + 20
        while len(store.hkeys(presence)) < 2:  # type: ignore[arg-type]
            assert time.monotonic() < deadline, "the room's two sockets never showed"
            time.sleep(0.05)
        on = {key.decode().split("/")[0] for key in store.hkeys(presence)}  # type: ignore[union-attr]
        assert len(on) == 1, on
        doomed = names.index(on.pop())
        nginx.nodes[doomed].kill()

        # The page reconnects by itself, through nginx, to the live node, and is open again.
        expect(connection).not_to_have_attribute("data-state", "open")
        expect(connection).to_have_attribute("data-state", "open")
        assert sockets[1:] == [sockets[0]], sockets
        # Still in its seat: it is Hana's turn, and the page rolls for Hana.
        version = int(page.get_attribute("[data-screen=game]", "data-version") or 0)
        page.get_by_test_id("roll").click()
        expect(page.locator("[data-screen=game]")).to_have_attribute(
            "data-version", str(version + 1)
        )
        assert nginx.get(f"/api/rooms/{code}")["version"] == version + 1
        assert store.get(f"{prefix}room:{{{code}}}:owner") == names[1 - doomed].encode()
        assert not errors, errors
        print(json.dumps(sockets))
    finally:
        guest.close()
        context.close()
        store.close()
