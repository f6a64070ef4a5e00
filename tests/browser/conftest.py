"""Browser fixtures: one real ``snakes serve`` process and one headless Chromium per session.

Chromium is the system one (``/usr/bin/chromium``). Without it the browser tests skip
with a reason, except on CI (``CI=true``), where a missing browser is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.browser.helpers import checked_page
from tests.support.server import TEST_FLAGS, ServerProcess, running_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Real clock (AI seats roll by themselves), quick AI, no animation allowance; every
# page comes from 127.0.0.1, so the per-address room and connection budgets are off.
WEB_FLAGS = (
    "--ai-delay", "0.05", "--animation-scale", "0",
    "--room-limit", "0", "--room-limit-hour", "0", "--room-limit-total", "0",
    "--max-connections-per-address", "0",
)  # fmt: skip

# An expectation waits for the page's state; its limit only ends a test that would hang.
# Playwright's default of 5 s is shorter than an animation at normal speed takes on a
# busy machine (a six's move, then its moment), which made such a wait a speed check that
# load turned red: the same 20 s as ``next_step`` and the other waits here.
expect.set_options(timeout=20_000)


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {CHROMIUM} is missing: the browser tests must run on CI")
    pytest.skip(f"{CHROMIUM} is not installed; install chromium to run the browser tests")


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for every browser test; each test makes its own rooms."""
    _require_chromium()
    with running_server(tmp_path_factory.mktemp("web-data"), *WEB_FLAGS) as process:
        yield process


@pytest.fixture(scope="session")
def hooks_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with the test hooks: a hand-moved clock and scripted dice."""
    _require_chromium()
    with running_server(tmp_path_factory.mktemp("hooks-data"), *TEST_FLAGS) as process:
        yield process


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    _require_chromium()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        opened = chromium.new_context

        def new_context(**options: Any) -> BrowserContext:
            # Every page asks for reduced motion unless its test is about motion (the
            # moments, the reactions' float, the motion switch ask for "no-preference").
            # The board's decorations (the snakes' tongues, the glowing turn) play a few
            # times each turn, in software rendering: when they were endless, the parallel
            # phase's browsers starved one another (8 of the slowest browser tests: 156 s
            # side by side with full motion, 89 s reduced; docs/TESTING.md).
            options.setdefault("reduced_motion", "reduce")
            return opened(**options)

        chromium.new_context = new_context  # type: ignore[method-assign]
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser, web_server: ServerProcess) -> Iterator[Page]:
    """A fresh page (own storage) at 1440x900; fails the test on any page error."""
    yield from checked_page(browser, web_server)


@pytest.fixture
def hooks_page(browser: Browser, hooks_server: ServerProcess) -> Iterator[Page]:
    """Like ``page``, on the server with the test hooks."""
    yield from checked_page(browser, hooks_server)
