"""The page's rules (js/rules.js) against the engine (snakes.engine), action by action.

Games at your own table (Play with AI, Pass & Play) run in the page, so the page holds a
copy of the rules. Here hypothesis builds whole games with the engine itself: every
shipped board, both finishes, both house rules, leaves, removals, skips, abandons, long
runs of rolls such as "Skip to results" plays, and actions the rules refuse (a roll out of
turn, a six on the five-faced die, a leave by a seat that is not racing, anything after
the end). Every action goes through both, and after each one they must agree: the same
events (every field), the same state (every field), or the same refusal (its code), with
the state left as it was.

Every case the page must get right (each end, each board, each refusal, the five-faced
die, ...) is a fixed game of tests/support/rules_games.py, replayed on every run as an
explicit example; tests/engine/test_rules_games.py checks that each still reaches its
case. The drawn games explore beyond them, and only their agreement is asserted: what
they happen to reach is chance.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, note, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

from snakes.engine import GameState, RuleError, apply, new_game, placings
from snakes.engine.actions import action_from_data
from snakes.engine.rules import Finish, Rules
from snakes.engine.state import state_to_snapshot
from tests.support.rules_games import (
    BAD,
    BOARDS,
    FIXED_GAMES,
    MAX_ACTIONS,
    Game,
    Step,
    build_game,
)

pytestmark = pytest.mark.browser

EXAMPLES = 200

# One call per game: the page's rules replay the actions, one answer per action.
JS_REPLAY = """async ([url, game]) => {
  const rules = await import(url);
  const table = { rules: rules.readRules(game.rules), jumps: rules.jumpsOf(game.board) };
  let state = rules.newGame(game.players, game.first);
  const answers = [];
  for (const action of game.actions) {
    try {
      const out = rules.apply(state, action, table);
      state = out.state;
      answers.push({ events: out.events, state });
    } catch (err) {
      if (!(err instanceof rules.RuleError)) throw err;
      answers.push({ error: err.code, state });
    }
  }
  return { answers, placings: rules.placings(state, table.rules),
           winner: rules.winner(state, table.rules), faces: rules.faces(state, table.rules) };
}"""


def engine_answers(game: Game) -> dict[str, Any]:
    """What the engine says, in the shape JS_REPLAY returns."""
    state: GameState = new_game(game.players, game.rules, game.board, first=game.first)
    answers: list[dict[str, Any]] = []
    for data in game.actions:
        action = action_from_data(data)
        try:
            state, events = apply(state, action)
        except RuleError as error:
            answers.append({"error": error.code, "state": state_to_snapshot(state)})
            continue
        answers.append({"events": [e.to_data() for e in events], "state": state_to_snapshot(state)})
    return json.loads(
        json.dumps(
            {
                "answers": answers,
                "placings": [
                    {"place": p.place, "seat": p.seat, "square": p.square, "status": p.status}
                    for p in placings(state)
                ],
                "winner": state.winner,
                "faces": state.faces,
            }
        )
    )


INTERRUPTS = ["skip", "skip", "leave", "remove", "abandon", "bad", "bad"]


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game on any table: die values drawn one by one, interruptions at drawn places,
    to the end or to a drawn stop, through the same builder as the fixed games."""
    players = draw(st.integers(1, 6))
    rules = Rules(
        finish=draw(st.sampled_from(Finish)),
        exact_finish=draw(st.booleans()),
        six_again=draw(st.booleans()),
    )
    board = draw(st.sampled_from(list(BOARDS.values())))
    first = draw(st.integers(0, players - 1))
    interrupts = draw(
        st.dictionaries(
            st.integers(0, 60),
            st.tuples(st.sampled_from(INTERRUPTS), st.integers(0, 5), st.sampled_from(BAD)),
            max_size=6,
        )
    )
    # Sixes come often, so two in a row (and the five-faced roll after them) do too.
    values = st.integers(1, 6) | st.just(6)
    stop = draw(st.none() | st.integers(0, 400))

    def steps() -> Iterator[Step]:
        for index in range(MAX_ACTIONS if stop is None else stop):
            yield interrupts.get(index) or draw(values)

    return build_game(players, rules, board, first, steps())


@pytest.fixture
def rules_js(page: Page) -> Iterator[str]:
    """The versioned URL of rules.js (beside verify.js, which the Verify screen loads)."""
    page.goto("/#/verify")
    page.wait_for_selector("[data-screen=verify]")
    urls: list[str] = page.evaluate(
        "() => performance.getEntriesByType('resource').map((e) => e.name)"
    )
    verify = next(u for u in urls if re.search(r"/js/verify\.js(\?|$)", u))
    yield re.sub(r"/js/verify\.js", "/js/rules.js", verify)


def fixed_examples(test: Any) -> Any:
    """Every fixed game, run first on every run (the cases it must cover)."""
    for script in reversed(FIXED_GAMES):
        test = example(script.game())(test)
    return test


def test_the_page_rules_agree_with_the_engine(page: Page, rules_js: str) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(games())
    @fixed_examples
    def agree(game: Game) -> None:
        data = game.to_data()
        note(json.dumps(data))
        expected = engine_answers(game)
        found = page.evaluate(JS_REPLAY, [rules_js, data])
        for i, (want, got) in enumerate(zip(expected["answers"], found["answers"], strict=True)):
            assert got == want, f"action {i + 1} {game.actions[i]}"
        assert found == expected

    agree()
