"""Seat names: what a name may hold, and when two names are too alike to share a room.

A name is 1-20 characters after trimming, in any script, without control characters,
and with at least one character that shows: a name made of Hangul fillers (U+3164),
blank Braille cells (U+2800), combining marks alone or other blanks would let a player
pass as nobody. Two seats in one room may not have names that look the same in any
case: their UTS #39 skeletons (Unicode's confusables data, as shipped by the
``confusable-homoglyphs`` package) are compared as typed, in small letters and in
capitals, so neither "H\\u043est" (Cyrillic o), "\\u041dost" (Cyrillic capital En)
nor "\\u0397ost" (Greek capital Eta) can sit beside "Host", nor "ana" beside "Ana".
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Protocol

from snakes.server.rooms.errors import ProtocolError

NAME_MAX = 20
MAX_MARKS = 4
"""Combining marks one character may carry (Vietnamese needs 2, Indic scripts 3)."""

_CONTROL = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
_BLANK_CATEGORIES = frozenset({"Zs", "Mn", "Me", "Mc"})
BLANKS = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers: letters (Lo) that draw nothing
    "\u2800"  # Braille pattern blank
    "\u034f\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f"  # ignorable marks and separators
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
    "\u1cbc\u1cbd\u1cbe"  # Georgian Mtavruli blanks, just in case
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))  # variation selectors
)
"""Characters that take no ink, whatever their general category says."""


def visible(ch: str) -> bool:
    """Does this character draw something by itself?

    >>> visible("A"), visible("\u3164"), visible("\u2800"), visible("\u0301"), visible("🐍")
    (True, False, False, False, True)
    """
    return ch not in BLANKS and unicodedata.category(ch) not in _BLANK_CATEGORIES | _CONTROL


def clean_name(name: str) -> str:
    """A seat name trimmed and checked: 1-20 characters, any script, no control characters.

    >>> clean_name("  Ana  ")
    'Ana'
    >>> clean_name("\u3164\u3164\u3164")
    Traceback (most recent call last):
    ...
    ValueError: a name needs at least one visible character
    """
    trimmed = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(trimmed) <= NAME_MAX:
        raise ValueError(f"a name has 1-{NAME_MAX} characters")
    if any(unicodedata.category(ch) in _CONTROL for ch in trimmed):
        raise ValueError("a name may not hold control characters")
    if not any(visible(ch) for ch in trimmed):
        raise ValueError("a name needs at least one visible character")
    marks = 0
    for ch in trimmed:
        marks = marks + 1 if unicodedata.category(ch) in {"Mn", "Me", "Mc"} else 0
        if marks > MAX_MARKS:
            raise ValueError(f"a character of a name carries at most {MAX_MARKS} marks")
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
    text = unicodedata.normalize("NFD", text)
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
    text = " ".join("".join(ch for ch in name if ch not in BLANKS).split())
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
            raise ProtocolError(
                "name_taken", f"the name {name!r} looks like {other!r}, already at the table"
            )
