"""Home's resume card tells a game at your own table by what it is ("Play with AI ·
3 players · move 4"), not as a room with a code (before: "Play with AI · room 0T2CCM")."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    checked_page,
    module_url,
    next_step,
    open_setup,
    script_dice,
    start_game,
    use_instant_animations,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_resume_card_tells_a_local_game_by_its_mode_players_and_move(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    for page in checked_page(browser, web_server, viewport):
        use_instant_animations(page)
        open_setup(page, "ai")
        while page.get_by_test_id("ai-count").inner_text() != "2":
            page.get_by_test_id("ai-more").click()
        # No sixes, no ladders to the end: two turns of each of the three seats.
        script_dice(page, 2, 2, 2, 3, 3, 3)
        code = start_game(page)
        for _ in range(2):
            assert next_step(page) == "roll"
            page.get_by_test_id("roll").click()
        assert next_step(page) == "roll"
        moves = page.evaluate(
            """async ([url, code]) => (await (await import(url)).getGame(code))
                 .actions.filter((a) => a.type === 'roll').length""",
            [module_url(page, "local-store.js"), code],
        )
        assert moves == 6

        page.get_by_test_id("home").click()
        page.get_by_test_id("confirm-ok").click()
        page.wait_for_selector("[data-screen=home]")
        card = page.get_by_test_id("resume-card")
        expect(card).to_be_visible()
        doc_shot(page, "resume-card")
        expect(card).to_contain_text("Play with AI · 3 players · move 6")
        expect(card).not_to_contain_text(code)
        expect(card).not_to_contain_text("room")
