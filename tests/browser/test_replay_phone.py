"""The replay's controls on a phone: one row of buttons, nothing cut, nothing on top of
anything (at 360 and 412 px, as at desktop size)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import checked_page
from tests.browser.test_replay import play_scripted_game
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

BUTTONS = ("replay-first", "replay-back", "replay-play", "replay-forward", "replay-last")


@pytest.fixture(params=[(360, 640), (412, 915), (1440, 900)], ids=["360", "412", "desktop"])
def sized_page(
    request: pytest.FixtureRequest, browser: Browser, server: ServerProcess
) -> Iterator[Page]:
    width, height = request.param
    yield from checked_page(browser, server, {"width": width, "height": height})


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_replay_controls_sit_in_one_row_with_nothing_cut(
    sized_page: Page, server: ServerProcess
) -> None:
    page = sized_page
    code = play_scripted_game(page, server)
    page.goto(f"/#/replay/{code}/1")
    replay = page.locator("[data-screen=replay]")
    expect(replay).to_have_attribute("data-step", "0")
    page.get_by_test_id("replay-forward").click()
    expect(replay).to_have_attribute("data-step", "1")
    page.locator(".replay-controls").evaluate("e => e.scrollIntoView({block: 'center'})")
    doc_shot(page, "replay-controls")

    boxes = [_box(page, f"[data-testid={testid}]") for testid in BUTTONS]
    tops = {round(box["y"]) for box in boxes}
    assert max(tops) - min(tops) <= 2, f"the buttons are not in one row: {boxes}"
    for earlier, later in itertools.pairwise(boxes):
        assert earlier["x"] + earlier["width"] <= later["x"] + 0.5, "buttons overlap"
    scrub = _box(page, "[data-testid=replay-scrub]")
    for testid, box in zip(BUTTONS, boxes, strict=True):
        assert not _overlap(scrub, box), f"the slider lies over {testid}"
    # No text is cut: every control shows all of its words.
    for testid in ("replay-play", "replay-counter", "replay-what"):
        cut = page.get_by_test_id(testid).evaluate("e => e.scrollWidth > e.clientWidth + 1")
        assert cut is False, f"{testid} is cut"
    # The counter is one line, and the caption wraps as a sentence, not word by word.
    counter = page.get_by_test_id("replay-counter")
    height = _box(page, "[data-testid=replay-counter]")["height"]
    line = float(counter.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 24"))
    assert height < 1.8 * line, f"the counter wraps: {height} px for lines of {line} px"
    card = _box(page, ".replay-controls")
    what = _box(page, "[data-testid=replay-what]")
    assert what["width"] >= 0.8 * (card["width"] - 32), f"the caption is squeezed: {what}"
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert overflow is False
