"""No English in another language's game: every word on screen comes from the language's
catalogue (src/snakes/web/static/i18n/*.json), and no stylesheet writes words of its own
(a CSS ``content:`` string may hold a sign, such as "?" or "✓", but never a letter)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.doc_shots import doc_shot
from tests.browser.helpers import DESKTOP, PHONE, checked_page
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "src" / "snakes" / "web" / "static"
CONTENT_STRING = re.compile(r"""content\s*:\s*(?P<value>[^;}]*)""")
QUOTED = re.compile(r""""((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'""")


def _catalogue(lang: str) -> dict[str, object]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    messages: dict[str, object] = data["messages"]
    return messages


def _texts(value: object) -> list[str]:
    if isinstance(value, dict):
        return [str(v) for v in value.values()]
    return [str(value)]


def test_no_stylesheet_writes_words() -> None:
    """Words in a stylesheet never reach a catalogue: a sign is all CSS may write."""
    found = []
    for sheet in sorted((STATIC / "css").glob("*.css")):
        for match in CONTENT_STRING.finditer(sheet.read_text(encoding="utf-8")):
            for quoted in QUOTED.finditer(match.group("value")):
                text = quoted.group(1) or quoted.group(2) or ""
                if any(ch.isalpha() for ch in text):
                    found.append(f"{sheet.name}: content {text!r}")
    assert found == [], f"words written by a stylesheet, outside the catalogues: {found}"


# A screen's words that are the same in English as in the language (names, codes, signs)
# are no sign of English; a sentence of English is, when the language says it otherwise.
def _english_only(lang: str) -> set[str]:
    english, other = _catalogue("en"), _catalogue(lang)
    sentences = set()
    for key, value in english.items():
        theirs = set(_texts(other.get(key, "")))
        for text in _texts(value):
            if "{" in text or text in theirs or len(text.split()) < 3:
                continue
            sentences.add(text)
    return sentences


SCREEN_TEXT = """() => {
  const out = [];
  for (const line of document.body.innerText.split('\\n')) if (line.trim()) out.push(line.trim());
  for (const el of document.querySelectorAll('body *')) {
    for (const pseudo of ['::before', '::after']) {
      const content = getComputedStyle(el, pseudo).content;
      if (content && content !== 'none' && content !== 'normal') {
        const text = content.replace(/^["']|["']$/g, '');
        if (text.trim()) out.push(text.trim());
      }
    }
  }
  return out;
}"""


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    size: dict[str, int] = request.param
    return size


@pytest.mark.parametrize("locale", ["es-ES", "fr-FR", "de-DE", "hi-IN"])
def test_a_new_game_in_another_language_has_no_english(
    browser: Browser, web_server: ServerProcess, viewport: dict[str, int], locale: str
) -> None:
    lang = locale.split("-", maxsplit=1)[0]
    pages: Iterator[Page] = checked_page(browser, web_server, viewport, locale=locale)
    for page in pages:
        page.goto("/#/setup/ai")
        page.wait_for_selector("[data-screen=setup][data-mode=ai]")
        page.get_by_test_id("start-game").click()
        page.wait_for_selector("[data-screen=game]:not([data-version=''])")
        if lang == "es":
            doc_shot(page, "no-english")
        shown = page.evaluate(SCREEN_TEXT)
        english = _english_only(lang)
        leaks = sorted({text for text in shown if text in english})
        assert leaks == [], f"English on a {lang} screen: {leaks}"
