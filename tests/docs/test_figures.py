"""Figures in the docs that the code computes exactly are checked against the code.

Measured figures (speeds, simulated means) name the command that produced them; the
exact ones (Markov chain, board catalogue) must equal what the code computes now, and
every test that RULES.md names as the proof of a rule must exist.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from snakes.analysis import turns_law
from snakes.analysis.odds import analyze
from snakes.engine import JUNGLE, Rules
from snakes.server.boards import board_catalogue
from tests.docs.protocol_scan import section, table

ROOT = Path(__file__).resolve().parents[2]
HOUSE_RULES = {
    "exact finish, six again (default)": Rules(),
    "exact finish, six again": Rules(),
    "exact finish, no six again": Rules(six_again=False),
    "no exact finish, six again": Rules(exact_finish=False),
    "neither": Rules(exact_finish=False, six_again=False),
}


def number(cell: str) -> float:
    return float(cell.strip("*% ").replace(",", ""))


def test_odds_md_exact_figures_are_the_chains() -> None:
    text = (ROOT / "docs" / "ODDS.md").read_text()
    rows = table(section(text, "### Figures (jungle board, seat 1 first)"))
    assert len(rows) == 4
    for name, mean, sd, median, p10, p90, *wins in rows:
        law = turns_law(JUNGLE, HOUSE_RULES[name])
        assert (number(mean), number(sd)) == (round(law.mean, 3), round(law.sd, 2)), name
        assert (number(median), number(p10), number(p90)) == (law.median, law.p10, law.p90)
        if wins and wins[0]:
            chances = analyze(JUNGLE, HOUSE_RULES[name], players=2).win_chance
            assert number(wins[0]) == round(100 * chances[0], 2), name


def test_odds_md_long_runs_quote_the_exact_means() -> None:
    text = (ROOT / "docs" / "ODDS.md").read_text()
    rows = table(section(text, "### Checked against the exact analysis"))
    assert len(rows) == 4
    for name, exact, *_ in rows:
        assert number(exact) == round(turns_law(JUNGLE, HOUSE_RULES[name]).mean, 3), name


def test_readme_quotes_the_exact_means_that_analyze_gives() -> None:
    text = (ROOT / "README.md").read_text()
    quoted = re.search(
        r"gives the exact figures these estimate: ([\d.,\s]+and\s+[\d.]+) turns", text
    )
    assert quoted is not None
    figures = [float(f) for f in re.findall(r"\d+\.\d+", quoted[1])]
    order = [
        "exact finish, six again",
        "exact finish, no six again",
        "no exact finish, six again",
        "neither",
    ]
    assert figures == [round(turns_law(JUNGLE, HOUSE_RULES[n]).mean, 2) for n in order]


def test_readme_simulated_means_agree_with_the_exact_ones() -> None:
    """The README's table was measured (its commands follow it); it must fit the chain."""
    text = (ROOT / "README.md").read_text()
    games = int(re.search(r"Measured with ([\d,]+)\s+games each", text)[1].replace(",", ""))  # type: ignore[index]
    cells = re.findall(
        r"([\d.]+)\*{0,2} turns \(median (\d+)\)", section(text, "## How long is a game?")
    )
    order = [
        "exact finish, six again",
        "exact finish, no six again",
        "no exact finish, six again",
        "neither",
    ]
    assert len(cells) == 4
    for name, (mean, median) in zip(order, cells, strict=True):
        law = turns_law(JUNGLE, HOUSE_RULES[name])
        assert abs(float(mean) - law.mean) < 4 * law.sd / games**0.5, name
        assert int(median) == law.median, name


def test_boards_md_table_is_the_catalogue() -> None:
    text = (ROOT / "docs" / "BOARDS.md").read_text()
    rows = {row[0].strip("`"): row[1:7] for row in table(section(text, "## Shipped boards"))}
    catalogue = {
        entry["name"]: [
            entry["ladders"],
            entry["snakes"],
            entry["mean_turns"],
            entry["median_turns"],
            entry["p10_turns"],
            entry["p90_turns"],
        ]
        for entry in board_catalogue()
    }
    assert {name: [number(c) for c in cells] for name, cells in rows.items()} == catalogue


def _tests_in(path: Path) -> set[str]:
    module = ast.parse(path.read_text())
    return {
        node.name
        for node in ast.walk(module)
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }


def test_every_test_rules_md_names_exists() -> None:
    text = (ROOT / "docs" / "RULES.md").read_text()
    prefixes = dict(re.findall(r"^\| `(\w)::` \| `([^`]+)::` ", text, re.MULTILINE))
    assert set(prefixes) >= {"H", "S", "B", "R", "P"}
    named = re.findall(r"`(\w)::(test_\w+)", text)
    assert len(named) > 50
    missing = [f"{p}::{name}" for p, name in named if name not in _tests_in(ROOT / prefixes[p])]
    assert missing == []


def unnamed_speed_figures(text: str) -> list[str]:
    """Paragraphs with a speed figure whose section names no command or bench script."""
    speed = re.compile(
        r"\d[\d,.]*\s*(\N{MULTIPLICATION SIGN}|times faster|games/s|games per second|rolls/s|"
        r"rolls per second|microseconds|\N{MICRO SIGN}s|ms\b)"
    )
    unnamed = []
    for part in re.split(r"^#{2,3} ", text, flags=re.MULTILINE):
        if re.search(r"bench/\w+\.py|snakes simulate|`snakes ", part):
            continue
        unnamed += [p for p in re.split(r"\n\s*\n", part) if speed.search(p)]
    return unnamed


@pytest.mark.parametrize(
    "name", ["README.md", "CLI.md", "ODDS.md", "FAIR_DICE.md", "BOARDS.md", "BENCHMARKS.md"]
)
def test_speed_figures_name_their_command(name: str) -> None:
    path = ROOT / name if name == "README.md" else ROOT / "docs" / name
    assert unnamed_speed_figures(path.read_text()) == []


def test_a_speed_figure_without_its_command_is_found() -> None:
    text = (
        "# Speed\n\n## Fast\n\nIt is 4,200 times faster.\n\n"
        "## Odds\n\n30 ms (`bench/odds_bench.py`).\n"
    )
    assert unnamed_speed_figures(text) == ["It is 4,200 times faster."]
