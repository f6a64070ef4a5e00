"""The page's rules (js/rules.js) against the engine (snakes.engine), action by action.

Games at your own table (Play with AI, Pass & Play) run in the page, so the page holds a
copy of the rules. Here hypothesis builds whole games with the engine itself: every
shipped board, both finishes, both house rules, leaves, removals, skips, abandons, long
runs of rolls such as "Skip to results" plays, and actions the rules refuse (a roll out of
turn, a six on the five-faced die, a leave by a seat that is not racing, anything after
the end). Every action goes through both, and after each one they must agree: the same
events (every field), the same state (every field), or the same refusal (its code), with
the state left as it was.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

from snakes.boards import shipped_boards
from snakes.engine import GameState, RuleError, apply, new_game, placings
from snakes.engine.actions import action_from_data
from snakes.engine.board import FINISH, Board
from snakes.engine.rules import Finish, Rules
from snakes.engine.state import state_to_snapshot

pytestmark = pytest.mark.browser

BOARDS = [shipped.board for shipped in shipped_boards()]
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


@dataclass
class Game:
    players: int
    rules: Rules
    board: Board
    first: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    features: set[str] = field(default_factory=set)

    def to_data(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rules": self.rules.to_data(),
            "board": self.board.to_data(),
            "first": self.first,
            "actions": self.actions,
        }


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


BAD = ["wrong seat", "too high", "leave gone", "unknown seat"]
INTERRUPTS = ["skip", "skip", "leave", "remove", "abandon", "bad", "bad"]


@st.composite
def games(draw: st.DrawFn) -> Game:
    players = draw(st.integers(1, 6))
    game = Game(
        players=players,
        rules=Rules(
            finish=draw(st.sampled_from(Finish)),
            exact_finish=draw(st.booleans()),
            six_again=draw(st.booleans()),
        ),
        board=draw(st.sampled_from(BOARDS)),
        first=draw(st.integers(0, players - 1)),
    )
    interrupts = draw(
        st.dictionaries(
            st.integers(0, 60),
            st.tuples(st.sampled_from(INTERRUPTS), st.integers(0, 5), st.sampled_from(BAD)),
            max_size=6,
        )
    )
    # Sixes come often, so two in a row (and the five-faced roll after them) do too.
    values = st.integers(1, 6) | st.just(6)
    state = new_game(players, game.rules, game.board, first=game.first)
    stop = draw(st.none() | st.integers(0, 400))
    while len(game.actions) != stop and len(game.actions) < 1500:
        planned = interrupts.get(len(game.actions))
        if state.over:
            # One action after the end: the rules refuse it.
            game.actions.append({"type": "roll", "seat": 0, "value": 1})
            game.features.add("after the end")
            break
        assert state.turn is not None
        if planned:
            kind, pick, bad = planned
            data = _interrupt(state, kind, pick, bad)
            game.features.add(kind if kind != "bad" else bad)
        else:
            value = min(draw(values), state.faces)
            if state.faces == 5:
                game.features.add("five-faced roll")
            if state.positions[state.turn] + value > FINISH:
                game.features.add("overshoot" if game.rules.exact_finish else "past 100")
            data = {"type": "roll", "seat": state.turn, "value": value}
        game.actions.append(data)
        with contextlib.suppress(RuleError):  # a refused action changes nothing
            state, _ = apply(state, action_from_data(data))
    if state.over:
        game.features.add(f"ended: {state.end_reason}")
    game.features.add(f"finish: {game.rules.finish.value}")
    return game


def _interrupt(state: GameState, kind: str, pick: int, bad: str) -> dict[str, Any]:
    assert state.turn is not None
    racing = state.racing
    if kind == "skip":
        return {"type": "skip", "seat": state.turn}
    if kind == "abandon":
        return {"type": "abandon"}
    if kind in ("leave", "remove"):
        return {"type": kind, "seat": racing[pick % len(racing)]}
    if bad == "wrong seat" and state.players > 1:
        return {"type": "roll", "seat": (state.turn + 1) % state.players, "value": 3}
    if bad == "too high":
        return {"type": "roll", "seat": state.turn, "value": state.faces + 1}
    if bad == "leave gone" and (state.standings or state.leavers):
        return {"type": "leave", "seat": (state.standings + state.leavers)[0]}
    return {"type": "roll", "seat": state.players + pick, "value": 1}


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


def test_the_page_rules_agree_with_the_engine(page: Page, rules_js: str) -> None:
    seen: Counter[str] = Counter()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(games())
    def agree(game: Game) -> None:
        data = game.to_data()
        note(json.dumps(data))
        expected = engine_answers(game)
        found = page.evaluate(JS_REPLAY, [rules_js, data])
        for i, (want, got) in enumerate(zip(expected["answers"], found["answers"], strict=True)):
            assert got == want, f"action {i + 1} {game.actions[i]}"
        assert found == expected
        seen.update(game.features)
        seen[f"board: {game.board.name}"] += 1

    agree()
    wanted = {
        "skip", "leave", "remove", "abandon", "wrong seat", "too high", "leave gone",
        "unknown seat", "five-faced roll", "overshoot", "past 100", "after the end",
        "ended: finished", "ended: last-player", "ended: abandoned",
        "finish: classic", "finish: last-one-standing",
    }  # fmt: skip
    assert wanted <= set(seen), wanted - set(seen)
    assert {f"board: {b.name}" for b in BOARDS} <= set(seen)
