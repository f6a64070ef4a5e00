"""Every module of ``src/snakes`` belongs to one layer, and imports nothing from a layer
above its own (docs/ARCHITECTURE.md, "The layers", lists them; this file holds the list
and checks the page says the same).

What counts as an import: every ``import`` and ``from … import`` anywhere in a module
(inside functions and methods too: a late import is still a dependency), relative ones
resolved, and ``importlib.import_module`` called with a literal name. Imports under
``if TYPE_CHECKING:`` count like any other: a type named from a higher layer ties the
lower layer to it all the same. A lower layer that needs to speak of something above it
says what it needs as a ``Protocol`` of its own (``backends/interfaces.py``:
``Connection``, ``Viewers``).

Besides the source, the modules themselves: importing every module of a layer, in a
fresh interpreter, loads no module of a higher layer, and importing the rooms loads
neither numpy nor pydantic nor any web framework.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PACKAGE = SRC / "snakes"

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("engine", ("__init__.py", "engine/")),
    ("library", ("boards/", "analysis/", "fair.py", "simulate.py", "fastsim.py", "words.py")),
    (
        "server base",
        (
            "server/__init__.py",
            "server/settings.py",
            "server/clock.py",
            "server/codes.py",
            "server/jsontext.py",
        ),
    ),
    ("rooms", ("server/rooms/",)),
    ("backends", ("server/backends/",)),
    ("runtime", ("server/runtime/",)),
    (
        "transport",
        (
            "server/transport/",
            "server/boards.py",
            "server/content.py",
            "server/languages.py",
            "server/stories.py",
            "server/compute_worker.py",
            "server/invite_qr.py",
            "server/metrics.py",
        ),
    ),
    ("app", ("server/app.py", "testing/")),
    ("cli", ("cli/", "__main__.py")),
]
"""The layers from the bottom up, each by its files (a folder: every file under it),
paths under ``src/snakes/``. The most specific entry that covers a file places it."""

HEAVY = (
    "numpy",
    "pydantic",
    "pydantic_core",
    "fastapi",
    "starlette",
    "uvicorn",
    "websockets",
    "redis",
    "hiredis",
    "prometheus_client",
    "babel",
    "segno",
    "matplotlib",
)
"""What importing the rooms must not load: the rooms are pure handlers over values."""


def module_files() -> dict[str, Path]:
    """Every module of the package, by its dotted name."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    assert len(modules) > 90, "the walk found too few modules: a wrong path?"
    return modules


def layer_of(path: Path) -> int:
    """The index in LAYERS of the layer this file belongs to."""
    relative = path.relative_to(PACKAGE).as_posix()
    covering = [
        (len(entry), index)
        for index, (_, entries) in enumerate(LAYERS)
        for entry in entries
        if relative == entry or (entry.endswith("/") and relative.startswith(entry))
    ]
    if not covering:
        raise AssertionError(f"{relative} belongs to no layer: add it to LAYERS and the doc")
    return max(covering)[1]


@dataclass(frozen=True)
class Import:
    line: int
    target: str
    """The module imported (``from a.b import c`` is ``a.b.c`` when that is a module)."""


def imports_of(name: str, path: Path, known: set[str]) -> list[Import]:
    """Every import of a ``snakes`` module in a file, wherever it stands in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [Import(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                found.append(Import(node.lineno, submodule if submodule in known else module))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append(Import(node.lineno, node.args[0].value))
    ours = [i for i in found if i.target == "snakes" or i.target.startswith("snakes.")]
    return list(dict.fromkeys(ours))  # ``from a import b, c``: a once, if b and c are not modules


def owner_module(target: str, known: set[str]) -> str:
    """The module an import names, or the nearest enclosing one that exists."""
    while target not in known:
        target = target.rpartition(".")[0]
        assert target, "an import of a snakes module that does not exist"
    return target


def upward_imports() -> list[str]:
    modules = module_files()
    known = set(modules)
    problems = []
    for name, path in modules.items():
        own = layer_of(path)
        for found in imports_of(name, path, known):
            target = owner_module(found.target, known)
            theirs = layer_of(modules[target])
            if theirs > own:
                problems.append(
                    f"{path.relative_to(ROOT)}:{found.line} ({LAYERS[own][0]}) imports "
                    f"{target} ({LAYERS[theirs][0]})"
                )
    return problems


def test_every_module_imports_only_from_its_own_layer_or_below() -> None:
    assert upward_imports() == []


def test_every_module_has_a_layer() -> None:
    for path in module_files().values():
        layer_of(path)  # raises for a file no entry covers


def test_the_walk_sees_late_type_checking_and_relative_imports(tmp_path: Path) -> None:
    """The reader is not blind: a late import, one for the type checker only, a relative
    one and a dynamic one are all found and resolved."""
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from snakes.server.runtime.hub import Hub\n"
        "def late():\n"
        "    from snakes.server import jsontext\n"
        "    from . import errors\n"
        "    import importlib\n"
        "    importlib.import_module('snakes.server.transport.api')\n",
        encoding="utf-8",
    )
    known = set(module_files())
    found = imports_of("snakes.server.rooms.probe", source, known)
    assert [(i.line, i.target) for i in found] == [
        (3, "snakes.server.runtime.hub"),
        (5, "snakes.server.jsontext"),
        (6, "snakes.server.rooms.errors"),
        (8, "snakes.server.transport.api"),
    ]


def test_the_layers_are_those_the_architecture_page_lists() -> None:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("\n## The layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith("| layer")
    ]
    documented = [(layer, tuple(re.findall(r"`([^`]+)`", files))) for layer, files, *_ in rows]
    assert documented == LAYERS


# ---- what importing a layer loads --------------------------------------------------------

PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(sys.modules)))
"""


def loaded_by(names: list[str]) -> list[str]:
    """Every module loaded by importing these, in a fresh interpreter."""
    completed = subprocess.run(
        [sys.executable, "-c", PROBE, *names],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=ROOT,
    )
    assert completed.returncode == 0, completed.stderr
    loaded: list[str] = json.loads(completed.stdout)
    return loaded


def layer_modules(index: int) -> list[str]:
    return [n for n, p in module_files().items() if layer_of(p) == index and n != "snakes.__main__"]


@pytest.mark.parametrize("index", range(len(LAYERS) - 1), ids=[name for name, _ in LAYERS[:-1]])
def test_importing_a_layer_loads_nothing_of_the_layers_above(index: int) -> None:
    modules = module_files()
    loaded = [m for m in loaded_by(layer_modules(index)) if m in modules]
    above = [m for m in loaded if layer_of(modules[m]) > index]
    assert above == []


def test_importing_the_rooms_loads_no_numpy_pydantic_or_web_framework() -> None:
    rooms = LAYERS.index(("rooms", ("server/rooms/",)))
    names = layer_modules(rooms)
    assert "snakes.server.rooms.intents" in names and len(names) > 10
    loaded = loaded_by(names)
    assert [m for m in loaded if m.split(".")[0] in HEAVY] == []
    # The check itself sees a heavy module when one is loaded.
    assert "numpy" in loaded_by(["snakes.server.boards"])
