"""The language catalogues: complete, consistent with English, and usable by Babel.

Issue 14: "Every catalogue has every key that English has; a test fails on a missing
one." A translation that drops or renames a {placeholder}, or leaves out a plural form
its language needs, fails here too, and so does a How to play whose figures are not the
board's.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from babel import Locale

from snakes.engine import JUNGLE
from snakes.server.content import build_content
from snakes.server.languages import (
    catalogue,
    catalogue_dir,
    negotiate,
    placeholders,
    shipped_languages,
)
from snakes.server.rooms.errors import ProtocolError
from snakes.server.transport.static import page_catalogue
from tests.support.server import ServerProcess

SHIPPED = ("de", "en", "es", "fr", "hi")
LANGS = [lang.code for lang in shipped_languages()]
OTHERS = [code for code in LANGS if code != "en"]


def _messages(code: str) -> dict[str, Any]:
    data = json.loads((catalogue_dir() / f"{code}.json").read_text(encoding="utf-8"))
    messages = data["messages"]
    assert isinstance(messages, dict)
    return messages


ENGLISH = _messages("en")


def test_the_five_languages_ship() -> None:
    assert sorted(LANGS) == list(SHIPPED)
    assert LANGS[0] == "en"


def missing_keys(messages: dict[str, Any]) -> list[str]:
    return [key for key in ENGLISH if key not in messages]


def placeholder_mismatches(messages: dict[str, Any]) -> list[str]:
    """Keys whose {placeholders} differ from English's (plural forms taken together)."""
    return [
        key
        for key, text in messages.items()
        if key in ENGLISH and placeholders(text) != placeholders(ENGLISH[key])
        # A plural form may say "one" in words where English writes {count}: the other
        # forms still carry it.
    ]


@pytest.mark.parametrize("code", OTHERS)
def test_every_catalogue_has_every_english_key_and_no_stray_ones(code: str) -> None:
    messages = _messages(code)
    assert missing_keys(messages) == []
    assert [key for key in messages if key not in ENGLISH] == []


@pytest.mark.parametrize("code", LANGS)
def test_placeholders_match_english(code: str) -> None:
    assert placeholder_mismatches(_messages(code)) == []


def test_a_missing_key_or_a_changed_placeholder_is_caught() -> None:
    """The checks themselves go red on a broken catalogue."""
    broken = dict(_messages("es"))
    del broken["game.roll"]
    assert missing_keys(broken) == ["game.roll"]
    broken["announce.rolled"] = "{nombre} sacó un {value}"
    assert placeholder_mismatches(broken) == ["announce.rolled"]


def _categories(code: str, kind: str) -> set[str]:
    """The plural (or ordinal) categories the language really uses for 0-1000."""
    locale = Locale.parse(code)
    rule = locale.ordinal_form if kind == "ordinal" else locale.plural_form
    return {rule(n) for n in range(0 if kind == "cardinal" else 1, 1001)}


@pytest.mark.parametrize("code", LANGS)
def test_plural_entries_have_every_form_their_language_uses(code: str) -> None:
    needed = _categories(code, "cardinal")
    for key, entry in _messages(code).items():
        if key == "ordinal":
            assert isinstance(entry, dict)
            assert _categories(code, "ordinal") <= set(entry), key
        elif isinstance(ENGLISH[key], dict):
            assert isinstance(entry, dict), key
            assert "other" in entry and needed - {"many"} <= set(entry), (key, sorted(entry))
        else:
            assert isinstance(entry, str), key


@pytest.mark.parametrize("code", LANGS)
def test_each_catalogue_names_its_language_and_direction(code: str) -> None:
    meta = json.loads((catalogue_dir() / f"{code}.json").read_text(encoding="utf-8"))["meta"]
    assert meta["dir"] in ("ltr", "rtl")
    assert meta["name"] and meta["name"] != code
    Locale.parse(code)  # Babel knows it: plurals, ordinals and lists work on the server


def test_ordinals_and_lists_come_from_cldr() -> None:
    en, hi, fr = catalogue("en"), catalogue("hi"), catalogue("fr")
    assert [en.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]  # fmt: skip
    assert [hi.ordinal(n) for n in (1, 2, 3, 4, 5, 6, 7)] == [
        "1ला", "2रा", "3रा", "4था", "5वाँ", "6ठा", "7वाँ",
    ]  # fmt: skip
    assert [fr.ordinal(n) for n in (1, 2)] == ["1re", "2e"]
    assert en.join(["Ana", "Ben", "Cy"]) == "Ana, Ben, and Cy"
    assert catalogue("es").join(["Ana", "Ben", "Cy"]) == "Ana, Ben y Cy"
    assert hi.join(["Ana", "Ben"]) == "Ana और Ben"
    assert en.text("count.ladders", count=1) == "1 ladder"
    assert en.text("count.ladders", count=9) == "9 ladders"


@pytest.mark.parametrize("code", LANGS)
def test_how_to_play_quotes_the_board_in_every_language(code: str) -> None:
    """The words differ, the numbers are the board's: 28→84, 87→24, 99→27."""
    content = build_content(JUNGLE, code)
    assert content["lang"] == code
    text = " ".join(p for section in content["howto"] for p in section["paragraphs"])
    text += " ".join(f"{q['question']} {q['answer']}" for q in content["faq"])
    for number in ("28", "84", "87", "24", "99", "27", "100"):
        assert number in text, (code, number)
    assert "{" not in text, code  # every placeholder filled
    ladders = next(s for s in content["howto"] if "ladders" in s)
    assert ladders["ladders"] == [[j.start, j.end] for j in JUNGLE.ladders]
    if code != "en":
        assert text != " ".join(build_content(JUNGLE)["howto"][0]["paragraphs"])


def test_the_server_serves_the_languages(server: ServerProcess) -> None:
    """/api/config lists them; /api/content speaks each; an unknown one is a typed
    refusal; the page's copy of a catalogue leaves out How to play and the FAQ (the
    server's to write out), so the first load stays small."""
    languages = server.get("/api/config")["languages"]
    assert [x["code"] for x in languages] == ["en", "de", "es", "fr", "hi"]
    assert {x["code"]: x["name"] for x in languages}["hi"] == "हिन्दी"

    with pytest.raises(ProtocolError):
        catalogue("xx")
    status, body = server.request("GET", "/api/content?lang=xx")
    assert status == 400 and body["error"]["code"] == "bad_request"
    hindi = server.get("/api/content?lang=hi")
    assert hindi["lang"] == "hi" and hindi["howto"][0]["title"] == "1. खेलने का तरीका चुनो"

    raw = (catalogue_dir() / "de.json").read_bytes()
    served = json.loads(page_catalogue(raw))["messages"]
    assert not any(key.startswith(("howto.", "faq.")) for key in served)
    assert served["game.roll"] == "Würfeln"
    status, page_copy, _ = server.raw("/static/i18n/de.json")
    assert status == 200 and json.loads(page_copy)["messages"] == served
    # What a first game never shows comes apart, later (Verify, Settings, the online
    # screens ...); the two parts hold every key the page needs, each once.
    later = json.loads(page_catalogue(raw, later=True))["messages"]
    assert "verify.title" in later and "verify.title" not in served
    assert "online.roomBoard" in served  # the game screen's heading in an online room
    assert "result.wins" in served and "result.youWon" in later  # the board's moment
    status, later_copy, _ = server.raw("/static/i18n/de.later.json")
    assert status == 200 and json.loads(later_copy)["messages"] == later
    whole = json.loads(raw)["messages"]
    assert not served.keys() & later.keys()
    assert served.keys() | later.keys() == {
        key for key in whole if not key.startswith(("howto.", "faq."))
    }
    assert server.raw("/static/i18n/xx.later.json")[0] == 404


# What js/verify.js says, and the page's words before any script runs (issue: "still
# English in every language").

VERIFY_JS = catalogue_dir().parent / "js" / "verify.js"
INDEX_HTML = catalogue_dir().parent / "index.html"
# A catalogue key in a literal; `${kind}` (a ladder or a snake) stands for both.
_KEY = re.compile(r"^(?:verify|announce)\.[\w.]*(?:\$\{kind\}[\w.]*)?$")
_THROW = re.compile(r"throw new (\w+)\(\s*([\"'`])([^\"'`]*)")


def js_literals(source: str) -> list[str]:
    """The string and template literals of a script, its comments left out. (A small
    scanner, enough for verify.js: its regular expressions hold no quotes.)"""
    found: list[str] = []
    i = 0
    while i < len(source):
        two = source[i : i + 2]
        if two == "//":
            i = source.find("\n", i)
            i = len(source) if i < 0 else i
        elif two == "/*":
            i = source.index("*/", i) + 2
        elif source[i] in "\"'`":
            quote, start = source[i], i + 1
            i += 1
            while source[i] != quote:
                i += 2 if source[i] == "\\" else 1
            found.append(source[start:i])
            i += 1
        else:
            i += 1
    return found


def user_facing(literal: str) -> bool:
    """Words for a person: two words with a space between, or a sentence's full stop.
    Keys, identifiers, hashes and the scheme's name have neither."""
    return bool(re.search(r"[^\W\d_]{2,}\s+\S|[^\W\d_]{2,}[.!?:]$", literal))


def verify_keys(source: str) -> set[str]:
    keys = set()
    for literal in js_literals(source):
        if _KEY.match(literal):
            keys |= {literal.replace("${kind}", kind) for kind in ("ladder", "snake")}
    return keys


def test_verify_js_says_nothing_in_english_of_its_own() -> None:
    """Every reason verify.js gives is a catalogue key (with its params), which the Verify
    screen puts into the player's language: no literal in it is text for a person, and
    every exception it throws names a key."""
    source = VERIFY_JS.read_text(encoding="utf-8")
    assert [lit for lit in js_literals(source) if user_facing(lit)] == []
    throws = _THROW.findall(source)
    assert throws and all(_KEY.match(key) for _, _, key in throws), throws


def test_the_checks_on_verify_js_go_red_on_an_english_literal() -> None:
    source = VERIFY_JS.read_text(encoding="utf-8")
    english = source.replace(
        'throw new Unverifiable("verify.why.noBoard")',
        'throw new Unverifiable("The record names no board.")',
    )
    assert english != source
    assert [lit for lit in js_literals(english) if user_facing(lit)] == [
        "The record names no board."
    ]
    assert not all(_KEY.match(key) for _, _, key in _THROW.findall(english))
    reason = source.replace('"verify.why.over"', '"the game was already over"')
    assert [lit for lit in js_literals(reason) if user_facing(lit)] == ["the game was already over"]


SCRIPTS = catalogue_dir().parent / "js"
# A sentence or words for a person: a capitalised word then more, or a full stop at the end.
_WORDS = re.compile(r"^[A-Z][a-z]+\s+\S|[^\W\d_]{2,}[.!?…]$")
# What a script may say in English: the words it shows when no catalogue could be loaded
# at all (the server unreachable before the first one arrived). Nothing else.
NO_CATALOGUE_FALLBACKS = {
    "main.js": {"Try again", "Could not reach the game server."},
    "offline.js": {"Connected again — opening the game…"},
    "session.js": {"Something went wrong."},
}


def english_in_scripts(sources: dict[str, str]) -> dict[str, list[str]]:
    found = {}
    for name, source in sources.items():
        words = [lit for lit in js_literals(source) if _WORDS.search(lit)]
        words = [lit for lit in words if lit not in NO_CATALOGUE_FALLBACKS.get(name, set())]
        if words:
            found[name] = words
    return found


def _scripts() -> dict[str, str]:
    return {
        str(path.relative_to(SCRIPTS)): path.read_text(encoding="utf-8")
        for path in sorted(SCRIPTS.rglob("*.js"))
    }


def test_no_script_shows_english_words_of_its_own() -> None:
    """Every word a screen shows comes from the catalogue, chart axes included."""
    assert english_in_scripts(_scripts()) == {}


def test_the_check_on_every_script_goes_red_on_an_english_literal() -> None:
    sources = _scripts()
    chart = sources["odds-chart.js"]
    sources["odds-chart.js"] = chart.replace(
        't("chart.move", { last: steps.length - 1 })', "`Moves so far: ${steps.length - 1}`"
    )
    assert sources["odds-chart.js"] != chart
    assert english_in_scripts(sources) == {"odds-chart.js": ["Moves so far: ${steps.length - 1}"]}


@pytest.mark.parametrize("code", LANGS)
def test_every_key_verify_js_uses_is_in_every_catalogue_and_translated(code: str) -> None:
    keys = verify_keys(VERIFY_JS.read_text(encoding="utf-8"))
    assert {"verify.why.noBoard", "verify.why.snakeWrongWay", "verify.mismatch"} <= keys
    messages = _messages(code)
    assert sorted(keys - set(messages)) == []
    if code != "en":
        assert [key for key in sorted(keys) if messages[key] == ENGLISH[key]] == []
    if code == "hi":
        assert all(re.search("[\u0900-\u097f]", str(messages[key])) for key in keys)


def _page(server: ServerProcess, accept: str) -> tuple[str, dict[str, str]]:
    status, body, headers = server.raw("/", {"Accept-Language": accept})
    assert status == 200
    return body.decode(), {k.lower(): v for k, v in headers.items()}


def _noscript(page: str) -> str:
    found = re.search(r"<noscript>\s*<p[^>]*>([^<]*)</p>\s*</noscript>", page)
    assert found, "index.html has a <noscript> note"
    return html.unescape(found[1])


def _description(page: str) -> str:
    found = re.search(r'<meta name="description" content="([^"]*)"', page)
    assert found
    return html.unescape(found[1])


@pytest.mark.parametrize("code", LANGS)
def test_the_page_comes_in_the_language_the_browser_asks_for(
    server: ServerProcess, code: str
) -> None:
    """Without a script nothing translates the page: the server writes in its words, its
    title, its description and its <noscript> note, in the browser's first language."""
    page, headers = _page(server, f"{code}-XX, en;q=0.5")
    messages = _messages(code)
    assert f'<html lang="{code}" dir="ltr">' in page
    assert headers["content-language"] == code
    assert "Accept-Language" in headers["vary"]
    assert _noscript(page) == messages["page.noscript"]
    assert _description(page) == messages["page.description"]
    assert f"<title>{html.escape(messages['app.name'])}</title>" in page
    # Every word of the page's own markup is the catalogue's, none left in English.
    shown = dict(re.findall(r'data-i18n="([\w.]+)"[^>]*>([^<]*)<', page))
    assert shown and {key: html.unescape(text) for key, text in shown.items()} == {
        key: messages[key] for key in shown
    }
    manifest = f'href="/manifest.webmanifest{"" if code == "en" else f"?lang={code}"}"'
    assert manifest in page


def test_the_page_markup_has_no_english_the_server_cannot_translate() -> None:
    """The <noscript> note and the description are catalogue keys in index.html itself,
    so the checks above go red if either is written back as plain English."""
    source = INDEX_HTML.read_text(encoding="utf-8")
    assert re.search(r'<noscript><p [^>]*data-i18n="page.noscript"', source)
    assert re.search(
        r'<meta name="description"[^>]*data-i18n-attr="content:page.description"', source
    )
    english = source.replace(' data-i18n="page.noscript"', "")
    assert not re.search(r'<noscript><p [^>]*data-i18n="page.noscript"', english)


def test_a_browser_that_asks_for_no_shipped_language_gets_english(server: ServerProcess) -> None:
    page, headers = _page(server, "ja-JP, ja;q=0.9")
    assert '<html lang="en"' in page and headers["content-language"] == "en"
    assert _noscript(page) == ENGLISH["page.noscript"]


def test_accept_language_is_read_by_quality_then_order() -> None:
    assert negotiate(None) == "en"
    assert negotiate("") == "en"
    assert negotiate("de-AT") == "de"
    assert negotiate("ja, fr-CA;q=0.8, es;q=0.9") == "es"
    assert negotiate("hi;q=0.2, xx, pt-BR;q=0.9") == "hi"
    assert negotiate("fr;q=0, de;q=0.1") == "de"
    assert negotiate("*, de;q=0.5") == "de"
    assert negotiate("fr;q=abc, es") == "es"


@pytest.mark.parametrize("code", LANGS)
def test_the_manifest_names_the_game_in_each_language(server: ServerProcess, code: str) -> None:
    status, body, headers = server.raw(f"/manifest.webmanifest?lang={code}")
    assert status == 200
    assert {k.lower(): v for k, v in headers.items()}["content-type"] == (
        "application/manifest+json"
    )
    data = json.loads(body)
    messages = _messages(code)
    assert data["name"] == messages["app.name"]
    assert data["short_name"] == messages["app.shortName"]
    assert data["description"] == messages["page.description"]
    assert data["lang"] == code and data["dir"] == "ltr"
    assert data["id"] == "/" and data["start_url"] == "/"  # one app, whatever its language
    assert len(data["short_name"]) <= 12  # what fits under a home-screen icon


def test_the_manifest_without_a_shipped_language_is_english(server: ServerProcess) -> None:
    for path in ("/manifest.webmanifest", "/manifest.webmanifest?lang=xx"):
        status, body, _ = server.raw(path)
        assert status == 200 and json.loads(body)["name"] == ENGLISH["app.name"]
