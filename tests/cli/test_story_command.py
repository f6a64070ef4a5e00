"""``snakes replay --record FILE``: the same figures as the story API, and a PNG."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from snakes.analysis.story import game_story
from snakes.cli.main import cli
from snakes.engine import Roll
from snakes.engine.record import GameRecord, SeatInfo

ROLLS = [(0, 6), (0, 6), (0, 5), (1, 3), (0, 6), (0, 5), (1, 2), (0, 6), (0, 6), (0, 3)]
"""Ana climbs 28 -> 84 at move 6 and slides 99 -> 27 at move 10."""


def record_file(tmp_path: Path) -> Path:
    record = GameRecord(
        seats=(SeatInfo("Ana", "red"), SeatInfo("Ben", "blue")),
        actions=tuple(Roll(seat, value) for seat, value in ROLLS),
    )
    path = tmp_path / "snakes-ABCDEF.json"
    path.write_text(record.to_json(), encoding="utf-8")
    return path


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_replay_of_a_record_prints_every_move_with_the_odds_and_the_turning_points(
    tmp_path: Path,
) -> None:
    result = run("replay", "--record", str(record_file(tmp_path)))
    assert result.exit_code == 0, result.output
    assert "Chance to win after every move" in result.output
    assert "The moments that swung the game" in result.output
    assert "ladder 28→84" in result.output and "snake 99→27" in result.output
    # Move 0: snakes analyze's 2-seat figures.
    assert "50.5% (0)" in result.output and "49.5% (0)" in result.output


def test_replay_of_a_record_as_json_is_the_story_and_plots_a_png(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    plot = tmp_path / "story.png"
    result = run("replay", "--record", str(path), "--plot", str(plot), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    expected = game_story(GameRecord.from_json(path.read_text())).to_data()
    assert data["steps"] == expected["steps"] and data["plot"] == str(plot)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_replay_wants_rolls_or_a_record_and_refuses_a_bad_record(tmp_path: Path) -> None:
    assert run("replay").exit_code == 2
    bad = tmp_path / "bad.json"
    actions = [{"type": "roll", "seat": 1, "value": 3}]
    bad.write_text(json.dumps({"seats": [{"name": "A"}, {"name": "B"}], "actions": actions}))
    result = run("replay", "--record", str(bad))
    assert result.exit_code == 2 and "does not replay" in result.output
    assert run("replay", "--rolls", "1", "--plot", str(tmp_path / "x.png")).exit_code == 2
