"""The page's files, compressed once and cached by the browser until the next version.

The page (``/`` and ``/r/CODE``) names every file under ``/static/v<version>/``, where
the version is a hash of all of them (the app shell's version). Those URLs never change
content, so browsers keep them a year (``immutable``) and a repeat visit fetches only the
page itself. Text files go out compressed (brotli, or gzip for a client without it),
compressed once per process. The plain
``/static/<path>`` URLs still work (no-cache), for the offline page and old links.

The page and the manifest come in the language the browser asks for (``Accept-Language``,
docs/LANGUAGES.md): the page's own words (``data-i18n``), its title and description, and
its ``<noscript>`` note, which no script can translate, are written in before it goes out.
The script then switches to a language picked in Settings, manifest link included.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import html
import json
import mimetypes
import re
from dataclasses import dataclass
from typing import Annotated

import brotli  # type: ignore[import-untyped]
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from snakes.server.languages import DEFAULT, catalogue, negotiate, shipped
from snakes.server.transport.shell import (
    CONTENT,
    LATER,
    content_json,
    shell_files,
    static_dir,
    version,
)

router = APIRouter(include_in_schema=False)

TEXT_SUFFIXES = {".js", ".css", ".svg", ".html", ".json", ".webmanifest", ".txt", ".mjs"}
YEAR = "max-age=31536000, immutable"
NO_CACHE = "no-cache"
# Catalogue keys only the server uses (it builds How to play and the FAQ).
SERVER_ONLY = ("howto.", "faq.")
# Catalogue keys of what a first game never shows (Verify, the replay and its chart,
# Settings, the reactions, the live odds, the online screens and table, the result):
# the page fetches them apart, with the first such screen or part (i18n/<code>.later.json;
# js/i18n.js, loadLater), so the first load does not carry them. The words the game
# screen itself writes (its heading in an online room, the winner's moment) stay in the
# first part.
LATER_KEYS = (
    "verify.", "replay.", "chart.", "settings.", "reaction.", "odds.", "online.",
    "countdown.", "result.",
)  # fmt: skip
FIRST_KEYS = frozenset({"online.roomBoard", "result.wins"})
MANIFEST = "/manifest.webmanifest"
# The page's own words: <tag data-i18n="key">text</tag>, data-i18n-attr="attr:key;…".
_TEXT = re.compile(r'(<(\w+)\b[^>]*\sdata-i18n="([\w.]+)"[^>]*>)([^<]*)(</\2>)')
_ATTRS = re.compile(r'<[^>]*\sdata-i18n-attr="([^"]+)"[^>]*>')
_TITLE = re.compile(r"<title>[^<]*</title>")

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("application/manifest+json", ".webmanifest")


@dataclass(frozen=True)
class _File:
    raw: bytes
    gzipped: bytes | None
    brotli: bytes | None
    media_type: str
    etag: str


@functools.cache
def _shipped() -> frozenset[str]:
    """The page's files, by their path under the folder: the only names a URL reaches.

    A path from a URL is looked up here, never handed to the file system: a NUL byte, a
    segment longer than the file system allows or a dot segment is a name like any
    other that is not shipped, so a 404 (the file system raised on the first two, a 500).
    """
    return frozenset(
        name.removeprefix("/static/")
        for name in shell_files()["files"]
        if name.startswith("/static/")
    )


def _find(relative: str) -> _File | None:
    # Checked before the cache: only shipped files are cached, so a client that asks for
    # many names can neither grow the cache nor push the compressed files out of it.
    return _load(relative) if relative in _shipped() else None


@functools.cache
def _load(relative: str) -> _File:
    later = relative.startswith("i18n/") and relative.endswith(LATER)
    path = static_dir() / (relative.removesuffix(LATER) + ".json" if later else relative)
    # How to play and the FAQ are made by the server, and kept with the shell.
    raw = content_json(path.stem) if relative.startswith(CONTENT) else path.read_bytes()
    if relative.startswith("i18n/") and path.suffix == ".json":
        raw = page_catalogue(raw, later=later)
    if path.suffix in TEXT_SUFFIXES:
        # The page, its styles and scripts name every file by its versioned URL.
        raw = raw.replace(b'"/static/', f'"/static/{version()}/'.encode())
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if media_type.startswith("text/") or media_type.endswith(("json", "javascript")):
        media_type += "; charset=utf-8"
    return _pack(raw, media_type, compress=path.suffix in TEXT_SUFFIXES)


def _pack(raw: bytes, media_type: str, *, compress: bool = True) -> _File:
    gzipped = squeezed = None
    if compress and len(raw) > 256:
        gzipped = gzip.compress(raw, compresslevel=9, mtime=0)
        squeezed = brotli.compress(raw, quality=11)
    etag = '"' + hashlib.sha256(raw).hexdigest()[:20] + '"'
    return _File(raw, gzipped, squeezed, media_type, etag)


@functools.lru_cache(maxsize=32)
def _page(code: str) -> _File | None:
    """index.html in one language: what js/i18n.js's translateStatic would write in,
    written in already (the <noscript> note is only ever read without the script), with
    lang and dir on <html> and the manifest link asking for the same language."""
    found = _find("index.html")
    if found is None:
        return None
    words = catalogue(code)
    direction = _direction(code)

    def text(match: re.Match[str]) -> str:
        opening, _, key, _, closing = match.groups()
        return opening + html.escape(words.text(key), quote=False) + closing

    def attributes(match: re.Match[str]) -> str:
        tag = match.group(0)
        for pair in match.group(1).split(";"):
            attr, _, key = (part.strip() for part in pair.partition(":"))
            value = html.escape(words.text(key), quote=True)
            tag = _set_attribute(tag, attr, value)
        return tag

    page = found.raw.decode()
    page = page.replace('<html lang="en">', f'<html lang="{code}" dir="{direction}">', 1)
    page = _TITLE.sub(lambda _: f"<title>{html.escape(words.text('app.name'))}</title>", page)
    page = _ATTRS.sub(attributes, _TEXT.sub(text, page))
    if code != DEFAULT:
        page = page.replace(f'href="{MANIFEST}"', f'href="{MANIFEST}?lang={code}"', 1)
    return _pack(page.encode(), found.media_type)


def _direction(code: str) -> str:
    language = shipped(code)
    return language.dir if language is not None else "ltr"


def _set_attribute(tag: str, attr: str, value: str) -> str:
    found = re.search(rf'\s{re.escape(attr)}="([^"]*)"', tag)
    return tag if found is None else tag[: found.start(1)] + value + tag[found.end(1) :]


@functools.lru_cache(maxsize=32)
def manifest(code: str = DEFAULT) -> bytes:
    """The web app manifest in one language: name, short name and description from the
    catalogue, with the language and its direction (what a home screen shows)."""
    data = json.loads((static_dir() / "manifest.webmanifest").read_bytes())
    words = catalogue(code)
    data["name"] = words.text("app.name")
    data["short_name"] = words.text("app.shortName")
    data["description"] = words.text("page.description")
    data["lang"] = code
    data["dir"] = _direction(code)
    return json.dumps(data, ensure_ascii=False, indent=1).encode()


def page_catalogue(raw: bytes, *, later: bool = False) -> bytes:
    """A language catalogue as the page needs it: without How to play and the FAQ (the
    server writes those out itself, /api/content), and without whitespace. The first part
    leaves out the ``LATER_KEYS``; ``later``: those keys alone (with the catalogue's meta)."""
    data = json.loads(raw)
    messages = data.get("messages", {})
    data["messages"] = {
        key: value
        for key, value in messages.items()
        if not key.startswith(SERVER_ONLY) and _later(key) == later
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _later(key: str) -> bool:
    return key.startswith(LATER_KEYS) and key not in FIRST_KEYS


def file_response(request: Request, relative: str, cache: str) -> Response:
    return _send(request, _find(relative), cache)


def _send(
    request: Request, found: _File | None, cache: str, headers: dict[str, str] | None = None
) -> Response:
    if found is None:
        return Response(status_code=404)
    headers = {"Cache-Control": cache, "Vary": "Accept-Encoding", **(headers or {})}
    # A versioned file never changes under its name and is kept a year without being
    # asked about again, so its validator would be 30 bytes of every first-load answer
    # for nothing (the first load's weight is counted, docs/BENCHMARKS.md).
    if cache != YEAR:
        headers["ETag"] = found.etag
        if request.headers.get("if-none-match") == found.etag:
            return Response(status_code=304, headers=headers)
    body = found.raw
    accepted = request.headers.get("accept-encoding", "")
    if found.brotli is not None and "br" in accepted.replace(" ", "").split(","):
        body = found.brotli
        headers["Content-Encoding"] = "br"
    elif found.gzipped is not None and "gzip" in accepted:
        body = found.gzipped
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type=found.media_type, headers=headers)


@router.get("/")
@router.get("/r/{code}")
def page(request: Request, code: str | None = None) -> Response:
    """The one page of the game; the router in the browser shows the right screen. It
    comes in the language the browser asks for first (the page may then switch)."""
    code = negotiate(request.headers.get("accept-language"))
    headers = {"Vary": "Accept-Encoding, Accept-Language", "Content-Language": code}
    return _send(request, _page(code), NO_CACHE, headers)


@router.get(MANIFEST)
def get_manifest(lang: Annotated[str | None, Query(max_length=20)] = None) -> Response:
    """The web app manifest, in the page's language (``?lang=``, which js/i18n.js sets on
    the page's manifest link); English without one, or for a language that does not ship."""
    code = lang if lang is not None and shipped(lang) is not None else DEFAULT
    return Response(
        manifest(code),
        media_type="application/manifest+json",
        headers={"Cache-Control": NO_CACHE, "Content-Language": code},
    )


@router.get("/static/{path:path}")
def static(request: Request, path: str) -> Response:
    first, _, rest = path.partition("/")
    if first == version():
        return file_response(request, rest, YEAR)
    if first.startswith("v") and len(first) == len(version()) and rest:
        return file_response(request, rest, NO_CACHE)  # a page of an older deployment
    return file_response(request, path, NO_CACHE)


__all__ = ["router"]
