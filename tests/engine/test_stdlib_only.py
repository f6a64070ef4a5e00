"""The rules engine imports nothing outside the Python standard library."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
ENGINE = SRC / "snakes" / "engine"
STDLIB = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names)

# Run in a fresh interpreter: -I ignores PYTHON* variables and the user site, -S skips
# site-packages and its .pth hooks, so only the standard library and src/ are importable
# and every module in sys.modules was brought in by the engine (or by Python itself).
PROBE = """
import json, pkgutil, importlib, sys
sys.path.insert(0, sys.argv[1])
import snakes.engine
names = [m.name for m in pkgutil.iter_modules(snakes.engine.__path__, "snakes.engine.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"submodules": names, "modules": sorted(sys.modules)}))
"""


def engine_files() -> list[Path]:
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) >= 10, files  # guard against a wrong path making the tests vacuous
    return files


def is_allowed(module: str) -> bool:
    top = module.split(".", maxsplit=1)[0]
    return (
        top in STDLIB
        or module == "__main__"
        or module in ("snakes", "snakes.engine")
        or module.startswith("snakes.engine.")
    )


def test_importing_every_engine_module_loads_only_the_standard_library() -> None:
    completed = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PROBE, str(SRC)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    found = json.loads(completed.stdout)
    expected = {f"snakes.engine.{path.stem}" for path in engine_files()} - {
        "snakes.engine.__init__"
    }
    assert set(found["submodules"]) == expected
    loaded = found["modules"]
    assert set(expected) <= set(loaded)
    assert [name for name in loaded if not is_allowed(name)] == []
    # The snakes package itself pulls in only the engine's version, nothing of the server.
    assert [
        m for m in loaded if m.startswith("snakes.") and not m.startswith("snakes.engine")
    ] == []


def imported_modules(path: Path) -> list[str]:
    """Every module an engine file imports, resolved to an absolute name."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from within snakes.engine
                package = ["snakes", "engine"][: 3 - node.level]
                names.append(".".join([*package, node.module or ""]).rstrip("."))
            else:
                assert node.module is not None
                names.append(node.module)
    return names


def test_every_import_statement_in_the_engine_is_standard_library_or_engine() -> None:
    imports = {path.name: imported_modules(path) for path in engine_files()}
    outside = {
        name: [module for module in modules if not is_allowed(module) or module == "snakes"]
        for name, modules in imports.items()
    }
    assert {name: modules for name, modules in outside.items() if modules} == {}
    assert "snakes.engine.board" in imports["game.py"]  # the walk really sees imports


def test_the_engine_does_not_import_dynamically() -> None:
    # A dynamic import would slip past the static check above.
    for path in engine_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                assert node.id not in ("__import__", "importlib"), (path.name, node.lineno)
            if isinstance(node, ast.Attribute):
                assert node.attr != "import_module", (path.name, node.lineno)
