"""Draw the app's home-screen icons from the logo (not a test; run it by hand).

    .venv/bin/python -m tests.browser.make_icons

Chromium renders src/snakes/web/static/img/logo.svg into PNGs: the plain icons at full
size on a transparent ground, and the maskable ones shrunk into the 80% safe zone on the
jungle green, so any mask shape (circle, squircle) keeps the whole logo.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

STATIC = Path(__file__).resolve().parents[2] / "src" / "snakes" / "web" / "static"
OUT = STATIC / "img" / "icons"
SIZES = (192, 512)
GROUND = "#14532d"
"""The manifest's background and theme colour."""


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    logo = base64.b64encode((STATIC / "img" / "logo.svg").read_bytes()).decode()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            for name, ground, scale in (("icon", "transparent", 1.0), ("maskable", GROUND, 0.7)):
                inner = round(size * scale)
                page.set_content(
                    f"<body style='margin:0;background:{ground}'>"
                    f"<div style='width:{size}px;height:{size}px;display:grid;place-items:center'>"
                    f"<img src='data:image/svg+xml;base64,{logo}' width='{inner}' height='{inner}'>"
                    "</div></body>"
                )
                page.wait_for_timeout(100)
                target = OUT / f"{name}-{size}.png"
                page.screenshot(path=str(target), omit_background=ground == "transparent")
                print(target)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
