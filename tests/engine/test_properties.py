"""Property tests: whole games under random rules, seats and dice keep the engine's invariants."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakes.engine import (
    FINISH,
    Action,
    Event,
    Finish,
    GameEnded,
    GameRecord,
    GameState,
    Leave,
    Remove,
    Roll,
    Rolled,
    Rules,
    SeatInfo,
    SeatNotRacing,
    SeededDice,
    Skip,
    TurnPassed,
    apply,
    new_game,
    placings,
    replay,
    roll,
)

MAX_ACTIONS = 20_000

rules_strategy = st.builds(
    Rules,
    finish=st.sampled_from(Finish),
    exact_finish=st.booleans(),
    six_again=st.booleans(),
)

# Interventions drawn by hypothesis: at action number `key`, someone skips, leaves or is
# removed. The seat number is taken modulo the table size.
interventions_strategy = st.dictionaries(
    keys=st.integers(min_value=0, max_value=300),
    values=st.tuples(st.sampled_from(["skip", "leave", "remove"]), st.integers(0, 5)),
    max_size=8,
)


@dataclass
class Game:
    """A game played to the end, with everything that happened along the way."""

    first_state: GameState
    state: GameState
    actions: list[Action] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)


def check_step(before: GameState, after: GameState, events: list[Event]) -> None:
    """The invariants that hold across every accepted action."""
    assert after.version == before.version + 1
    assert all(0 <= square <= FINISH for square in after.positions)
    # Standings and leavers only ever grow, and never overlap.
    assert after.standings[: len(before.standings)] == before.standings
    assert after.leavers[: len(before.leavers)] == before.leavers
    assert not set(after.standings) & set(after.leavers)
    # A finished seat stays on 100; a leaver's token stays where it was.
    for seat in before.standings:
        assert after.positions[seat] == FINISH
    for seat in before.leavers:
        assert after.positions[seat] == before.positions[seat]
    for seat in after.standings:
        assert after.positions[seat] == FINISH
    for seat in after.racing:
        assert after.positions[seat] < FINISH
    # Nobody who has finished or left is ever given the turn.
    assert (after.turn is None) == after.over
    if not after.over:
        assert after.turn in after.racing
    for event in events:
        if isinstance(event, TurnPassed):
            assert event.seat in after.racing
        if isinstance(event, Rolled):
            assert 1 <= event.value <= before.faces
    assert 0 <= after.sixes <= 2
    if not after.rules.six_again:
        assert after.sixes == 0 and after.faces == 6


def play(
    rules: Rules,
    players: int,
    first: int,
    seed: int,
    interventions: dict[int, tuple[str, int]] | None = None,
) -> Game:
    """Play a whole game with seeded dice (and any interventions), checking every step."""
    interventions = interventions or {}
    state = new_game(players, rules, first=first)
    game = Game(first_state=state, state=state)
    dice = SeededDice(seed)
    step = 0
    while not state.over:
        assert step < MAX_ACTIONS, "the game did not end"
        assert state.turn is not None
        before, turn = state, state.turn
        kind, seat = interventions.get(step, ("roll", 0))
        seat %= players
        action: Action | None = None
        if kind == "skip":
            action = Skip(turn)
        elif kind in ("leave", "remove"):
            action = Leave(seat) if kind == "leave" else Remove(seat)
            if seat not in state.racing:
                with pytest.raises(SeatNotRacing):
                    apply(state, action)
                action = None  # refused: the state is untouched, play on with a roll
        if action is None:
            state, events = roll(state, dice)
            # Keep the roll as an action, for the record.
            action = Roll(turn, next(e.value for e in events if isinstance(e, Rolled)))
        else:
            state, events = apply(state, action)
        check_step(before, state, events)
        game.actions.append(action)
        game.events.append(events)
        step += 1
    game.state = state
    return game


def check_sixes(game: Game) -> None:
    """A turn holds at most two sixes (when sixes roll again) and at most three rolls."""
    sixes = rolls = 0
    for events in game.events:
        for event in events:
            if isinstance(event, Rolled):
                rolls += 1
                sixes += event.value == 6
                assert sixes <= (2 if game.state.rules.six_again else 1)
                assert rolls <= (3 if game.state.rules.six_again else 1)
            if isinstance(event, TurnPassed | GameEnded):  # skips and leaves pass it too
                sixes = rolls = 0


def check_record(game: Game, first: int) -> None:
    """The record of the game replays to the identical state and survives JSON."""
    state = game.state
    seats = tuple(SeatInfo(f"Player {i + 1}") for i in range(state.players))
    record = GameRecord(seats=seats, actions=tuple(game.actions), rules=state.rules, first=first)
    assert replay(record) == state
    again = GameRecord.from_json(record.to_json())
    assert again == record
    assert replay(again) == state


def check_result(state: GameState) -> None:
    result = placings(state)
    assert sorted(p.seat for p in result) == list(range(state.players))
    assert [p.place for p in result] == list(range(1, state.players + 1))
    assert [p.seat for p in result[: len(state.standings)]] == list(state.standings)


@settings(max_examples=300, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(min_value=1, max_value=6),
    data=st.data(),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_whole_games_end_and_keep_every_invariant(
    rules: Rules, players: int, data: st.DataObject, seed: int
) -> None:
    first = data.draw(st.integers(min_value=0, max_value=players - 1), label="first")
    game = play(rules, players, first, seed)
    state = game.state
    assert state.over and state.end_reason == "finished" and state.leavers == ()
    if rules.finish is Finish.CLASSIC:
        # Classic ends at the first finisher: exactly one seat on the standings, the winner.
        assert len(state.standings) == 1 and state.winner == state.standings[0]
        assert state.positions.count(FINISH) == 1
    else:
        # Last One Standing: everyone finishes, each exactly once.
        assert sorted(state.standings) == list(range(players))
        assert state.positions == (FINISH,) * players and state.winner is None
    check_sixes(game)
    check_record(game, first)
    check_result(state)


@settings(max_examples=300, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(min_value=1, max_value=6),
    data=st.data(),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    interventions=interventions_strategy,
)
def test_games_with_skips_and_leavers_end_and_keep_every_invariant(
    rules: Rules,
    players: int,
    data: st.DataObject,
    seed: int,
    interventions: dict[int, tuple[str, int]],
) -> None:
    first = data.draw(st.integers(min_value=0, max_value=players - 1), label="first")
    game = play(rules, players, first, seed, interventions)
    state = game.state
    assert state.over
    assert sorted(state.standings + state.leavers + state.racing) == list(range(players))
    if state.end_reason == "finished":
        if rules.finish is Finish.CLASSIC:
            assert len(state.standings) == 1 and state.winner == state.standings[0]
        else:
            assert state.racing == () and state.standings
    elif state.end_reason == "last-player":
        assert rules.finish is Finish.CLASSIC and state.standings == ()
        assert len(state.racing) == 1 and state.winner == state.racing[0]
    else:
        assert state.end_reason == "everyone-left"
        assert state.standings == () and state.racing == ()
    check_sixes(game)
    check_record(game, first)
    check_result(state)
