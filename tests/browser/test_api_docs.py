"""``/docs`` shows the HTTP API under the strict CSP, with every asset served here."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.support.server import ServerProcess


def test_the_api_docs_render_with_local_assets_only(page: Page, web_server: ServerProcess) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto("/docs")
    page.locator(".opblock-summary-path", has_text="/api/rooms").first.wait_for()
    assert page.locator(".opblock").count() >= 5
    assert not violations
    assert requested and all(url.startswith(web_server.url) for url in requested), requested
