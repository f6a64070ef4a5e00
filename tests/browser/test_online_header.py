"""An online room's game screen names its board in the header ("Room ABC123 · Short
board"): its players chose it in the lobby, and the header said only the room."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE, checked_page
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

GAME = "[data-screen=game]:not([data-version=''])"
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


def remember(page: Page, code: str, secret: str, mode: str) -> None:
    page.goto("/")
    page.evaluate(
        "([code, secret, mode]) => { localStorage.setItem('snakes.game', JSON.stringify("
        "{code, secret, mode, over: false, saved: Date.now()}));"
        " localStorage.setItem('snakes.settings', JSON.stringify({speed: 'instant'})); }",
        [code, secret, mode],
    )


def online_game(page: Page, server: ServerProcess, board: str) -> tuple[str, GameClient]:
    """Hana (this page) hosts an online room on ``board``; Gus joins from a socket of his
    own; Hana starts the game from the lobby. Returns the code and Gus's connection."""
    body = {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}], "board": board}
    created = server.post("/api/rooms", body)
    code = created["code"]
    joined = server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
    gus = GameClient(server.ws_url)
    gus.hello(code, joined["secret"])
    remember(page, code, created["secret"], "online")
    page.goto(f"/#/game/{code}")
    page.wait_for_selector("[data-screen=lobby]")
    expect(page.get_by_test_id("lobby-seat")).to_have_count(2)
    page.get_by_test_id("start-online").click()
    page.wait_for_selector(GAME)
    return code, gus


@pytest.fixture
def gus_closer() -> Iterator[list[GameClient]]:
    clients: list[GameClient] = []
    yield clients
    for client in clients:
        client.close()


@VIEWPORTS
def test_an_online_game_s_header_names_its_board(
    browser: Browser,
    web_server: ServerProcess,
    viewport: dict[str, int],
    gus_closer: list[GameClient],
) -> None:
    for page in checked_page(browser, web_server, viewport):
        code, gus = online_game(page, web_server, "short")
        gus_closer.append(gus)
        heading = page.locator("[data-screen=game] .game-title")
        expect(heading).to_contain_text(f"Room {code}")
        heading.scroll_into_view_if_needed()  # on a phone the header follows the board
        doc_shot(page, "header-board")
        expect(heading).to_have_text(f"Room {code} · Short board")
        box = heading.bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport["width"], box
        # The whole title shows: nothing of it is cut off.
        assert heading.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the title is cut"
