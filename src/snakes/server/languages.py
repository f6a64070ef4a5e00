"""The game's languages: one catalogue file per language, shared by the page and the server.

Each ``web/static/i18n/<code>.json`` holds ``meta`` (the language's own name, and its
writing direction) and ``messages``: every word the game shows, by key. The page
fetches the one it shows; the server reads them for what it writes out itself (How to
play and the FAQ). A message is a text with ``{placeholders}``, or an object with one
text per plural category (``one``, ``few``, ``other`` ...); which category a number
takes, how ordinals, lists and numbers are written, is Babel's (CLDR's) business, never
rules of our own. Adding a language is adding a file (docs/LANGUAGES.md).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.numbers import format_decimal

from snakes.server.rooms.errors import BadRequest
from snakes.server.transport.shell import static_dir

DEFAULT = "en"
_CODE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{1,8}){0,2}$")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")

Message = str | dict[str, str]
ListStyle = Literal["standard", "or", "unit"]


def catalogue_dir() -> Path:
    return static_dir() / "i18n"


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    dir: str


@functools.lru_cache(maxsize=1)
def shipped_languages() -> tuple[Language, ...]:
    """Every catalogue that ships, English first, then by code."""
    found = []
    for path in sorted(catalogue_dir().glob("*.json")):
        code = path.stem
        if not _CODE.match(code):
            continue
        meta = _read(path).get("meta", {})
        found.append(Language(code, str(meta.get("name", code)), str(meta.get("dir", "ltr"))))
    return tuple(sorted(found, key=lambda lang: (lang.code != DEFAULT, lang.code)))


def shipped(code: str | None) -> Language | None:
    """The shipped language of that code, or None."""
    return next((lang for lang in shipped_languages() if lang.code == code), None)


def _read(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: a catalogue is a JSON object")
    return data


class Catalogue:
    """One language's messages, with Babel's plural, ordinal, list and number rules."""

    def __init__(self, code: str, messages: dict[str, Message]) -> None:
        self.code = code
        self.messages = messages
        self.locale = Locale.parse(code, sep="-")

    def number(self, value: int | float) -> str:
        return str(format_decimal(value, locale=self.locale))

    def text(self, key: str, **params: Any) -> str:
        """The message ``key`` with its placeholders filled; ``count`` picks a plural form."""
        entry = self.messages.get(key)
        if entry is None:
            raise KeyError(f"{self.code}: no message {key!r}")
        if isinstance(entry, dict):
            count = params.get("count")
            category = self.locale.plural_form(count) if isinstance(count, int) else "other"
            entry = entry.get(category, entry["other"])
        return self._fill(entry, params)

    def ordinal(self, n: int) -> str:
        """1st, 2nd ... as the language writes them: its ordinal category picks the form."""
        entry = self.messages["ordinal"]
        form = entry if isinstance(entry, str) else entry.get(self.locale.ordinal_form(n))
        if form is None and isinstance(entry, dict):
            form = entry["other"]
        return self._fill(str(form), {"n": n})

    def join(self, items: list[str], style: ListStyle = "standard") -> str:
        """A list in the language's way: "a, b and c", "a, b y c", "a, b और c"."""
        try:
            return str(format_list(items, style=style, locale=self.locale))
        except KeyError:
            # CLDR has no "unit" lists for some languages: their standard list then.
            return str(format_list(items, style="standard", locale=self.locale))

    def _fill(self, text: str, params: dict[str, Any]) -> str:
        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in params:
                return match.group(0)
            value = params[name]
            if isinstance(value, int | float) and not isinstance(value, bool):
                return self.number(value)
            return str(value)

        return _PLACEHOLDER.sub(one, text)


@functools.lru_cache(maxsize=16)
def catalogue(code: str = DEFAULT) -> Catalogue:
    """The catalogue of a shipped language; any other code is a typed refusal."""
    if shipped(code) is None:
        raise BadRequest(f"no language is called {code[:20]!r}")
    messages = _read(catalogue_dir() / f"{code}.json").get("messages", {})
    try:
        return Catalogue(code, messages)
    except (UnknownLocaleError, ValueError) as error:  # pragma: no cover - tested per file
        raise BadRequest(f"{code}: {error}") from None


def negotiate(accept_language: str | None) -> str:
    """The shipped language an ``Accept-Language`` header asks for first, else English.

    The page's own rule (``chooseLanguage`` in js/i18n.js) on the server: by quality, then
    order, an exact tag ("pt-BR"), then its base language ("es-MX" gets "es"). The page
    then switches to the player's pick in Settings, which only the browser knows.
    """
    codes = {lang.code.lower(): lang.code for lang in shipped_languages()}
    wanted: list[tuple[float, int, str]] = []
    for order, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and tag != "*" and quality > 0:
            wanted.append((-quality, order, tag.lower()))
    for _, _, tag in sorted(wanted):
        for candidate in (tag, tag.split("-")[0]):
            if candidate in codes:
                return codes[candidate]
    return DEFAULT


def placeholders(message: Message) -> set[str]:
    """The {names} a message uses (all its plural forms together)."""
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in _PLACEHOLDER.findall(text)}
