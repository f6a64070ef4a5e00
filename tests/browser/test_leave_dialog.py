"""The leave dialog says different things in its title and each button, in every
language, and its cancel button is not named like Home's resume button, which the
dialog's text points to (before, in German: "Weiterspielen" for both)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from snakes.server.languages import catalogue_dir
from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    checked_page,
    next_step,
    open_setup,
    start_game,
    use_instant_animations,
)
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "de", "es", "fr", "hi")


def _catalogue(lang: str) -> dict[str, object]:
    data = json.loads((catalogue_dir() / f"{lang}.json").read_text(encoding="utf-8"))
    messages = data["messages"]
    assert isinstance(messages, dict)
    return messages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_leave_dialog_says_different_things_in_every_language(lang: str) -> None:
    words = _catalogue(lang)
    for title, text in (
        ("game.leaveTitle", "game.leaveLocal"),
        ("game.giveUpTitle", "game.giveUpText"),
    ):
        labels = [words[title], words["game.leave"], words["game.keepPlaying"]]
        assert len(set(labels)) == 3, f"{lang}: {labels}"
        assert words["game.keepPlaying"] not in str(words[text]), f"{lang}: {words[text]}"
    # The text names Home's resume button, which must not share the cancel button's name.
    assert words["home.resume"] != words["game.keepPlaying"], lang
    assert str(words["home.resume"]) in str(words["game.leaveLocal"]), lang


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_german_leave_dialog_and_the_resume_button_say_what_they_do(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int]
) -> None:
    for page in checked_page(browser, web_server, viewport, locale="de-DE"):
        use_instant_animations(page)
        open_setup(page, "pass")
        start_game(page)
        assert next_step(page) == "roll"
        page.get_by_test_id("roll").click()
        assert next_step(page) == "roll"
        page.get_by_test_id("home").click()
        dialog = page.get_by_test_id("confirm-dialog")
        expect(dialog).to_be_visible()
        doc_shot(page, "leave-dialog-de")
        title = page.locator("#confirm-title").inner_text()
        text = page.locator("#confirm-text").inner_text()
        ok = page.get_by_test_id("confirm-ok").inner_text()
        cancel = page.get_by_test_id("confirm-cancel").inner_text()
        assert len({title, ok, cancel}) == 3, (title, ok, cancel)
        assert cancel == "Weiterspielen" and ok == "Spiel verlassen", (ok, cancel)
        assert cancel not in text, text
        page.get_by_test_id("confirm-ok").click()
        page.wait_for_selector("[data-screen=home]")
        # The button the dialog's text pointed to is there, under that name.
        resume = page.get_by_test_id("resume").inner_text()
        assert f"„{resume}“" in text, (resume, text)
