"""The game log you can read: numbers of two digits whole, each entry keeps its number
(the oldest is 1), and the open log stays inside its box: after 50 rolls the desktop page
is no taller than the window, and the phone's log scrolls in its own box."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    checked_page,
    next_step,
    script_dice,
    use_instant_animations,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

ROLLS = 50
# A 2 every time: both tokens go round the board's first snake for ever (2 -> 10 ... ->
# 12 -> 10), so the game never ends however long it runs.
VALUE = 2


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def sized_page(
    request: pytest.FixtureRequest, browser: Browser, server: ServerProcess
) -> Iterator[Page]:
    yield from checked_page(browser, server, request.param)


def _roll(page: Page) -> None:
    assert next_step(page) == "roll"
    before = page.get_attribute("[data-screen=game]", "data-version")
    page.get_by_test_id("roll").click()
    page.wait_for_selector(f"[data-screen=game]:not([data-version='{before}'])")


def _numbers(page: Page) -> list[int]:
    """Each entry's number, as the list shows it (its marker's value), newest first."""
    numbers: list[int] = page.get_by_test_id("log-list").evaluate(
        """ol => {
          const step = ol.reversed ? -1 : 1;
          let n = ol.reversed ? ol.children.length : ol.hasAttribute('start') ? ol.start : 1;
          return [...ol.children].map((li) => {
            if (li.hasAttribute('value')) n = li.value;
            const shown = n;
            n += step;
            return shown;
          });
        }"""
    )
    return numbers


def test_the_log_numbers_stay_whole_and_put_and_the_log_stays_in_its_box(sized_page: Page) -> None:
    page = sized_page
    use_instant_animations(page)
    page.goto("/#/setup/pass")
    page.wait_for_selector("[data-screen=setup][data-mode=pass]")
    names = page.locator("[data-screen=setup] input[type=text]")
    names.nth(0).fill("Ava")
    names.nth(1).fill("Ben")
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")
    script_dice(page, *[VALUE] * (ROLLS + 1))  # the game runs in the page: its die too
    for _ in range(ROLLS):
        _roll(page)
    log = page.locator(".game-log")
    if log.get_attribute("open") is None:
        page.locator(".game-log summary").click()
    expect(log).to_have_attribute("open", "")
    page.get_by_test_id("log-list").scroll_into_view_if_needed()
    # On a desktop, the whole page: its height is the point.
    doc_shot(page, "game-log", full_page=(page.viewport_size or DESKTOP)["width"] >= 900)

    # Stable numbers: the oldest entry is 1, the newest the count; another roll adds one
    # at the top and changes no other entry's number.
    numbers = _numbers(page)
    count = len(numbers)
    assert count >= ROLLS
    assert numbers[0] == count and numbers[-1] == 1, numbers[:3] + numbers[-3:]
    tenth = page.get_by_test_id("log-list").locator("li").nth(count - 10).inner_text()
    _roll(page)
    after = _numbers(page)
    assert after[0] == count + 1 and after[1:] == numbers[: len(after) - 1]
    assert page.get_by_test_id("log-list").locator("li").nth(count + 1 - 10).inner_text() == tenth

    # Whole numbers: the list leaves room for its widest marker ("51.") on its left.
    room, needed = page.get_by_test_id("log-list").evaluate(
        """(ol, widest) => {
          const probe = document.createElement('span');
          probe.textContent = `${widest}.`;
          probe.style.font = getComputedStyle(ol.firstElementChild).font;
          probe.style.position = 'absolute';
          document.body.append(probe);
          const width = probe.getBoundingClientRect().width;
          probe.remove();
          return [parseFloat(getComputedStyle(ol).paddingLeft), width];
        }""",
        max(after),
    )
    assert room >= needed + 4, f"the numbers need {needed} px and get {room} px"

    # The log stays in its box and scrolls there.
    viewport = page.viewport_size or DESKTOP
    box = page.get_by_test_id("log-list").evaluate(
        "ol => ({scroll: ol.scrollHeight, client: ol.clientHeight})"
    )
    assert box["scroll"] > box["client"], "the long log should scroll inside its box"
    if viewport["width"] >= 900:
        page.evaluate("window.scrollTo(0, 0)")
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= viewport["height"], f"the page is {height} px in a {viewport['height']}"
        bottom = page.locator(".game-log").bounding_box()
        assert bottom is not None and bottom["y"] + bottom["height"] <= viewport["height"]
    else:
        list_box = page.get_by_test_id("log-list").bounding_box()
        assert list_box is not None and list_box["height"] <= viewport["height"] / 2
