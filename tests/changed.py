"""Run every test file changed since a commit several times over, to catch a new test
that is red by chance before it lands.

    python -m tests.changed BASE [--runs 3] [--workers 3]

BASE is a commit (CI gives ``HEAD^1``: the previous commit on main, which for a branch
landed with ``git merge --no-ff`` is main before the whole branch). A changed file is a
``tests/**/test_*.py`` that differs from BASE in the work tree, or is new and not yet
committed. The copies run side by side (``pytest-repeat`` and ``pytest-xdist``), so each
test meets the others' load as well as its own; the tests marked ``serial`` then run
their copies one at a time, as ``make serial`` does. The exit status is pytest's (0 when
no test file changed).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NO_TESTS_COLLECTED = 5


def _git(*args: str) -> list[str]:
    done = subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    return [line for line in done.splitlines() if line]


def changed_test_files(base: str) -> list[str]:
    """The test files that differ from ``base`` or are new, as paths from the root."""
    named = _git("diff", "--name-only", "--diff-filter=AMR", base, "--", "tests")
    named += _git("ls-files", "--others", "--exclude-standard", "--", "tests")
    return sorted(
        {
            path
            for path in named
            if Path(path).name.startswith("test_")
            and path.endswith(".py")
            and (ROOT / path).exists()
        }
    )


def run_pytest(files: list[str], *args: str) -> int:
    """pytest on these paths; no test collected counts as passed."""
    command = [sys.executable, "-m", "pytest", *files, "-p", "no:cacheprovider", *args]
    print("$", " ".join(command), flush=True)
    status = subprocess.run(command, cwd=ROOT, check=False).returncode
    return 0 if status == NO_TESTS_COLLECTED else status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare with, e.g. HEAD^1 or main")
    parser.add_argument("--runs", type=int, default=3, help="copies of each test (3)")
    parser.add_argument("--workers", type=int, default=3, help="test processes (3)")
    options = parser.parse_args(argv)
    files = changed_test_files(options.base)
    if not files:
        print(f"No test file changed since {options.base}.")
        return 0
    print(f"{len(files)} test files changed since {options.base}, each run {options.runs} times:")
    for path in files:
        print(f"  {path}")
    count = f"--count={options.runs}"
    side_by_side = run_pytest(
        files, count, "-n", str(options.workers), "--dist", "load", "-m", "not serial"
    )
    alone = run_pytest(files, count, "-m", "serial")
    return side_by_side or alone


if __name__ == "__main__":
    sys.exit(main())
