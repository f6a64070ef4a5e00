"""The commands: snakes analyze, snakes boards, snakes simulate --fast/--board, snakes verify."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from snakes.cli.main import cli
from snakes.fair import play_fair_game


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def run_json(*args: str) -> Any:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ---- analyze ---------------------------------------------------------------------------


def test_analyze_json_gives_expected_turns_and_each_seats_win_chance() -> None:
    data = run_json("analyze", "--players", "4")
    assert data["expected_turns"] == pytest.approx(55.6148, abs=1e-4)
    assert len(data["win_chance"]) == 4
    assert sum(data["win_chance"]) == pytest.approx(1.0, abs=1e-11)
    assert data["percentiles"] == {"p10": 16, "p50": 42, "p90": 114}
    assert "place_chance" not in data


def test_analyze_last_one_standing_gives_the_place_matrix() -> None:
    data = run_json("analyze", "--players", "3", "--mode", "last-one-standing")
    places = data["place_chance"]
    assert len(places) == 3 and all(len(row) == 3 for row in places)
    assert [sum(row) for row in places] == pytest.approx([1.0, 1.0, 1.0])


def test_analyze_takes_the_house_rules_and_a_board() -> None:
    plain = run_json("analyze", "--no-exact-finish", "--no-six-again", "--players", "1")
    assert plain["rules"] == {"finish": "classic", "exact_finish": False, "six_again": False}
    assert plain["expected_turns"] == pytest.approx(41.2199, abs=1e-4)
    short = run_json("analyze", "--board", "short")
    assert short["board"] == "short" and short["median_turns"] == 17


def test_analyze_plain_output_names_mean_median_and_percentiles() -> None:
    result = run("analyze", "--players", "2")
    assert result.exit_code == 0
    for words in ("Mean", "55.61", "Median", "10th percentile", "90th percentile", "Win chance"):
        assert words in result.output


def test_analyze_plot_writes_a_png(tmp_path: Path) -> None:
    target = tmp_path / "odds.png"
    result = run("analyze", "--players", "3", "--plot", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert target.stat().st_size > 10_000


def test_a_bad_board_file_lists_every_problem_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nladders = [[5, 2]]\nsnakes = [[40, 60], [5, 1]]\n')
    result = CliRunner().invoke(cli, ["analyze", "--board", str(path)])
    assert result.exit_code == 2
    for words in ("ladder 5->2 must go up", "snake 40->60 must go down", "square 5 has more"):
        assert words in result.output
    assert "Traceback" not in result.output


# ---- boards ----------------------------------------------------------------------------


def test_boards_lists_the_shipped_boards_with_their_figures() -> None:
    data = run_json("boards")
    names = [b["name"] for b in data["boards"]]
    assert names[:2] == ["jungle", "short"]
    jungle = data["boards"][0]
    assert (jungle["median_turns"], jungle["p10_turns"], jungle["p90_turns"]) == (42, 16, 114)
    text = run("boards").output
    for name in names:
        assert name in text


# ---- simulate --------------------------------------------------------------------------


def test_simulate_fast_reports_the_same_figures_as_the_engine_path() -> None:
    fast = run_json("simulate", "--fast", "--games", "20000", "--players", "2", "--seed", "1")
    engine = run_json("simulate", "--games", "30", "--players", "2", "--seed", "1")
    assert set(engine) <= set(fast)
    assert fast["games"] == 20000
    assert sum(fast["win_share"]) == pytest.approx(1.0)
    assert 30 < fast["mean_turns"] < 37  # the exact winner's mean is 33.29


def test_simulate_takes_a_board_on_either_path() -> None:
    fast = run_json("simulate", "--fast", "--board", "short", "--games", "5000", "--seed", "3")
    engine = run_json("simulate", "--board", "short", "--games", "200", "--seed", "3")
    assert fast["board"] == engine["board"] == "short"
    assert 15 < fast["mean_turns"] < 20 and 14 < engine["mean_turns"] < 22


def test_simulate_fast_plain_output_and_last_one_standing() -> None:
    result = run(
        "simulate", "--fast", "--games", "3000", "--players", "3", "--mode", "last-one-standing"
    )
    assert result.exit_code == 0
    assert "Seat 3 mean place" in result.output and "Games per second" in result.output


# ---- verify ----------------------------------------------------------------------------


def write_record(path: Path, tamper: bool = False) -> Path:
    data = play_fair_game(bytes(range(32)), ["alice", "bob"])
    if tamper:
        data["actions"][4]["value"] = 7 - data["actions"][4]["value"]
    path.write_text(json.dumps(data))
    return path


def test_verify_says_ok_for_an_honest_record(tmp_path: Path) -> None:
    result = run("verify", str(write_record(tmp_path / "game.json")))
    assert result.exit_code == 0
    assert result.output.startswith("OK:")


def test_verify_names_the_tampered_roll_and_exits_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["verify", str(write_record(tmp_path / "g.json", True))])
    assert result.exit_code == 1
    assert "TAMPERED" in result.output and "roll #4 (action 5" in result.output
    data = json.loads(
        CliRunner().invoke(cli, ["verify", "--json", str(tmp_path / "g.json")]).stdout
    )
    assert data["ok"] is False and data["mismatches"][0]["index"] == 4


def test_verify_exits_2_for_what_it_cannot_check(tmp_path: Path) -> None:
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"seats": [{"name": "A"}], "actions": []}))
    result = CliRunner().invoke(cli, ["verify", str(plain)])
    assert result.exit_code == 2 and "no 'fair' section" in result.output
    result = CliRunner().invoke(cli, ["verify", "-"], input="not json")
    assert result.exit_code == 2 and "JSON" in result.output


def test_the_real_command_exits_with_the_documented_statuses(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SNAKES_")}
    good = write_record(tmp_path / "good.json")
    bad = write_record(tmp_path / "bad.json", tamper=True)
    statuses = [
        subprocess.run(
            [sys.executable, "-m", "snakes", "verify", str(path)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        ).returncode
        for path in (good, bad, tmp_path / "missing.json")
    ]
    assert statuses == [0, 1, 2]
