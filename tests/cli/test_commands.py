"""The ``snakes`` command, run as a real process: its output, exit codes and JSON.

Every test starts ``python -m snakes`` in a subprocess, the way a user or a script
calls it, so argument parsing, exit statuses and stdout/stderr are all the real thing.
Rolls are scripted with ``replay`` and simulations use small ``--games`` counts, so the
whole file runs in a few seconds.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from snakes import __version__
from snakes.engine import JUNGLE

# The engine's jungle board, which tests/engine/test_how_to_play.py checks against the
# how-to-play page: this is what `snakes board` has to print.
LADDERS = [(j.start, j.end) for j in JUNGLE.ladders]
SNAKES = [(j.start, j.end) for j in JUNGLE.snakes]

# One player's way from 0 to 96 with no six (so no bonus rolls): 1 climbs 1->38,
# 5 and 5 reach 48, 3 lands on 51 and climbs to 67, 4 lands on 71 and climbs to 91,
# 5 reaches 96. From 96 a 4 finishes and a 5 overshoots.
TO_96 = [1, 5, 5, 3, 4, 5]


def snakes(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m snakes ARGS`` with no SNAKES_* settings leaking in from outside."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SNAKES_")}
    clean.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "snakes", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env=clean,
        check=False,
    )


def rolls(values: list[int]) -> str:
    return ",".join(str(v) for v in values)


def last_json(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The JSON object on the last line of stdout (``--json``)."""
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert isinstance(data, dict)
    return data


def assert_refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    """Status 2, a one-line error on stderr that says each of ``words``, no traceback."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]


def assert_usage_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    """Status 2 and click's usage message that says each of ``words``; no traceback."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    assert "Error:" in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


# ---- replay ------------------------------------------------------------------------


def test_a_one_from_the_start_climbs_the_ladder_from_1_to_38() -> None:
    # "A roll of 1 from square 0 lands on 1 and climbs to 38."
    result = snakes("replay", "--players", "2", "--rolls", "1", "--json")
    assert "Player 1 rolled 1." in result.stdout
    assert "climbed a ladder from 1 to 38" in result.stdout
    state = last_json(result)
    assert state["positions"] == [38, 0]
    assert state["turn"] == 1
    assert state["over"] is False
    assert state["standings"] == []


def test_landing_on_a_snakes_head_slides_to_its_tail() -> None:
    # 4 climbs 4->14, then 2 lands on the head at 16 and slides down to 6.
    result = snakes("replay", "--players", "1", "--rolls", "4,2", "--json")
    assert "climbed a ladder from 4 to 14" in result.stdout
    assert "slid down a snake from 16 to 6" in result.stdout
    assert last_json(result)["positions"] == [6]


def test_a_six_earns_a_bonus_roll_in_words() -> None:
    # "Roll a six and you get one bonus roll after your move."
    result = snakes("replay", "--players", "2", "--rolls", "6,3", "--json")
    lines = result.stdout.splitlines()
    assert "Six! Player 1 rolls again." in lines
    assert "Player 1 rolled 3 (bonus roll)." in lines
    # 6 + 3 lands on 9, which climbs to 31; then it is Player 2's turn.
    state = last_json(result)
    assert state["positions"] == [31, 0]
    assert state["turn"] == 1


def test_plain_output_ends_with_the_final_state() -> None:
    result = snakes("replay", "--players", "2", "--rolls", "1,3")
    assert result.returncode == 0
    tail = result.stdout.strip().splitlines()[-3:]
    assert tail == ["Player 1: square 38", "Player 2: square 3", "Next to roll: Player 1."]


def test_overshooting_with_exact_finish_stays_put() -> None:
    # "If you roll more than you need, your token stays put and the turn passes."
    result = snakes("replay", "--players", "1", "--rolls", rolls([*TO_96, 5]), "--json")
    assert "needed exactly 4 and stays on 96" in result.stdout
    state = last_json(result)
    assert state["positions"] == [96]
    assert state["over"] is False
    assert state["turn"] == 0


def test_exact_finish_then_lands_on_100_with_the_exact_count() -> None:
    result = snakes("replay", "--players", "1", "--rolls", rolls([*TO_96, 5, 4]), "--json")
    assert "reached 100 and takes 1st place" in result.stdout
    assert last_json(result)["positions"] == [100]


def test_without_exact_finish_an_overshoot_finishes() -> None:
    # "Off: a roll that reaches or passes 100 finishes on 100."
    args = ["replay", "--players", "1", "--no-exact-finish", "--rolls", rolls([*TO_96, 5])]
    result = snakes(*args, "--json")
    assert "stays on" not in result.stdout
    assert "Player 1 moved from 96 to 100." in result.stdout
    state = last_json(result)
    assert state["positions"] == [100]
    assert state["over"] is True
    assert state["standings"] == [0]


def test_last_one_standing_plays_until_everyone_has_finished() -> None:
    # Three seats walk the same way; on the last round seat 0 overshoots, so seat 1
    # finishes 1st, seat 2 2nd, and seat 0 3rd on its next turn.
    values = [v for v in TO_96 for _ in range(3)] + [5, 4, 4, 4]
    args = ["replay", "--players", "3", "--mode", "last-one-standing", "--rolls", rolls(values)]
    result = snakes(*args, "--json")
    out = result.stdout
    assert "Player 2 reached 100 and takes 1st place!" in out
    assert "Player 3 reached 100 and takes 2nd place!" in out
    assert "Player 1 reached 100 and takes 3rd place!" in out
    assert "Game over: everyone has reached 100." in out
    state = last_json(result)
    assert state["standings"] == [1, 2, 0]
    assert state["positions"] == [100, 100, 100]
    assert state["over"] is True
    assert state["turn"] is None


def test_last_one_standing_skips_a_finished_seat() -> None:
    # After seat 1 finishes, the turn goes 2 -> 0 -> 2 ..., never back to seat 1.
    values = [v for v in TO_96 for _ in range(3)] + [5, 4, 5, 5]
    args = ["replay", "--players", "3", "--mode", "last-one-standing", "--rolls", rolls(values)]
    state = last_json(snakes(*args, "--json"))
    assert state["standings"] == [1]
    assert state["positions"] == [96, 100, 96]
    assert state["turn"] == 2
    assert state["over"] is False


def test_classic_ends_at_the_first_finisher_and_refuses_rolls_after() -> None:
    # "Classic Mode: the first player to reach 100 wins and the game ends on the spot."
    values = [v for v in TO_96 for _ in range(2)] + [4]
    result = snakes("replay", "--players", "2", "--rolls", rolls(values), "--json")
    assert "Game over: Player 1 wins!" in result.stdout
    assert "Player 2: square 96, not-finished" in result.stdout
    state = last_json(result)
    assert state["over"] is True
    assert state["turn"] is None
    assert state["standings"] == [0]
    assert state["positions"] == [100, 96]

    late = snakes("replay", "--players", "2", "--rolls", rolls([*values, 3]), "--json")
    assert_refused(late, "#14", "(3)", "game is over")
    # The refusal comes after the events that did happen, and no final JSON is printed.
    assert "Game over: Player 1 wins!" in late.stdout
    assert '"positions"' not in late.stdout


@pytest.mark.parametrize("value", ["0", "7", "-3", "100"])
def test_a_value_that_is_not_a_face_of_the_die_is_refused(value: str) -> None:
    result = snakes("replay", "--rolls", f"1,{value}")
    assert_refused(result, "#2", f"({value})", "not a face of the die")


def test_a_third_six_in_one_turn_is_refused() -> None:
    # "Two sixes in a row is the limit — a third six is never dealt."
    result = snakes("replay", "--rolls", "6,6,6")
    assert_refused(result, "#3", "(6)", "two sixes")
    assert result.stdout.count("rolls again") == 2


def test_after_two_sixes_a_one_to_five_ends_the_turn() -> None:
    result = snakes("replay", "--players", "2", "--rolls", "6,6,5", "--json")
    state = last_json(result)
    assert state["positions"] == [17, 0]
    assert state["turn"] == 1


def test_without_six_again_three_sixes_are_ordinary_rolls() -> None:
    # "Off: a six is an ordinary roll, no bonus, and the die is always 1-6."
    result = snakes("replay", "--players", "1", "--no-six-again", "--rolls", "6,6,6", "--json")
    assert "rolls again" not in result.stdout
    assert "(bonus roll)" not in result.stdout
    state = last_json(result)
    assert state["positions"] == [18]
    assert state["bonus_roll"] is False


def test_the_json_line_is_the_last_line_and_holds_the_contract_fields() -> None:
    result = snakes("replay", "--players", "3", "--rolls", "2,6", "--json")
    state = last_json(result)
    assert {"positions", "turn", "over", "standings"} <= set(state)
    assert state["positions"] == [2, 6, 0]
    assert state["turn"] == 1  # Player 2's bonus roll
    assert state["bonus_roll"] is True
    assert state["version"] == 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "0", "--rolls", "1"], ["--players", "0 is not in the range"]),
        (["--players", "7", "--rolls", "1"], ["--players", "7 is not in the range"]),
        (["--rolls", "a,b"], ["--rolls", "'a' is not a whole number"]),
        (["--rolls", "1,,2"], ["roll #2", "not a whole number"]),
        (["--rolls", "1.5"], ["not a whole number"]),
        (["--rolls=--3"], ["'--3' is not a whole number"]),
        (["--rolls", "\u00b2"], ["not a whole number"]),  # isdigit() says yes; int() no
        (["--rolls", "9" * 5000], ["not a face of the die"]),  # past int()'s digit limit
        ([], ["Missing option '--rolls'"]),
        (["--rolls", "1", "--colour", "red"], ["No such option", "--colour"]),
        (["--mode", "fastest", "--rolls", "1"], ["--mode", "fastest"]),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(args: list[str], words: list[str]) -> None:
    assert_usage_error(snakes("replay", *args), *words)


# ---- simulate -----------------------------------------------------------------------


def simulate_json(*args: str) -> dict[str, Any]:
    result = snakes("simulate", *args, "--json")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.strip().splitlines()) == 1, "--json prints one object"
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_simulate_json_reports_games_turns_and_speed() -> None:
    data = simulate_json("--games", "40", "--seed", "3")
    assert data["games"] == 40
    assert data["players"] == 1
    assert data["rules"] == {"finish": "classic", "exact_finish": True, "six_again": True}
    assert 7 <= data["mean_turns"] <= data["longest_game_turns"]
    assert data["median_turns"] <= data["longest_game_turns"]
    assert data["games_per_second"] > 0
    assert data["win_share"] == [1.0]  # a solo racer always finishes


def test_simulate_with_the_same_seed_gives_the_same_figures() -> None:
    first = simulate_json("--games", "60", "--seed", "11", "--players", "2")
    again = simulate_json("--games", "60", "--seed", "11", "--players", "2")
    for key in ("mean_turns", "median_turns", "longest_game_turns", "win_share"):
        assert first[key] == again[key], key


def test_simulate_passes_the_house_rules_on() -> None:
    data = simulate_json("--games", "30", "--seed", "1", "--no-exact-finish", "--no-six-again")
    assert data["rules"] == {"finish": "classic", "exact_finish": False, "six_again": False}


def test_simulate_classic_win_shares_sum_to_one() -> None:
    data = simulate_json("--games", "60", "--seed", "5", "--players", "4")
    assert len(data["win_share"]) == 4
    assert sum(data["win_share"]) == pytest.approx(1.0, abs=1e-3)  # each is rounded
    assert "mean_place" not in data


def test_simulate_last_one_standing_reports_mean_places() -> None:
    data = simulate_json(
        "--games", "40", "--seed", "5", "--players", "3", "--mode", "last-one-standing"
    )
    places = data["mean_place"]
    assert len(places) == 3
    assert all(1 <= p <= 3 for p in places)
    # Every game hands out places 1, 2 and 3 once each.
    assert sum(places) == pytest.approx(6.0, abs=1e-3)
    assert "win_share" not in data


def test_simulate_plain_output_names_mean_median_and_longest_game() -> None:
    result = snakes("simulate", "--games", "30", "--seed", "2", "--players", "2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "30 games, 2 seat(s)" in out
    assert "Mean turns" in out
    assert "Median turns" in out
    assert "Longest game" in out
    assert "Seat 1 wins" in out
    assert "Seat 2 wins" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "0"], ["--games", "0 is not in the range"]),
        (["--games", "many"], ["--games", "many"]),
        (["--players", "7"], ["--players"]),
        (["--seed", "x"], ["--seed"]),
    ],
)
def test_simulate_bad_arguments_exit_2(args: list[str], words: list[str]) -> None:
    assert_usage_error(snakes("simulate", *args), *words)


# ---- board --------------------------------------------------------------------------


def test_board_lists_the_nine_ladders_and_ten_snakes() -> None:
    result = snakes("board")
    assert result.returncode == 0
    out = result.stdout
    assert "9 ladders, 10 snakes" in out
    ladders_part, snakes_part = out.split("Snakes (down):")
    pair = re.compile(r"^\s*(\d+) -> (\d+)$", re.MULTILINE)
    assert [(int(a), int(b)) for a, b in pair.findall(ladders_part)] == LADDERS
    assert [(int(a), int(b)) for a, b in pair.findall(snakes_part)] == SNAKES


def test_board_json_is_the_jungle_board() -> None:
    result = snakes("board", "--json")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["name"] == "jungle"
    assert [tuple(p) for p in data["ladders"]] == LADDERS
    assert [tuple(p) for p in data["snakes"]] == SNAKES


# ---- help, version, serve's settings -----------------------------------------------


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("replay", "Play the given rolls in order"),
        ("simulate", "Play N whole games"),
        ("board", "ladders and snakes"),
        ("serve", "Serve the web game"),
    ],
)
def test_every_command_explains_itself(command: str, says: str) -> None:
    result = snakes(command, "--help")
    assert result.returncode == 0
    assert f"Usage: snakes {command}" in result.stdout
    assert says in " ".join(result.stdout.split())


def test_help_lists_every_command() -> None:
    result = snakes("--help")
    assert result.returncode == 0
    for command in ("replay", "simulate", "board", "serve"):
        assert re.search(rf"^\s+{command}\s", result.stdout, re.MULTILINE), command


def test_version() -> None:
    result = snakes("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"snakes, version {__version__}"


def test_serve_help_names_every_setting() -> None:
    out = snakes("serve", "--help").stdout
    for flag in (
        "--host",
        "--port",
        "--data",
        "--public-url",
        "--ai-delay",
        "--animation-scale",
        "--countdown",
        "--countdown-min",
        "--countdown-max",
        "--idle-minutes",
        "--record-days",
        "--trusted-proxy",
        "--redis",
        "--redis-prefix",
        "--log-format",
        "--open",
    ):
        assert flag in out, flag
    assert "--test-hooks" not in out  # test-only, hidden


def test_serve_reads_its_settings_from_snakes_environment_variables() -> None:
    # A bad value is refused before anything listens, so no server is started here.
    result = snakes("serve", env={"SNAKES_PORT": "eighty"})
    assert_usage_error(result, "--port", "eighty")


def test_serve_refuses_a_default_countdown_outside_its_bounds(tmp_path: Path) -> None:
    result = snakes("serve", "--countdown", "5", "--data", str(tmp_path))
    assert_usage_error(result, "default countdown (5)", "--countdown-min (10)")
