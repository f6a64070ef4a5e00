"""The page asks for every module its first screens import at once (``modulepreload``),
rather than one import level after another: a cold Home waited for five levels of
imports (`python -m bench.cold_home`). The list in index.html must be the static import
graph of its two scripts, whole and nothing more, or the page is slow again or fetches
modules no first screen needs."""

from __future__ import annotations

import os
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "snakes" / "web" / "static"
JS = STATIC / "js"
STATIC_IMPORT = re.compile(
    r"""^\s*import\s+(?:[^"';]*?\s+from\s+)?["'](\.{1,2}/[^"']+)["']""", re.MULTILINE
)


def static_imports(entry: str) -> list[str]:
    """Every module ``entry`` imports statically, directly or not (dynamic imports are
    left out: they load when wanted)."""
    seen: list[str] = []

    def walk(name: str) -> None:
        if name in seen:
            return
        seen.append(name)
        source = (JS / name).read_text(encoding="utf-8")
        for target in STATIC_IMPORT.findall(source):
            walk(os.path.normpath((Path(name).parent / target).as_posix()))

    walk(entry)
    return seen


def test_the_page_preloads_exactly_what_its_scripts_import() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script type="module" src="/static/js/([^"]+)"', page)
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/js/([^"]+)"', page)
    assert scripts == ["main.js", "pwa.js"]
    wanted = {m for s in scripts for m in static_imports(s)} - set(scripts)
    assert len(preloaded) == len(set(preloaded)), "a module preloaded twice"
    missing, extra = sorted(wanted - set(preloaded)), sorted(set(preloaded) - wanted)
    assert not missing and not extra, f"missing: {missing}; not imported: {extra}"


def test_the_import_graph_reader_sees_static_imports_only() -> None:
    """The reader follows ``import … from`` and bare ``import "…"``, not ``import(…)``."""
    graph = static_imports("screens/game.js")
    assert "tokens.js" in graph and "anim.js" in graph
    assert "countdown.js" not in graph and "moments.js" not in graph
