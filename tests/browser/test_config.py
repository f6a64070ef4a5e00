"""The page takes its shared constants from the server (GET /api/config), one source.

The brief: "the turn countdown (10-60 s, default 20 s)" is an operator's setting
(--countdown, --countdown-min, --countdown-max); "2-6 seats"; "six colours". A page
with its own copy of them creates rooms the server refuses.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from snakes.engine import MAX_SEATS
from snakes.server.rooms.model import COLOURS
from tests.browser.conftest import WEB_FLAGS
from tests.support.server import ServerProcess, running_server

pytestmark = pytest.mark.browser

FLAGS = (*WEB_FLAGS, "--countdown-min", "30", "--countdown", "40", "--countdown-max", "90")


@pytest.fixture(scope="module")
def tuned_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(Path(tmp_path_factory.mktemp("config-data")), *FLAGS) as server:
        yield server


def test_config_serves_the_servers_settings_and_the_games_constants(
    tuned_server: ServerProcess,
) -> None:
    data = tuned_server.get("/api/config")
    assert data["countdown"] == {"default": 40, "min": 30, "max": 90}
    assert data["seats"] == {"min": 2, "max": MAX_SEATS, "ai_min": 1, "ai_max": MAX_SEATS - 1}
    assert [c["id"] for c in data["colours"]] == list(COLOURS)
    assert {f["id"]: f["name"] for f in data["finishes"]} == {
        "classic": "Classic",
        "last-one-standing": "Last One Standing",
    }
    assert data["finish_square"] == 100


def test_create_room_form_uses_the_servers_countdown_range(
    browser: Browser, tuned_server: ServerProcess
) -> None:
    context = browser.new_context(
        viewport={"width": 1440, "height": 900}, base_url=tuned_server.url
    )
    page = context.new_page()
    try:
        page.goto("/#/online")
        page.wait_for_selector("[data-screen=online]")
        field = page.get_by_test_id("countdown-seconds")
        expect(field).to_have_value("40")
        expect(field).to_have_attribute("min", "30")
        expect(field).to_have_attribute("max", "90")
        expect(page.get_by_text("Seconds per turn (30\u201390)")).to_be_visible()
        page.get_by_test_id("host-name").fill("Hana")
        page.get_by_test_id("create-room").click()
        page.wait_for_selector("[data-screen=lobby]")
        code = page.get_attribute("[data-screen=lobby]", "data-code")
        assert tuned_server.get(f"/api/rooms/{code}")["countdown_seconds"] == 40
        # The lobby offers the same range to the host.
        expect(page.get_by_text("Seconds per turn (30\u201390)")).to_be_visible()
    finally:
        context.close()
