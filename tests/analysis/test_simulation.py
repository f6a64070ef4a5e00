"""Both simulators agree with the exact analysis, statistically, on several boards and rules.

The engine path (:func:`snakes.simulate.simulate`) plays real games through the rules
engine; the fast path (:func:`snakes.fastsim.fast_simulate`) rolls with numpy. Each is
checked against the exact law of the turns: the mean within 4 standard errors, the
distribution by a chi-square test in bins of equal exact chance (|z| < 4), and for the
fast path, with its large samples, a Kolmogorov-Smirnov distance. Seeds are fixed, so
the tests are deterministic; the bounds only say how far chance alone would stray.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter

import numpy as np
import pytest

from snakes.analysis import analyze, turns_law
from snakes.analysis.moves import chain_key
from snakes.boards import load_board
from snakes.engine import JUNGLE, Board, Finish, Rules
from snakes.fastsim import face_of_draw, fast_simulate, step_table
from snakes.simulate import simulate
from tests.analysis.helpers import (
    ALL_RULES,
    TO_100,
    binned_fit,
    chi_square_z,
    ks_distance,
    rules_id,
)

RULE_IDS = [rules_id(r) for r in ALL_RULES]
LOS = Finish.LAST_ONE_STANDING


def assert_median_fits(median: float, cdf: np.ndarray, n: int) -> None:
    """The sample median sits where the exact CDF crosses 1/2, give or take 4 errors."""
    slack = 4 * 0.5 / math.sqrt(n)
    low, high = math.floor(median), math.ceil(median)
    assert cdf[high] >= 0.5 - slack and cdf[low - 1] <= 0.5 + slack, (median, slack)


def assert_mean_within(sample_mean: float, mean: float, sd: float, n: int) -> None:
    error = sd / math.sqrt(n)
    assert abs(sample_mean - mean) < 4 * error, (sample_mean, mean, error)


# ---- the engine path -------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@pytest.mark.parametrize(
    ("board_name", "games"), [("jungle", 700), ("short", 1500), ("to-100", 800)]
)
def test_engine_games_agree_with_the_exact_turns_law(
    board_name: str, games: int, rules: Rules
) -> None:
    board = TO_100 if board_name == "to-100" else load_board(board_name)
    law = turns_law(board, rules)
    report = simulate(games, 1, rules, board, seed=11)
    assert_mean_within(report.mean_turns, law.mean, law.sd, games)
    assert abs(binned_fit(Counter(report.finish_turns), law.cdf, bins=8)) < 4
    assert_median_fits(report.median_turns, law.cdf, games)


def test_engine_classic_win_shares_agree_with_the_exact_win_chances() -> None:
    board, games = load_board("short"), 3000
    exact = analyze(board, Rules(), 3)
    report = simulate(games, 3, Rules(), board, seed=5)
    assert abs(chi_square_z(report.wins, [games * p for p in exact.win_chance])) < 4
    assert_mean_within(report.mean_turns, exact.winning_turns.mean, exact.winning_turns.sd, games)


# ---- the fast path ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@pytest.mark.parametrize("board_name", ["jungle", "short", "treacherous", "to-100"])
def test_fast_games_agree_with_the_exact_turns_law(board_name: str, rules: Rules) -> None:
    board = TO_100 if board_name == "to-100" else load_board(board_name)
    games = 200_000
    law = turns_law(board, rules)
    report = fast_simulate(games, 1, rules, board, seed=17)
    assert_mean_within(report.mean_turns, law.mean, law.sd, games)
    assert abs(binned_fit(report.finish_turn_counts, law.cdf, bins=40)) < 4
    assert ks_distance(report.finish_turn_counts, law.cdf) < 1.95  # 0.1% level
    assert_median_fits(report.median_turns, law.cdf, games)


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("rules", [Rules(), Rules(exact_finish=False, six_again=False)], ids=str)
def test_fast_classic_win_shares_and_winner_turns_agree_with_the_exact_analysis(
    players: int, rules: Rules
) -> None:
    games = 200_000
    exact = analyze(JUNGLE, rules, players)
    report = fast_simulate(games, players, rules, seed=players)
    assert abs(chi_square_z(report.wins, [games * p for p in exact.win_chance])) < 4
    winning = exact.winning_turns
    assert_mean_within(report.mean_turns, winning.mean, winning.sd, games)
    assert abs(binned_fit(report.finish_turn_counts, winning.cdf, bins=30)) < 4
    mean_game = float(np.arange(len(report.game_turn_counts)) @ report.game_turn_counts) / games
    assert mean_game == pytest.approx(exact.expected_game_turns, rel=0.01)


@pytest.mark.parametrize("players", [3, 5])
def test_fast_last_one_standing_places_agree_with_the_exact_place_chances(players: int) -> None:
    games = 100_000
    board = load_board("ladders-galore")
    exact = analyze(board, Rules(finish=LOS), players)
    report = fast_simulate(games, players, Rules(finish=LOS), board, seed=23)
    for seat in range(players):
        expected = [games * p for p in exact.place_chance[seat]]
        assert abs(chi_square_z(report.place_counts[seat], expected)) < 4, seat
    # Every seat reaches 100, so the turns are those of a lone player, players x games times.
    assert report.finish_turn_counts.sum() == players * games
    assert_mean_within(report.mean_turns, exact.law.mean, exact.law.sd, players * games)
    assert report.mean_place == pytest.approx(exact.expected_place, abs=0.01)


def test_the_fast_simulator_is_reproducible_from_its_seed() -> None:
    first = fast_simulate(20_000, 3, seed=99)
    again = fast_simulate(20_000, 3, seed=99)
    other = fast_simulate(20_000, 3, seed=100)
    assert first.wins == again.wins
    assert np.array_equal(first.finish_turn_counts, again.finish_turn_counts)
    assert first.wins != other.wins


def test_small_pools_and_batches_give_the_same_statistics() -> None:
    # Refilling lanes, sweeping finished ones and batching must not bias anything.
    games = 30_000
    law = turns_law(JUNGLE, Rules())
    report = fast_simulate(games, 2, Rules(finish=LOS), seed=4, batch=7_001, pool=998, block=5)
    assert report.finish_turn_counts.sum() == 2 * games
    assert_mean_within(report.mean_turns, law.mean, law.sd, 2 * games)


def test_the_fast_report_has_the_engine_reports_figures() -> None:
    engine = simulate(50, 2, seed=1).to_data()
    fast = fast_simulate(50, 2, seed=1).to_data()
    assert set(engine) <= set(fast)
    assert fast["simulator"] == "fast"


def test_the_fast_median_is_the_median_statistics_gives() -> None:
    report = fast_simulate(1_001, 1, seed=8)
    turns = np.repeat(np.arange(len(report.finish_turn_counts)), report.finish_turn_counts)
    assert report.median_turns == statistics.median(turns.tolist())
    report = fast_simulate(1_000, 1, seed=8)
    turns = np.repeat(np.arange(len(report.finish_turn_counts)), report.finish_turn_counts)
    assert report.median_turns == statistics.median(turns.tolist())


def test_every_face_gets_the_same_number_of_random_draws() -> None:
    for faces in (5, 6):
        counts = Counter(face_of_draw(draw, faces) for draw in range(128))
        rejected = counts.pop(None)
        assert set(counts) == set(range(1, faces + 1))
        assert len(set(counts.values())) == 1
        assert rejected == 8


def test_the_step_table_holds_the_engines_moves() -> None:
    table = step_table(chain_key(JUNGLE, Rules()))
    # From square 0 (waiting code 102), draws 0-3 roll a 1: land on 1, climb to 38.
    assert {int(table[102 * 128 + d]) >> 7 for d in range(4)} == {38}
    # From 99's neighbour 97, a 2 lands on the 99 snake and slides to 27.
    assert int(table[97 * 128 + 4]) >> 7 == 27


@pytest.mark.parametrize("board", [load_board("bare")], ids=["bare"])
def test_a_bare_board_takes_at_least_seventeen_turns_without_bonus_rolls(board: Board) -> None:
    report = fast_simulate(20_000, 1, Rules(six_again=False), board, seed=2)
    assert report.finish_turn_counts[:17].sum() == 0
