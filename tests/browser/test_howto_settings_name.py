"""How to play sends players to the settings screen by the name that screen has, in every
language (before, in English: "the Snake settings", a screen nothing is called)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from snakes.server.languages import catalogue_dir
from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE, checked_page
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "de", "es", "fr", "hi")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_how_to_play_names_the_settings_screen_as_it_is_called(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    for lang in LANGUAGES:
        catalogue = json.loads((catalogue_dir() / f"{lang}.json").read_text(encoding="utf-8"))
        house = catalogue["messages"]["howto.house.text"]
        for page in checked_page(browser, web_server, viewport, locale=lang):
            page.goto("/#/settings")
            page.wait_for_selector("[data-screen=settings]")
            assert page.get_attribute("html", "lang") == lang
            name = page.locator("[data-screen=settings] h1").inner_text().strip()
            page.goto("/#/howto")
            howto = page.locator("[data-screen=howto]")
            expect(howto).to_contain_text(house)
            if lang == "en":
                page.get_by_text(house).scroll_into_view_if_needed()
                doc_shot(page, "howto-settings-name")
            assert name in house, f"{lang}: How to play says {house!r}; the screen is {name!r}"
            assert "Snake settings" not in howto.inner_text()
