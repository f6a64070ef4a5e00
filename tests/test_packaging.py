"""`pip install .` alone gives a working game: the page's files travel as package data."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "snakes"


def test_the_wheel_carries_every_page_file_and_board(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("*.whl")
    inside = set(zipfile.ZipFile(wheel).namelist())
    wanted = [
        path.relative_to(PACKAGE.parent).as_posix()
        for folder in ("web/static", "boards")
        for path in (PACKAGE / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]
    assert "snakes/web/static/index.html" in wanted
    assert sorted(set(wanted) - inside) == []
