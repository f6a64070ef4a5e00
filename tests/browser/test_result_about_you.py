"""The result is about you: your place first, celebrated only when the win is yours.

Reported on the tree before: when an AI won, the human who lost still got the trophy and
confetti, with "— Not finished · square 86" and no line saying how they did; on a phone,
Play again was two screens down.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import (
    PHONE,
    SIZES,
    assert_on_phone_screen,
    checked_page,
    next_step,
    open_setup,
    page_room,
    script_dice,
    shot,
    snap,
    start_game,
    start_pass_and_play,
    use_instant_animations,
)
from tests.support.quick_game import first_seat_wins_quickly
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

RESULT_LIST = "[data-screen=result] [data-testid=result-list]"


@pytest.fixture(params=SIZES, ids=["phone", "desktop"])
def moving_page(
    request: pytest.FixtureRequest, browser: Browser, web_server: ServerProcess
) -> Iterator[Page]:
    """Full motion (confetti falls where it is thrown), at phone and desktop size."""
    width, height = request.param
    viewport = {"width": width, "height": height}
    for page in checked_page(browser, web_server, viewport, reduced_motion="no-preference"):
        use_instant_animations(page)
        yield page


def play_against_one_ai(page: Page, dice: list[int]) -> dict[str, object]:
    """Ava against one AI, on these dice, to the result; the room at the end."""
    open_setup(page, "ai")
    while page.get_by_test_id("ai-count").inner_text() != "1":
        page.get_by_test_id("ai-fewer").click()
    page.get_by_test_id("seat-name").first.fill("Ava")
    script_dice(page, *dice)
    start_game(page)
    while next_step(page) == "roll":
        page.get_by_test_id("roll").click()
    page.wait_for_selector(RESULT_LIST)
    return page_room(page)


def test_an_ai_won_you_are_told_your_place_and_nothing_is_celebrated(moving_page: Page) -> None:
    page = moving_page
    # The AI (seat 1) wins in five turns; Ava rolls 2s, far behind.
    room = play_against_one_ai(page, [2, *first_seat_wins_quickly(2)])
    seats: list[dict[str, object]] = room["seats"]  # type: ignore[assignment]
    assert room["winner"] == 1
    ai = seats[1]["name"]
    expect(page.get_by_test_id("winner")).to_have_text(f"{ai} won. You came 2nd.")
    expect(page.locator(".trophy")).to_have_count(0)
    expect(page.locator(".confetti")).to_have_count(0)
    if page.viewport_size == PHONE:
        assert_on_phone_screen(page, ["winner", "play-again"])
    shot(page, "result-ai-won")


def test_you_won_and_it_is_celebrated(moving_page: Page) -> None:
    page = moving_page
    room = play_against_one_ai(page, first_seat_wins_quickly(2))
    assert room["winner"] == 0
    expect(page.get_by_test_id("winner")).to_have_text("You won!")
    expect(page.locator(".trophy")).to_have_count(1)
    expect(page.locator(".confetti")).to_have_count(1)
    if page.viewport_size == PHONE:
        assert_on_phone_screen(page, ["winner", "play-again"])
    shot(page, "result-you-won")


def test_a_shared_table_celebrates_whoever_won(page: Page) -> None:
    """Pass & Play: every seat is this device's, so the winner is named and celebrated."""
    start_pass_and_play(page, "Ana", "Ben")
    script_dice(page, *first_seat_wins_quickly(2))
    while next_step(page) == "roll":
        page.get_by_test_id("roll").click()
    page.wait_for_selector(RESULT_LIST)
    expect(page.get_by_test_id("winner")).to_have_text("Ana wins!")
    expect(page.locator(".trophy")).to_have_count(1)
    snap(page, "result-shared-table")


def test_a_shared_table_celebrates_last_one_standing_too(page: Page) -> None:
    """Pass & Play, Last One Standing: the whole finishing order is the table's own, so
    its first place has the trophy, as a Classic winner's has (it had none)."""
    open_setup(page, "pass")
    fields = page.locator("[data-screen=setup] input[type=text]")
    fields.nth(0).fill("Ana")
    fields.nth(1).fill("Ben")
    page.get_by_test_id("finish-last-one-standing").check()
    # Ana finishes in five turns; then Ben, at 8, climbs 9 -> 31, 36 -> 44, 51 -> 67,
    # 71 -> 91 and reaches 100 (checked with `snakes replay --mode last-one-standing`).
    script_dice(page, *first_seat_wins_quickly(2), 1, 5, 4, 3, 4, 5, 4)
    start_game(page)
    while next_step(page) == "roll":
        page.get_by_test_id("roll").click()
    page.wait_for_selector(RESULT_LIST)
    expect(page.get_by_test_id("result-row")).to_have_count(2)
    expect(page.locator(".winner-banner .trophy")).to_have_count(1)
    snap(page, "result-shared-table-last-one-standing")
