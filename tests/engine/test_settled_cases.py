"""The cases PRODUCT.md settles where the how-to-play page leaves a question open.

docs/RULES.md maps each settled case to its test here.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from snakes.engine import (
    JUNGLE,
    MAX_SEATS,
    MIN_SEATS,
    Abandon,
    Board,
    BonusRoll,
    Climbed,
    Event,
    Finish,
    Finished,
    ForbiddenRoll,
    GameEnded,
    GameOver,
    GameState,
    Leave,
    Left,
    Moved,
    NotYourTurn,
    Overshot,
    Remove,
    Roll,
    Rolled,
    Rules,
    ScriptedDice,
    SeatNotRacing,
    Skip,
    Skipped,
    Slid,
    Status,
    TurnPassed,
    UnknownSeat,
    apply,
    make_board,
    new_game,
    placings,
    roll,
)
from snakes.engine.actions import Action

LOS = Rules(finish=Finish.LAST_ONE_STANDING)


def play(state: GameState, *moves: tuple[int, int]) -> tuple[GameState, list[Event]]:
    """Apply ``Roll(seat, value)`` for each ``(seat, value)``; the final state and all events."""
    events: list[Event] = []
    for seat, value in moves:
        state, new = apply(state, Roll(seat, value))
        events += new
    return state, events


def act(state: GameState, *actions: Action) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for action in actions:
        state, new = apply(state, action)
        events += new
    return state, events


def standing_on(
    *squares: int, rules: Rules | None = None, board: Board = JUNGLE, first: int = 0
) -> GameState:
    """A game with seat i on ``squares[i]``.

    The squares are set directly because only the next actions matter to these tests.
    """
    return replace(new_game(len(squares), rules, board, first=first), positions=tuple(squares))


def result(state: GameState) -> list[tuple[int, int, Status]]:
    """The result screen as (seat, square, status), in place order."""
    rows = placings(state)
    assert [p.place for p in rows] == list(range(1, len(rows) + 1))
    return [(p.seat, p.square, p.status) for p in rows]


class RecordingDice:
    """A dice source that remembers how many faces the engine asked for."""

    def __init__(self, values: list[int]) -> None:
        self.asked: list[int] = []
        self._script = ScriptedDice(values)

    def roll(self, faces: int) -> int:
        self.asked.append(faces)
        return self._script.roll(faces)


# Sixes roll again, and how they meet snakes, ladders, the finish and overshoots


@pytest.mark.parametrize("rules", [Rules(), LOS], ids=["classic", "last-one-standing"])
def test_a_six_that_overshoots_stays_put_without_a_bonus_and_passes_the_turn(
    rules: Rules,
) -> None:
    state, events = play(standing_on(96, 10, rules=rules), (0, 6))
    assert events == [Rolled(0, 6, False), Overshot(0, 96, 6, 4), TurnPassed(0, 1)]
    assert state.positions == (96, 10) and state.turn == 1 and state.sixes == 0


def test_a_second_six_that_overshoots_also_ends_the_turn() -> None:
    state, events = play(standing_on(90, 10), (0, 6), (0, 6))
    assert events[-2:] == [Overshot(0, 96, 6, 4), TurnPassed(0, 1)]
    assert state.positions == (96, 10) and state.turn == 1 and state.sixes == 0


def test_a_six_onto_a_snake_slides_and_still_earns_the_bonus() -> None:
    state, events = play(standing_on(41, 10), (0, 6))
    assert events == [Rolled(0, 6, False), Moved(0, 41, 47), Slid(0, 47, 26), BonusRoll(0)]
    assert state.positions[0] == 26 and state.turn == 0 and state.is_bonus_roll


def test_a_six_onto_a_ladder_climbs_and_earns_the_bonus() -> None:
    state, events = play(standing_on(22, 10), (0, 6))
    assert events == [Rolled(0, 6, False), Moved(0, 22, 28), Climbed(0, 28, 84), BonusRoll(0)]
    assert state.positions[0] == 84 and state.turn == 0 and state.is_bonus_roll


def test_a_six_that_finishes_in_classic_wins_and_voids_the_bonus() -> None:
    state, events = play(standing_on(94, 10), (0, 6))
    assert events == [
        Rolled(0, 6, False),
        Moved(0, 94, 100),
        Finished(0, 1),
        GameEnded((0,), 0, "finished"),
    ]
    assert state.over and state.sixes == 0 and not state.is_bonus_roll


def test_a_six_that_finishes_in_last_one_standing_voids_the_bonus_and_the_next_racer_rolls() -> (
    None
):
    state, events = play(standing_on(10, 94, 20, rules=LOS, first=1), (1, 6))
    assert events == [Rolled(1, 6, False), Moved(1, 94, 100), Finished(1, 1), TurnPassed(1, 2)]
    assert not state.over and state.turn == 2 and state.sixes == 0
    with pytest.raises(NotYourTurn):  # the bonus roll is void
        apply(state, Roll(1, 3))


def test_the_roll_after_two_sixes_is_drawn_from_1_to_5() -> None:
    dice = RecordingDice([6, 6, 5])
    state = new_game(2)
    events: list[Event] = []
    for _ in range(3):
        state, new = roll(state, dice)
        events += new
    assert dice.asked == [6, 6, 5]  # the engine asks the dice source for a 5-faced die
    assert [e.value for e in events if isinstance(e, Rolled)] == [6, 6, 5]
    assert state.turn == 1 and state.positions == (17, 0)


def test_a_third_six_is_forbidden_and_changes_nothing() -> None:
    two_sixes, _ = play(new_game(2), (0, 6), (0, 6))
    assert two_sixes.faces == 5 and two_sixes.to_data()["faces"] == 5
    with pytest.raises(ForbiddenRoll):
        apply(two_sixes, Roll(0, 6))
    assert two_sixes.sixes == 2 and two_sixes.turn == 0 and two_sixes.positions == (12, 0)


def test_the_count_of_sixes_starts_again_every_turn() -> None:
    state, _ = play(new_game(2), (0, 6), (0, 6), (0, 3))  # A: 6, 6, 3 -> 15
    assert state.sixes == 0 and state.faces == 6
    state, _ = play(state, (1, 2))
    state, events = play(state, (0, 6), (0, 6))  # A may throw two sixes again
    assert events.count(BonusRoll(0)) == 2
    assert state.positions[0] == 48  # 15 + 6 = 21 climbs to 42, + 6 = 48
    assert state.sixes == 2 and state.faces == 5


def test_a_leave_mid_turn_resets_the_six_count_for_the_next_seat() -> None:
    state, _ = play(new_game(3), (0, 6), (0, 6))
    state, events = act(state, Leave(0))
    assert events == [Left(0, False), TurnPassed(None, 1)]
    assert state.turn == 1 and state.sixes == 0 and state.faces == 6


def test_six_again_off_a_six_is_ordinary_and_the_die_keeps_six_faces() -> None:
    state = new_game(1, Rules(six_again=False))
    for expected in (6, 12, 18):
        assert state.faces == 6
        state, events = play(state, (0, 6))
        assert not any(isinstance(e, BonusRoll) for e in events)
        assert events[-1] == TurnPassed(0, 0)
        assert state.positions == (expected,) and state.sixes == 0
    # Two players, six_again off: a six passes the turn.
    state, events = play(new_game(2, Rules(six_again=False)), (0, 6))
    assert state.turn == 1 and events[0] == Rolled(0, 6, False)


@pytest.mark.parametrize("value", [3, 4, 6])
def test_exact_finish_off_reaching_or_passing_100_finishes_on_100(value: int) -> None:
    state, events = play(standing_on(97, 10, rules=Rules(exact_finish=False)), (0, value))
    assert Moved(0, 97, 100) in events and Finished(0, 1) in events
    assert state.positions == (100, 10) and state.over and state.winner == 0


def test_exact_finish_off_in_last_one_standing_a_six_past_100_finishes_with_no_bonus() -> None:
    rules = Rules(finish=Finish.LAST_ONE_STANDING, exact_finish=False)
    state, events = play(standing_on(96, 10, rules=rules), (0, 6))
    assert events[-2:] == [Finished(0, 1), TurnPassed(0, 1)]
    assert state.positions == (100, 10) and state.turn == 1


# The board


def test_a_one_from_square_0_lands_on_1_and_climbs_to_38() -> None:
    state, events = play(new_game(2), (0, 1))
    assert events == [Rolled(0, 1, False), Moved(0, 0, 1), Climbed(0, 1, 38), TurnPassed(0, 1)]
    assert state.positions == (38, 0)


def test_a_ladder_to_100_finishes() -> None:
    lift = make_board("lift", ladders=[(50, 100)], snakes=[])
    state, events = play(standing_on(45, 10, board=lift), (0, 5))
    assert events == [
        Rolled(0, 5, False),
        Moved(0, 45, 50),
        Climbed(0, 50, 100),
        Finished(0, 1),
        GameEnded((0,), 0, "finished"),
    ]
    assert state.over and state.winner == 0


def test_a_ladder_to_100_reached_with_a_six_still_voids_the_bonus() -> None:
    lift = make_board("lift", ladders=[(50, 100)], snakes=[])
    state, events = play(standing_on(10, 44, 20, rules=LOS, board=lift, first=1), (1, 6))
    assert events[-2:] == [Finished(1, 1), TurnPassed(1, 2)]
    assert state.turn == 2


# Turn order and seats


def test_turn_order_is_seat_order_from_the_first_seat() -> None:
    state = new_game(4, first=2)
    order = []
    for _ in range(8):
        assert state.turn is not None
        order.append(state.turn)
        state, _ = play(state, (state.turn, 2))
    assert order == [2, 3, 0, 1, 2, 3, 0, 1]


@pytest.mark.parametrize("first", [-1, 3, 6])
def test_first_must_be_one_of_the_seats(first: int) -> None:
    with pytest.raises(ValueError, match="first seat"):
        new_game(3, first=first)


@pytest.mark.parametrize("seats", [0, 7, -1])
def test_new_game_refuses_seat_counts_outside_1_to_6(seats: int) -> None:
    with pytest.raises(ValueError, match="1-6 seats"):
        new_game(seats)


def test_new_game_allows_a_one_seat_solo_race_up_to_six_seats() -> None:
    assert (MIN_SEATS, MAX_SEATS) == (1, 6)
    solo = new_game(1)
    assert solo.positions == (0,) and solo.turn == 0
    solo, events = play(solo, (0, 3))
    assert solo.turn == 0 and events[-1] == TurnPassed(0, 0)  # the solo seat rolls again
    assert new_game(6).positions == (0,) * 6


# Leaving


def test_classic_leaver_the_game_goes_on_without_them() -> None:
    state = standing_on(10, 20, 30)
    state, events = act(state, Leave(1))
    assert events == [Left(1, False)]
    assert not state.over and state.turn == 0 and state.racing == (0, 2)
    state, _ = play(state, (0, 2))
    assert state.turn == 2  # seat 1 is passed over
    with pytest.raises(SeatNotRacing):
        apply(state, Leave(1))


def test_classic_the_one_player_left_wins_at_once() -> None:
    state = standing_on(10, 20, 30)
    state, _ = act(state, Leave(1))
    state, events = act(state, Remove(0))  # removed by the host counts as leaving
    assert events == [Left(0, True), GameEnded((), 2, "last-player")]
    assert state.over and state.end_reason == "last-player" and state.winner == 2
    assert state.standings == ()
    assert result(state) == [
        (2, 30, Status.WINNER),
        (0, 10, Status.LEFT),  # the later leaver above the earlier one
        (1, 20, Status.LEFT),
    ]


def test_last_one_standing_leavers_rank_after_all_finishers_later_above_earlier() -> None:
    state = standing_on(96, 97, 50, 60, rules=LOS)
    state, _ = act(state, Leave(3))  # the earlier leaver
    state, _ = play(state, (0, 2), (1, 3))  # seat 1 finishes first
    state, _ = act(state, Leave(2))  # the later leaver, on its own turn
    assert not state.over and state.turn == 0
    state, events = play(state, (0, 2))
    assert state.over and events[-1] == GameEnded((1, 0), None, "finished")
    assert result(state) == [
        (1, 100, Status.FINISHED),
        (0, 100, Status.FINISHED),
        (2, 50, Status.LEFT),
        (3, 60, Status.LEFT),
    ]


def test_last_one_standing_goes_on_with_a_single_racer_after_the_others_leave() -> None:
    state, _ = act(standing_on(10, 20, 30, rules=LOS), Leave(1), Leave(2))
    assert not state.over and state.racing == (0,)
    state, events = play(state, (0, 3))
    assert events[-1] == TurnPassed(0, 0)


def test_everyone_leaving_ends_the_game() -> None:
    state, events = act(new_game(1), Leave(0))
    assert state.over and events[-1] == GameEnded((), None, "everyone-left")
    assert result(state) == [(0, 0, Status.LEFT)]


# Skips (online countdowns) and away


def test_skipping_a_bonus_roll_loses_it_and_does_not_count_as_missed() -> None:
    state, _ = play(standing_on(11, 20), (0, 6))
    state, events = act(state, Skip(0))
    assert events == [Skipped(0, bonus_lost=True, missed=0), TurnPassed(0, 1)]
    assert state.positions == (17, 20) and state.missed == (0, 0) and state.turn == 1
    assert state.sixes == 0


def test_three_skipped_turns_in_a_row_show_a_seat_as_away_until_it_rolls() -> None:
    state = new_game(2)
    missed = []
    for _ in range(3):
        assert not state.is_away(0)
        state, events = act(state, Skip(0))
        skipped = events[0]
        assert isinstance(skipped, Skipped)
        missed.append(skipped.missed)
        state, _ = play(state, (1, 2))
    assert missed == [1, 2, 3]
    assert state.is_away(0) and not state.is_away(1)
    state, _ = act(state, Skip(0), Roll(1, 2))  # still away while skipped
    assert state.is_away(0) and state.missed[0] == 4
    state, _ = play(state, (0, 3))
    assert not state.is_away(0) and state.missed[0] == 0


def test_skipped_turns_are_only_counted_in_a_row() -> None:
    state, _ = act(new_game(2), Skip(0), Roll(1, 2), Skip(0), Roll(1, 2), Roll(0, 3))
    assert state.missed == (0, 0)
    state, _ = act(state, Roll(1, 2), Skip(0))
    assert state.missed == (1, 0)


# Results


def test_abandon_ranks_those_still_racing_by_square_as_did_not_finish() -> None:
    state = standing_on(30, 70, 50, 90)
    state, _ = act(state, Leave(3))
    state, events = act(state, Abandon())
    assert events == [GameEnded((), None, "abandoned")]
    assert state.over and state.end_reason == "abandoned" and state.winner is None
    assert result(state) == [
        (1, 70, Status.DID_NOT_FINISH),
        (2, 50, Status.DID_NOT_FINISH),
        (0, 30, Status.DID_NOT_FINISH),
        (3, 90, Status.LEFT),
    ]


def test_abandon_in_last_one_standing_keeps_the_finishers_first() -> None:
    state, _ = play(standing_on(97, 40, 60, rules=LOS), (0, 3))
    state, _ = act(state, Abandon())
    assert result(state) == [
        (0, 100, Status.FINISHED),
        (2, 60, Status.DID_NOT_FINISH),
        (1, 40, Status.DID_NOT_FINISH),
    ]


def test_classic_result_winner_then_others_by_square_not_finished_then_leavers() -> None:
    state = standing_on(97, 40, 60, 80, 20)
    state, _ = act(state, Leave(3), Leave(4))
    state, _ = play(state, (0, 3))
    assert state.over and state.winner == 0
    assert result(state) == [
        (0, 100, Status.FINISHED),
        (2, 60, Status.NOT_FINISHED),
        (1, 40, Status.NOT_FINISHED),
        (4, 20, Status.LEFT),
        (3, 80, Status.LEFT),
    ]


def test_equal_squares_are_listed_in_seat_order() -> None:
    state, _ = act(standing_on(30, 50, 50, 30), Abandon())
    assert [seat for seat, _, _ in result(state)] == [1, 2, 0, 3]


def test_a_game_in_progress_lists_everyone_as_racing() -> None:
    state, _ = play(standing_on(97, 40, 60, rules=LOS), (0, 3))
    assert result(state) == [
        (0, 100, Status.FINISHED),
        (2, 60, Status.RACING),
        (1, 40, Status.RACING),
    ]


# Refusals: a typed error and an unchanged state


def test_rolling_for_the_wrong_seat_is_refused_and_changes_nothing() -> None:
    state, _ = play(new_game(3), (0, 4))
    before = state
    for action in (Roll(0, 3), Roll(2, 3), Skip(2)):
        with pytest.raises(NotYourTurn) as refused:
            apply(state, action)
        assert refused.value.code == "not_your_turn"
    assert state == before and state.turn == 1 and state.version == 1


@pytest.mark.parametrize(
    "action", [Roll(0, 3), Roll(1, 3), Skip(0), Leave(1), Remove(1), Abandon()], ids=repr
)
def test_any_action_after_the_game_is_over_is_refused(action: Action) -> None:
    state, _ = play(standing_on(97, 10), (0, 3))
    assert state.over
    with pytest.raises(GameOver):
        apply(state, action)


def test_rolling_with_dice_after_the_game_is_over_is_refused() -> None:
    state, _ = play(standing_on(97, 10), (0, 3))
    with pytest.raises(GameOver):
        roll(state, ScriptedDice([3]))


@pytest.mark.parametrize(
    "action", [Roll(2, 3), Roll(-1, 3), Skip(5), Leave(2), Remove(-1)], ids=repr
)
def test_an_unknown_seat_is_refused(action: Action) -> None:
    state = new_game(2)
    with pytest.raises(UnknownSeat):
        apply(state, action)


def test_leaving_twice_or_after_finishing_is_refused() -> None:
    state, _ = play(standing_on(97, 10, 20, rules=LOS), (0, 3))
    state, _ = act(state, Leave(1))
    for seat in (0, 1):
        with pytest.raises(SeatNotRacing):
            apply(state, Leave(seat))


@pytest.mark.parametrize("value", [0, 7, -1, True, False, 3.0, "3", None], ids=repr)
def test_values_that_are_not_faces_of_the_die_are_forbidden(value: object) -> None:
    state = new_game(2)
    with pytest.raises(ForbiddenRoll) as refused:
        apply(state, Roll(0, value))  # type: ignore[arg-type]
    assert refused.value.code == "forbidden_roll"


@pytest.mark.parametrize("seat", [1.0, "1", None, True], ids=repr)
def test_a_seat_that_is_not_a_whole_number_is_an_unknown_seat(seat: object) -> None:
    state = new_game(2, first=1)
    for action in (Roll(seat, 3), Skip(seat), Leave(seat)):  # type: ignore[arg-type]
        with pytest.raises(UnknownSeat):
            apply(state, action)


def test_the_version_goes_up_by_one_per_accepted_action_and_not_on_a_refusal() -> None:
    state = new_game(3)
    assert state.version == 0
    accepted: list[Action] = [Roll(0, 6), Roll(0, 2), Skip(1), Leave(1), Roll(2, 3), Abandon()]
    for count, action in enumerate(accepted, start=1):
        assert state.turn is not None
        with pytest.raises(ForbiddenRoll):  # a refused action in between changes nothing
            apply(state, Roll(state.turn, 7))
        state, _ = apply(state, action)
        assert state.version == count
    with pytest.raises(GameOver):
        apply(state, Roll(0, 3))
    assert state.version == len(accepted)
