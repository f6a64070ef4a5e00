"""The seat chips on a phone (and the seat cards on a desktop): a typical name shows
whole on a 360 px phone with four (and six) players, and a player who lost the
connection is said to be disconnected on the phone's chips as on the desktop's cards."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import checked_page
from tests.browser.test_online_header import GAME, VIEWPORTS, online_game, remember
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]


@pytest.fixture
def gus_closer() -> Iterator[list[GameClient]]:
    clients: list[GameClient] = []
    yield clients
    for client in clients:
        client.close()


@VIEWPORTS
@pytest.mark.parametrize(
    "names",
    [
        ["Monkey", "Jaguar", "Tiger", "Gecko"],
        ["Monkey", "Jaguar", "Tiger", "Gecko", "Sloth", "Robo"],
    ],
    ids=["four", "six"],
)
def test_typical_names_show_whole_on_the_seat_chips(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int], names: list[str]
) -> None:
    seats = [{"name": n, "colour": c} for n, c in zip(names, COLOURS, strict=False)]
    created = web_server.post("/api/rooms", {"mode": "pass", "seats": seats})
    for page in checked_page(browser, web_server, viewport):
        remember(page, created["code"], created["secret"], "pass")
        page.goto(f"/#/game/{created['code']}")
        page.wait_for_selector(GAME)
        expect(page.get_by_test_id("seat-card")).to_have_count(len(names))
        doc_shot(page, "seat-names" if len(names) == 4 else "seat-names-six")
        shown = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid=seat-card]')].map((card) => {
                 const name = card.querySelector('.seat-name');
                 const box = name.getBoundingClientRect();
                 const cardBox = card.getBoundingClientRect();
                 return {text: name.textContent, cut: name.scrollWidth > name.clientWidth + 0.5,
                         inside: box.left >= cardBox.left - 0.5 && box.right <= cardBox.right + 0.5,
                         fontPx: parseFloat(getComputedStyle(name).fontSize),
                         right: cardBox.right};
               })"""
        )
        for chip in shown:
            assert not chip["cut"] and chip["inside"], f"{chip['text']} is cut: {shown}"
            assert chip["fontPx"] >= 11, f"{chip['text']} is too small to read: {shown}"
            assert chip["right"] <= viewport["width"], f"{chip['text']} is off the screen: {shown}"
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@VIEWPORTS
def test_a_disconnected_player_is_said_so_on_the_seat_chips(
    browser: Browser,
    web_server: ServerProcess,
    viewport: dict[str, int],
    gus_closer: list[GameClient],
) -> None:
    for page in checked_page(browser, web_server, viewport):
        _, gus = online_game(page, web_server, "jungle")
        gus.close()
        card = page.locator("[data-testid=seat-card][data-seat='1']")
        expect(card).to_have_attribute("data-status", "disconnected")
        doc_shot(page, "seat-disconnected")
        # In words, seen and heard, not a colour alone.
        expect(card.get_by_text("Disconnected", exact=True)).to_be_visible()
        status = card.locator(".seat-status")
        box, card_box = _laid_out(status, card)
        assert box["x"] >= card_box["x"] - 0.5, (box, card_box)
        assert box["x"] + box["width"] <= card_box["x"] + card_box["width"] + 0.5, (box, card_box)
        assert status.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the word is cut"
        # Gus's own chip still names him in full.
        name = card.locator(".seat-name")
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1")


def _laid_out(status: Locator, card: Locator) -> tuple[Any, Any]:
    """The status word's box and its card's, once both are laid out: the chips are drawn
    again as news of the room comes, and a box read while one is replaced is None."""
    deadline = time.monotonic() + 10
    while True:
        status.wait_for(state="visible")
        box, card_box = status.bounding_box(), card.bounding_box()
        if box is not None and card_box is not None:
            return box, card_box
        assert time.monotonic() < deadline, "the seat chip was never laid out"
