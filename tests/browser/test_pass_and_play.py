"""Pass & Play in a real browser: three people share one device, all the way to the result.

How to play: "Pass & Play to share one device with 2-6 friends ... Give each seat a name
and a token colour, then tap Start Game."
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    open_setup,
    page_room,
    play_to_result,
    snap,
    start_game,
    use_instant_animations,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


def test_three_people_play_a_whole_game_to_the_result(
    page: Page, web_server: ServerProcess
) -> None:
    use_instant_animations(page)
    open_setup(page, "pass")
    page.get_by_test_id("add-seat").click()
    names = page.get_by_test_id("seat-name")
    expect(names).to_have_count(3)
    for index, name in enumerate(["Ana", "Ben", "Cleo"]):
        names.nth(index).fill(name)
    # Picking a colour someone already has swaps the two seats' colours.
    seats = page.get_by_test_id("setup-seat")
    seats.nth(2).get_by_test_id("colour-red").click()
    expect(page.get_by_test_id("seat-note")).to_contain_text("swapped")
    expect(seats.nth(0)).to_have_attribute("data-colour", "green")
    expect(seats.nth(2)).to_have_attribute("data-colour", "red")
    snap(page, "pass-setup")

    start_game(page)
    room = page_room(page)
    assert room["mode"] == "pass"
    assert [(s["name"], s["colour"]) for s in room["seats"]] == [
        ("Ana", "green"),
        ("Ben", "blue"),
        ("Cleo", "red"),
    ]
    cards = page.get_by_test_id("seat-card")
    expect(cards).to_have_count(3)
    expect(page.locator("[data-testid=seat-card].current")).to_contain_text("Ana")
    # "Your turn, Ana!" is said once, in the banner, not again on the card.
    expect(page.get_by_text("Your turn, Ana!")).to_have_count(1)
    expect(page.get_by_test_id("turn-banner")).to_have_text("Your turn, Ana!")
    # Tokens are told apart without colour: each carries its seat's initial.
    expect(page.locator(".token .token-mark")).to_have_text(["A", "B", "C"])
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("log-line")).to_contain_text("Ana rolled")
    snap(page, "pass-game")

    play_to_result(page)
    rows = page.get_by_test_id("result-row")
    expect(rows).to_have_count(3)
    expect(rows.first).to_have_attribute("data-place", "1")
    expect(rows.first).to_have_attribute("data-status", "finished")
    winner = page_room(page)["winner"]
    expect(page.get_by_test_id("winner")).to_have_text(f"{['Ana', 'Ben', 'Cleo'][winner]} wins!")
    # Classic: the others are listed by square reached, marked as not finished.
    for index in (1, 2):
        expect(rows.nth(index)).to_have_attribute("data-status", "not-finished")
        expect(rows.nth(index)).to_contain_text("Not finished")
    snap(page, "pass-result")

    # Play again: same table and rules, everyone back at the start, next seat first.
    page.get_by_test_id("play-again").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    expect(page.locator("[data-testid=seat-card][data-square='0']")).to_have_count(3)
    expect(page.locator("[data-testid=seat-card].current")).to_have_attribute("data-seat", "1")
