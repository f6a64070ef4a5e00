"""Watch the replay: a finished game move by move, with the odds chart beside it.

Issue 14, section 3: the board replays the record with play/pause, step and speeds 1x-8x,
keyboard operable; every position comes from the server's engine; the chart marks the
moments that swung the game and a click on it jumps the replay there.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import (
    checked_page,
    next_step,
    page_story,
    script_dice,
    serious_violations,
    snap,
    use_instant_animations,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

# Pass & Play, Classic. Ava: 6, 6, 5 (17); Ben 3; Ava 6 (23), 5: 28 -> 84 (move 6);
# Ben 2; Ava 6, 6 (96), 4: home on 100 (move 11).
ROLLS = (6, 6, 5, 3, 6, 5, 2, 6, 6, 4)
LADDER_MOVE = 6


@pytest.fixture
def story_page(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    yield from checked_page(browser, server)


def _tab_to(page: Page, testid: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if (
            page.evaluate("document.activeElement && document.activeElement.dataset.testid")
            == testid
        ):
            return
    raise AssertionError(f"Tab never reached {testid}")


def play_scripted_game(page: Page, server: ServerProcess) -> str:
    use_instant_animations(page)
    page.goto("/#/setup/pass")
    page.wait_for_selector("[data-screen=setup][data-mode=pass]")
    names = page.locator("[data-screen=setup] input[type=text]")
    names.nth(0).fill("Ava")
    names.nth(1).fill("Ben")
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    code = str(page.get_attribute("[data-screen=game]", "data-code"))
    script_dice(page, *ROLLS)
    rolls = 0
    while next_step(page) == "roll":
        page.keyboard.press("Space")
        rolls += 1
        assert rolls <= len(ROLLS)
    page.wait_for_selector("[data-screen=result] [data-testid=result-list]")
    return code


def test_the_replay_steps_to_the_ladder_and_shows_the_engines_board(
    story_page: Page, server: ServerProcess
) -> None:
    page = story_page
    code = play_scripted_game(page, server)
    # The result screen's small chart (drawn once the story is worked out, by a module
    # the screen loads when it shows it), then "Watch the replay" by keyboard.
    expect(page.get_by_test_id("odds-chart-mini")).to_be_visible()
    story = page_story(page, code)
    assert [s["positions"] for s in story["steps"]][LADDER_MOVE] == [84, 3]
    assert serious_violations(page) == []
    snap(page, "story-result")
    _tab_to(page, "watch-replay")
    page.keyboard.press("Enter")
    replay = page.locator("[data-screen=replay]")
    expect(replay).to_have_attribute("data-step", "0")
    expect(page.get_by_test_id("odds-chart")).to_be_visible()

    # Step to the ladder with the Right arrow: the board is the engine's, square for square.
    for move in range(1, LADDER_MOVE + 1):
        page.keyboard.press("ArrowRight")
        expect(replay).to_have_attribute("data-step", str(move))
        positions = ",".join(str(p) for p in story["steps"][move]["positions"])
        expect(replay).to_have_attribute("data-positions", positions)
    expect(page.get_by_test_id("replay-what")).to_contain_text("climbed the ladder from 28 to 84")
    # Ava's token stands on 84 (column 4 of the ninth row), Ben's on 3.
    ava = page.locator("[data-testid=board] .token[data-seat='0']")
    ben = page.locator("[data-testid=board] .token[data-seat='1']")
    assert (ava.get_attribute("transform") or "").startswith("translate(350.0 154.0)")
    assert (ben.get_attribute("transform") or "").startswith("translate(250.0 954.0)")
    label = page.get_by_test_id("board").get_attribute("aria-label") or ""
    assert "Ava on 84" in label and "Ben on 3" in label
    # The odds beside it are the server's for that move.
    rows = page.locator("[data-testid=replay-odds] li")
    odds = [float(rows.nth(i).get_attribute("data-odds") or "nan") for i in range(2)]
    assert odds == story["steps"][LADDER_MOVE]["odds"]
    snap(page, "story-replay")
    assert serious_violations(page) == []

    # The ladder is one of the moments that swung the game, marked on the chart.
    marker = page.locator(f".chart-moment[data-step='{LADDER_MOVE}']")
    expect(marker).to_have_count(1)
    page.keyboard.press("Home")
    expect(replay).to_have_attribute("data-step", "0")
    marker.locator("path").click()
    expect(replay).to_have_attribute("data-step", str(LADDER_MOVE))
    page.keyboard.press("ArrowLeft")
    expect(replay).to_have_attribute("data-step", str(LADDER_MOVE - 1))

    # Play at 8x to the end, by keyboard; the last move is Ava's win.
    page.keyboard.press("8")
    expect(replay).to_have_attribute("data-speed", "8")
    page.keyboard.press("k")
    expect(replay).to_have_attribute("data-step", str(len(ROLLS)))
    expect(replay).to_have_attribute("data-playing", "false")
    expect(page.get_by_test_id("replay-what")).to_contain_text("wins the game")
    assert page.locator("[data-testid=replay-odds] li").first.get_attribute("data-odds") == "1"

    # The moments are told in words a child follows, with no figure: the button jumps to
    # the moment, and the odds beside the board are the figure, one tap away.
    moment = page.get_by_test_id("replay-moment").first
    expect(moment).to_have_text("▲Ava's climb from 28 to 84 swung the race")  # ▲: a ladder
    moment.click()
    expect(replay).to_have_attribute("data-step", str(LADDER_MOVE))
    expect(rows.first).to_have_attribute("data-odds", str(story["steps"][LADDER_MOVE]["odds"][0]))

    # And back to the results, where "Play again" still works.
    page.get_by_test_id("replay-results").click()
    expect(page.get_by_test_id("result-row")).to_have_count(2)
    expect(page.get_by_test_id("play-again")).to_be_visible()


@pytest.mark.parametrize("width,height", [(360, 640), (1440, 900)])
def test_the_replay_and_its_controls_work_at_phone_and_desktop_size(
    story_page: Page, server: ServerProcess, width: int, height: int
) -> None:
    page = story_page
    page.set_viewport_size({"width": width, "height": height})
    code = play_scripted_game(page, server)
    expect(page.get_by_test_id("odds-chart-mini")).to_be_visible()
    assert serious_violations(page) == []
    page.goto(f"/#/replay/{code}/1")
    replay = page.locator("[data-screen=replay]")
    expect(replay).to_have_attribute("data-step", "0")
    for testid in ("replay-play", "replay-forward", "replay-back", "replay-first", "replay-last"):
        box = page.get_by_test_id(testid).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, testid
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, testid
    page.get_by_test_id("replay-forward").click()
    expect(replay).to_have_attribute("data-step", "1")
    page.get_by_test_id("replay-last").click()
    expect(replay).to_have_attribute("data-step", str(len(ROLLS)))
    page.get_by_test_id("replay-speed-2").click()
    expect(replay).to_have_attribute("data-speed", "2")
    page.get_by_test_id("replay-play").click()  # from the end: starts again from move 0
    expect(replay).to_have_attribute("data-step", str(len(ROLLS)))
    assert serious_violations(page) == []
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert overflow is False


def test_a_room_without_a_finished_game_says_so(browser: Browser, server: ServerProcess) -> None:
    created = server.post(
        "/api/rooms",
        {
            "mode": "pass",
            "seats": [{"name": "Ava", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
        },
    )
    # The story's 404 is expected here (the console reports it), so no error check.
    context = browser.new_context(base_url=server.url)
    try:
        page = context.new_page()
        page.goto(f"/#/replay/{created['code']}")
        expect(page.get_by_test_id("replay-error")).to_contain_text("No finished game to replay")
        assert serious_violations(page) == []
    finally:
        context.close()
