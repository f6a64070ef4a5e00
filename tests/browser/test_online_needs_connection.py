"""Play Online says up front that it needs a connection: on Home, its button says so, and
its own screen says why instead of offering forms that could only fail at Create. Once
the connection is back, the forms come by themselves. Told apart: this device offline
(the browser says so), and the game server out of reach (the process killed).

The page was loaded once, so the service worker kept the app shell (as the installed
game has): its screens open without the server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    assert_on_phone_screen,
    serious_violations,
    shot,
)
from tests.browser.test_offline_games import wait_for_shell
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

WITHIN = 3_000
"""Milliseconds: the longest a change of the connection may go unshown."""
OFFLINE_NOISE = "net::ERR_"
"""In the browser's own console line for a request or socket that could not go out or
was cut off (offline, refused, reset, left unconnected by the killed server): expected
here."""


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    return dict(request.param)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test's own: the test kills it."""
    process = ServerProcess(tmp_path / "data", "--animation-scale", "0")
    process.start()
    yield process
    process.kill()


@pytest.fixture
def context(
    browser: Browser, server: ServerProcess, viewport: dict[str, int]
) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=viewport, base_url=server.url, locale="en-GB")
    context.set_default_timeout(20_000)
    yield context
    context.close()


def kept_page(context: BrowserContext) -> tuple[Page, list[str]]:
    """Home, once the service worker has kept the shell; the page's errors are listed
    (but the browser's own lines for requests that could not go out)."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda m: (
            errors.append(m.text) if m.type == "error" and OFFLINE_NOISE not in m.text else None
        ),
    )
    page.goto("/")
    page.wait_for_selector("[data-screen=home]")
    wait_for_shell(page)
    return page, errors


def assert_told(page: Page, reach: str, home_words: str, screen_words: str, name: str) -> None:
    """Home's Play Online says it needs a connection; its screen says so, no forms."""
    button = page.get_by_test_id("play-online")
    expect(button).to_have_attribute("data-reach", reach, timeout=WITHIN)
    expect(button).to_contain_text(home_words)
    expect(button).to_contain_text("Play Online")
    shot(page, f"{name}-home")
    button.click()
    notice = page.get_by_test_id("online-needs-connection")
    expect(notice).to_be_visible()
    expect(notice).to_have_attribute("data-reach", reach)
    expect(notice).to_contain_text("Play Online needs a connection")
    expect(notice).to_contain_text(screen_words)
    # The tables that need no connection are one tap away.
    expect(notice.get_by_role("link", name="Play with AI")).to_be_visible()
    expect(notice.get_by_role("link", name="Pass & Play")).to_be_visible()
    expect(page.get_by_test_id("create-room")).to_have_count(0)
    expect(page.get_by_test_id("join-code")).to_have_count(0)
    if page.viewport_size == PHONE:
        assert_on_phone_screen(page, ["online-needs-connection"])
    assert serious_violations(page) == []
    shot(page, f"{name}-screen")


def test_play_online_says_it_needs_a_connection_while_this_device_is_offline(
    context: BrowserContext,
) -> None:
    page, errors = kept_page(context)
    expect(page.get_by_test_id("play-online")).to_have_attribute("data-reach", "ok")
    context.set_offline(True)
    home_words, screen_words = "Needs a connection: you are offline", "This device is offline"
    assert_told(page, "offline", home_words, screen_words, "online-offline")
    # Back online: the forms come by themselves, and Home's button is as ever.
    context.set_offline(False)
    expect(page.get_by_test_id("create-room")).to_be_visible()
    expect(page.get_by_test_id("online-needs-connection")).to_be_hidden()
    page.get_by_role("link", name="Back").click()
    expect(page.get_by_test_id("play-online")).to_have_attribute("data-reach", "ok")
    expect(page.get_by_test_id("play-online")).to_contain_text("A private room for friends")
    assert not errors, errors


def test_play_online_says_it_needs_the_server_while_it_cannot_be_reached(
    context: BrowserContext, server: ServerProcess
) -> None:
    page, errors = kept_page(context)
    server.kill()
    page.reload()
    page.wait_for_selector("[data-screen=home]")
    assert_told(
        page,
        "unreachable",
        "Needs the game server, which cannot be reached",
        "The game server cannot be reached",
        "online-unreachable",
    )
    # The server back (on the same port, with its data): the forms come by themselves.
    server.start()
    expect(page.get_by_test_id("create-room")).to_be_visible()
    expect(page.get_by_test_id("online-needs-connection")).to_be_hidden()
    assert not errors, errors
