"""Run the shell blocks of the docs, found by Sybil, and check what they print.

Two kinds of fenced block are examples that run:

- ``sh``: one command per line (``\\`` continues a line, ``#`` starts a comment). Each
  must exit with status 0, print no traceback, and print output of the shape its
  subcommand documents (:func:`check_shape`).
- ``console``: ``$ command`` lines, each followed by the output it prints. The output is
  compared with doctest's ``ELLIPSIS`` and ``NORMALIZE_WHITESPACE`` (``...`` stands for
  anything). A last output line ``[N]`` is the expected exit status, as in cram; without
  it the status must be 0. A command shown without output is checked as in ``sh``.

Any other block (a plain fence, ``json``, ``nginx``, …) is text, not run. A ``sh`` or
``console`` block that is only an illustration (it starts a server, runs for minutes,
needs another machine) is preceded by Sybil's ``<!-- skip: next "why" -->``.

Every command runs with ``bash`` in the document's own temporary folder, with ``HOME``,
the XDG folders and ``SNAKES_DATA`` inside it, so nothing touches the user's data. A
``--games N`` larger than :data:`GAMES_CAP` runs with the cap instead: the shape of the
output is the same, and the whole docs test stays fast.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sybil import Example

ROOT = Path(__file__).resolve().parents[2]
GAMES_CAP = {"engine": 50, "fast": 50_000}
"""The most games a docs command plays through the engine, and with ``--fast``."""
TIMEOUT = 30.0
_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass
class Ran:
    command: str
    bounded: str
    status: int
    stdout: str
    stderr: str
    workdir: Path
    problems: list[str] = field(default_factory=list)


def commands(source: str) -> list[str]:
    """The commands of a ``sh`` block: continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", source)
    return [
        line.strip()
        for line in joined.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def bound(command: str) -> str:
    """The command with ``--games N`` capped (see :data:`GAMES_CAP`)."""
    cap = GAMES_CAP["fast" if "--fast" in command else "engine"]
    return re.sub(r"--games(\s+|=)(\d+)", lambda m: f"--games{m[1]}{min(int(m[2]), cap)}", command)


def environment(workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SNAKES_")}
    home = workdir / "home"
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / ".local/share"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        SNAKES_DATA=str(workdir / "data"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        COLUMNS="100",
        MPLBACKEND="Agg",
    )
    return env


SERVES = re.compile(r"(^|[\s;&|])(snakes\s+serve|-m\s+snakes\s+serve|make\s+(play|serve))\b")
"""Commands that start a server: never run by the docs test, whatever the markers say."""


def run(command: str, workdir: Path) -> Ran:
    bounded = bound(command)
    if SERVES.search(bounded):
        ran = Ran(command, bounded, -1, "", "", workdir)
        ran.problems.append('starts a server: mark the block <!-- skip: next "why" -->')
        return ran
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", bounded],
        cwd=workdir,
        env=environment(workdir),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    ran = Ran(command, bounded, done.returncode, done.stdout, done.stderr, workdir)
    if "Traceback (most recent call last)" in done.stdout + done.stderr:
        ran.problems.append("printed a Python traceback")
    return ran


# ---- the shape of each subcommand's output ---------------------------------------------


def _json(ran: Ran, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        ran.problems.append(f"--json output is not one JSON value: {text[:200]!r}")
        return None


def _keys(ran: Ran, data: Any, required: set[str], allowed: set[str]) -> None:
    if not isinstance(data, dict):
        ran.problems.append(f"--json gave {type(data).__name__}, not an object")
        return
    if missing := required - set(data):
        ran.problems.append(f"--json lacks the documented fields {sorted(missing)}")
    if extra := set(data) - allowed:
        ran.problems.append(f"--json has fields the docs do not list: {sorted(extra)}")


def _replay(ran: Ran, args: list[str]) -> None:
    lines = ran.stdout.strip().splitlines()
    if "--json" in args:
        fields = json_fields("snakes replay")
        _keys(ran, _json(ran, lines[-1] if lines else ""), fields, fields)
        lines = lines[:-1]
    if not lines or not re.fullmatch(r"Next to roll: Player \d\.|The game is over\.", lines[-1]):
        ran.problems.append("replay does not end with 'Next to roll: …' or 'The game is over.'")


def _simulate(ran: Ran, args: list[str]) -> None:
    if "--json" not in args:
        for label in ("Mean turns to reach 100", "Median turns to reach 100", "Games per second"):
            if label not in ran.stdout:
                ran.problems.append(f"simulate's table has no {label!r} row")
        return
    data = _json(ran, ran.stdout)
    optional = {"win_share", "mean_place", "simulator"}
    fields = json_fields("snakes simulate")
    _keys(ran, data, fields - optional, fields)
    if isinstance(data, dict) and data.get("games", 0) <= 0:
        ran.problems.append("simulate --json played no games")
    if isinstance(data, dict) and not data.get("games_per_second", 0) > 0:
        ran.problems.append("simulate --json reports no speed")


def _board(ran: Ran, args: list[str]) -> None:
    if "--json" in args:
        _keys(
            ran,
            _json(ran, ran.stdout),
            {"name", "ladders", "snakes"},
            {"name", "ladders", "snakes"},
        )
    elif not ran.stdout.startswith("The jungle board: 9 ladders, 10 snakes."):
        ran.problems.append("board does not start with 'The jungle board: 9 ladders, 10 snakes.'")


def _boards(ran: Ran, args: list[str]) -> None:
    from snakes.boards import shipped_boards

    for shipped in shipped_boards():
        if shipped.name not in ran.stdout:
            ran.problems.append(f"boards does not list {shipped.name!r}")


def _analyze(ran: Ran, args: list[str]) -> None:
    if "--json" in args:
        data = _json(ran, ran.stdout)
        if not isinstance(data, dict) or not {"expected_turns", "median_turns"} <= set(data):
            ran.problems.append("analyze --json lacks expected_turns or median_turns")
    elif "Mean" not in ran.stdout or "Median" not in ran.stdout:
        ran.problems.append("analyze prints no mean or median")
    if "--plot" in args:
        plot = ran.workdir / args[args.index("--plot") + 1]
        if not plot.is_file() or not plot.read_bytes().startswith(b"\x89PNG"):
            ran.problems.append(f"analyze --plot wrote no PNG at {plot.name}")


def _verify(ran: Ran, args: list[str]) -> None:
    if "--json" in args:
        data = _json(ran, ran.stdout)
        if not isinstance(data, dict) or data.get("ok") is not True:
            ran.problems.append("verify --json does not say ok")
    elif not ran.stdout.startswith("OK:"):
        ran.problems.append("verify does not start with 'OK:'")


SHAPES: dict[str, Callable[[Ran, list[str]], None]] = {
    "replay": _replay,
    "simulate": _simulate,
    "board": _board,
    "boards": _boards,
    "analyze": _analyze,
    "verify": _verify,
}


def check_shape(ran: Ran) -> None:
    """Add to ``ran.problems`` what is wrong with the output of a command that exited 0."""
    first = ran.bounded.split("|")[0]
    args = shlex.split(first)
    if args[:3] == [sys.executable, "-m", "snakes"] or args[:3] == ["python", "-m", "snakes"]:
        args = ["snakes", *args[3:]]
    if not args or args[0] != "snakes" or "|" in ran.bounded:
        return
    if "--help" in args or "-h" in args:
        if not ran.stdout.startswith("Usage: snakes"):
            ran.problems.append("--help does not start with 'Usage: snakes'")
        return
    if len(args) > 1 and args[1] in SHAPES:
        SHAPES[args[1]](ran, args)
    elif not ran.stdout.strip():
        ran.problems.append("printed nothing")


def json_fields(heading: str) -> set[str]:
    """The field names of the ``--json`` table that follows ``## `heading``` in CLI.md."""
    text = (ROOT / "docs" / "CLI.md").read_text()
    section = text.split(f"## `{heading}`", 1)[1].split("\n## ", 1)[0]
    table = section.split("**`--json`**", 1)[1]
    return set(re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE))


# ---- Sybil evaluators ------------------------------------------------------------------


def _report(ran: Ran, expected_status: int = 0) -> list[str]:
    problems = list(ran.problems)
    if ran.status != expected_status:
        problems.insert(0, f"exit status {ran.status}, expected {expected_status}")
    if not problems:
        return []
    shown = ran.command if ran.command == ran.bounded else f"{ran.command}  (ran: {ran.bounded})"
    return [
        f"$ {shown}",
        *(f"  - {p}" for p in problems),
        f"  stdout: {ran.stdout[-800:]!r}",
        f"  stderr: {ran.stderr[-800:]!r}",
    ]


def workdir_of(example: Example) -> Path:
    workdir = example.namespace.get("workdir")
    if not isinstance(workdir, Path):
        raise RuntimeError("the docs test puts a temporary folder in the namespace")
    return workdir


def evaluate_sh(example: Example) -> str | None:
    """Run every command of a ``sh`` block; a message naming each failure, or None."""
    failures: list[str] = []
    for command in commands(str(example.parsed)):
        ran = run(command, workdir_of(example))
        if ran.status == 0:
            check_shape(ran)
        failures += _report(ran)
    return "\n".join(failures) or None


def evaluate_console(example: Example) -> str | None:
    """Run each ``$ command`` of a ``console`` block and compare what it prints."""
    failures: list[str] = []
    for command, expected in _console_steps(str(example.parsed)):
        status = 0
        if expected and re.fullmatch(r"\[\d+\]", expected[-1].strip()):
            status = int(expected.pop().strip()[1:-1])
        ran = run(command, workdir_of(example))
        if expected:
            want = "\n".join(expected) + "\n"
            got = ran.stdout + ran.stderr if status else ran.stdout
            if not _CHECKER.check_output(want, got, _FLAGS):
                ran.problems.append(
                    "output differs:\n" + _CHECKER.output_difference(_Want(want), got, _FLAGS)
                )
        elif ran.status == 0:
            check_shape(ran)
        failures += _report(ran, status)
    return "\n".join(failures) or None


class _Want(doctest.Example):
    def __init__(self, want: str) -> None:
        super().__init__("pass", want)


def _console_steps(source: str) -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    for line in re.sub(r"\\\n>? ?", " ", source).splitlines():
        if line.startswith("$ "):
            steps.append((line[2:].strip(), []))
        elif steps:
            steps[-1][1].append(line)
    return [(command, _trim(output)) for command, output in steps]


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines.pop()
    return lines
