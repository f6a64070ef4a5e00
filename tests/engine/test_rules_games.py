"""The fixed games the page's rules replay reach the cases they are there for.

The rules differential (tests/browser/test_rules_differential.py) replays each fixed
game of tests/support/rules_games.py on every run, beside the games hypothesis draws.
Its random games prove nothing about coverage: what they reach is chance. These checks
make sure each fixed game, played through the engine, still reaches its case, so that a
change to the engine or to a script that loses a case is red here, every time.
"""

from __future__ import annotations

import pytest

from snakes.boards import shipped_boards
from snakes.engine.rules import Finish
from tests.support.rules_games import CASES, FIXED_GAMES, Script

END_REASONS = ("finished", "last-player", "abandoned", "everyone-left")
REFUSED = ("wrong seat", "too high", "leave gone", "unknown seat", "after the end")


@pytest.mark.parametrize("script", FIXED_GAMES, ids=lambda script: script.reaches[0])
def test_each_fixed_game_reaches_its_cases(script: Script) -> None:
    features = script.game().features
    assert set(script.reaches) <= features, set(script.reaches) - features


def test_the_fixed_games_reach_every_end_board_finish_interruption_and_refusal() -> None:
    wanted = {f"ended: {reason}" for reason in END_REASONS}
    wanted |= {f"board: {shipped.board.name}" for shipped in shipped_boards()}
    wanted |= {f"finish: {finish.value}" for finish in Finish}
    wanted |= {"skip", "leave", "remove", "abandon", *REFUSED}
    wanted |= {"five-faced roll", "overshoot", "past 100", "bonus roll"}
    assert wanted <= CASES, wanted - CASES


def test_a_fixed_game_is_the_same_game_every_time() -> None:
    for script in FIXED_GAMES:
        assert script.game() == script.game()
