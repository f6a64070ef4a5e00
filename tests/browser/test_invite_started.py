"""An invite link to a room whose game has started offers to watch it, not a join form
that cannot work (before: name, colour and Join, with a note that it has started)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE, checked_page
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_an_invite_to_a_started_game_offers_to_watch_it(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    created = web_server.post(
        "/api/rooms", {"mode": "online", "seats": [{"name": "Hana", "colour": "red"}]}
    )
    code = created["code"]
    web_server.post(f"/api/rooms/{code}/join", {"name": "Gus", "colour": "blue"})
    with GameClient(web_server.ws_url) as host:
        host.hello(code, created["secret"])
        host.send({"type": "start"})
        host.wait_for(lambda m: m.get("room", {}).get("phase") == "playing")
        for page in checked_page(browser, web_server, viewport):
            page.goto(f"/r/{code}")
            page.wait_for_selector("[data-screen=online]")
            watch = page.get_by_test_id("watch-room")
            expect(watch).to_be_visible()
            doc_shot(page, "invite-started")
            expect(watch).to_have_attribute("href", f"#/game/{code}")
            for testid in ("join-room", "join-name"):
                expect(page.get_by_test_id(testid)).to_be_hidden()
            expect(page.locator("[data-testid=join-colour] input")).to_have_count(6)
            expect(page.get_by_test_id("join-colour")).to_be_hidden()
            watch.click()
            page.wait_for_selector(f"[data-screen=game][data-code='{code}']:not([data-version=''])")

    # A room still in its lobby keeps its join form.
    lobby = web_server.post(
        "/api/rooms", {"mode": "online", "seats": [{"name": "Ivo", "colour": "red"}]}
    )
    for page in checked_page(browser, web_server, viewport):
        page.goto(f"/r/{lobby['code']}")
        expect(page.get_by_test_id("join-room")).to_be_visible()
        expect(page.get_by_test_id("join-name")).to_be_visible()
        expect(page.get_by_test_id("watch-room")).to_be_hidden()
