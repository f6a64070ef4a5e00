"""Play again in an online room is a proposal (PRODUCT.md, "After the game").

Three browsers on their result screens, one a phone: a guest's Play again moves nobody;
every result screen shows who wants to play again; the game starts when everyone
connected agreed (or the host starts it with those who did), and whoever did not agree
stays on their results. The server runs with the test hooks (scripted dice, a manual
clock), and the first game is played fast from plain WebSocket clients.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE, checked_page, snap
from tests.server.online_helpers import Player, close_all, start, table
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

pytestmark = pytest.mark.browser

# Exact finish off, no bonus sixes: seat 0 goes 1 → 38, 39, 45, 51 → 67, 71 → 91, 94, 100.
HOST_PATH = (1, 1, 6, 6, 4, 3, 6)


# The first number the new game's countdown shows on this page.
FIRST_COUNTDOWN = """() => {
  const look = () => {
    const el = document.querySelector('[data-screen=game] [data-testid=countdown]');
    if (el && !el.hidden && el.dataset.left && window.__firstLeft === undefined) {
      window.__firstLeft = Number(el.dataset.left);
    }
  };
  const all = {subtree: true, childList: true, attributes: true, characterData: true};
  new MutationObserver(look).observe(document.body, all);
}"""


@pytest.fixture
def hooked_server(tmp_path: Path) -> Iterator[ServerProcess]:
    with running_server(tmp_path / "data", *TEST_FLAGS) as process:
        yield process


def _finished_room(server: ServerProcess) -> tuple[str, list[Player]]:
    """Three players' online game, played to its end (seat 0 wins)."""
    code, players = table(server, 3, exact_finish=False, six_again=False)
    start(players)
    for value in HOST_PATH:
        for player in players:
            server.script_dice(value if player.seat == 0 else 2)
            answer = player.roll()
            assert answer["type"] == "update", answer
            if answer["room"]["over"]:
                return code, players
    raise AssertionError("seat 0 should have won")


def _open_results(browser: Browser, server: ServerProcess, code: str, player: Player, size):  # type: ignore[no-untyped-def]
    pages = checked_page(browser, server, size)
    page = next(pages)
    page.goto("/")
    saved = {"code": code, "secret": player.secret, "mode": "online", "over": True, "saved": 0}
    settings = {"speed": "instant", "sound": False}
    page.evaluate(
        "([game, settings]) => { localStorage.setItem('snakes.game', game);"
        " localStorage.setItem('snakes.settings', settings); }",
        [json.dumps(saved), json.dumps(settings)],
    )
    page.goto(f"/#/result/{code}")
    page.reload()
    page.wait_for_selector("[data-screen=result] [data-testid=result-list]")
    return page, pages


def _actions_in_view(page: Page) -> None:
    """Scroll the result rows and the buttons into view, for a screenshot."""
    page.evaluate(
        "() => { const e = document.querySelector('.result-actions, [data-screen=game]');"
        " if (e) e.scrollIntoView({block: 'end'}); }"
    )


def _row(page: Page, seat: int):  # type: ignore[no-untyped-def]
    return page.locator(f"[data-testid=result-row][data-seat='{seat}']")


@pytest.fixture
def three_on_results(
    browser: Browser, hooked_server: ServerProcess
) -> Iterator[tuple[ServerProcess, str, list[Page]]]:
    server = hooked_server
    code, players = _finished_room(server)
    close_all(players)
    opened = [
        _open_results(browser, server, code, players[0], DESKTOP),
        _open_results(browser, server, code, players[1], PHONE),
        _open_results(browser, server, code, players[2], DESKTOP),
    ]
    yield server, code, [page for page, _ in opened]
    for _, pages in opened:
        for _ in pages:  # the page's own checks (no page errors) run as it closes
            pass


def test_a_guests_play_again_leaves_everyone_on_their_results(
    three_on_results: tuple[ServerProcess, str, list[Page]],
) -> None:
    server, code, (hana, gus, cy) = three_on_results
    gus.get_by_test_id("play-again").click()
    try:
        for page in (hana, gus, cy):
            expect(_row(page, 1).get_by_test_id("wants-again")).to_have_text("Wants to play again")
            expect(_row(page, 0).get_by_test_id("wants-again")).to_have_count(0)
    finally:  # the host's screen (desktop) and the guest's (phone) once it is told
        _actions_in_view(hana)
        _actions_in_view(gus)
        doc_shot(hana, "rematch-proposal")
        doc_shot(gus, "rematch-proposal")
    expect(gus.get_by_test_id("play-again")).to_have_text("Waiting for the others…")
    expect(gus.get_by_test_id("play-again")).to_be_disabled()
    expect(hana.get_by_test_id("rematch-waiting")).to_have_text("Waiting for: Host and P3")
    # The proposal moved nobody: the room is still over, every screen on its results.
    assert server.get(f"/api/rooms/{code}")["phase"] == "over"
    for page in (hana, gus, cy):
        expect(page.locator("[data-screen=result]")).to_be_visible()
        expect(page.get_by_test_id("play-again")).to_be_visible()
    # Only the host may start with those who agreed.
    expect(hana.get_by_test_id("start-rematch")).to_have_text("Start with 2 players")
    expect(cy.get_by_test_id("start-rematch")).to_be_hidden()
    snap(gus, "rematch-proposal")
    snap(hana, "rematch-proposal-host")

    # Cy agrees too: still nobody moves (the host has not said yet).
    cy.get_by_test_id("play-again").click()
    expect(_row(hana, 2).get_by_test_id("wants-again")).to_be_visible()
    assert server.get(f"/api/rooms/{code}")["phase"] == "over"
    expect(hana.locator("[data-screen=result]")).to_be_visible()

    # The host agrees: everyone agreed, the new game starts for all at once.
    for page in (hana, gus, cy):
        page.evaluate(FIRST_COUNTDOWN)
    hana.get_by_test_id("play-again").click()
    for page in (hana, gus, cy):
        page.wait_for_selector("[data-screen=game]")
        expect(page.get_by_test_id("seat-card")).to_have_count(3)
        # A new race, not a return to an old one.
        expect(page.get_by_test_id("log-line")).not_to_contain_text("Welcome back")
    room = server.get(f"/api/rooms/{code}")
    assert room["phase"] == "playing" and room["game_number"] == 2
    # The first countdown runs in full from the moment the new game starts (on the
    # server's manual clock, which stands still here): nobody arrives late to it.
    countdown = room["countdown"]
    assert countdown["remaining_ms"] == countdown["total_ms"]
    total = countdown["total_ms"] // 1000
    for page in (hana, gus, cy):
        page.wait_for_function("() => window.__firstLeft !== undefined")
        first = int(page.evaluate("window.__firstLeft"))
        # Seconds, not milliseconds, on a loaded test machine: nobody arrives to a
        # countdown half run (it had 5 s of 20 left when anyone's tap pulled everyone in).
        assert first >= total - 5, f"the first countdown showed {first} s of {total} s"


def test_the_host_starts_with_those_who_agreed_and_the_others_stay(
    browser: Browser, three_on_results: tuple[ServerProcess, str, list[Page]]
) -> None:
    server, code, (hana, gus, cy) = three_on_results
    # Someone who only watched the game is on its results too, on a phone.
    watching = checked_page(browser, server, PHONE)
    watcher = next(watching)
    watcher.goto("/")
    watcher.evaluate("localStorage.setItem('snakes.settings', '{\"speed\": \"instant\"}')")
    watcher.goto(f"/#/result/{code}")
    watcher.wait_for_selector("[data-screen=result] [data-testid=result-list]")
    gus.get_by_test_id("play-again").click()
    expect(_row(watcher, 1).get_by_test_id("wants-again")).to_be_visible()
    expect(hana.get_by_test_id("start-rematch")).to_have_text("Start with 2 players")
    hana.get_by_test_id("start-rematch").click()
    for page in (hana, gus):
        page.wait_for_selector("[data-screen=game]")
        expect(page.get_by_test_id("seat-card")).to_have_count(2)
    room = server.get(f"/api/rooms/{code}")
    assert [s["name"] for s in room["seats"]] == ["Host", "P2"]
    # Cy never said yes: Cy's results stay, with a way to watch.
    expect(cy.get_by_test_id("rematch-waiting")).to_contain_text(
        "A new game has started without you."
    )
    expect(cy.locator("[data-screen=result]")).to_be_visible()
    expect(cy.get_by_test_id("result-row")).to_have_count(3)
    snap(cy, "rematch-without-you")
    # The one who only watched is told a new game began (nothing was "without" them), and
    # nobody's row still wants to play again: that proposal is over.
    expect(watcher.get_by_test_id("rematch-waiting")).to_have_text(
        "A new game has started. Watch the new game"
    )
    for page in (cy, watcher):
        expect(page.get_by_test_id("wants-again")).to_have_count(0)
    snap(watcher, "rematch-watcher")
    for _ in watching:  # its own checks (no page errors) run as it closes
        pass
    cy.get_by_test_id("watch-new-game").click()
    cy.wait_for_selector("[data-screen=game]")
    expect(cy.get_by_test_id("seat-card")).to_have_count(2)
