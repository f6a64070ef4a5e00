"""The turn chain: each turn's matrix, the law of the turns to finish, and its figures."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from snakes.analysis import TurnChain, UnfinishableBoard, markov, turns_law
from snakes.analysis.markov import BUDGET_MASS, BoardTooSlow, check_budget
from snakes.analysis.moves import chain_key, roll_table, stuck_squares
from snakes.boards import load_board, shipped_boards
from snakes.engine import FINISH, JUNGLE, Board, Rules, make_board
from tests.analysis.helpers import ALL_RULES, BOARDS, rules_id, turn_ends

RULE_IDS = [rules_id(r) for r in ALL_RULES]


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
@pytest.mark.parametrize("board", BOARDS.values(), ids=BOARDS.keys())
def test_every_turn_matrix_matches_the_rules_written_again_from_the_page(
    board: Board, rules: Rules
) -> None:
    chain = TurnChain.of(board, rules)
    for sixes, matrix in enumerate(chain.turn_matrices):
        for square in range(FINISH):
            expected = np.zeros(FINISH + 1)
            for end, chance in turn_ends(board, rules, square, sixes).items():
                expected[end] = float(chance)
            assert matrix[square] == pytest.approx(expected, abs=1e-15), (sixes, square)
    assert len(chain.turn_matrices) == (3 if rules.six_again else 1)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_each_row_of_a_turn_is_a_distribution_and_100_keeps_a_finished_token(
    rules: Rules,
) -> None:
    matrix = TurnChain.of(JUNGLE, rules).turn_matrix
    assert np.allclose(matrix.sum(axis=1), 1.0, atol=1e-14)
    assert matrix.min() >= 0
    assert matrix[FINISH, FINISH] == 1.0


def test_a_turn_from_97_on_the_jungle_board_is_worked_out_by_hand() -> None:
    # From 97 with both house rules: 1 -> 98, 2 -> 99 (snake to 27), 3 -> 100,
    # 4, 5 and 6 overshoot and stay on 97 (the six earns no bonus).
    row = TurnChain.of(JUNGLE, Rules()).turn_matrix[97]
    assert row[98] == row[27] == row[100] == pytest.approx(1 / 6)
    assert row[97] == pytest.approx(3 / 6)
    assert row[99] == 0


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULE_IDS)
def test_the_exact_mean_agrees_with_the_distribution_it_comes_with(rules: Rules) -> None:
    law = turns_law(JUNGLE, rules)
    turns = np.arange(len(law.pmf))
    assert law.tail < 1e-12
    assert float(law.pmf @ turns) == pytest.approx(law.mean, rel=1e-9)
    variance = float(law.pmf @ turns**2) - law.mean**2
    assert np.sqrt(variance) == pytest.approx(law.sd, rel=1e-8)


def test_with_neither_house_rule_a_bare_board_is_a_plain_renewal_race() -> None:
    # Without jumps, bonuses or exact finish, the mean rolls to reach 100 from square s
    # is m(s) = 1 + (m(s+1) + ... + m(s+6)) / 6, with m = 0 from 100 on.
    mean = [0.0] * 107
    for square in range(99, -1, -1):
        mean[square] = 1 + sum(mean[square + r] for r in range(1, 7)) / 6
    bare = make_board("bare", [], [])
    law = turns_law(bare, Rules(exact_finish=False, six_again=False))
    assert law.mean == pytest.approx(mean[0], rel=1e-12)
    # At least 17 rolls are needed (16 sixes reach 96). In 17 rolls, the sum reaches 100
    # when the 17 dice fall short of all-sixes (102) by at most 2: 1 + 17 + (17 + 136) ways.
    assert law.cdf[16] == 0
    assert law.pmf[17] == pytest.approx(171 / 6.0**17, rel=1e-9)


def test_a_turn_in_progress_counts_as_the_first_turn() -> None:
    chain = TurnChain.of(JUNGLE, Rules())
    # A token on 94 after two sixes: its die shows 1-5, and only a 6 would finish, so
    # this turn cannot finish it; whole turns follow.
    assert chain.cdf_by_sixes[2, 94, 1] == 0.0
    assert chain.cdf_by_sixes[0, 94, 1] == pytest.approx(1 / 6)
    # The same square after one six: the die still has a six.
    assert chain.cdf_by_sixes[1, 94, 1] == pytest.approx(1 / 6)


def test_percentiles_are_the_fewest_turns_reaching_each_chance() -> None:
    law = turns_law(JUNGLE, Rules())
    for q, value in ((0.1, law.p10), (0.5, law.median), (0.9, law.p90)):
        assert law.cdf[value] >= q > law.cdf[value - 1]
    assert (law.p10, law.median, law.p90) == (16, 42, 114)
    assert law.within(0) == 0.0 and law.within(10**6) == pytest.approx(1.0)


def test_a_board_that_can_trap_a_token_for_ever_is_refused() -> None:
    # Six snake heads in a row below 100 and no ladder past them: 100 is out of reach.
    trap = make_board("trap", [], [(94 + i, 10 + i) for i in range(6)])
    assert stuck_squares(roll_table(trap, Rules()))[:3] == [0, 1, 2]
    with pytest.raises(UnfinishableBoard, match="can never reach 100"):
        TurnChain.of(trap, Rules())


def test_squares_no_game_reaches_do_not_stop_a_board_from_being_analysed() -> None:
    # 94-98 are snake heads and 99 is a ladder bottom to 100: the only way home is to
    # land on 99. No square is a trap, though nearly every road leads back down.
    board = make_board("narrow", [(99, 100)], [(94 + i, 80 + i) for i in range(5)])
    law = turns_law(board, Rules())
    assert law.tail < 1e-12
    assert law.mean > turns_law(make_board("bare", [], []), Rules()).mean


def test_a_board_too_slow_to_work_out_is_refused_before_its_chain_is_built() -> None:
    # The same narrow road, but each snake drops to 50-54: a game lasts 240 turns on
    # average, and after the budget's 2,000 turns 1.3e-4 of the chance is still out.
    board = make_board("narrow", [(99, 100)], [(94 + i, 50 + i) for i in range(5)])
    with pytest.raises(BoardTooSlow, match="lasts 240 turns on average") as refused:
        TurnChain.of(board, Rules())
    assert refused.value.code == "board_too_slow"
    assert BUDGET_MASS < refused.value.unfinished < 2e-4


def test_every_shipped_board_fits_the_analysis_budget_under_every_house_rule() -> None:
    for shipped in shipped_boards():
        for exact, six in itertools.product((True, False), repeat=2):
            rules = Rules(exact_finish=exact, six_again=six)
            check_budget(shipped.board, rules)
            assert TurnChain.of(shipped.board, rules).tail < 1e-12, (shipped.name, rules)


def test_a_board_almost_never_finished_is_refused_and_keeps_nothing() -> None:
    # Snakes on every square but 4, 9, ..., 94, each back to 4: finishable, but a game
    # lasts about 3e14 turns. Its chain was once followed to 50,000 turns (1 s of CPU and
    # 121 MB, kept); now one matrix power refuses it (docs/SECURITY.md has the figures).
    slow = make_board("slow", [], [(s, 4) for s in range(5, 100) if s % 5 != 4])
    with pytest.raises(BoardTooSlow, match=r"after 2,000 turns") as refused:
        TurnChain.of(slow, Rules())
    # The mean comes from solving a near-singular system: its last digits follow the
    # machine's BLAS (294,778,… on one, 294,879,… on another), so only its size is held.
    lasts = re.search(r"lasts ([\d,]+) turns", str(refused.value))
    assert lasts is not None
    assert 2.9e14 < float(lasts.group(1).replace(",", "")) < 3.0e14
    assert chain_key(slow, Rules()) not in markov._custom_chains


def test_custom_boards_chains_are_bounded_in_bytes_and_leave_the_shipped_ones_alone() -> None:
    jungle = TurnChain.of(JUNGLE, Rules())
    kept = []
    for end in range(60, 80):  # twenty different boards, each a chain of its own
        board = make_board("custom", [(3, end)], [(97, 2)])
        kept.append(TurnChain.of(board, Rules()))
    assert markov._custom_chains.currsize <= markov.CUSTOM_CHAIN_BYTES
    assert len(markov._custom_chains) < len(kept)  # the oldest went
    assert TurnChain.of(JUNGLE, Rules()) is jungle


def test_chains_are_built_once_per_board_and_house_rules() -> None:
    short = load_board("short")
    first = TurnChain.of(short, Rules())
    assert TurnChain.of(short, Rules(finish=Rules().finish)) is first
    assert TurnChain.of(short, Rules(six_again=False)) is not first
