"""The page checks a seat name by the server's rule: js/names.js against rooms/names.py.

A local game's seats are named in the page and never reach the server, and an online
name is checked in the page before it is sent; both must refuse exactly what the
server refuses, for the same reason. Each name below goes through both: the server's
``clean_name`` here, the page's ``nameProblem`` in Chromium. Every default-ignorable
code point and variation selector, the emoji sequences players type, and a fixed table
always run; hypothesis then explores mixtures of the same kinds of character.
"""

from __future__ import annotations

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page, expect

from snakes.server.rooms.names import InvalidName, clean_name
from tests.browser.helpers import module_url, open_setup, snap, start_game
from tests.server.test_names import DIFFERENT, EMOJI_NAMES, HIDDEN, INVISIBLE

pytestmark = pytest.mark.browser

PROBLEMS = """async ([url, names]) => {
  const { nameProblem } = await import(url);
  return names.map((name) => nameProblem(name));
}"""

SNAKE = "\U0001f40d"
TABLE: dict[str, str] = {
    "Ana": "",
    "  Ana  ": "",
    "x" * 20: "",
    "x" * 21: "length",
    "": "length",
    "   ": "length",
    "\ufeffAna": "invisible",  # JavaScript's trim() would cut it: the rule does not
    "Ana\x1c": "control",  # Python's strip() would cut it: the rule does not
    "An\x00a": "control",
    "An\u0600a": "control",  # a format character that is drawn
    "Ana\u2028Ben": "control",
    "\ud800Ana": "control",  # a lone surrogate
    "Ana\U000e0100": "invisible",
    "Ho\u200bst": "invisible",
    "\u200d".join([SNAKE] * 4): "",
    "\u200d".join([SNAKE] * 5): "invisible",
    f"Host{SNAKE}\ufe0f\ufe0f": "invisible",
    "\u2800\u2800": "blank",
    "\u3000\u2800": "blank",
    "\u0301" * 5: "blank",
    "a" + "\u0301" * 4: "",
    "a" + "\u0301" * 6: "marks",  # NFC folds the first into á
    "x" * 19 + "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466": "",
    "x" * 20 + "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466": "length",
    "\U0001f1eb\U0001f1f7\U0001f1eb": "",  # a flag, then a lone regional indicator
    "1\u20e3": "",  # a keycap mark without VS16: a mark on a digit
    "Zo\u0065\u0308": "",  # NFC makes it "Zoë"
}
"""Names and the server's reason to refuse each ("" when it takes it)."""


def _server(name: str) -> str:
    try:
        clean_name(name)
    except InvalidName as refused:
        return refused.problem
    return ""


def _page(page: Page, names: list[str]) -> list[str]:
    answers: list[str] = page.evaluate(PROBLEMS, [module_url(page, "names.js"), names])
    return answers


@pytest.fixture
def home(page: Page) -> Page:
    page.goto("/")
    page.wait_for_selector("[data-screen=home]")
    return page


def _agree(page: Page, names: list[str]) -> None:
    server = [_server(name) for name in names]
    browser = _page(page, names)
    differ = [(ascii(n), s, b) for n, s, b in zip(names, server, browser, strict=True) if s != b]
    assert not differ, differ[:20]


def test_the_page_and_the_server_give_the_same_reason_for_each_name(home: Page) -> None:
    assert [_server(name) for name in TABLE] == list(TABLE.values())
    _agree(home, list(TABLE))
    _agree(home, INVISIBLE + DIFFERENT)
    emoji = list(EMOJI_NAMES)
    _agree(home, emoji + [f"Ana {e}" for e in emoji] + ["x" * 20 + e for e in emoji])
    for where in ("Host{}", "Ho{}st", "{}", "Ana \U0001f40d{}"):
        _agree(home, [where.format(ch) for ch in HIDDEN])


def test_the_page_refuses_every_default_ignorable_code_point_the_server_refuses(
    home: Page,
) -> None:
    found = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Variation_Selector}]")
    hidden = [chr(c) for c in range(0x110000) if found.match(chr(c))]
    names = [f"Ana{ch}" for ch in hidden]
    assert set(_page(home, names)) == {"invisible"}
    _agree(home, names)


PIECES = [
    "a", "Z", "\u00eb", "\u0416", "\u03a9", "\u674e", "\u0930", "\u093e", "\u0645", "7", "#",
    " ", "\u3000", "\u00a0",
    "\u0301", "\u0308", "\u20e3",  # marks
    "\u200d", "\u200c", "\u200b", "\ufe0f", "\ufe0e", "\U000e0100", "\u3164", "\u2060",
    "\U000e0067", "\U000e007f", "\u00ad",  # invisible, or part of an emoji
    "\x07", "\u0600", "\u2028",  # control
    "\u2800",
    SNAKE, "\u2764", "\U0001f468", "\U0001f469", "\U0001f3fd", "\U0001f1eb", "\U0001f1f7",
    "\U0001f3f4",
]  # fmt: skip
"""Characters the rule treats differently, all assigned long before either side's data."""


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.text(st.sampled_from(PIECES), max_size=24), min_size=80, max_size=80))
def test_mixtures_of_every_kind_of_character_get_the_same_answer(
    home: Page, names: list[str]
) -> None:
    _agree(home, names)


def test_setup_refuses_an_invisible_name_and_starts_with_a_family_emoji(page: Page) -> None:
    """The six "Host" seats of a lobby, in a Pass & Play setup: the second is refused on
    the spot, in words; a family emoji is a name like any other."""
    open_setup(page, "pass")
    names = page.get_by_test_id("seat-name")
    names.nth(0).fill("Host")
    names.nth(1).fill("Host\U000e0100")
    names.nth(1).blur()
    error = page.locator("#" + str(names.nth(1).get_attribute("aria-describedby")))
    expect(error).to_have_text("Names cannot contain invisible characters.")
    expect(names.nth(1)).to_have_attribute("aria-invalid", "true")
    page.get_by_test_id("start-game").click()
    expect(page.locator("[data-screen=setup]")).to_be_visible()
    snap(page, "setup-invisible-name")
    family = "Ana \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    names.nth(1).fill(family)
    names.nth(1).blur()
    expect(error).to_have_text("")
    start_game(page)
    expect(page.locator("[data-screen=game]")).to_contain_text(family)
    snap(page, "game-family-emoji-name")
