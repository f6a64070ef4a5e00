"""The game as an app on the home screen: manifest, service worker, offline, updates.

Chromium sees a valid, installable manifest; with the server stopped, a reload opens the
kept page (games at your own table run in it), and only a device without it shows the
"no connection" screen; after a new version is deployed, the next start shows it. Game
state is never served from the cache.
"""

from __future__ import annotations

import json
import shutil
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

import snakes
from tests.browser.helpers import serious_violations, snap
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

STATIC = Path(snakes.__file__).parent / "web" / "static"
CURRENT_SHELL = """async () => {
  const hit = await (await caches.open('snakes-meta')).match('/__current-shell');
  return hit ? await hit.text() : null;
}"""
SHELL_URLS = """async () => {
  const name = await (await caches.open('snakes-meta')).match('/__current-shell');
  const cache = await caches.open(await name.text());
  return (await cache.keys()).map((r) => new URL(r.url).pathname);
}"""


def wait_for_shell(page: Page, other_than: str | None = None, seconds: float = 20) -> str:
    """Wait until the service worker controls the page and a shell is cached; its name."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        name = page.evaluate(CURRENT_SHELL)
        if name and name != other_than:
            return str(name)
        time.sleep(0.1)
    raise AssertionError("the app shell was never cached")


@pytest.fixture
def context(browser: Browser, web_server: ServerProcess) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.set_default_timeout(20_000)
    yield context
    context.close()


def png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


def test_chromium_sees_a_valid_installable_manifest(
    context: BrowserContext, web_server: ServerProcess
) -> None:
    page = context.new_page()
    page.goto(web_server.url + "/")
    page.wait_for_selector("[data-screen=home]")
    wait_for_shell(page)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest["errors"] == []
    parsed = manifest.get("parsed") or {}
    assert parsed.get("display") == "standalone" or '"display": "standalone"' in manifest["data"]
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito, where Chromium never offers to install: that
    # is the only thing it may hold against the page.
    assert [e for e in errors if e["errorId"] not in ("in-incognito",)] == []

    data = json.loads(manifest["data"])
    assert data["start_url"] == "/" and data["theme_color"] and data["background_color"]
    purposes = {icon["purpose"] for icon in data["icons"]}
    assert {"any", "maskable"} <= purposes
    for icon in data["icons"]:
        if icon["type"] != "image/png":
            continue
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert png_size(STATIC / icon["src"].removeprefix("/static/")) == (width, height)
    # The shell is the page and /static/; game state is never cached.
    urls = page.evaluate(SHELL_URLS)
    assert "/" in urls and any(u.endswith("/js/main.js") for u in urls)
    assert not [u for u in urls if u.startswith(("/api", "/ws"))]


def test_with_the_server_stopped_a_reload_opens_the_kept_game(
    browser: Browser, tmp_path: Path
) -> None:
    """The kept page starts without the server: games at your own table run in it."""
    server = ServerProcess(tmp_path / "data", "--animation-scale", "0")
    server.start()
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=server.url)
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector("[data-screen=home]")
        wait_for_shell(page)
        server.stop()
        page.reload()
        page.wait_for_selector("[data-screen=home]")
        assert page.get_by_test_id("play-ai").is_visible()
        assert serious_violations(page) == []
        # Game state never comes from the cache: with the server gone, the API is gone.
        answer = page.evaluate("() => fetch('/api/boards').then(() => 'served', () => 'failed')")
        assert answer == "failed"
    finally:
        context.close()
        server.kill()


def test_a_device_that_never_kept_the_page_shows_the_no_connection_screen(
    browser: Browser, tmp_path: Path
) -> None:
    """The service worker is installed but its shell is gone: "no connection", then the
    game as soon as the server answers again."""
    server = ServerProcess(tmp_path / "data", "--animation-scale", "0")
    server.start()
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=server.url)
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector("[data-screen=home]")
        wait_for_shell(page)
        # Only the offline page is kept (a device whose shell was evicted but for it).
        page.evaluate(
            """async () => {
                 const name = await (await caches.open('snakes-meta')).match('/__current-shell');
                 const cache = await caches.open(await name.text());
                 for (const request of await cache.keys()) {
                   if (!request.url.endsWith('/static/offline.html')
                       && !request.url.includes('/offline.js')
                       && !request.url.includes('i18n')
                       && !request.url.includes('/css/')) await cache.delete(request);
                 }
               }"""
        )
        server.stop()
        page.reload()
        page.wait_for_selector("[data-testid=offline]")
        assert page.get_by_role("heading", name="No connection").is_visible()
        assert serious_violations(page) == []
        snap(page, "offline")
        server.start()
        # It keeps asking; once the server answers, the game opens by itself.
        page.wait_for_selector("[data-screen=home]", timeout=20_000)
    finally:
        context.close()
        server.kill()


def test_after_a_new_version_is_deployed_the_next_start_shows_it(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deployed = tmp_path / "deployed"
    shutil.copytree(
        Path(snakes.__file__).parent,
        deployed / "snakes",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    monkeypatch.setenv("PYTHONPATH", str(deployed))
    server = ServerProcess(tmp_path / "data", "--animation-scale", "0")
    server.start()
    context = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=server.url)
    context.set_default_timeout(20_000)
    build = "meta[name=snakes-build]"
    try:
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector("[data-screen=home]")
        first = wait_for_shell(page)
        assert page.locator(build).count() == 0
        # Deploy a new version: the page changes, the server restarts on the same port.
        index = deployed / "snakes" / "web" / "static" / "index.html"
        index.write_text(
            index.read_text().replace(
                "</head>", '<meta name="snakes-build" content="two">\n</head>'
            )
        )
        server.restart()
        # This start is served at once from the cache (the old version) and fetches the new one.
        page.reload()
        page.wait_for_selector("[data-screen=home]")
        assert page.locator(build).count() == 0
        second = wait_for_shell(page, other_than=first)
        assert second != first
        # The next start shows it.
        page.reload()
        page.wait_for_selector("[data-screen=home]")
        assert page.locator(build).get_attribute("content") == "two"
    finally:
        context.close()
        server.kill()
