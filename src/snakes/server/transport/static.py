"""The page's files, compressed once and cached by the browser until the next version.

The page (``/`` and ``/r/CODE``) names every file under ``/static/v<version>/``, where
the version is a hash of all of them (the app shell's version). Those URLs never change
content, so browsers keep them a year (``immutable``) and a repeat visit fetches only the
page itself. Text files go out compressed (brotli, or gzip for a client without it),
compressed once per process. The plain
``/static/<path>`` URLs still work (no-cache), for the offline page and old links.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import mimetypes
from dataclasses import dataclass

import brotli  # type: ignore[import-untyped]
from fastapi import APIRouter, Request
from fastapi.responses import Response

from snakes.server.transport.shell import static_dir, version

router = APIRouter(include_in_schema=False)

TEXT_SUFFIXES = {".js", ".css", ".svg", ".html", ".json", ".webmanifest", ".txt", ".mjs"}
YEAR = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
# Catalogue keys only the server uses (it builds How to play and the FAQ).
SERVER_ONLY = ("howto.", "faq.")

mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("application/manifest+json", ".webmanifest")


@dataclass(frozen=True)
class _File:
    raw: bytes
    gzipped: bytes | None
    brotli: bytes | None
    media_type: str
    etag: str


@functools.lru_cache(maxsize=512)
def _load(relative: str) -> _File | None:
    root = static_dir().resolve()
    path = (root / relative).resolve()
    if not path.is_file() or root not in path.parents:
        return None
    raw = path.read_bytes()
    if relative.startswith("i18n/") and path.suffix == ".json":
        raw = page_catalogue(raw)
    if path.suffix in TEXT_SUFFIXES:
        # The page, its styles and scripts name every file by its versioned URL.
        raw = raw.replace(b'"/static/', f'"/static/{version()}/'.encode())
    gzipped = squeezed = None
    if path.suffix in TEXT_SUFFIXES and len(raw) > 256:
        gzipped = gzip.compress(raw, compresslevel=9, mtime=0)
        squeezed = brotli.compress(raw, quality=11)
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if media_type.startswith("text/") or media_type.endswith(("json", "javascript")):
        media_type += "; charset=utf-8"
    etag = '"' + hashlib.sha256(raw).hexdigest()[:20] + '"'
    return _File(raw, gzipped, squeezed, media_type, etag)


def page_catalogue(raw: bytes) -> bytes:
    """A language catalogue as the page needs it: without How to play and the FAQ (the
    server writes those out itself, /api/content), and without whitespace."""
    data = json.loads(raw)
    messages = data.get("messages", {})
    data["messages"] = {
        key: value for key, value in messages.items() if not key.startswith(SERVER_ONLY)
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def file_response(request: Request, relative: str, cache: str) -> Response:
    found = _load(relative)
    if found is None:
        return Response(status_code=404)
    headers = {"Cache-Control": cache, "ETag": found.etag, "Vary": "Accept-Encoding"}
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
    """The one page of the game; the router in the browser shows the right screen."""
    return file_response(request, "index.html", NO_CACHE)


@router.get("/static/{path:path}")
def static(request: Request, path: str) -> Response:
    first, _, rest = path.partition("/")
    if first == version():
        return file_response(request, rest, YEAR)
    if first.startswith("v") and len(first) == len(version()) and rest:
        return file_response(request, rest, NO_CACHE)  # a page of an older deployment
    return file_response(request, path, NO_CACHE)


__all__ = ["router"]
