"""Seat names: at least one visible character, and no look-alikes at one table."""

from __future__ import annotations

import json
import string
import unicodedata
from collections import Counter
from importlib import resources

import pytest
import regex

from snakes.server.rooms.model import clean_name as reexported
from snakes.server.rooms.names import InvalidName, clean_name, confusable_with
from tests.server.online_helpers import create_room
from tests.support.server import ServerProcess

INVISIBLE = ["\u3164" * 3, "\u2800" * 2, "\u0301" * 20, "\u115f\u1160", "\u3000\u2800", "\ufe0f"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_that_shows_nothing_is_refused(name: str) -> None:
    with pytest.raises(InvalidName, match="visible") as refused:
        clean_name(name)
    assert refused.value.problem in {"invisible", "blank"}


HIDDEN = [
    *(chr(c) for c in range(0xE0100, 0xE01F0)),  # variation selectors 17-256: drawn as nothing
    *(chr(c) for c in range(0xFE00, 0xFE10)),  # variation selectors 1-16, VS16 included
    "\u180b", "\u180c", "\u180d", "\u180f",  # Mongolian free variation selectors
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff",  # zero-width space, (non-)joiner, ...
    "\u00ad", "\u034f", "\u061c", "\u115f", "\u1160", "\u17b4", "\u17b5", "\u180e",
    "\u200e", "\u200f", "\u202a", "\u202e", "\u2061", "\u2064", "\u206a", "\u206f",
    "\u3164", "\uffa0", "\U0001bca0", "\U0001d173", "\U0001d17a", "\U000e0001",
    "\U000e0020", "\U000e0067", "\U000e007f",  # tags, outside a flag
]  # fmt: skip
"""Default-ignorable code points and variation selectors, named one by one."""


@pytest.mark.parametrize("where", ["end", "inside", "alone", "after an emoji"])
def test_invisible_characters_are_refused_wherever_they_stand(where: str) -> None:
    """Six seats were all drawn "Host" with a variation selector 17-256 after each."""
    for ch in HIDDEN:
        name = {
            "end": f"Host{ch}",
            "inside": f"Ho{ch}st",
            "alone": ch,
            "after an emoji": f"Ana \U0001f40d{ch}",
        }[where]
        if where == "after an emoji" and ch == "\ufe0f":
            continue  # VS16 after an emoji: the emoji's presentation, allowed below
        with pytest.raises(InvalidName) as refused:
            clean_name(name)
        assert refused.value.problem == "invisible", (where, hex(ord(ch)))


def test_every_default_ignorable_code_point_is_refused_by_its_property() -> None:
    """Not a list kept by hand: every code point Unicode marks default-ignorable or a
    variation selector (the ``regex`` package's data) is refused beside a letter."""
    found = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Variation_Selector}]")
    hidden = [chr(c) for c in range(0x110000) if found.match(chr(c))]
    assert set(HIDDEN) <= set(hidden) and len(hidden) > 4000
    for ch in hidden:
        with pytest.raises(InvalidName) as refused:
            clean_name(f"Ana{ch}")
        assert refused.value.problem == "invisible", hex(ord(ch))


EMOJI_NAMES = {
    "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466": "a family (ZWJ)",
    "\U0001f469\U0001f3fb\u200d\u2764\ufe0f\u200d\U0001f48b\u200d\U0001f468\U0001f3ff": "a kiss",
    "\U0001f9d1\U0001f3fd\u200d\U0001f4bb": "a coder with a skin tone",
    "\U0001f3f3\ufe0f\u200d\U0001f308": "the rainbow flag",
    "\U0001f43b\u200d\u2744\ufe0f": "a polar bear",
    "\U0001f44d\U0001f3fd": "a thumb with a skin tone",
    "\U0001f1eb\U0001f1f7": "a flag (two regional indicators)",
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f": "Scotland (tags)",
    "1\ufe0f\u20e3": "a keycap",
    "#\ufe0f\u20e3": "the # keycap",
    "\u2764\ufe0f": "a heart with VS16",
    "\U0001f40d": "a snake",
}  # fmt: skip


@pytest.mark.parametrize("emoji", list(EMOJI_NAMES), ids=list(EMOJI_NAMES.values()))
def test_an_emoji_sequence_is_one_character_of_a_valid_name(emoji: str) -> None:
    for name in (emoji, f"Ana {emoji}", f"{emoji}Ana", "x" * 19 + emoji):
        assert clean_name(name) == name
    with pytest.raises(InvalidName) as refused:
        clean_name("x" * 20 + emoji)
    assert refused.value.problem == "length"


def test_an_emoji_joins_at_most_four_and_its_joiner_is_no_hiding_place() -> None:
    snake = "\U0001f40d"
    assert clean_name("\u200d".join([snake] * 4)) == "\u200d".join([snake] * 4)
    for name in (
        "\u200d".join([snake] * 5),  # one emoji that draws as a row
        "Ho\u200dst",
        f"Host\u200d{snake}",
        f"{snake}\u200dHost",
        f"{snake}\ufe0f\ufe0f",
        "Host\ufe0f",
        f"{snake}\U000e0100",
        "\U000e0067\U000e007f Ana",  # tags with no flag
    ):
        with pytest.raises(InvalidName) as refused:
            clean_name(name)
        assert refused.value.problem == "invisible", ascii(name)


def test_names_that_differ_only_in_what_is_not_drawn_look_alike() -> None:
    snake = "\U0001f40d"
    assert confusable_with(f"Host {snake}\ufe0f", [f"Host {snake}"]) == f"Host {snake}"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert confusable_with(family, ["\U0001f468\U0001f469\U0001f467"]) is not None
    thumbs = ["Ana \U0001f44d\U0001f3fb", "Ana \U0001f44d\U0001f3ff", "Ana \U0001f44d"]
    for index, name in enumerate(thumbs):  # skin tones are drawn: they tell names apart
        assert confusable_with(name, thumbs[:index]) is None, ascii(name)


def test_names_of_every_script_still_pass() -> None:
    for name in [
        "Ana",
        "Zoë 🐍",
        "Nguyễn",
        "राम",
        "李小龍",
        "Ωμέγα",
        "\uff26\uff55\uff4c\uff4c",
        "a" + "\u0301" * 4,
    ]:
        assert clean_name(name) == unicodedata.normalize("NFC", name)  # kept as typed
    with pytest.raises(ValueError, match="marks"):
        clean_name("a" + "\u0301" * 6)  # NFC folds the first into á
    assert reexported is clean_name


def _homoglyphs() -> dict[str, list[str]]:
    """Each Latin letter's single-character look-alikes, straight from the package's data
    (not through the table the server builds from it)."""
    data = json.loads(
        (resources.files("confusable_homoglyphs") / "confusables.json").read_text("utf-8")
    )
    found: dict[str, list[str]] = {}
    for letter in string.ascii_letters:
        others = [entry["c"] for entry in data.get(letter, [])]
        found[letter] = [c for c in others if len(c) == 1 and c != letter]
    return found


def _word(letter: str, ch: str) -> str:
    """A name with ``ch`` where ``letter`` goes: a capital first, a small letter inside."""
    return ch + "ost" if letter.isupper() else "H" + ch + "st"


def _cases(letter: str, ch: str) -> list[str]:
    """The real name in every case its look-alike must be refused beside.

    A capital's look-alike that stays itself in capitals ("\u041d" for "H") is refused beside
    the real name in any case: "\u041dost" looks like "Host", and in capitals like "HOST". A
    small letter's look-alike that stays itself in small letters likewise, but for
    capitals: its capital may look like nothing ("\u017f", a long s, looks like "f"; "S" does
    not). One of the other case, in its place ("I" for "l"), is refused beside the
    real name as typed: "HIst" and "hlst" differ in their first letter.
    """
    real = _word(letter, letter)
    if letter.isupper() and ch.upper() == ch:
        return [real, real.lower(), real.upper(), real.swapcase()]
    if letter.islower() and ch.lower() == ch:
        return [real, real.lower()]
    return [real]


def test_look_alikes_are_refused_in_any_case_in_either_order() -> None:
    scripts: Counter[str] = Counter()
    pairs = 0
    for letter, lookalikes in _homoglyphs().items():
        for ch in lookalikes:
            fake = _word(letter, ch)
            for real in _cases(letter, ch):
                assert confusable_with(fake, [real]) == real, (fake, real)
                assert confusable_with(real, [fake]) == fake, (real, fake)
                pairs += 1
            scripts[unicodedata.name(ch, "?").split()[0]] += 1
    assert pairs > 2000
    assert {"CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "LISU"} <= set(scripts)
    assert len(scripts) > 40, scripts


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Host", "\u041dost"),  # Cyrillic capital En
        ("Host", "\u0397ost"),  # Greek capital Eta
        ("host", "\u041dost"),
        ("HOST", "\u0397ost"),
        ("Host", "H\u043est"),  # Cyrillic small o
        ("Host", "\u13bbost"),  # Cherokee Mi
        ("Host", "\u2c8eost"),  # Coptic Hate
        ("Host", "\uff28ost"),  # fullwidth H
        ("Host", "\U0001d407ost"),  # mathematical bold H
        ("Kate", "\u041a\u0430\u0442\u0435"),  # Cyrillic: alike in capitals
        ("KATE", "\u039a\u0391\u03a4\u0395"),  # all Greek capitals
        ("Anna", "\u0391\u039d\u039d\u0391"),  # the same in Greek capitals
        ("Cid", "\u03f9id"),  # the lunate sigma, which NFKC makes a plain Sigma
        ("Al", "AI"),
        ("Tom", "\u0422\u041e\u041c"),  # Cyrillic capitals: "TOM"
        ("Ana", "ana"),
        ("Ana", "ANA"),
        ("Stra\u00dfe", "STRASSE"),
    ],
)
def test_named_look_alikes_are_refused(one: str, other: str) -> None:
    assert confusable_with(one, [other]) == other
    assert confusable_with(other, [one]) == one


DIFFERENT = [
    "Ana", "Ann", "Anna", "Zoë", "Zoe", "Ivan", "Oleg", "Maria", "Nikos", "Eleni", "Rahul",
    "Priya", "Host", "Ghost", "Tom", "Tim", "Bob", "Ella", "Elia", "Ian", "Lan", "Kate",
    "\u0418\u0432\u0430\u043d",  # Иван
    "\u0410\u043d\u043d\u0430",  # Анна
    "\u041e\u043b\u0435\u0433",  # Олег
    "\u0393\u03b9\u03ce\u03c1\u03b3\u03bf\u03c2",  # Γιώργος
    "\u039d\u03af\u03ba\u03bf\u03c2",  # Νίκος
    "\u039d\u03af\u03ba\u03b7",  # Νίκη
    "\u0395\u03bb\u03ad\u03bd\u03b7",  # Ελένη
    "\u039c\u03b1\u03c1\u03af\u03b1",  # Μαρία
    "\u0394\u03ae\u03bc\u03b7\u03c4\u03c1\u03b1",  # Δήμητρα
    "\u03a3\u03bf\u03c6\u03af\u03b1",  # Σοφία
    "\u0930\u093e\u0939\u0941\u0932",  # राहुल
    "\u092a\u094d\u0930\u093f\u092f\u093e",  # प्रिया
    "\u0905\u0928\u093f\u0932",  # अनिल
    "\u0905\u092e\u093f\u0924",  # अमित
    "\u674e\u5c0f\u9f8d", "\u738b\u82b3", "\u3055\u304f\u3089", "\uc0ac\ub791",
    "\u0645\u062d\u0645\u062f", "\u05d3\u05d5\u05d3", "Nguy\u1ec5n", "Am\u00e9lie", "Amelie",
]  # fmt: skip
"""Names that do not look alike in any case, in many scripts: every pair may share a room."""


def test_different_names_in_every_script_may_share_a_room() -> None:
    for index, name in enumerate(DIFFERENT):
        assert confusable_with(name, DIFFERENT[:index]) is None, name
        assert confusable_with(name, DIFFERENT[index + 1 :]) is None, name


def test_the_http_api_refuses_invisible_and_look_alike_names(server: ServerProcess) -> None:
    for name in INVISIBLE[:3]:
        status, body = server.request(
            "POST", "/api/rooms", {"mode": "online", "seats": [{"name": name, "colour": "red"}]}
        )
        assert status == 422 and "visible" in body["error"]["message"], name
    code, host = create_room(server, name="Host")
    try:
        for name in ("Host\U000e0100", "Host\U000e01ef", "Ho\u200bst"):
            status, body = server.request(
                "POST", f"/api/rooms/{code}/join", {"name": name, "colour": "blue"}
            )
            assert status == 422 and "invisible" in body["error"]["message"], ascii(name)
        for name in ("H\u043est", "host", " HOST "):
            status, body = server.request(
                "POST", f"/api/rooms/{code}/join", {"name": name, "colour": "blue"}
            )
            assert (status, body["error"]["code"]) == (409, "name_taken"), name
        family = "Ghost \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
        joined = server.request(
            "POST", f"/api/rooms/{code}/join", {"name": family, "colour": "blue"}
        )
        assert joined[0] == 201, joined
        # The host's AI seats follow the same rule.
        host.client.send({"type": "add_ai", "name": "H\u043eST", "colour": "green"})
        assert host.client.wait_type("error")["code"] == "name_taken"
        host.client.send({"type": "add_ai", "name": "\u3164\u3164", "colour": "green"})
        assert host.client.wait_type("error")["code"] == "invalid_name"
        status, body = server.request(
            "POST",
            "/api/rooms",
            {
                "mode": "pass",
                "seats": [{"name": "Ana", "colour": "red"}, {"name": "ANA", "colour": "blue"}],
            },
        )
        assert (status, body["error"]["code"]) == (409, "name_taken")
        assert [s["name"] for s in server.get(f"/api/rooms/{code}")["seats"]] == ["Host", family]
    finally:
        host.client.close()


CAPITAL_PAIRS = [
    ("Host", "\u041dost"),  # Cyrillic capital En
    ("Host", "\u0397ost"),  # Greek capital Eta
    ("host", "\u041dOST"),
    ("Kate", "\u039a\u0391\u03a4\u0395"),  # Greek capitals
    ("Tom", "\u0422\u043e\u043c"),  # Cyrillic: alike in capitals
    ("Sam", "\u13da\u13aa\u13b7"),  # Cherokee capitals
]


@pytest.mark.parametrize("swap", [False, True], ids=["latin-first", "look-alike-first"])
def test_the_http_api_refuses_capital_look_alikes_in_either_order(
    server: ServerProcess, swap: bool
) -> None:
    for pair in CAPITAL_PAIRS:
        first, second = reversed(pair) if swap else pair
        seats = [{"name": first, "colour": "red"}]
        created = server.post("/api/rooms", {"mode": "online", "seats": seats})
        status, body = server.request(
            "POST", f"/api/rooms/{created['code']}/join", {"name": second, "colour": "blue"}
        )
        assert (status, body["error"]["code"]) == (409, "name_taken"), (first, second)
        seats.append({"name": second, "colour": "blue"})
        status, body = server.request("POST", "/api/rooms", {"mode": "pass", "seats": seats})
        assert (status, body["error"]["code"]) == (409, "name_taken"), (first, second)


def test_different_names_in_other_scripts_join_one_room(server: ServerProcess) -> None:
    names = [
        "\u0930\u093e\u0939\u0941\u0932",  # राहुल
        "\u0393\u03b9\u03ce\u03c1\u03b3\u03bf\u03c2",  # Γιώργος
        "\u0418\u0432\u0430\u043d",  # Иван
        "Ivan",
        "\u0395\u03bb\u03ad\u03bd\u03b7",  # Ελένη
        "Eleni",
    ]
    colours = ["red", "blue", "green", "yellow", "purple", "orange"]
    seats = [{"name": names[0], "colour": colours[0]}]
    code = server.post("/api/rooms", {"mode": "online", "seats": seats})["code"]
    for name, colour in zip(names[1:], colours[1:], strict=True):
        server.post(f"/api/rooms/{code}/join", {"name": name, "colour": colour})
    assert [s["name"] for s in server.get(f"/api/rooms/{code}")["seats"]] == names
