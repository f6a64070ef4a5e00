"""The `snakes serve` option tables in README.md and CLI.md are the command's options.

Read from click itself: every option a user can pass (hidden ones left out), its
environment variable, and its default where the table gives one as a plain value.
Also: every path a doc names under ``src/``, ``tests/`` or ``bench/`` exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from snakes.cli.serve import serve
from tests.docs.protocol_scan import table

ROOT = Path(__file__).resolve().parents[2]
OWN_DOCS = ["README.md", "PROTOCOL.md", "CLI.md", "RULES.md", "ODDS.md", "BOARDS.md"]
OWN_DOCS += ["FAIR_DICE.md"]


def path_of(name: str) -> Path:
    return ROOT / name if name == "README.md" else ROOT / "docs" / name


def documented_options(text: str) -> dict[str, list[str]]:
    """``{"--flag": [env var cell, default cell]}`` from the table whose header is ``| flag |``."""
    start = text.index("| flag | environment variable | default |")
    rows = table(text[start:].split("\n\n", 1)[0])
    options = {}
    for flag, env, default, *_ in rows:
        for name in re.findall(r"`(--[\w-]+)`", flag):
            options[name] = [env.strip("`"), default]
    return options


def served_options() -> dict[str, click.Option]:
    options = {}
    for param in serve.params:
        if isinstance(param, click.Option) and not param.hidden:
            for name in [*param.opts, *param.secondary_opts]:
                options[name] = param
    return options


@pytest.mark.parametrize("name", ["README.md", "CLI.md"])
def test_the_serve_table_lists_every_option_with_its_variable_and_default(name: str) -> None:
    documented = documented_options(path_of(name).read_text())
    served = served_options()
    assert set(documented) == set(served)
    for flag, (env, default) in documented.items():
        option = served[flag]
        assert env == (option.envvar or ""), flag
        plain = re.fullmatch(r"`([^`]*)`", default)
        if plain and not plain[1].isupper() and "HOST" not in plain[1]:
            assert str(option.default).removesuffix(".0") == plain[1].removesuffix(".0"), flag


def test_a_missing_option_row_is_found() -> None:
    text = path_of("CLI.md").read_text()
    lines = [line for line in text.splitlines() if not line.startswith("| `--lookup-limit`")]
    assert "--lookup-limit" not in documented_options("\n".join(lines))


def named_paths(text: str) -> set[str]:
    """Repository paths a doc names in backticks or links: ``src/…``, ``tests/…``, ``bench/…``."""
    found = re.findall(r"(?<![\w/.])((?:src|tests|bench)/[\w./-]+\w)", text)
    return {re.sub(r"::.*", "", path) for path in found}


@pytest.mark.parametrize("name", OWN_DOCS)
def test_every_path_a_doc_names_exists(name: str) -> None:
    missing = sorted(p for p in named_paths(path_of(name).read_text()) if not (ROOT / p).exists())
    assert missing == []


@pytest.mark.parametrize("name", OWN_DOCS)
def test_every_test_a_doc_names_exists(name: str) -> None:
    missing = []
    for path, test in re.findall(r"(tests/[\w/]+\.py)::(test_\w+)", path_of(name).read_text()):
        source = ROOT / path
        defined = source.exists() and re.search(rf"^\s*def {test}\(", source.read_text(), re.M)
        if not defined:
            missing.append(f"{path}::{test}")
    assert missing == []
