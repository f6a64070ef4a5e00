"""Before/after screenshots for docs/screenshots/polish, taken by the tests themselves.

Nothing is written unless ``SNAKES_DOC_SHOTS`` is ``before`` or ``after``: run a test on
the code before a mend with ``before`` and after it with ``after``, and each call saves
``docs/screenshots/polish/NAME-{before,after}-{phone,desktop}.png``. A test calls it
before its assertions, so the "before" picture is taken even where the test goes red.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Page

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "polish"


def doc_shot(page: Page, name: str, *, full_page: bool = False) -> None:
    """The page as it is now, saved under its viewport's kind (phone at 360 px,
    phone-WIDTH at other widths below 600 px, else desktop)."""
    phase = os.environ.get("SNAKES_DOC_SHOTS", "")
    if phase not in ("before", "after"):
        return
    size = page.viewport_size or {"width": 1440, "height": 900}
    width = size["width"]
    kind = "desktop" if width >= 600 else "phone" if width == 360 else f"phone-{width}"
    FOLDER.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(FOLDER / f"{name}-{phase}-{kind}.png"), full_page=full_page)
