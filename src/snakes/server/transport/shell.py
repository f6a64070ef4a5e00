"""The installable app: its service worker and the list of the app shell (the manifest,
which comes in the page's language, is served with the page: transport/static.py).

The service worker (``/sw.js``, served from the root so its scope is the whole site)
caches the files this list names, and only those: the page and ``/static/``. Game state
(``/api/``, ``/ws``) is never cached. ``version`` is a hash of every shell file, so a new
deployment is a new version, which the worker fetches in the background and uses from
the next start.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse

from snakes.engine import JUNGLE
from snakes.server import jsontext

router = APIRouter()

NO_CACHE = {"Cache-Control": "no-cache"}


def static_dir() -> Path:
    """The page's files, shipped as package data (as the app serves them)."""
    return Path(str(resources.files("snakes") / "web" / "static"))


@functools.lru_cache(maxsize=1)
def shell_files() -> dict[str, Any]:
    """Every file of the page, by URL, and a version that changes when any of them does."""
    root = static_dir()
    digest = hashlib.sha256()
    files = ["/"]
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(".") or "/." in relative or path.suffix in (".map", ".pyc"):
            continue
        files.append(f"/static/{relative}")
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
        if relative.startswith("i18n/") and path.suffix == ".json":
            # The words of the screens a first game never opens, served apart
            # (transport/static.py); made from this file, so its hash covers them.
            files.append(f"/static/{later_name(relative)}")
            # How to play and the FAQ in this language, kept with the shell so that they
            # open offline: made by the server's code too, so their own bytes are hashed.
            files.append(f"/static/{content_name(relative)}")
            digest.update(content_json(Path(relative).stem))
    return {"version": digest.hexdigest()[:16], "files": files}


CONTENT = "content/"


def content_name(catalogue: str) -> str:
    """``i18n/de.json`` -> ``content/de.json``: How to play and the FAQ in that language."""
    return CONTENT + Path(catalogue).name


@functools.cache
def content_json(code: str) -> bytes:
    """How to play and the FAQ in language ``code``, as ``GET /api/content`` has them for
    the jungle board (the board the how-to page is about)."""
    # Imported here: the languages' module finds the catalogues with this module.
    from snakes.server.content import build_content  # noqa: PLC0415

    return jsontext.dumps(build_content(JUNGLE, code)).encode()


LATER = ".later.json"


def later_name(catalogue: str) -> str:
    """``i18n/de.json`` -> ``i18n/de.later.json``: the part of a catalogue loaded later."""
    return catalogue.removesuffix(".json") + LATER


def version() -> str:
    """The page's files' version, as it appears in their URLs (``/static/v…/``)."""
    return f"v{shell_files()['version']}"


@router.get("/shell.json", include_in_schema=False)
def get_shell() -> JSONResponse:
    """The app shell the service worker keeps: its version and its files, by the URLs the
    page asks for (versioned; the offline page keeps its plain address)."""
    shell = shell_files()
    prefix = f"/static/{version()}/"
    files = [
        f.replace("/static/", prefix, 1)
        if f.startswith("/static/") and f != "/static/offline.html"
        else f
        for f in shell["files"]
    ]
    return JSONResponse(
        {"version": shell["version"], "files": files}, headers={"Cache-Control": "no-store"}
    )


@router.get("/sw.js", include_in_schema=False)
def get_service_worker() -> FileResponse:
    """The service worker, at the root: its scope is the whole game."""
    return FileResponse(
        static_dir() / "sw.js",
        media_type="text/javascript",
        headers={**NO_CACHE, "Service-Worker-Allowed": "/"},
    )
