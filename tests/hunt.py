"""Hunt for tests that are red by chance: every test that starts processes, run many
times over while another process keeps one core busy, and a table of what went red.

    python -m tests.hunt [--runs 10] [--workers 3] [-k EXPR] [PATH ...]

The copies of each test run side by side (``pytest-repeat`` and ``pytest-xdist``), then
the ``serial`` tests' copies one at a time; each phase writes a JUnit file, and the table
(test, runs, red, and the first line of each red) is printed from them. A red found here
is a bug to fix at its cause: a wait for time where the condition could be waited for.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.changed import run_pytest

_COPY = re.compile(r"\[(?:(.*)-)?\d+-\d+\]$")


@contextmanager
def busy_core() -> Iterator[None]:
    """Another process that keeps one core busy for as long as the hunt runs."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def _test_name(case: ET.Element) -> str:
    """The test's id without the copy number pytest-repeat adds (``[2-10]``)."""
    name = _COPY.sub(lambda m: f"[{m.group(1)}]" if m.group(1) else "", case.get("name", ""))
    module = case.get("classname", "").replace(".", "/")
    return f"{module}.py::{name}"


def tally(reports: list[Path]) -> tuple[Counter[str], dict[str, list[str]]]:
    """Runs of each test, and the first line of each red, from JUnit files."""
    runs: Counter[str] = Counter()
    reds: dict[str, list[str]] = {}
    for report in reports:
        if not report.exists():
            continue
        for case in ET.parse(report).iter("testcase"):
            if case.find("skipped") is not None:
                continue
            name = _test_name(case)
            runs[name] += 1
            for failure in (*case.findall("failure"), *case.findall("error")):
                first = (failure.get("message") or "").splitlines()[:1]
                reds.setdefault(name, []).append(first[0][:160] if first else "")
    return runs, reds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=["tests"], help="where to look (tests)")
    parser.add_argument("--runs", type=int, default=10, help="copies of each test (10)")
    parser.add_argument("--workers", type=int, default=3, help="test processes (3)")
    parser.add_argument("-k", dest="keyword", help="only the tests pytest -k selects")
    options = parser.parse_args(argv)
    chosen = ["-k", options.keyword] if options.keyword else []
    folder = Path(tempfile.mkdtemp(prefix="snakes-hunt-"))
    side, alone = folder / "side-by-side.xml", folder / "alone.xml"
    common = [f"--count={options.runs}", "-q", *chosen]
    parallel = ["-n", str(options.workers), "--dist", "load"]
    with busy_core():
        run_pytest(options.paths, *common, *parallel, "-m", "processes and not serial",
                   f"--junitxml={side}")  # fmt: skip
        run_pytest(options.paths, *common, "-m", "processes and serial", f"--junitxml={alone}")
    runs, reds = tally([side, alone])
    print(f"\n{len(runs)} tests, {sum(runs.values())} runs; JUnit files in {folder}")
    print("| test | runs | red | first line of a red |")
    print("| --- | ---: | ---: | --- |")
    for name in sorted(reds, key=lambda n: (-len(reds[n]), n)):
        print(f"| `{name}` | {runs[name]} | {len(reds[name])} | {reds[name][0]} |")
    if not reds:
        print("| (none) | | 0 | |")
    return 1 if reds else 0


if __name__ == "__main__":
    sys.exit(main())
