"""Exact win chances and places, from the start and from any moment of a game."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from snakes.analysis import analyze, live_odds, live_place_chances, play_order, turns_law
from snakes.boards import load_board
from snakes.engine import (
    JUNGLE,
    Board,
    Finish,
    GameState,
    Leave,
    Roll,
    Rules,
    SeededDice,
    apply,
    new_game,
    roll,
)
from tests.analysis.helpers import ALL_RULES, rules_id

LOS = Finish.LAST_ONE_STANDING


@pytest.mark.parametrize("rules", ALL_RULES, ids=[rules_id(r) for r in ALL_RULES])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_classic_win_chances_sum_to_one_and_favour_the_earlier_seats(
    rules: Rules, players: int
) -> None:
    result = analyze(JUNGLE, rules, players)
    assert sum(result.win_chance) == pytest.approx(1.0, abs=1e-11)
    assert result.unaccounted < 1e-11
    assert result.win_chance == sorted(result.win_chance, reverse=True)


def test_two_seats_on_the_jungle_board() -> None:
    # Seat 1 wins if it finishes at turn k while seat 2 has not finished by turn k - 1.
    law = turns_law(JUNGLE, Rules())
    before = np.concatenate([[0.0], law.cdf[:-1]])
    by_hand = float(np.sum(law.pmf * (1 - before)))
    assert analyze(JUNGLE, Rules(), 2).win_chance[0] == pytest.approx(by_hand, abs=1e-12)
    assert round(by_hand, 4) == 0.5051


@pytest.mark.parametrize("players", [2, 4, 6])
def test_last_one_standing_place_chances_form_a_doubly_stochastic_matrix(players: int) -> None:
    result = analyze(JUNGLE, Rules(finish=LOS), players)
    places = np.array(result.place_chance)
    assert places.shape == (players, players)
    assert np.allclose(places.sum(axis=1), 1.0, atol=1e-11)  # each seat takes one place
    assert np.allclose(places.sum(axis=0), 1.0, atol=1e-11)  # each place goes to one seat
    assert result.expected_place == pytest.approx(places @ np.arange(1, players + 1))
    assert sum(result.expected_place) == pytest.approx(players * (players + 1) / 2)
    # First place in Last One Standing is the Classic winner.
    assert places[:, 0] == pytest.approx(analyze(JUNGLE, Rules(), players).win_chance, abs=1e-12)


def test_a_solo_game_always_ends_with_the_one_seat_home() -> None:
    result = analyze(load_board("short"), Rules(), 1)
    assert result.win_chance == [pytest.approx(1.0)]
    assert result.place_chance == [[pytest.approx(1.0)]]
    assert result.winning_turns.mean == pytest.approx(result.law.mean)


def test_the_analysis_json_names_the_figures_the_command_promises() -> None:
    data = analyze(JUNGLE, Rules(finish=LOS), 3).to_data()
    for key in ("expected_turns", "median_turns", "percentiles", "win_chance", "place_chance"):
        assert key in data
    assert data["percentiles"] == {"p10": 16, "p50": 42, "p90": 114}
    steps = data["turn_distribution"]
    assert [s["turns"] for s in steps[:3]] == [1, 2, 3]
    assert steps[-1]["cumulative"] + data["distribution_tail"] == pytest.approx(1.0)


# ---- live odds -------------------------------------------------------------------------


def mid_game_states(
    players: int, rules: Rules, count: int, seed: int, board: Board = JUNGLE
) -> list[GameState]:
    """States met along real games, bonus rolls and finishes included."""
    dice = SeededDice(seed)
    states: list[GameState] = []
    state = new_game(players, rules, board)
    while len(states) < count:
        if state.over:
            state = new_game(players, rules, board)
        states.append(state)
        state, _ = roll(state, dice)
    return states


def after_each_face(state: GameState) -> list[GameState]:
    assert state.turn is not None
    return [apply(state, Roll(state.turn, v))[0] for v in range(1, state.faces + 1)]


@pytest.mark.parametrize("finish", list(Finish))
@pytest.mark.parametrize("rules", ALL_RULES, ids=[rules_id(r) for r in ALL_RULES])
def test_live_odds_now_are_the_average_of_the_odds_after_each_face_of_the_die(
    finish: Finish, rules: Rules
) -> None:
    # The odds of a fair game are a martingale: what we expect now is the average of what
    # we will expect after the next roll, whatever the sixes count, seat or square.
    rules = replace(rules, finish=finish)
    seen = set()
    for state in mid_game_states(3, rules, 200, seed=3, board=load_board("short")):
        if state.over:
            continue
        now = live_odds(state)
        later = np.mean([live_odds(s) for s in after_each_face(state)], axis=0)
        assert now == pytest.approx(later, abs=1e-9), state
        seen.add(("sixes", state.sixes))
        seen.add(("finished", len(state.standings)))
    # The states cover bonus rolls (both sixes counts) and, racing on, finished seats.
    assert {("sixes", 1), ("sixes", 2)} <= seen or not rules.six_again
    assert ("finished", 1) in seen or finish is Finish.CLASSIC


def test_at_the_start_live_odds_are_the_analysis_win_chances() -> None:
    for players in (2, 5):
        expected = analyze(JUNGLE, Rules(), players).win_chance
        assert live_odds(new_game(players)) == pytest.approx(expected, abs=1e-12)
    places = analyze(JUNGLE, Rules(finish=LOS), 4).expected_place
    assert live_odds(new_game(4, Rules(finish=LOS))) == pytest.approx(places, abs=1e-10)


def test_live_odds_follow_the_seat_whose_turn_it_is() -> None:
    # Seat 2 rolling first is in seat 1's shoes at the start.
    odds = live_odds(new_game(2, first=1))
    assert odds == pytest.approx(live_odds(new_game(2))[::-1])
    assert play_order(new_game(4, first=2)) == [2, 3, 0, 1]


def test_live_odds_count_the_sixes_already_rolled_this_turn() -> None:
    state = replace(new_game(2), positions=(94, 94))
    fresh, two_sixes = live_odds(state), live_odds(replace(state, sixes=2))
    # After two sixes seat 1's die shows 1-5: the 6 it needs is gone for this turn.
    assert two_sixes[0] < fresh[0]
    assert two_sixes[0] == pytest.approx(
        np.mean([live_odds(s)[0] for s in after_each_face(replace(state, sixes=2))])
    )


def test_a_finished_classic_game_has_a_certain_winner() -> None:
    state = replace(new_game(3), positions=(40, 97, 12), turn=1)
    over, _ = apply(state, Roll(1, 3))
    assert over.over and over.winner == 1
    assert live_odds(over) == [0.0, 1.0, 0.0]


def test_a_seat_that_left_has_no_chance_and_ranks_after_the_finishers() -> None:
    classic, _ = apply(new_game(3), Leave(1))
    odds = live_odds(classic)
    assert odds[1] == 0.0 and sum(odds) == pytest.approx(1.0)
    # Classic with everyone else gone: the last player wins at once.
    alone, _ = apply(classic, Leave(2))
    assert live_odds(alone) == [1.0, 0.0, 0.0]

    state = replace(new_game(4, Rules(finish=LOS)), positions=(100, 50, 60, 70), standings=(0,))
    state, _ = apply(replace(state, turn=1), Leave(2))
    places = live_odds(state)
    assert places[0] == 1.0 and places[2] == 4.0
    assert places[1] + places[3] == pytest.approx(2 + 3)
    chances = live_place_chances(state)
    assert chances[0] == [1.0, 0.0, 0.0, 0.0]
    assert chances[2] == [0.0, 0.0, 0.0, 1.0]
    assert np.allclose(np.sum(chances, axis=0), 1.0)


def test_live_place_chances_average_to_the_expected_places() -> None:
    for state in mid_game_states(4, Rules(finish=LOS), 60, seed=9)[10::10]:
        chances = np.array(live_place_chances(state))
        assert np.allclose(chances.sum(axis=1), 1.0)
        assert chances @ np.arange(1, 5) == pytest.approx(live_odds(state), abs=1e-9)
