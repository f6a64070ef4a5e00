"""The game in five languages, in a real Chromium: chosen by the browser's languages or in
Settings (and remembered), with lang and dir on the page, every screen and the announcer
in that language, axe-clean, and screenshots at phone size (and the game and result at
desktop size) for review. The Verify screen's reasons, the page's description and the
manifest follow the language too.

Issue 14, "1. Languages": "A whole Pass & Play game plays in Hindi and in Spanish in
Chromium, with the announcer's text in that language"; "Screenshots at phone size in
each language are reviewed: no clipped or overflowing text (German is long)".
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from snakes.engine import GameRecord, SeatInfo
from snakes.fair import play_fair_game
from snakes.server.languages import catalogue_dir
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    checked_page,
    play_to_result,
    script_dice,
    serious_violations,
    start_game,
)
from tests.support.quick_game import first_seat_wins_quickly
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "languages"
DEVANAGARI = re.compile(r"[\u0900-\u097F]")

# What the screens say in each language, so a test can tell one language from another.
WORDS = {
    "en": {"start": "Start Game", "roll": "Roll", "rolled": "rolled",
           "title": "Snakes & Ladders"},
    "es": {"start": "Empezar", "roll": "Tirar", "rolled": "sacó un",
           "title": "Serpientes y escaleras"},
    "fr": {"start": "Commencer", "roll": "Lancer", "rolled": "a fait",
           "title": "Serpents et échelles"},
    "de": {"start": "Spiel starten", "roll": "Würfeln", "rolled": "gewürfelt",
           "title": "Schlangen und Leitern"},
    "hi": {"start": "खेल शुरू करो", "roll": "पासा फेंको", "rolled": "फेंका",
           "title": "साँप और सीढ़ी"},
}  # fmt: skip


@pytest.fixture
def locale_page(
    request: pytest.FixtureRequest, browser: Browser, web_server: ServerProcess
) -> Iterator[Page]:
    yield from checked_page(browser, web_server, PHONE, request.param)


def _instant(page: Page) -> None:
    page.goto("/")
    page.evaluate(
        "localStorage.setItem('snakes.settings', JSON.stringify({speed: 'instant', sound: false}))"
    )
    page.reload()
    page.wait_for_selector("[data-screen=home]")


def _shot(page: Page, lang: str, screen: str, size: str = "phone") -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # The result's confetti is decoration, and would hide the words under review.
    page.evaluate("document.querySelector('.confetti')?.remove()")
    page.wait_for_timeout(150)
    page.screenshot(path=str(SCREENSHOTS / f"{lang}-{screen}-{size}.png"))


def _no_overflow(page: Page) -> list[str]:
    """Text that runs out of its box sideways: the page wider than the phone, or an element
    whose content is wider than it (a clipped button or card)."""
    return list(
        page.evaluate(
            """() => {
          const out = [];
          if (document.documentElement.scrollWidth > window.innerWidth + 1)
            out.push(`page ${document.documentElement.scrollWidth}px wide`);
          for (const el of document.querySelectorAll('#app *')) {
            if (!el.offsetParent || el.closest('.board-area, svg, .visually-hidden')) continue;
            // Hidden for the eye, kept for screen readers (a 1-pixel clip).
            if (el.clientWidth <= 2) continue;
            const style = getComputedStyle(el);
            // Scrolling boxes and deliberate ellipses ("…" with the whole text as a title).
            if (style.overflowX === 'auto' || style.textOverflow === 'ellipsis') continue;
            const text = el.children.length === 0 && el.textContent.trim();
            if (text && el.scrollWidth > el.clientWidth + 1)
              out.push(`${el.className || el.tagName}: ${el.textContent.trim().slice(0, 40)}`);
          }
          return out;
        }"""
        )
    )


def _check_screen(page: Page, lang: str, screen: str) -> None:
    assert page.get_attribute("html", "lang") == lang
    assert page.get_attribute("html", "dir") == "ltr"
    _shot(page, lang, screen)
    assert _no_overflow(page) == [], f"{lang} {screen}"
    assert serious_violations(page) == [], f"{lang} {screen}"


def _check_desktop(page: Page, lang: str, screen: str) -> None:
    """The same screen at desktop size (1440x900), then back to the phone."""
    page.set_viewport_size(DESKTOP)
    try:
        _shot(page, lang, screen, "desktop")
        assert _no_overflow(page) == [], f"{lang} {screen} desktop"
    finally:
        page.set_viewport_size(PHONE)


def _play_pass_and_play(page: Page, lang: str) -> None:
    """Home → setup → a whole Pass & Play game → result, checking each screen."""
    words = WORDS[lang]
    _instant(page)
    # A short whole game: the screens' words are the point, not a long race.
    script_dice(page, *first_seat_wins_quickly(2))
    expect(page.locator(".brand-name")).to_have_text(words["title"])
    _check_screen(page, lang, "home")
    page.get_by_test_id("play-pass").click()
    page.wait_for_selector("[data-screen=setup][data-mode=pass]")
    expect(page.get_by_test_id("start-game")).to_have_text(words["start"])
    page.wait_for_selector(".board-card")  # the board picker shows once its list is in
    _check_screen(page, lang, "setup")
    start_game(page)
    expect(page.locator(".roll-label")).to_have_text(words["roll"])
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("log-line")).to_contain_text(words["rolled"])
    # The announcer (what a screen reader hears) speaks the language too.
    announcer = page.get_by_test_id("announcer")
    expect(announcer).to_contain_text(words["rolled"])
    spoken = announcer.text_content() or ""
    if lang == "hi":
        assert DEVANAGARI.search(spoken), spoken
    if lang == "hi":
        log = page.locator(".log-list li").all_text_contents()
        assert log and all(DEVANAGARI.search(line) for line in log), log
    _check_screen(page, lang, "game")
    _check_desktop(page, lang, "game")
    play_to_result(page)
    expect(page.get_by_test_id("winner")).to_be_visible()
    _check_screen(page, lang, "result")
    _check_desktop(page, lang, "result")


@pytest.mark.parametrize("locale_page", ["hi-IN"], indirect=True)
def test_a_whole_pass_and_play_game_in_hindi(locale_page: Page) -> None:
    _play_pass_and_play(locale_page, "hi")


@pytest.mark.parametrize("locale_page", ["es-MX"], indirect=True)
def test_a_whole_pass_and_play_game_in_spanish(locale_page: Page) -> None:
    # es-MX: no catalogue of its own, so its base language, Spanish, is chosen.
    _play_pass_and_play(locale_page, "es")


@pytest.mark.parametrize("locale_page", ["fr-FR", "de-DE", "en-US"], indirect=True)
def test_french_german_and_english_screens_fit_a_phone_and_a_desktop(locale_page: Page) -> None:
    lang = locale_page.evaluate("navigator.language").split("-")[0]
    _play_pass_and_play(locale_page, lang)


@pytest.mark.parametrize("locale_page", ["en-US"], indirect=True)
def test_english_stays_the_default_for_an_english_browser(locale_page: Page) -> None:
    _instant(locale_page)
    assert locale_page.get_attribute("html", "lang") == "en"
    expect(locale_page.get_by_test_id("play-pass")).to_contain_text("Pass & Play")


@pytest.mark.parametrize("locale_page", ["ja-JP"], indirect=True)
def test_a_language_we_do_not_ship_falls_back_to_english(locale_page: Page) -> None:
    _instant(locale_page)
    assert locale_page.get_attribute("html", "lang") == "en"


@pytest.mark.parametrize("locale_page", ["en-GB"], indirect=True)
def test_the_picker_in_settings_switches_and_is_remembered(locale_page: Page) -> None:
    page = locale_page
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/i18n/" in r.url else None)
    _instant(page)
    page.get_by_test_id("nav-settings").click()
    picker = page.get_by_test_id("setting-language")
    # Each language is named in its own words (and script), so anyone finds theirs.
    expect(picker.locator("option")).to_have_text(
        ["As my browser asks", "English", "Deutsch", "Español", "Français", "हिन्दी"]
    )
    picker.select_option("de")
    expect(page.locator("h1")).to_have_text("Einstellungen")
    assert page.get_attribute("html", "lang") == "de"
    expect(page.get_by_test_id("setting-language")).to_have_value("de")
    assert serious_violations(page) == []
    _shot(page, "de", "settings")
    # Remembered: a new visit opens in German although the browser asks for English.
    page.goto("/")
    page.reload()
    expect(page.get_by_test_id("play-pass")).to_contain_text("Reihum spielen")
    assert page.get_attribute("html", "lang") == "de"
    # How to play comes from the server in the same language, its figures from the board.
    page.get_by_test_id("nav-howto").click()
    expect(page.get_by_test_id("howto-section").first).to_contain_text("Spielart")
    expect(page.locator("[data-screen=howto]")).to_contain_text("von 28 bis ganz nach 84")
    # Only the catalogues in use were fetched: English first, then German (each with its
    # later words, which Settings shows).
    names = sorted({url.rsplit("/", 1)[-1] for url in fetched})
    assert names == ["de.json", "de.later.json", "en.json", "en.later.json"], names
    # Back to "as my browser asks": English again.
    page.goto("/#/settings")
    page.get_by_test_id("setting-language").select_option("")
    expect(page.locator("h1")).to_have_text("Settings")
    assert page.get_attribute("html", "lang") == "en"


@pytest.mark.parametrize("locale_page", ["hi-IN"], indirect=True)
def test_devanagari_is_drawn_with_a_devanagari_face(locale_page: Page) -> None:
    """The display face (Fredoka) has no Devanagari: the stack falls back to a face that
    has it, never to boxes. Chromium reports the fonts it really used for a node."""
    _instant(locale_page)
    client = locale_page.context.new_cdp_session(locale_page)
    client.send("DOM.enable")
    client.send("CSS.enable")
    root = client.send("DOM.getDocument")["root"]["nodeId"]
    node = client.send("DOM.querySelector", {"nodeId": root, "selector": ".hero-tagline"})
    fonts = client.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
    families = [f["familyName"] for f in fonts]
    assert any("Devanagari" in name or "Lohit" in name for name in families), families


def _messages(code: str) -> dict[str, Any]:
    path = catalogue_dir() / f"{code}.json"
    messages: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["messages"]
    return messages


@pytest.mark.parametrize("locale_page", ["de-DE"], indirect=True)
def test_verify_explains_a_bad_record_in_the_players_language(locale_page: Page) -> None:
    """Why a record cannot be checked, or does not check out, reads in German: the
    reasons come from the catalogue, not from English in js/verify.js."""
    page, de, en = locale_page, _messages("de"), _messages("en")
    table = GameRecord(seats=(SeatInfo("Ana", "red"), SeatInfo("Ben", "blue")))
    record = play_fair_game(bytes(range(32)), ["ana", "ben"], record=table)
    page.goto("/#/verify")
    page.wait_for_selector("[data-screen=verify]")
    result = page.get_by_test_id("verify-result")

    def check(data: dict[str, Any], status: str) -> str:
        page.get_by_test_id("verify-input").fill(json.dumps(data))
        page.get_by_test_id("verify-check").click()
        expect(result).to_have_attribute("data-status", status)
        return result.inner_text()

    unrevealed = copy.deepcopy(record)
    del unrevealed["fair"]["server_seed"]
    shown = check(unrevealed, "unverifiable")
    assert de["verify.why.unrevealed"] in shown and en["verify.why.unrevealed"] not in shown
    # A roll after the end: the replay names the action and why, in German.
    played_on = copy.deepcopy(record)
    last = played_on["actions"][-1]
    played_on["actions"].append({"type": "roll", "seat": last["seat"], "value": 1})
    swapped = copy.deepcopy(played_on)
    swapped["fair"]["server_seed"] = "ab" * 32
    shown = check(swapped, "tampered")
    action = len(played_on["actions"])
    assert f"Aktion {action} (roll) lässt sich nicht nachspielen" in shown, shown
    assert de["verify.why.over"] in shown and de["verify.why.seedChanged"] in shown
    english = [
        text
        for key, text in en.items()
        if key.startswith("verify.why.") and isinstance(text, str) and len(text) > 12
    ]
    # No English reason, judged by its longest stretch without a placeholder.
    fragments = [max(re.split(r"\{\w+\}", text), key=len).strip() for text in english]
    assert [fragment for fragment in fragments if fragment in shown] == []
    # For the screenshot: only the roll too many.
    shown = check(played_on, "tampered")
    assert f"Aktion {action} (roll) lässt sich nicht nachspielen" in shown, shown
    page.evaluate(
        """() => {
          const box = document.querySelector('[data-testid=verify-result]');
          window.scrollTo(0, window.scrollY + box.getBoundingClientRect().top - 60);
        }"""
    )
    _shot(page, "de", "verify")
    assert _no_overflow(page) == []


@pytest.mark.parametrize("locale_page", ["en-GB"], indirect=True)
def test_the_description_and_the_manifest_follow_the_language(locale_page: Page) -> None:
    """The page's description and its manifest (the installed app's name) switch with
    the language picked in Settings; English keeps the plain manifest address."""
    page, hi = locale_page, _messages("hi")
    _instant(page)
    manifest = page.locator("link[rel=manifest]")
    expect(manifest).to_have_attribute("href", "/manifest.webmanifest")
    page.get_by_test_id("nav-settings").click()
    page.get_by_test_id("setting-language").select_option("hi")
    expect(page.locator("h1")).to_have_text(hi["nav.settings"])
    description = page.locator("meta[name=description]")
    expect(description).to_have_attribute("content", hi["page.description"])
    expect(manifest).to_have_attribute("href", "/manifest.webmanifest?lang=hi")
    cdp = page.context.new_cdp_session(page)
    seen = cdp.send("Page.getAppManifest")
    assert seen["url"].endswith("/manifest.webmanifest?lang=hi") and seen["errors"] == []
    data = json.loads(seen["data"])
    assert data["name"] == hi["app.name"] and data["short_name"] == hi["app.shortName"]
    assert DEVANAGARI.search(data["description"])
