"""Boards to choose from, the live odds panel, and AI seats added by an online host.

Product brief: "Other boards are data" (the setup screens offer the shipped ones, with how
long a game on each usually takes); "The online host may also add AI seats"; and the
game screen's optional live odds (Settings: "Show live odds", off by default).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    open_setup,
    page_room,
    serious_violations,
    snap,
    start_game,
    use_instant_animations,
)
from tests.support.client import GameClient
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


def _leave_game(page: Page) -> None:
    """Home from a game in progress: the app asks first."""
    page.get_by_test_id("home").click()
    page.get_by_test_id("confirm-ok").click()
    page.wait_for_selector("[data-screen=home]")


def _room_with_odds(page: Page) -> dict[str, Any]:
    """The page's room once the odds of its state have come (asked of the server)."""
    for _ in range(200):
        room = page_room(page)
        if room["over"] or room["odds"]:
            return room
        page.wait_for_timeout(50)
    raise AssertionError("the odds never came")


def _catalogue(server: ServerProcess) -> dict[str, dict[str, Any]]:
    return {board["name"]: board for board in server.get("/api/boards")}


def test_a_board_picked_in_setup_is_the_one_played(page: Page, web_server: ServerProcess) -> None:
    boards = _catalogue(web_server)
    short = boards["short"]
    use_instant_animations(page)
    open_setup(page, "ai")
    picker = page.get_by_test_id("board-picker")
    expect(picker).to_be_visible()
    expect(picker.get_by_role("radio")).to_have_count(len(boards))
    expect(page.get_by_test_id("board-jungle")).to_be_checked()  # the how-to-play board
    card = page.locator(".board-card[data-board=short]")
    dash = "\N{EN DASH}"
    # A game of two: how long it usually takes, and the range two games in three fall in.
    low, median, high = (short[f"game_{k}_turns"] for k in ("low", "median", "high"))
    assert low < median < high and high - low < short["p90_turns"] - short["p10_turns"]
    expect(card.get_by_test_id("board-length")).to_have_text(
        f"short game · about {median} turns · most games {low}{dash}{high}"
    )
    expect(card).to_contain_text(f"{short['ladders']} ladders · {short['snakes']} snakes")
    assert serious_violations(page) == []
    page.get_by_test_id("board-short").check()
    start_game(page)
    room = page_room(page)
    assert room["board"]["name"] == "short"
    # The board is drawn from the room's data: every ladder and snake of that board.
    expect(page.locator("[data-testid=board] .ladder")).to_have_count(len(room["board"]["ladders"]))
    expect(page.locator("[data-testid=board] .snake")).to_have_count(len(room["board"]["snakes"]))

    # The choice is remembered for the next game on this device.
    _leave_game(page)
    open_setup(page, "pass")
    expect(page.get_by_test_id("board-short")).to_be_checked()


def _odds_on_screen(page: Page) -> list[float]:
    rows = page.get_by_test_id("odds-row")
    return [float(rows.nth(i).get_attribute("data-value") or "nan") for i in range(rows.count())]


def test_live_odds_are_off_by_default_and_follow_every_update_when_on(
    page: Page, web_server: ServerProcess
) -> None:
    use_instant_animations(page)
    open_setup(page, "ai")
    start_game(page)
    expect(page.get_by_test_id("odds-panel")).to_be_hidden()

    _leave_game(page)
    page.get_by_test_id("nav-settings").click()
    page.get_by_test_id("setting-show-odds").check()
    expect(page.get_by_test_id("settings-saved")).to_contain_text("live odds shown")

    open_setup(page, "ai")
    start_game(page)
    panel = page.get_by_test_id("odds-panel")
    expect(panel).to_be_visible()
    rows = page.get_by_test_id("odds-row")
    expect(rows).to_have_count(3)
    for i in range(3):
        expect(rows.nth(i)).to_have_text(
            re.compile(r"^\S.* (under 1|over 99|\d{1,3})% chance to win$")
        )
    for _ in range(3):
        expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
        # Our turn: the AI seats are waiting, so the page's room is the one on screen, and
        # the odds the server worked out of its record follow it.
        version = page.get_attribute("[data-screen=game]", "data-version")
        room = _room_with_odds(page)
        if room["over"]:
            break
        assert str(room["version"]) == version
        page.wait_for_function(
            "values => [...document.querySelectorAll('[data-testid=odds-row]')]"
            ".map((row) => Number(row.dataset.value)).join() === values.join()",
            arg=room["odds"]["values"],
        )
        assert _odds_on_screen(page) == pytest.approx(room["odds"]["values"], abs=1e-9)
        assert sum(_odds_on_screen(page)) == pytest.approx(1, abs=0.01)
        page.get_by_test_id("roll").click()
        page.wait_for_selector(f"[data-screen=game]:not([data-version='{version}'])")
    snap(page, "odds-classic")
    assert serious_violations(page) == []

    # Last One Standing: each player's expected place.
    if page.locator("[data-screen=game]").count():
        _leave_game(page)
    open_setup(page, "pass")
    page.get_by_test_id("finish-last-one-standing").check()
    start_game(page)
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_text(re.compile(r"about \d(st|nd|rd|th)$"))  # in words


def test_the_online_host_adds_ai_seats_and_picks_the_board_in_the_lobby(
    page: Page, web_server: ServerProcess
) -> None:
    use_instant_animations(page)
    page.goto("/#/online")
    page.get_by_test_id("host-name").fill("Olga")
    page.get_by_test_id("online-board-picker").get_by_test_id("board-short").check()
    page.get_by_test_id("create-room").click()
    page.wait_for_selector("[data-screen=lobby]")
    code = page.get_attribute("[data-screen=lobby]", "data-code")
    assert code
    assert web_server.get(f"/api/rooms/{code}")["board"]["name"] == "short"
    lobby_picker = page.get_by_test_id("lobby-board-picker")
    expect(lobby_picker.get_by_test_id("board-short")).to_be_checked()

    page.get_by_test_id("add-ai").click()
    seats = page.get_by_test_id("lobby-seat")
    expect(seats).to_have_count(2)
    expect(seats.nth(1)).to_contain_text("Robo")
    expect(seats.nth(1)).to_contain_text("AI")
    room = web_server.get(f"/api/rooms/{code}")
    assert [(s["name"], s["kind"], s["colour"]) for s in room["seats"]] == [
        ("Olga", "human", "red"),
        ("Robo", "ai", "blue"),
    ]

    # A friend joins; the host switches to another board and everyone sees it.
    joined = web_server.post(f"/api/rooms/{code}/join", {"name": "Pia", "colour": "green"})
    with GameClient(web_server.ws_url) as pia:
        pia.hello(code, joined["secret"])
        lobby_picker.get_by_test_id("board-bare").check()
        pia.wait_for(lambda m: m["type"] == "update" and m["room"]["board"]["name"] == "bare")
        expect(seats).to_have_count(3)
        snap(page, "lobby-ai-board")
        assert serious_violations(page) == []

        page.get_by_test_id("start-online").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        expect(page.locator("[data-testid=board] .ladder")).to_have_count(0)
        expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
        # Olga rolls until her turn is over (a six rolls again); then Robo rolls by itself.
        while web_server.get(f"/api/rooms/{code}")["turn"] == 0:
            expect(page.get_by_test_id("roll")).to_have_attribute("aria-disabled", "false")
            version = web_server.get(f"/api/rooms/{code}")["version"]
            page.get_by_test_id("roll").click()
            page.wait_for_selector(f"[data-screen=game]:not([data-version='{version}'])")
        robo = page.locator("[data-testid=seat-card][data-seat='1']")
        pia.wait_for(
            lambda m: (
                m["type"] == "update"
                and any(e["type"] == "rolled" and e["seat"] == 1 for e in m["events"])
            )
        )
        expect(robo).not_to_have_attribute("data-square", "0")
