"""Which ends of a ladder belong together, at a glance, even where ladders cross.

Players on the Short board could not tell which ends of its long, crossing ladders
connect. Each ladder is painted a colour of its own (no two alike on a board), and its
foot and its top are capped in that colour, each cap on its own square.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from snakes.server.boards import board_catalogue
from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE, checked_page
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

BOARDS = [entry["name"] for entry in board_catalogue()]

LADDERS = """() => [...document.querySelectorAll('[data-testid=board] .ladder')].map((g) => {
  const [foot, top] = g.dataset.ladder.split('-').map(Number);
  const colour = (el) => getComputedStyle(el).stroke;
  const fill = (el) => getComputedStyle(el).fill;
  const square = (n) => {
    const r = document.querySelector(`[data-testid=board] .squares rect[data-square="${n}"]`);
    return {x: +r.getAttribute('x'), y: +r.getAttribute('y'), w: +r.getAttribute('width')};
  };
  const centre = (el) => ({x: +el.getAttribute('cx'), y: +el.getAttribute('cy')});
  return {
    foot, top, squares: {foot: square(foot), top: square(top)},
    rails: [...g.querySelectorAll('.ladder-rail')].map(colour),
    ends: [...g.querySelectorAll('.ladder-end')].map((el) => ({
      end: el.dataset.end, fill: fill(el), at: centre(el)})),
  };
})"""


def _rgb(css: str) -> tuple[int, int, int]:
    parts = css[css.index("(") + 1 : css.index(")")].split(",")
    red, green, blue = (int(float(p)) for p in parts[:3])
    return red, green, blue


def _distance(a: str, b: str) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(_rgb(a), _rgb(b), strict=True)) ** 0.5)


def _open_board(page: Page, server: ServerProcess, name: str) -> None:
    seats = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    created = server.post("/api/rooms", {"mode": "pass", "seats": seats, "board": name})
    page.goto("/")
    page.evaluate(
        "([code, secret]) => { localStorage.setItem('snakes.game', JSON.stringify("
        "{code, secret, mode: 'pass', over: false, saved: Date.now()}));"
        " localStorage.setItem('snakes.settings', JSON.stringify({speed: 'instant'})); }",
        [created["code"], created["secret"]],
    )
    page.goto(f"/#/game/{created['code']}")
    page.wait_for_selector("[data-screen=game]:not([data-version=''])")


def _check(ladders: list[dict[str, Any]], *, distinct: bool = True) -> None:
    assert ladders, "no ladder drawn"
    colours: list[str] = []
    for ladder in ladders:
        where = f"ladder {ladder['foot']} → {ladder['top']}"
        rails = set(ladder["rails"])
        assert len(rails) == 1, f"{where}: its rails are painted {rails}, not one colour"
        colour = rails.pop()
        colours.append(colour)
        for end in ("foot", "top"):
            caps = [e for e in ladder["ends"] if e["end"] == end]
            assert caps, f"{where}: its {end} is not marked"
            box = ladder["squares"][end]
            for cap in caps:
                assert cap["fill"] == colour, f"{where}: its {end} is {cap['fill']}, not {colour}"
                x, y = cap["at"]["x"], cap["at"]["y"]
                inside = (
                    box["x"] <= x <= box["x"] + box["w"] and box["y"] <= y <= box["y"] + box["w"]
                )
                assert inside, f"{where}: its {end} cap at {cap['at']} is off square {ladder[end]}"
    if not distinct:
        return
    for i, first in enumerate(colours):
        for j in range(i + 1, len(colours)):
            assert _distance(first, colours[j]) >= 60, (
                f"ladders {ladders[i]['foot']} and {ladders[j]['foot']} look alike: "
                f"{first} and {colours[j]}"
            )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_each_ladder_of_the_short_board_has_its_own_colour_at_both_ends(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    for page in checked_page(browser, web_server, viewport):
        _open_board(page, web_server, "short")
        doc_shot(page, "ladder-colours")
        _check(page.evaluate(LADDERS))


@pytest.mark.parametrize("name", [b for b in BOARDS if b != "short"])
def test_every_board_s_ladders_are_told_apart_the_same_way(
    browser: Browser, web_server: ServerProcess, name: str
) -> None:
    for page in checked_page(browser, web_server, PHONE):
        _open_board(page, web_server, name)
        if name == "jungle":
            doc_shot(page, "ladder-colours-jungle")
        ladders = page.evaluate(LADDERS)
        # A board of more ladders than colours may repeat one; the ends still match.
        if ladders:
            _check(ladders, distinct=len(ladders) <= 10)
