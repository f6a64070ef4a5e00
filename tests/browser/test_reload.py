"""A reload mid-game, or coming back from Home, restores the game where it was.

Product brief: "Local games ... are kept: Home offers 'Resume game'." and "a per-seat
secret kept in the browser brings a player who reloads ... back to their seat".
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    next_step,
    open_setup,
    page_room,
    seat_squares,
    snap,
    start_game,
    use_instant_animations,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


def test_reloading_mid_game_restores_the_board_and_seats(
    page: Page, web_server: ServerProcess
) -> None:
    use_instant_animations(page)
    open_setup(page, "pass")
    code = start_game(page)
    for _ in range(6):
        assert next_step(page) == "roll"
        page.get_by_test_id("roll").click()
    assert next_step(page) == "roll"
    version = page.get_attribute("[data-screen=game]", "data-version")
    squares = seat_squares(page)
    room = page_room(page)
    assert str(room["version"]) == version
    assert squares == {s["index"]: s["square"] for s in room["seats"]}

    page.reload()
    page.wait_for_selector(f"[data-screen=game][data-version='{version}']")
    assert seat_squares(page) == squares
    assert next_step(page) == "roll"  # this device still holds the seats
    snap(page, "reload-restored")

    # Home asks first (a real dialog), then offers to resume.
    page.get_by_test_id("home").click()
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_be_visible()
    page.get_by_test_id("confirm-cancel").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("[data-screen=game]")).to_be_visible()
    page.get_by_test_id("home").click()
    page.get_by_test_id("confirm-ok").click()
    page.wait_for_selector("[data-screen=home]")
    # A game at your own table is told by what it is, not by a room code.
    card = page.get_by_test_id("resume-card")
    expect(card).to_contain_text(f"Pass & Play · {len(room['seats'])} players · move 6")
    expect(card).not_to_contain_text(code)
    snap(page, "home-resume")
    page.get_by_test_id("resume").click()
    page.wait_for_selector(f"[data-screen=game][data-version='{version}']")
    assert seat_squares(page) == squares
