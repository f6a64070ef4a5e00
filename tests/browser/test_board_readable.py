"""A board a child can read, on every shipped board, on a 360 px phone.

The brief: "the board drawn with every snake and ladder, tokens" and "works from
360 x 640 phones". Square numbers stay readable (at least 12 px), a token is big enough
to see and touch (at least 32 px), and snakes and ladders lie under the numbers and the
tokens, never over them.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from snakes.server.boards import board_catalogue
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

BOARDS = [entry["name"] for entry in board_catalogue()]


@pytest.mark.parametrize("name", BOARDS)
def test_numbers_and_tokens_are_readable_above_the_jumps_on_a_phone(
    browser: Browser, web_server: ServerProcess, name: str
) -> None:
    seats = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    created = web_server.post("/api/rooms", {"mode": "pass", "seats": seats, "board": name})
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=web_server.url)
    page = context.new_page()
    try:
        page.goto("/")
        page.evaluate(
            "([code, secret]) => { localStorage.setItem('snakes.game', JSON.stringify("
            "{code, secret, mode: 'pass', over: false, saved: Date.now()}));"
            " localStorage.setItem('snakes.settings', JSON.stringify({speed: 'instant'})); }",
            [created["code"], created["secret"]],
        )
        page.goto(f"/#/game/{created['code']}")
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        page.get_by_test_id("roll").click()
        page.wait_for_function("() => document.querySelector('[data-testid=die]').dataset.value")
        page.wait_for_timeout(300)
        sizes = page.evaluate(
            """() => {
              const numbers = [...document.querySelectorAll('.square-number')];
              const fontPx = Math.min(...numbers.map((n) => n.getBoundingClientRect().height));
              const token = document.querySelector('.token:not(.left)');
              const body = token.querySelector('circle:not(.token-halo)');
              const tokenPx = body.getBoundingClientRect().width;
              const board = document.querySelector('[data-testid=board]');
              const layers = [...board.children].map((c) => c.getAttribute('class'));
              return {fontPx, tokenPx, layers};
            }"""
        )
        # A glyph box a little taller than the digits; 12 px text has a box of ~14 px.
        assert sizes["fontPx"] >= 13.5, sizes
        assert sizes["tokenPx"] >= 32, sizes
        layers = sizes["layers"]
        assert layers.index("jumps") < layers.index("tokens"), layers
        assert layers.index("jumps") < layers.index("numbers"), layers
    finally:
        context.close()
