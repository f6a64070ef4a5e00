"""The result's chart says whose line is whose: a legend names each player and their
colour in words, beside a sample of their line (before: lines and marks only)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    checked_page,
    open_setup,
    play_to_result,
    script_dice,
    serious_violations,
    start_game,
    use_instant_animations,
)
from tests.support.quick_game import first_seat_wins_quickly
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_result_chart_has_a_legend_naming_each_player_and_colour(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    for page in checked_page(browser, web_server, viewport):
        use_instant_animations(page)
        open_setup(page, "ai")
        while page.get_by_test_id("ai-count").inner_text() != "2":
            page.get_by_test_id("ai-more").click()
        page.get_by_test_id("seat-name").first.fill("Ana")
        script_dice(page, *first_seat_wins_quickly(3))
        start_game(page)
        play_to_result(page)
        chart = page.get_by_test_id("story-panel").get_by_test_id("odds-chart-mini")
        expect(chart).to_be_visible()
        page.get_by_test_id("watch-replay").evaluate("(e) => e.scrollIntoView({ block: 'end' })")
        doc_shot(page, "chart-legend")

        lines = chart.locator(".chart-line")
        expect(lines).to_have_count(3)
        legend = page.get_by_test_id("chart-legend")
        expect(legend).to_be_visible()
        items = legend.get_by_test_id("chart-legend-item")
        expect(items).to_have_count(3)
        seats = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid=result-row]')].map((row) => ({
                 seat: Number(row.dataset.seat),
                 name: row.querySelector('.result-name, [data-testid=result-name]')?.textContent
                       ?? row.textContent }))"""
        )
        assert len(seats) == 3
        colour_names = {"red", "blue", "green", "yellow", "purple", "orange"}
        for index in range(3):
            item = items.nth(index)
            text = item.locator(".chart-legend-name").inner_text()
            # The name and the colour in words: text, not colour only.
            assert any(c in text.lower() for c in colour_names), text
            seat = next(s for s in seats if s["seat"] == index)
            assert text.split(" (")[0] in seat["name"], (text, seat)
            # The sample is the line's own colour and dash.
            line = lines.nth(index)
            sample = item.locator("line").nth(1)
            assert sample.get_attribute("stroke") == line.get_attribute("stroke")
            assert sample.get_attribute("stroke-dasharray") == line.get_attribute(
                "stroke-dasharray"
            )
        assert "Ana" in items.nth(0).inner_text()
        assert serious_violations(page) == []
