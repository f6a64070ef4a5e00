"""Game records: they round-trip through JSON and replay to the identical state."""

from __future__ import annotations

import json
from typing import Any

import pytest

from snakes.engine import (
    ENGINE_VERSION,
    JUNGLE,
    Abandon,
    Finish,
    GameRecord,
    GameState,
    Leave,
    RecordError,
    Remove,
    Roll,
    Rules,
    SeatInfo,
    SeededDice,
    Skip,
    action_from_data,
    action_to_data,
    apply,
    make_board,
    new_game,
    replay,
    roll,
    start_state,
)
from snakes.engine.actions import Action

SEATS = (SeatInfo("Ana", "red"), SeatInfo("Bén", "blue"), SeatInfo("李", "green"))
LIFT = make_board("lift", ladders=[(3, 60), (50, 100)], snakes=[(99, 1), (70, 8)])


def play_seeded(
    seed: int, rules: Rules, seats: int = 3, first: int = 0
) -> tuple[GameState, list[Action]]:
    """A whole game with seeded dice, plus one skip and one leave along the way."""
    state = new_game(seats, rules, first=first)
    dice = SeededDice(seed)
    actions: list[Action] = []
    while not state.over:
        assert len(actions) < 5000
        action: Action
        assert state.turn is not None
        if len(actions) == 3:
            action = Skip(state.turn)
        elif len(actions) == 7 and seats > 2:
            action = Leave(state.racing[-1])
        else:
            action = Roll(state.turn, dice.roll(state.faces))
        state, _ = apply(state, action)
        actions.append(action)
    return state, actions


def a_record(**changes: Any) -> GameRecord:
    fields: dict[str, Any] = {
        "seats": SEATS,
        "actions": (Roll(1, 6), Roll(1, 2), Skip(2), Leave(0), Roll(1, 1), Remove(1)),
        "rules": Rules(finish=Finish.LAST_ONE_STANDING, exact_finish=False),
        "board": LIFT,
        "first": 1,
    }
    fields.update(changes)
    return GameRecord(**fields)


def test_a_record_round_trips_through_json() -> None:
    record = a_record(actions=(*a_record().actions[:-1], Abandon()))
    text = record.to_json()
    assert GameRecord.from_json(text) == record
    assert GameRecord.from_data(json.loads(text)) == record
    assert "李" in text  # names are kept as written, not escaped


def test_a_record_keeps_the_engine_version_rules_board_seats_and_every_action() -> None:
    data = a_record().to_data()
    assert data["engine_version"] == ENGINE_VERSION
    assert data["rules"] == {
        "finish": "last-one-standing",
        "exact_finish": False,
        "six_again": True,
    }
    assert data["board"] == LIFT.to_data()
    assert data["seats"] == [
        {"name": "Ana", "colour": "red"},
        {"name": "Bén", "colour": "blue"},
        {"name": "李", "colour": "green"},
    ]
    assert data["first"] == 1
    assert data["actions"] == [
        {"type": "roll", "seat": 1, "value": 6},
        {"type": "roll", "seat": 1, "value": 2},
        {"type": "skip", "seat": 2},
        {"type": "leave", "seat": 0},
        {"type": "roll", "seat": 1, "value": 1},
        {"type": "remove", "seat": 1},
    ]


def test_a_minimal_record_defaults_to_the_classic_rules_and_the_jungle_board() -> None:
    record = GameRecord.from_json('{"seats": [{"name": "Ana"}, {"name": "Ben"}]}')
    assert record.rules == Rules() and record.board == JUNGLE and record.first == 0
    assert record.actions == () and record.engine_version == ENGINE_VERSION
    assert record.seats == (SeatInfo("Ana"), SeatInfo("Ben"))
    assert start_state(record) == new_game(2)


def test_replay_reproduces_the_state_of_the_recorded_actions() -> None:
    record = a_record()
    state = start_state(record)
    assert state == new_game(3, record.rules, LIFT, first=1)
    for action in record.actions:
        state, _ = apply(state, action)
    assert replay(record) == state
    # Seat 1: 6 (bonus), 2 -> 8; seat 2 skipped; seat 0 leaves on its turn; seat 1: 1 -> 9;
    # seat 1 removed on seat 2's turn: seat 2 races on alone.
    assert state.positions == (0, 9, 0) and state.leavers == (0, 1) and state.turn == 2
    assert state.missed == (0, 0, 1) and not state.over


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(finish=Finish.LAST_ONE_STANDING), Rules(exact_finish=False, six_again=False)],
    ids=lambda rules: f"{rules.finish.value}-{rules.exact_finish}-{rules.six_again}",
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replay_of_a_whole_game_reproduces_the_final_state(rules: Rules, seed: int) -> None:
    state, actions = play_seeded(seed, rules, first=seed % 3)
    record = GameRecord(seats=SEATS, actions=tuple(actions), rules=rules, first=seed % 3)
    assert replay(record) == state
    assert replay(GameRecord.from_json(record.to_json())) == state
    assert state.over and state.version == len(actions)


def test_with_actions_appends_to_a_record() -> None:
    record = GameRecord(seats=SEATS[:2]).with_actions([Roll(0, 3)]).with_actions([Roll(1, 4)])
    assert record.actions == (Roll(0, 3), Roll(1, 4))
    assert replay(record).positions == (3, 14)


def test_a_record_plays_on_from_where_it_stopped() -> None:
    state = replay(GameRecord(seats=SEATS[:2], actions=(Roll(0, 3),)))
    state, _ = roll(state, SeededDice(5))
    assert state.version == 2


# Malformed records


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "{",
        "[]",
        "null",
        '"a string"',
        "{}",
        '{"seats": 5}',
        '{"seats": null}',
        '{"seats": ["Ana"]}',
        '{"seats": [{"colour": "red"}]}',
        '{"seats": [{"name": "A"}], "actions": null}',
        '{"seats": [{"name": "A"}], "actions": 3}',
        '{"seats": [{"name": "A"}], "actions": [{"type": "jump", "seat": 0}]}',
        '{"seats": [{"name": "A"}], "actions": [{"type": "roll", "seat": 0}]}',
        '{"seats": [{"name": "A"}], "actions": [{"type": "roll", "seat": 0, "value": true}]}',
        '{"seats": [{"name": "A"}], "actions": [{"type": "roll", "seat": 0, "value": 2.0}]}',
        '{"seats": [{"name": "A"}], "actions": [{"type": "skip", "seat": "0"}]}',
        '{"seats": [{"name": "A"}], "actions": [{"type": "abandon", "seat": 0}]}',
        '{"seats": [{"name": "A"}], "actions": [["roll", 0, 3]]}',
        '{"seats": [{"name": "A"}], "rules": {"finish": "sudden-death"}}',
        '{"seats": [{"name": "A"}], "rules": {"six_again": "yes"}}',
        '{"seats": [{"name": "A"}], "rules": {"dice": 2}}',
        '{"seats": [{"name": "A"}], "rules": null}',
        '{"seats": [{"name": "A"}], "board": {"ladders": [[50, 40]]}}',
        '{"seats": [{"name": "A"}], "board": {"snakes": [[60, "3"]]}}',
        '{"seats": [{"name": "A"}], "first": "second"}',
        '{"seats": [{"name": "A"}], "first": null}',
    ],
)
def test_a_malformed_record_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError) as refused:
        GameRecord.from_json(text)
    assert refused.value.code == "invalid_record"


@pytest.mark.parametrize(
    "text",
    [
        '{"seats": [{"name": "A"}], "rules": []}',
        '{"seats": [{"name": "A"}], "rules": ""}',
        '{"seats": [{"name": "A"}], "board": []}',
        '{"seats": [{"name": "A"}], "board": null}',
        '{"seats": [{"name": "A"}], "board": "jungle"}',
    ],
)
def test_rules_or_board_that_are_not_objects_are_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        GameRecord.from_json(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"seats": []}',
        '{"seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}, {"name": "E"},'
        ' {"name": "F"}, {"name": "G"}]}',
        '{"seats": [{"name": "A"}, {"name": "B"}], "first": 2}',
        '{"seats": [{"name": "A"}, {"name": "B"}], "first": -1}',
    ],
)
def test_a_record_with_an_impossible_table_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        replay(GameRecord.from_json(text))


@pytest.mark.parametrize(
    "data",
    [
        {"type": "roll", "seat": 0},
        {"type": "roll", "seat": 0, "value": 3, "extra": 1},
        {"type": "roll", "seat": False, "value": 3},
        {"type": "leave"},
        {"type": "abandon", "seat": 0},
        {"type": "teleport", "seat": 0},
        {"seat": 0},
        ["roll", 0, 3],
        None,
    ],
    ids=repr,
)
def test_a_malformed_action_is_a_record_error(data: object) -> None:
    with pytest.raises(RecordError):
        action_from_data(data)


@pytest.mark.parametrize("action", [Roll(2, 6), Skip(0), Leave(1), Remove(5), Abandon()], ids=repr)
def test_every_action_round_trips_through_data(action: Action) -> None:
    assert action_from_data(action_to_data(action)) == action


# Tampered records: replay names the action that does not replay


def test_a_roll_changed_to_7_fails_replay_naming_the_action() -> None:
    record = GameRecord(seats=SEATS[:2], actions=(Roll(0, 3), Roll(1, 7), Roll(0, 2)))
    with pytest.raises(RecordError, match=r"^action 2 \(roll\) does not replay: roll 7 is not"):
        replay(record)


def test_a_roll_given_to_the_wrong_seat_fails_replay_naming_the_action() -> None:
    record = GameRecord(seats=SEATS[:2], actions=(Roll(0, 3), Roll(1, 4), Roll(1, 2)))
    with pytest.raises(RecordError, match=r"^action 3 \(roll\) does not replay: it is seat 0"):
        replay(record)


def test_a_tampered_record_from_json_fails_replay_naming_the_action() -> None:
    data = GameRecord(seats=SEATS, actions=(Roll(0, 6), Roll(0, 6), Roll(0, 5))).to_data()
    data["actions"][2]["value"] = 6  # a third six is never dealt
    with pytest.raises(RecordError, match=r"^action 3 \(roll\) does not replay: .*1-5"):
        replay(GameRecord.from_json(json.dumps(data)))


def test_an_action_after_the_end_fails_replay_naming_the_action() -> None:
    record = GameRecord(seats=SEATS[:2], actions=(Abandon(), Skip(0)))
    with pytest.raises(RecordError, match=r"^action 2 \(skip\) does not replay: the game is over"):
        replay(record)


@pytest.mark.parametrize(
    ("action", "problem"),
    [(Skip(1), "it is seat 0"), (Leave(4), "seat 4 is not in this game"), (Remove(-1), "seat -1")],
    ids=repr,
)
def test_other_tampered_actions_fail_replay_naming_the_action(action: Action, problem: str) -> None:
    record = GameRecord(seats=SEATS[:2], actions=(action,))
    with pytest.raises(
        RecordError, match=rf"^action 1 \({action.kind}\) does not replay: {problem}"
    ):
        replay(record)
