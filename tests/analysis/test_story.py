"""The story of a game: the replay's positions are the engine's, its odds are live_odds'."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from snakes.analysis import live_odds
from snakes.analysis.story import game_story, story_odds
from snakes.cli.main import cli
from snakes.engine import (
    JUNGLE,
    Abandon,
    Action,
    Finish,
    GameState,
    Leave,
    Remove,
    Roll,
    Rules,
    Skip,
    apply,
    new_game,
    placings,
)
from snakes.engine.record import GameRecord, SeatInfo, replay

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")


def played_record(
    rules: Rules, players: int, first: int, seed: int, interventions: dict[int, tuple[str, int]]
) -> GameRecord:
    """A whole game: random rolls, with a skip, a leave, a removal or an abandon now and then."""
    dice = random.Random(seed)
    state = new_game(players, rules, first=first)
    actions: list[Action] = []
    while not state.over and len(actions) < 3000:
        action: Action
        what = interventions.get(len(actions))
        assert state.turn is not None
        if what and what[0] == "skip":
            action = Skip(state.turn)
        elif what and what[0] in ("leave", "remove") and state.racing:
            seat = state.racing[what[1] % len(state.racing)]
            action = Leave(seat) if what[0] == "leave" else Remove(seat)
        elif what and what[0] == "abandon":
            action = Abandon()
        else:
            action = Roll(state.turn, dice.randint(1, state.faces))
        state, _ = apply(state, action)
        actions.append(action)
    return GameRecord(
        seats=tuple(SeatInfo(NAMES[i]) for i in range(players)),
        actions=tuple(actions),
        rules=rules,
        first=first,
    )


def check_story(record: GameRecord) -> None:
    story = game_story(record)
    assert len(story.steps) == len(record.actions) + 1
    for step in story.steps:
        # The engine's own replay of the first `index` actions reaches the same state.
        engine = replay(
            GameRecord(
                record.seats, record.actions[: step.index], record.rules, record.board, record.first
            )
        )
        assert step.state == engine
        assert step.positions == engine.positions
        assert list(step.odds) == story_odds(engine)
        if not engine.over or engine.rules.finish is Finish.CLASSIC:
            assert list(step.odds) == live_odds(engine)
    final = story.final
    assert final == replay(record)
    if final.over and final.rules.finish is not Finish.CLASSIC:
        assert {p.seat: float(p.place) for p in placings(final)} == dict(
            enumerate(story.steps[-1].odds)
        )
    data = json.loads(json.dumps(story.to_data()))
    assert [s["positions"] for s in data["steps"]] == [list(s.positions) for s in story.steps]


rules_strategy = st.builds(
    Rules,
    finish=st.sampled_from(Finish),
    exact_finish=st.booleans(),
    six_again=st.booleans(),
)
interventions_strategy = st.dictionaries(
    keys=st.integers(min_value=0, max_value=200),
    values=st.tuples(
        st.sampled_from(["skip", "skip", "leave", "remove", "abandon"]), st.integers(0, 5)
    ),
    max_size=6,
)


@settings(max_examples=25, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(min_value=2, max_value=6),
    data=st.data(),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    interventions=interventions_strategy,
)
def test_every_step_of_a_replay_is_the_engines_state_with_its_exact_odds(
    rules: Rules,
    players: int,
    data: st.DataObject,
    seed: int,
    interventions: dict[int, tuple[str, int]],
) -> None:
    first = data.draw(st.integers(min_value=0, max_value=players - 1), label="first")
    check_story(played_record(rules, players, first, seed, interventions))


def test_a_record_with_ladders_snakes_sixes_overshoots_skips_and_leaves() -> None:
    rules = Rules(finish=Finish.LAST_ONE_STANDING)
    # Ana: 1 climbs to 38; Ben: 6, 6 then a 5 (two sixes, then the 1-5 die); Cy skips.
    actions: list[Action] = [Roll(0, 1), Roll(1, 6), Roll(1, 6), Roll(1, 4), Skip(2)]
    state = new_game(3, rules)
    for action in actions:
        state, _ = apply(state, action)
    assert state.positions == (38, 16 - 10, 0)  # Ben walked 6, 12, landed on 16: slid to 6
    kinds: set[str] = set()
    dice = random.Random(3)
    while not state.over:
        assert state.turn is not None
        if len(actions) == 40:
            action: Action = Leave(2)
        else:
            action = Roll(state.turn, dice.randint(1, state.faces))
        state, events = apply(state, action)
        kinds |= {e.kind for e in events}
        actions.append(action)
    record = GameRecord(
        seats=(SeatInfo("Ana"), SeatInfo("Ben"), SeatInfo("Cy")),
        actions=tuple(actions),
        rules=rules,
    )
    story = game_story(record)
    seen = {e.kind for step in story.steps for e in step.events}
    assert {"climbed", "slid", "bonus_roll", "overshot", "skipped", "left", "finished"} <= seen
    check_story(record)
    assert {m.kind for m in story.moments} == {"ladder", "snake"}
    ladder = next(m for m in story.moments if m.step == 1)
    assert (ladder.seat, ladder.kind, ladder.start, ladder.end) == (0, "ladder", 1, 38)
    # Ana's expected place fell (better) when she climbed.
    assert ladder.swing < 0


def analyze_json(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["analyze", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_the_charts_first_values_are_snakes_analyzes() -> None:
    for players in (2, 4):
        record = played_record(Rules(), players, 0, 7, {})
        story = game_story(record)
        assert story.kind == "win"
        assert story.steps[0].odds == tuple(analyze_json("--players", str(players))["win_chance"])  # type: ignore[arg-type]
    record = played_record(Rules(finish=Finish.LAST_ONE_STANDING, six_again=False), 3, 0, 8, {})
    story = game_story(record)
    assert story.kind == "place"
    expected = analyze_json("--players", "3", "--mode", "last-one-standing", "--no-six-again")[
        "expected_place"
    ]
    assert list(story.steps[0].odds) == expected


def test_every_state_of_a_story_is_a_state_snakes_analyze_would_price_the_same() -> None:
    """Mid-game odds read the same chain as the analysis: a fresh game at any seat order."""
    record = played_record(Rules(), 3, 2, 11, {})
    story = game_story(record)
    start: GameState = story.steps[0].state
    assert start.turn == 2
    # With seat 3 (index 2) first, seat 3 has seat 1's analyze figure.
    win = analyze_json("--players", "3")["win_chance"]
    assert [story.steps[0].odds[i] for i in (2, 0, 1)] == win


def test_the_jungle_boards_big_jumps_are_the_moments_that_swung_the_game() -> None:
    # Ana: 6, 6, 5 (17); Ben 3; Ana 6 (23), 5: 28 -> 84; Ben 2; Ana 6, 6 (96), 3: 99 -> 27.
    rolls = [(0, 6), (0, 6), (0, 5), (1, 3), (0, 6), (0, 5), (1, 2), (0, 6), (0, 6), (0, 3)]
    record = GameRecord(
        seats=(SeatInfo("Ana"), SeatInfo("Ben")),
        actions=tuple(Roll(seat, value) for seat, value in rolls),
        board=JUNGLE,
    )
    story = game_story(record)
    assert story.final.positions == (27, 5)
    jumps = {(m.start, m.end): m for m in story.moments}
    assert set(jumps) == {(28, 84), (99, 27)}
    assert jumps[28, 84].key and jumps[28, 84].swing > 0.05
    assert jumps[99, 27].key and jumps[99, 27].swing < -0.05
    assert (jumps[28, 84].step, jumps[99, 27].step) == (6, 10)
