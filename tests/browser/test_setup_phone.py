"""Setup fits a 360 x 640 phone: seats first, a compact board picker, no long scroll.

The brief: "works from 360 x 640 phones". Seats with names and colours come first, the
board picker is one row of small previews with their names, and Start Game is in reach
all the time.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import open_setup
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 640}

LAYOUT = """() => {
  const box = (el) => el.getBoundingClientRect();
  const cards = [...document.querySelectorAll('[data-testid=board-picker] .board-card')];
  return {
    height: document.documentElement.scrollHeight,
    start: box(document.querySelector('[data-testid=start-game]')).bottom,
    rows: new Set(cards.map((c) => Math.round(box(c).top))).size,
    previews: cards.filter((c) => c.querySelector('.board-thumb line, .board-thumb-bg')).length,
    withJumps: cards.filter((c) => c.querySelector('.board-thumb line')).length,
    clippedTitles: cards.map((c) => c.querySelector('.radio-card-title'))
      .filter((t) => box(t).right > box(t.closest('.board-card')).right + 0.5
        || box(t).left < box(t.closest('.board-card')).left - 0.5)
      .map((t) => t.textContent),
    clippedNames: [...document.querySelectorAll('[data-testid=seat-name]')]
      .filter((i) => i.scrollWidth > i.clientWidth).map((i) => i.value),
    seatsFirst: box(document.querySelector('.seat-list')).top
      < box(document.querySelector('[data-testid=board-picker]')).top,
  };
}"""


@pytest.mark.parametrize("mode", ["pass", "ai"])
def test_setup_fits_a_phone_with_a_row_of_board_previews(
    browser: Browser, web_server: ServerProcess, mode: str
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=web_server.url)
    page = context.new_page()
    try:
        open_setup(page, mode)
        expect(page.get_by_test_id("board-picker")).to_be_visible()
        layout = page.evaluate(LAYOUT)
        boards = len(web_server.get("/api/boards"))
        assert layout["height"] <= 2 * PHONE["height"], layout  # it was ~3,000 px
        assert layout["start"] <= PHONE["height"], layout  # Start Game without scrolling
        assert layout["seatsFirst"], layout
        assert layout["rows"] == 1, layout
        assert layout["previews"] == boards, layout
        assert layout["withJumps"] == boards - 1, layout  # the bare board has none
        assert layout["clippedTitles"] == [], layout
        assert layout["clippedNames"] == [], layout
    finally:
        context.close()
