# ruff: noqa: RUF002
# (RUF002: the docstrings quote the how-to-play page verbatim, en dashes included.)
"""The how-to-play page, sentence by sentence: each test proves one rule-bearing sentence.

docs/RULES.md maps every sentence of the page to the test here that proves it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from snakes.engine import (
    FINISH,
    JUNGLE,
    START,
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
    Jump,
    Leave,
    Moved,
    NotYourTurn,
    Overshot,
    Roll,
    Rolled,
    Rules,
    ScriptedDice,
    SecureDice,
    SeededDice,
    Skip,
    Skipped,
    Slid,
    Status,
    TurnPassed,
    apply,
    cell_of,
    make_board,
    new_game,
    placings,
    roll,
    square_at,
)

LOS = Rules(finish=Finish.LAST_ONE_STANDING)
PLAIN = make_board("plain", [], [])
"""A board without ladders or snakes: every move is plain arithmetic."""

# Copied by hand from the how-to-play page, "Every ladder and snake on the board"
# (seed/how-to-play.txt). Hard-coded on purpose: the suite must not read files outside
# the repository, and this list is what the board has to match.
PAGE_LADDERS = [
    (1, 38),
    (4, 14),
    (9, 31),
    (21, 42),
    (28, 84),
    (36, 44),
    (51, 67),
    (71, 91),
    (80, 98),
]
PAGE_SNAKES = [
    (16, 6),
    (47, 26),
    (49, 11),
    (56, 53),
    (62, 19),
    (64, 60),
    (87, 24),
    (93, 73),
    (95, 75),
    (99, 27),
]

# A real Classic race on the jungle board, seat 0 winning against seat 1:
#   seat 0: 1 (1 -> 38)     seat 1: 2 (-> 2)
#   seat 0: 6, 6, 1 (44, 50, 51 -> 67)     seat 1: 3 (-> 5)
#   seat 0: 4 (71 -> 91)    seat 1: 2 (-> 7)
#   seat 0: 6, 3 (97, 100)
SEAT_0_WINS = [1, 2, 6, 6, 1, 3, 4, 2, 6, 3]


def play(state: GameState, *moves: tuple[int, int]) -> tuple[GameState, list[Event]]:
    """Apply ``Roll(seat, value)`` for each ``(seat, value)``; the final state and all events."""
    events: list[Event] = []
    for seat, value in moves:
        state, new = apply(state, Roll(seat, value))
        events += new
    return state, events


def play_dice(state: GameState, values: list[int]) -> tuple[GameState, list[Event]]:
    """Let whoever's turn it is roll each scripted value in turn."""
    dice = ScriptedDice(values)
    events: list[Event] = []
    while dice.remaining:
        state, new = roll(state, dice)
        events += new
    return state, events


def standing_on(*squares: int, rules: Rules | None = None, board: Board = JUNGLE) -> GameState:
    """A game with seat i on ``squares[i]`` and seat 0 to roll.

    The squares are set directly because only the next rolls matter to these tests;
    how the tokens got there is covered elsewhere.
    """
    return replace(new_game(len(squares), rules, board), positions=tuple(squares))


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


# 1. Pick a mode


def test_a_game_seats_two_to_six_players() -> None:
    """How to play, 1. Pick a mode: "Choose Play with AI to race 1–5 automatic opponents,
    Pass & Play to share one device with 2–6 friends, or Play Online to race friends in a
    private room."
    """
    # You plus 1-5 AI opponents, or 2-6 friends: 2 to 6 seats in all (PRODUCT.md, Seats).
    for seats in range(2, 7):
        assert new_game(seats).positions == (START,) * seats
    for seats in (0, 7):
        with pytest.raises(ValueError):
            new_game(seats)


# 2. Choose your game rules


def test_the_finish_rule_is_picked_before_the_match_and_cannot_change() -> None:
    """How to play, 2. Choose your game rules: "Before the match starts, pick how it should
    finish."
    """
    state = new_game(2, LOS)
    assert state.rules.finish is Finish.LAST_ONE_STANDING
    state, _ = play(state, (0, 3), (1, 2))
    assert state.rules == LOS
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.rules.finish = Finish.CLASSIC  # type: ignore[misc]


def test_classic_the_first_to_reach_100_wins_and_the_game_ends_on_the_spot() -> None:
    """How to play, 2. Choose your game rules: "Classic Mode: the first player to reach 100
    wins and the game ends on the spot."
    """
    state, events = play_dice(new_game(2), SEAT_0_WINS)
    assert state.positions == (100, 7)
    assert state.over and state.turn is None
    assert state.winner == 0 and state.standings == (0,)
    assert events[-2:] == [Finished(0, 1), GameEnded((0,), 0, "finished")]
    with pytest.raises(GameOver):
        apply(state, Roll(1, 3))


def test_last_one_standing_locks_in_1st_2nd_3rd_while_the_rest_keep_racing() -> None:
    """How to play, 2. Choose your game rules: "Last One Standing: reaching 100 locks in your
    finishing position — 1st, 2nd, 3rd… — and the rest keep racing until everyone reaches
    100."
    """
    state = standing_on(96, 97, 94, rules=LOS)
    state, events = play(state, (0, 4))
    assert Finished(0, 1) in events and not state.over and state.turn == 1
    state, events = play(state, (1, 3))
    assert Finished(1, 2) in events and not state.over and state.turn == 2
    state, events = play(state, (2, 6))
    assert Finished(2, 3) in events and state.over
    assert state.standings == (0, 1, 2)
    assert state.positions == (100, 100, 100)


# 3. Roll the die


def test_only_the_seat_whose_turn_it_is_may_roll() -> None:
    """How to play, 3. Roll the die: "On your turn, tap the big Roll button." """
    state = new_game(3)
    for seat in (1, 2):
        with pytest.raises(NotYourTurn):
            apply(state, Roll(seat, 3))
    state, _ = play(state, (0, 3))
    assert state.turn == 1
    with pytest.raises(NotYourTurn):
        apply(state, Roll(0, 3))


def test_the_die_shows_one_to_six() -> None:
    """How to play, 3. Roll the die: "The die tumbles and shows 1–6, and your token walks that
    many squares along the numbered path — square 1 at the bottom-left, snaking row by row up
    to 100."
    """
    fresh = new_game(1)
    shown = set()
    for seed in range(200):
        _, events = roll(fresh, SeededDice(seed))
        assert isinstance(events[0], Rolled)
        shown.add(events[0].value)
    assert shown == {1, 2, 3, 4, 5, 6}
    for value in (0, 7):
        with pytest.raises(ForbiddenRoll):
            apply(fresh, Roll(0, value))


def test_the_token_walks_as_many_squares_as_the_die_shows() -> None:
    """How to play, 3. Roll the die: "The die tumbles and shows 1–6, and your token walks that
    many squares along the numbered path — square 1 at the bottom-left, snaking row by row up
    to 100."
    """
    for start in (0, 17, 50, 90):
        for value in range(1, 7):
            state, events = play(standing_on(start, board=PLAIN), (0, value))
            assert state.positions[0] == start + value
            assert Moved(0, start, start + value) in events


def test_square_1_is_bottom_left_and_the_path_snakes_row_by_row_up_to_100() -> None:
    """How to play, 3. Roll the die: "The die tumbles and shows 1–6, and your token walks that
    many squares along the numbered path — square 1 at the bottom-left, snaking row by row up
    to 100."
    """
    # (row, column) from the bottom-left corner.
    assert cell_of(1) == (0, 0)
    assert square_at(0, 0) == 1
    assert cell_of(10) == (0, 9)  # row 1 runs left to right
    assert cell_of(11) == (1, 9)  # row 2 comes back right to left
    assert cell_of(20) == (1, 0)
    assert cell_of(21) == (2, 0)
    assert cell_of(100) == (9, 0)  # the top row runs right to left, so 100 is top-left
    # Snaking: each square is next door to the one before it, one row per ten squares.
    for square in range(2, FINISH + 1):
        (r0, c0), (r1, c1) = cell_of(square - 1), cell_of(square)
        assert abs(r1 - r0) + abs(c1 - c0) == 1
        assert r1 == (square - 1) // 10


# 4. Climb ladders


@pytest.mark.parametrize(("bottom", "top"), PAGE_LADDERS, ids=str)
def test_landing_exactly_on_a_ladder_bottom_climbs_to_its_top(bottom: int, top: int) -> None:
    """How to play, 4. Climb ladders: "Land exactly on the bottom of a ladder and your token
    climbs straight to the top square."
    """
    state, events = play(standing_on(bottom - 1, 0), (0, 1))
    assert state.positions[0] == top
    assert events[1:3] == [Moved(0, bottom - 1, bottom), Climbed(0, bottom, top)]


def test_passing_over_a_ladder_bottom_does_not_climb() -> None:
    """How to play, 4. Climb ladders: "Land exactly on the bottom of a ladder and your token
    climbs straight to the top square."
    """
    # 26 + 3 walks over 28, the bottom of the 28 -> 84 ladder, and stops on 29.
    state, events = play(standing_on(26, 0), (0, 3))
    assert state.positions[0] == 29
    assert not any(isinstance(e, Climbed) for e in events)


def test_the_biggest_ladder_rockets_from_28_to_84() -> None:
    """How to play, 4. Climb ladders: "It is the fastest way up the board — the biggest ladder
    rockets you from 28 all the way to 84."
    """
    assert JUNGLE.biggest_ladder == Jump(28, 84)
    assert max(end - start for start, end in PAGE_LADDERS) == 84 - 28
    state, events = play(standing_on(24, 0), (0, 4))
    assert state.positions[0] == 84
    assert Climbed(0, 28, 84) in events


# 5. Dodge snakes


@pytest.mark.parametrize(("head", "tail"), PAGE_SNAKES, ids=str)
def test_landing_on_a_snake_head_slides_down_to_its_tail(head: int, tail: int) -> None:
    """How to play, 5. Dodge snakes: "Land on a snake's head and you slide down to its tail." """
    state, events = play(standing_on(head - 1, 0), (0, 1))
    assert state.positions[0] == tail
    assert events[1:3] == [Moved(0, head - 1, head), Slid(0, head, tail)]


def test_the_87_snake_drops_to_24_and_the_cruellest_waits_on_99_to_send_you_to_27() -> None:
    """How to play, 5. Dodge snakes: "The 87 snake drops you back to 24, and the cruellest one
    waits on 99 — one short of the finish — to send you down to 27."
    """
    state, events = play(standing_on(85, 96), (0, 2), (1, 3))
    assert state.positions == (24, 27)
    assert Slid(0, 87, 24) in events and Slid(1, 99, 27) in events
    assert JUNGLE.longest_snake == Jump(99, 27)
    assert FINISH - 99 == 1


@pytest.mark.parametrize(("head", "tail"), PAGE_SNAKES, ids=str)
def test_snake_tails_are_safe_only_heads_bite(head: int, tail: int) -> None:
    """How to play, 5. Dodge snakes: "Snake tails are safe — only heads bite." """
    state, events = play(standing_on(tail - 1, 0), (0, 1))
    assert state.positions[0] == tail
    assert kinds(events) == ["rolled", "moved", "turn_passed"]


# 6. Sixes roll again


def test_a_six_gives_one_bonus_roll_after_the_move() -> None:
    """How to play, 6. Sixes roll again: "Roll a six and you get one bonus roll after your
    move."
    """
    state, events = play(new_game(2), (0, 6))
    assert kinds(events) == ["rolled", "moved", "bonus_roll"]  # the move comes first
    assert state.positions == (6, 0) and state.turn == 0 and state.is_bonus_roll
    state, events = play(state, (0, 3))
    assert events[0] == Rolled(0, 3, bonus=True)
    assert state.positions == (31, 0)  # 6 + 3 lands on 9, the bottom of the 9 -> 31 ladder
    assert state.turn == 1  # one bonus roll only: a non-six after it ends the turn
    assert events[-1] == TurnPassed(0, 1)


def test_after_two_sixes_the_die_shows_1_to_5_and_a_scripted_third_six_is_refused() -> None:
    """How to play, 6. Sixes roll again: "But two sixes in a row is the limit — a third six is
    never dealt, so the run always ends with a 1–5."
    """
    state, _ = play(new_game(2), (0, 6), (0, 6))
    assert state.positions == (12, 0) and state.faces == 5
    dice = ScriptedDice([6, 5])
    with pytest.raises(ForbiddenRoll):
        roll(state, dice)
    state, events = roll(state, dice)
    assert events[0] == Rolled(0, 5, bonus=True)
    assert state.turn == 1 and state.faces == 6


def test_seeded_and_secure_dice_never_deal_a_third_six() -> None:
    """How to play, 6. Sixes roll again: "But two sixes in a row is the limit — a third six is
    never dealt, so the run always ends with a 1–5."
    """
    after_two_sixes, _ = play(new_game(2), (0, 6), (0, 6))
    third_rolls = []
    for seed in range(300):
        third_rolls.append(roll(after_two_sixes, SeededDice(seed)))
    secure = SecureDice()
    for _ in range(300):
        third_rolls.append(roll(after_two_sixes, secure))
    values = set()
    for state, events in third_rolls:
        assert isinstance(events[0], Rolled)
        values.add(events[0].value)
        assert state.turn == 1  # the run ended
    assert values <= {1, 2, 3, 4, 5}
    assert len(values) > 1


# 7. Finish exactly on 100


def test_the_exact_count_lands_on_100() -> None:
    """How to play, 7. Finish exactly on 100: "You need the exact count to land on square
    100."
    """
    state, events = play(standing_on(97, 0), (0, 3))
    assert state.positions[0] == 100 and Finished(0, 1) in events
    state, events = play(standing_on(97, 0), (0, 4))
    assert state.positions[0] == 97 and not any(isinstance(e, Finished) for e in events)


@pytest.mark.parametrize("value", [4, 5, 6])
def test_rolling_more_than_needed_stays_put_and_the_turn_passes(value: int) -> None:
    """How to play, 7. Finish exactly on 100: "If you roll more than you need, your token stays
    put and the turn passes."
    """
    state, events = play(standing_on(97, 0), (0, value))
    assert state.positions == (97, 0)
    assert events == [Rolled(0, value, False), Overshot(0, 97, value, 3), TurnPassed(0, 1)]
    assert state.turn == 1  # even a six passes the turn here


def test_first_on_100_wins_in_classic_and_takes_1st_place_in_last_one_standing() -> None:
    """How to play, 7. Finish exactly on 100: "In Classic Mode the first token on 100 wins the
    game; in Last One Standing it takes 1st place and the race continues until everyone
    finishes."
    """
    classic, events = play(standing_on(97, 50, 60), (0, 3))
    assert classic.over and classic.winner == 0
    assert events[-1] == GameEnded((0,), 0, "finished")

    los, events = play(standing_on(97, 50, 60, rules=LOS), (0, 3))
    assert Finished(0, 1) in events
    assert not los.over and los.turn == 1 and los.winner is None
    los, _ = play(los, (1, 2), (2, 3))
    assert not los.over and los.turn == 1  # seat 0 has finished and is passed over


# Good to know: Starting off the board


def test_everyone_starts_off_the_board_on_square_0() -> None:
    """How to play, Good to know, Starting off the board: "Everyone starts off the board on
    square 0."
    """
    assert START == 0
    for seats in range(1, 7):
        assert new_game(seats).positions == (0,) * seats


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_the_very_first_roll_enters_the_board_without_a_six(value: int) -> None:
    """How to play, Good to know, Starting off the board: "Your very first roll carries you
    straight onto the board — no six is needed to begin."
    """
    state, events = play(new_game(2), (0, value))
    assert events[1] == Moved(0, 0, value)
    assert state.positions[0] == JUNGLE.destination(value)  # 1 climbs to 38, 4 to 14


# Good to know: Sharing a square


def test_any_number_of_tokens_rest_on_the_same_square() -> None:
    """How to play, Good to know, Sharing a square: "Any number of tokens can rest on the same
    square."
    """
    state, _ = play(new_game(6), *((seat, 5) for seat in range(6)))
    assert state.positions == (5,) * 6


def test_there_is_no_capturing() -> None:
    """How to play, Good to know, Sharing a square: "There is no capturing in Snakes & Ladders
    — the race is against the board, not each other."
    """
    state, _ = play(new_game(2), (0, 5))
    state, events = play(state, (1, 5))  # lands on seat 0's square
    assert state.positions == (5, 5)  # seat 0 is not sent anywhere
    assert events == [Rolled(1, 5, False), Moved(1, 0, 5), TurnPassed(1, 0)]


# Good to know: House rules


def test_the_exact_finish_rule_can_be_toggled_off() -> None:
    """How to play, Good to know, House rules: "The exact-finish rule and the six-rolls-again
    rule can each be toggled in the Settings, so you can play the version your family
    grew up with."
    """
    state, events = play(standing_on(97, 0, rules=Rules(exact_finish=False)), (0, 5))
    assert state.positions[0] == 100 and state.over and state.winner == 0
    assert Moved(0, 97, 100) in events
    # The other house rule stays on: each toggle is independent.
    state, events = play(new_game(2, Rules(exact_finish=False)), (0, 6))
    assert BonusRoll(0) in events


def test_the_six_rolls_again_rule_can_be_toggled_off() -> None:
    """How to play, Good to know, House rules: "The exact-finish rule and the six-rolls-again
    rule can each be toggled in the Settings, so you can play the version your family
    grew up with."
    """
    state, events = play(new_game(2, Rules(six_again=False)), (0, 6))
    assert kinds(events) == ["rolled", "moved", "turn_passed"]
    assert state.turn == 1
    # The other house rule stays on: an overshoot still stays put.
    state, events = play(standing_on(97, 0, rules=Rules(six_again=False)), (0, 6))
    assert state.positions[0] == 97 and Overshot(0, 97, 6, 3) in events


# Good to know: Classic Mode vs Last One Standing


def test_classic_ends_the_instant_anyone_reaches_100_with_one_winner() -> None:
    """How to play, Good to know, Classic Mode vs Last One Standing: "Classic Mode ends the
    instant anyone reaches 100 — one winner, game over."
    """
    # Seat 1 reaches 100 with a six: the game ends there, the bonus roll never happens.
    state, events = play(standing_on(60, 94, 80), (0, 2), (1, 6))
    assert kinds(events)[-4:] == ["rolled", "moved", "finished", "game_ended"]
    assert state.over and state.standings == (1,) and state.winner == 1
    for action in (Roll(1, 3), Roll(2, 3), Skip(2), Leave(0)):
        with pytest.raises(GameOver):
            apply(state, action)


def test_last_one_standing_skips_finished_players_and_ends_when_all_reached_100() -> None:
    """How to play, Good to know, Classic Mode vs Last One Standing: "Last One Standing keeps
    the board alive: each player who reaches 100 is marked finished with their position, is
    skipped in the turn order, and the match ends only when every player has reached 100."
    """
    state = standing_on(10, 97, 20, rules=LOS)
    state, events = play(state, (0, 2), (1, 3))
    assert Finished(1, 1) in events and state.standings == (1,)
    assert events[-1] == TurnPassed(1, 2)
    turns = []
    for _ in range(4):
        assert state.turn is not None
        turns.append(state.turn)
        state, _ = play(state, (state.turn, 2))
    assert turns == [2, 0, 2, 0]  # seat 1 is skipped
    with pytest.raises(NotYourTurn):
        apply(state, Roll(1, 2))
    assert not state.over
    # Finish seat 2, then seat 0: only then is the match over.
    state = replace(state, positions=(state.positions[0], 100, 98))
    state, events = play(state, (2, 2))
    assert Finished(2, 2) in events and not state.over and state.turn == 0
    state = replace(state, positions=(95, 100, 100))
    state, events = play(state, (0, 5))
    assert state.over and events[-1] == GameEnded((1, 2, 0), None, "finished")


def test_the_result_shows_the_complete_finishing_order() -> None:
    """How to play, Good to know, Classic Mode vs Last One Standing: "The result screen then
    shows the complete finishing order."
    """
    state = standing_on(94, 96, 97, 98, rules=LOS)
    state, _ = play(state, (0, 2), (1, 4), (2, 1), (3, 2), (0, 4), (2, 2))
    assert state.over and state.standings == (1, 3, 0, 2)
    result = placings(state)
    assert [(p.place, p.seat, p.square, p.status) for p in result] == [
        (1, 1, 100, Status.FINISHED),
        (2, 3, 100, Status.FINISHED),
        (3, 0, 100, Status.FINISHED),
        (4, 2, 100, Status.FINISHED),
    ]


# Good to know: Every ladder and snake on the board


def test_the_jungle_board_has_exactly_the_nine_ladders_and_ten_snakes_of_the_page() -> None:
    """How to play, Good to know, Every ladder and snake on the board: "The jungle board uses
    these nine ladders and ten snakes."
    """
    assert [(j.start, j.end) for j in JUNGLE.ladders] == PAGE_LADDERS
    assert [(j.start, j.end) for j in JUNGLE.snakes] == PAGE_SNAKES
    assert len(PAGE_LADDERS) == 9 and len(PAGE_SNAKES) == 10
    assert dict(JUNGLE.jumps) == dict(PAGE_LADDERS + PAGE_SNAKES)
    assert JUNGLE.name == "jungle"


def test_a_ladder_works_only_from_its_bottom_and_a_snake_only_from_its_head() -> None:
    """How to play, Good to know, Every ladder and snake on the board: "A ladder only works
    from its bottom square and a snake only from its head; landing on the other end does
    nothing."
    """
    for bottom, top in PAGE_LADDERS:
        state, events = play(standing_on(top - 1, 0), (0, 1))
        assert state.positions[0] == top, (bottom, top)
        assert kinds(events) == ["rolled", "moved", "turn_passed"]
    for head, tail in PAGE_SNAKES:
        state, events = play(standing_on(tail - 1, 0), (0, 1))
        assert state.positions[0] == tail, (head, tail)
        assert kinds(events) == ["rolled", "moved", "turn_passed"]


# Playing with others


def test_an_online_turn_that_times_out_is_skipped_and_no_roll_is_made() -> None:
    """How to play, Playing with others: "In online rooms, everyone rolls from their own device
    — the room waits for the current player, and if someone stalls or disconnects, their turn
    is skipped after the countdown so nobody is stuck waiting; no roll is ever made on their
    behalf."
    """
    state = standing_on(30, 40)
    state, events = apply(state, Skip(0))
    assert events == [Skipped(0, bonus_lost=False, missed=1), TurnPassed(0, 1)]
    assert not any(isinstance(event, Rolled) for event in events)
    assert state.positions == (30, 40) and state.turn == 1
    # Only the seat the room is waiting for can be skipped.
    with pytest.raises(NotYourTurn):
        apply(state, Skip(0))
