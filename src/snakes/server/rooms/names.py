"""Seat names: what a name may hold, and when two names are too alike to share a room.

A name is 1-20 characters after trimming, in any script, without control characters,
and with at least one character that shows: a name made of blank Braille cells
(U+2800), combining marks alone or spaces would let a player pass as nobody.

Nothing in a name may be invisible: every default-ignorable code point (zero-width
spaces and joiners, Hangul fillers, tags, ...) and every variation selector is refused,
found by its Unicode property (the ``regex`` package's data), not from a list kept by
hand. Before, variation selectors 17-256 (U+E0100-U+E01EF, drawn as nothing) passed,
and six seats could all be drawn "Host". The one place these characters are part of
what a player sees is an emoji: an emoji sequence (a ZWJ sequence such as a family, a
skin tone, a flag, a keycap, an emoji with its presentation selector VS16) is taken
whole and counts as one character.

Two seats in one room may not have names that look the same in any case: their UTS
#39 skeletons (Unicode's confusables data, as shipped by the ``confusable-homoglyphs``
package, default-ignorable code points removed) are compared as typed, in small letters
and in capitals, so neither "H\\u043est" (Cyrillic o), "\\u041dost" (Cyrillic capital
En) nor "\\u0397ost" (Greek capital Eta) can sit beside "Host", nor "ana" beside "Ana".

The page checks names by the same rule before it sends them (``web/static/js/names.js``,
held to this module by ``tests/browser/test_names_page.py``).
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Literal, Protocol

import regex

from snakes.server.rooms.errors import NameTaken

NAME_MAX = 20
"""Characters a name may have; an emoji sequence counts as one."""
NAME_MAX_CODE_POINTS = 4 * NAME_MAX
"""Code points a name may have, emoji sequences and marks included."""
MAX_MARKS = 4
"""Combining marks one character may carry (Vietnamese needs 2, Indic scripts 3)."""

EMOJI_JOINED = 4
"""Emoji one ZWJ sequence may join."""
_EMOJI_ELEMENT = (
    r"(?:\p{Regional_Indicator}\p{Regional_Indicator}"
    r"|\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\U000E0020-\U000E007E]+\U000E007F)?)"
)
EMOJI_SEQUENCE = regex.compile(
    rf"{_EMOJI_ELEMENT}(?:\u200D{_EMOJI_ELEMENT}){{0,{EMOJI_JOINED - 1}}}"
)
"""A possible emoji sequence, as UTS #51 (section 1.4.9) writes it: flags, emoji with a
skin tone, VS16 (and a keycap's U+20E3) or tags, joined by ZWJ; at most four joined, as
in the longest that Unicode recommends (a family of four, a kiss with two skin tones),
so that one "character" never draws as a row of forty emoji."""
_TOKEN = regex.compile(rf"{EMOJI_SEQUENCE.pattern}|.", regex.DOTALL)
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Variation_Selector}]")
_CONTROL = regex.compile(r"[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]")
_MARK = regex.compile(r"\p{M}")
_BLANK = regex.compile(r"[\p{White_Space}\p{M}\u2800]")
"""Characters that take no ink of their own: spaces, marks, the blank Braille cell."""
_TRIM = regex.compile(r"\A\p{White_Space}+|\p{White_Space}+\Z")

Problem = Literal["length", "control", "invisible", "blank", "marks"]


class InvalidName(ValueError):
    """A name the rule refuses, and which part of the rule (``problem``)."""

    def __init__(self, problem: Problem, message: str) -> None:
        super().__init__(message)
        self.problem: Problem = problem


def characters(name: str) -> list[str]:
    """A name's characters as the rule counts them: an emoji sequence is one.

    >>> characters("Zo\u00eb \U0001f468\u200d\U0001f469\u200d\U0001f467")
    ['Z', 'o', 'ë', ' ', '👨\u200d👩\u200d👧']
    """
    found: list[str] = _TOKEN.findall(name)
    return found


def visible(ch: str) -> bool:
    """Does this character (or emoji sequence) draw something by itself?

    >>> visible("A"), visible("\u3164"), visible("\u2800"), visible("\u0301"), visible("🐍")
    (True, False, False, False, True)
    """
    if len(ch) > 1:
        return EMOJI_SEQUENCE.fullmatch(ch) is not None
    return not (_BLANK.match(ch) or _INVISIBLE.match(ch) or _CONTROL.match(ch))


def trim(name: str) -> str:
    """The name in NFC with white space (Unicode's White_Space) cut from both ends."""
    return _TRIM.sub("", unicodedata.normalize("NFC", name))


def clean_name(name: str) -> str:
    """A seat name trimmed and checked: 1-20 characters, any script, nothing invisible.

    >>> clean_name("  Ana  ")
    'Ana'
    >>> clean_name("\u3164\u3164\u3164")
    Traceback (most recent call last):
    ...
    snakes.server.rooms.names.InvalidName: a name may not hold invisible characters (U+3164)
    >>> clean_name("Ana \U0001f468\u200d\U0001f469\u200d\U0001f467")
    'Ana 👨\u200d👩\u200d👧'
    """
    trimmed = trim(name)
    chars = characters(trimmed)
    if not 1 <= len(chars) <= NAME_MAX or len(trimmed) > NAME_MAX_CODE_POINTS:
        raise InvalidName("length", f"a name has 1-{NAME_MAX} characters")
    # Outside an emoji sequence, a character stands alone: none of these may.
    single = [ch for ch in chars if len(ch) == 1]
    hidden = next((ch for ch in single if _INVISIBLE.match(ch)), None)
    if hidden is not None:
        raise InvalidName(
            "invisible", f"a name may not hold invisible characters (U+{ord(hidden):04X})"
        )
    if any(_CONTROL.match(ch) for ch in single):
        raise InvalidName("control", "a name may not hold control characters")
    if not any(visible(ch) for ch in chars):
        raise InvalidName("blank", "a name needs at least one visible character")
    marks = 0
    for ch in chars:
        marks = marks + 1 if _MARK.match(ch) and len(ch) == 1 else 0
        if marks > MAX_MARKS:
            raise InvalidName("marks", f"a character of a name carries at most {MAX_MARKS} marks")
    return trimmed


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, from Unicode's confusables.txt.

    The package keeps the data as a graph (a character and the ones it is confused
    with, in both directions). In confusables.txt every source maps straight to a
    prototype that is no source itself, so each connected group of single characters
    is one prototype and its sources; a character's multi-character prototype
    (``m`` -> ``rn``) is kept as it is.
    """
    data = json.loads(
        (resources.files("confusable_homoglyphs") / "confusables.json").read_text("utf-8")
    )
    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        root = ch
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(ch, ch) != root:
            parent[ch], ch = root, parent[ch]
        return root

    multi: dict[str, str] = {}
    for ch, entries in data.items():
        if len(ch) != 1:
            continue
        for entry in entries:
            other = entry["c"].strip("\u200e\u200f")
            if len(other) == 1:
                a, b = find(ch), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            elif other:
                multi[ch] = other
    table = {ch: find(ch) for ch in parent}
    for ch, target in multi.items():
        table.setdefault(ch, target)
    return table


SKELETON_ROUNDS = 4
"""A prototype may decompose (NFD) into characters that map again; it settles in two."""


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of a text as it is written (case kept): texts that look the
    same share it.

    >>> skeleton("H\u043est") == skeleton("\u041dost") == skeleton("\u0397ost") == "Host"
    True
    """
    table = _prototypes()
    text = _INVISIBLE.sub("", unicodedata.normalize("NFD", text))
    for _ in range(SKELETON_ROUNDS):
        mapped = unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in text))
        if mapped == text:
            break
        text = mapped
    return text


def looks(name: str) -> frozenset[tuple[str, str]]:
    """What a name looks like as typed, in small letters and in capitals: a set of
    (case, skeleton) pairs. Two names are too alike when these sets meet, that is when
    they look the same written one of these three ways.

    Each way is taken as it is and in its compatibility form (NFKC: "\uff28" is "H");
    small letters both lower-cased and case-folded ("\u017f", a long s that looks like
    "f", stays one in the first, "Straße" becomes "strasse" in the second).

    Folding the case before mapping (as this module once did) lost the capitals: the
    Cyrillic "\u041d" and the Greek "\u0397" look like "H", but fold to "\u043d" and
    "\u03b7", which look like no "h", so "\u041dost" sat beside "Host". Each way is
    compared with the same way only: comparing across them lets a chain of steps make
    different names meet ("ELIA" in capitals looks like "ELlA", which is "Ella" in
    another case).

    >>> alike = lambda one, other: bool(looks(one) & looks(other))
    >>> alike("Host", "\u041dost"), alike("\u0397OST", "host"), alike("Ana", "ANA")
    (True, True, True)
    >>> alike("Ana", "Ann"), alike("Ella", "Elia")
    (False, False)
    """
    text = " ".join(_INVISIBLE.sub("", name).split())
    ways = {
        "typed": {text},
        "small": {text.lower(), text.casefold()},
        "capitals": {text.upper()},
    }
    return frozenset(
        (way, skeleton(form))
        for way, written in ways.items()
        for plain in written
        for form in (plain, unicodedata.normalize("NFKC", plain))
    )


def confusable_with(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` could be mistaken for, if any."""
    mine = looks(name)
    return next((other for other in others if mine & looks(other)), None)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


def check_seat_names(seats: Sequence[_Named]) -> None:
    """Refuse (``name_taken``) a table where two seats' names look the same."""
    names = [seat.name for seat in seats]
    for index, name in enumerate(names):
        other = confusable_with(name, names[:index])
        if other is not None:
            raise NameTaken(f"the name {name!r} looks like {other!r}, already at the table")
