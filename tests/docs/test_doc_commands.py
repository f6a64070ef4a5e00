"""Every shell command in README.md and docs/*.md runs, and prints what the docs say.

How blocks are found, run and checked: :mod:`tests.docs.shell`. One test per document;
each block is a subtest named by its line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sybil import Document, Sybil
from sybil.example import SybilFailure
from sybil.parsers.markdown import CodeBlockParser, SkipParser

from snakes.fair import play_fair_game
from tests.docs.shell import (
    ROOT,
    Ran,
    bound,
    check_shape,
    environment,
    evaluate_console,
    evaluate_sh,
)

# Each documented command runs as a process of its own (the ``snakes`` command line).
pytestmark = pytest.mark.processes

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SYBIL = Sybil(
    parsers=[
        CodeBlockParser("sh", evaluate_sh),
        CodeBlockParser("console", evaluate_console),
        SkipParser(),
    ]
)

BAD_BOARD = {
    "name": "bad",
    "colour": "red",
    "ladders": [[5, 2], [10, 120], [3, 30]],
    "snakes": [[3, 1]],
}


def prepare(workdir: Path) -> Path:
    """A temporary folder holding the files the docs' commands name."""
    (workdir / "home").mkdir()
    record = play_fair_game(bytes(range(32)), ["alice", "bob"])
    (workdir / "snakes-K7Q2MX.json").write_text(json.dumps(record))
    (workdir / "bad.json").write_text(json.dumps(BAD_BOARD))
    return workdir


def evaluate(document: Document, workdir: Path, subtests: pytest.Subtests) -> None:
    """Evaluate every example in document order, each block as a subtest."""
    document.namespace["workdir"] = prepare(workdir)
    for example in document.examples():
        with subtests.test(msg=f"{Path(document.path).name} line {example.line}"):
            example.evaluate()


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_every_command_in_the_docs_runs_and_prints_what_they_say(
    path: Path, tmp_path: Path, subtests: pytest.Subtests
) -> None:
    # Long runs are cut short (see test_long_runs_are_bounded); the time it takes is
    # not asserted, since a busy machine would make such a check red by chance.
    evaluate(SYBIL.parse(path), tmp_path, subtests)


def test_the_docs_hold_runnable_blocks() -> None:
    """README and CLI.md must keep commands that run (a skip on everything proves nothing)."""
    for name in ("README.md", "CLI.md"):
        path = next(p for p in DOCS if p.name == name)
        blocks = [e for e in SYBIL.parse(path).examples() if e.region.evaluator is not None]
        runnable = [e for e in blocks if e.region.evaluator in (evaluate_sh, evaluate_console)]
        assert len(runnable) >= 3, name


# ---- the docs test can fail ------------------------------------------------------------

SAMPLE = """\
# A page

```sh
snakes replay --players 2 --rolls 6,3,2
```

<!-- skip: next "starts a server" -->
```sh
snakes serve --port 1
```

```console
$ snakes replay --players 2 --rolls 1 --json | tail -n 1
{"positions": [38, 0], ...}
$ snakes replay --players 2 --rolls 7
...
[2]
```
"""


def run_sample(text: str, tmp_path: Path) -> list[str]:
    """Evaluate a made-up page; return the failure message of each block that failed."""
    page = tmp_path / "page.md"
    page.write_text(text)
    document = SYBIL.parse(page)
    document.namespace["workdir"] = prepare(tmp_path / "work")
    failures = []
    for example in document.examples():
        try:
            example.evaluate()
        except SybilFailure as failure:
            failures.append(str(failure))
        except Exception as error:
            if type(error).__name__ != "SkipTest":
                raise
    return failures


def test_a_correct_page_passes_and_an_illustration_is_not_run(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    assert run_sample(SAMPLE, tmp_path) == []


@pytest.mark.parametrize(
    ("good", "broken"),
    [
        ("--rolls 6,3,2", "--rolls 6,3,x"),  # exits 2
        ("snakes replay --players 2 --rolls 6", "snakes relay --players 2 --rolls 6"),
        ('{"positions": [38, 0], ...}', '{"positions": [1, 0], ...}'),  # prints otherwise
        ("[2]", "[0]"),  # another exit status
    ],
)
def test_a_broken_command_fails_the_docs_test(good: str, broken: str, tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    assert good in SAMPLE
    failures = run_sample(SAMPLE.replace(good, broken), tmp_path)
    assert len(failures) == 1, failures


@pytest.mark.parametrize(
    ("command", "stdout", "problem"),
    [
        ("snakes simulate --games 5 --json", '{"games": 5}', "lacks the documented fields"),
        ("snakes simulate --json", '{"games": 5, "seed": 1}', "fields the docs do not list"),
        ("snakes replay --rolls 1", "Player 1 rolled 1.\n", "does not end with"),
        ("snakes board", "Ladders:\n", "does not start with"),
        ("snakes verify g.json", "TAMPERED\n", "does not start with 'OK:'"),
        ("snakes boards", "jungle\n", "does not list 'short'"),
        ("snakes analyze --json", "not json", "not one JSON value"),
    ],
)
def test_the_shape_check_fails_output_that_drifted(
    command: str, stdout: str, problem: str, tmp_path: Path
) -> None:
    ran = Ran(command, command, 0, stdout, "", tmp_path)
    check_shape(ran)
    assert any(problem in p for p in ran.problems), ran.problems


def test_a_server_command_is_never_run_even_unmarked(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    page = "```sh\nsnakes serve --port 1\n```\n"
    failures = run_sample(page, tmp_path)
    assert len(failures) == 1 and "starts a server" in failures[0]


def test_the_user_data_folder_is_never_used(tmp_path: Path) -> None:
    env = environment(tmp_path)
    assert env["HOME"].startswith(str(tmp_path))
    assert env["SNAKES_DATA"].startswith(str(tmp_path))
    assert env["XDG_DATA_HOME"].startswith(str(tmp_path))


def test_long_runs_are_bounded() -> None:
    assert bound("snakes simulate --games 200000 --seed 1") == "snakes simulate --games 50 --seed 1"
    assert bound("snakes simulate --fast --games 1000000") == "snakes simulate --fast --games 50000"
    assert bound("snakes simulate --games 30") == "snakes simulate --games 30"
