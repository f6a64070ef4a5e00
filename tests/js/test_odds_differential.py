"""The page's exact odds (js/turn-chain.js, js/live-odds.js, js/game-story.js, run by
Node) against snakes.analysis, to 1e-12, on every shipped board.

PRODUCT.md: "Offline is whole: a local game's replay, its odds chart and moments ... work
with no network." The page works them out itself, so it must agree with the Python chain:

- the chains: each board under the four house-rule sets, every square and sixes count,
  at turns spread over the whole horizon;
- the odds from any position: random states of 1-6 seats (any squares, any seat to
  roll, sixes in its turn, seats finished and left), both finishing modes, as
  ``live_odds``, ``live_place_chances`` and a room view's ``odds`` give them;
- whole stories of seeded games (rolls, skips, leaves, removals) as ``game_story``
  tells them: every step's positions, events and odds, every moment and which are key.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from snakes.analysis import TurnChain, UnanalysableBoard, live_odds, live_place_chances
from snakes.analysis.story import game_story
from snakes.boards import SHIPPED, shipped_board
from snakes.engine import (
    FINISH,
    Action,
    Board,
    Finish,
    GameState,
    Leave,
    Remove,
    Roll,
    Rules,
    Skip,
    apply,
)
from snakes.engine.record import GameRecord, SeatInfo, start_state
from snakes.server.rooms.views import odds_of
from tests.js.node import NODE, ROOT, require_node

DRIVER = ROOT / "tests" / "js" / "support" / "odds-driver.mjs"
TOLERANCE = 1e-12
HOUSE_RULES = [(exact, six) for exact in (True, False) for six in (True, False)]
STATES_PER_TABLE = 60
GAMES_PER_TABLE = 3
COLUMNS = [*range(0, 60), *range(60, 3001, 37)]
"""The turns at which the chains are compared: every one of the first 60 (most of the
probability), then spread over the longest horizon a chain may have."""

largest: dict[str, float] = {}
"""The largest difference found, by what was compared (printed with -s)."""


class PageOdds:
    """The page's odds in a Node process: one command in, its answer out."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [str(NODE), str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, cmd: str, **fields: Any) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"cmd": cmd, **fields}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        assert "failed" not in answer, answer["failed"]
        return answer["answer"]

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


@pytest.fixture(scope="module")
def page() -> Iterator[PageOdds]:
    require_node()
    odds = PageOdds()
    yield odds
    odds.close()
    print("largest differences:", largest)


def close(kind: str, ours: Any, theirs: Any, where: str) -> None:
    """Numbers within TOLERANCE, everything else equal, all the way down."""
    if isinstance(theirs, float) or (isinstance(ours, float) and isinstance(theirs, int)):
        assert not isinstance(ours, bool | str | None), f"{where}: {ours!r} != {theirs!r}"
        difference = abs(float(ours) - float(theirs))
        largest[kind] = max(largest.get(kind, 0.0), difference)
        assert difference <= TOLERANCE, f"{where}: {ours!r} != {theirs!r} ({difference:.3g})"
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and set(ours) == set(theirs), f"{where}: {ours} != {theirs}"
        for key, value in theirs.items():
            close(kind, ours[key], value, f"{where}.{key}")
    elif isinstance(theirs, list | tuple):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{where}: {ours} != {theirs}"
        for index, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            close(kind, a, b, f"{where}[{index}]")
    else:
        assert ours == theirs and type(ours) is type(theirs), f"{where}: {ours!r} != {theirs!r}"


def tables(name: str) -> Iterator[tuple[Board, Rules]]:
    board = shipped_board(name).board
    for exact, six in HOUSE_RULES:
        for finish in Finish:
            yield board, Rules(finish=finish, exact_finish=exact, six_again=six)


def random_state(rng: random.Random, board: Board, rules: Rules) -> GameState:
    """Any moment of a game: any squares, any seat to roll, sixes, finishers and leavers."""
    players = rng.randint(1, 6)
    seats = list(range(players))
    rng.shuffle(seats)
    racing = rng.randint(1, players)
    finished: list[int] = []
    if rules.finish is Finish.LAST_ONE_STANDING:
        finished = seats[racing : racing + rng.randint(0, players - racing)]
    leavers = [s for s in seats[racing:] if s not in finished]
    positions = [rng.choice((0, rng.randrange(1, FINISH))) for _ in range(players)]
    for seat in finished:
        positions[seat] = FINISH
    sixes = rng.choice((0, 0, 1, 2)) if rules.six_again else 0
    return GameState(
        rules=rules,
        board=board,
        positions=tuple(positions),
        turn=rng.choice(seats[:racing]),
        sixes=sixes,
        standings=tuple(finished),
        leavers=tuple(leavers),
        missed=(0,) * players,
        turns=(0,) * players,
    )


def state_data(state: GameState) -> dict[str, Any]:
    return {
        "positions": list(state.positions),
        "turn": state.turn,
        "sixes": state.sixes,
        "standings": list(state.standings),
        "leavers": list(state.leavers),
        "over": state.over,
        "end_reason": state.end_reason,
    }


def seeded_game(rng: random.Random, board: Board, rules: Rules) -> GameRecord:
    """A game played to its end (or 400 actions) with the engine: mostly rolls, now and
    then a skipped turn, and sometimes a seat that leaves or is removed."""
    players = rng.randint(2, 6)
    record = GameRecord(
        seats=tuple(SeatInfo(f"P{i}", "") for i in range(players)),
        rules=rules,
        board=board,
        first=rng.randrange(players),
    )
    state = start_state(record)
    actions: list[Action] = []
    while not state.over and len(actions) < 400:
        assert state.turn is not None
        luck = rng.random()
        action: Action
        if luck < 0.04:
            action = Skip(seat=state.turn)
        elif luck < 0.05:
            seat = rng.choice(state.racing)
            action = Leave(seat=seat) if rng.random() < 0.5 else Remove(seat=seat)
        else:
            action = Roll(seat=state.turn, value=rng.randint(1, state.faces))
        state, _ = apply(state, action)
        actions.append(action)
    return record.with_actions(actions)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_chains_agree(page: PageOdds, name: str) -> None:
    board = shipped_board(name).board
    for exact, six in HOUSE_RULES:
        rules = Rules(exact_finish=exact, six_again=six)
        chain = TurnChain.of(board, rules)
        ours = page.ask("chain", board=board.to_data(), rules=rules.to_data(), columns=COLUMNS)
        where = f"{name} exact={exact} six={six}"
        assert ours["horizon"] == chain.horizon, where
        close("chain tail", ours["tail"], chain.tail, f"{where} tail")
        columns = [min(k, chain.horizon) for k in COLUMNS]
        theirs = chain.cdf_by_sixes[:, :, columns].tolist()
        close("chain cdf", ours["cdf"], theirs, f"{where} cdf")


@pytest.mark.parametrize("name", SHIPPED)
def test_the_odds_from_any_position_agree(page: PageOdds, name: str) -> None:
    rng = random.Random(f"odds-{name}")
    for board, rules in tables(name):
        states = [random_state(rng, board, rules) for _ in range(STATES_PER_TABLE)]
        ours = page.ask(
            "odds",
            board=board.to_data(),
            rules=rules.to_data(),
            states=[state_data(state) for state in states],
        )
        for index, (state, answer) in enumerate(zip(states, ours, strict=True)):
            where = f"{name} {rules} state {index} {state_data(state)}"
            close("live odds", answer["odds"], live_odds(state), f"{where} odds")
            close("place chances", answer["places"], live_place_chances(state), f"{where} places")
            # A room view's odds are rounded: equal but for a value on a rounding boundary.
            assert answer["view"] == odds_of(state), where


@pytest.mark.parametrize("name", SHIPPED)
def test_the_stories_of_seeded_games_agree(page: PageOdds, name: str) -> None:
    rng = random.Random(f"story-{name}")
    for board, rules in tables(name):
        for game in range(GAMES_PER_TABLE):
            record = seeded_game(rng, board, rules)
            theirs = game_story(record).to_data()
            ours = page.ask("story", record=record.to_data())
            close("story", ours, theirs, f"{name} {rules} game {game}")


UNANALYSABLE = {
    # Snakes on 5, 10, 15, ... back to 4: games here last far beyond the analysis budget.
    "board_too_slow": Board(name="slow", jumps={s: 4 for s in range(5, 100) if s % 5 != 4}),
    # Six snake heads in a row: nobody ever gets past 89.
    "unfinishable_board": Board(name="trap", jumps={s: 2 for s in range(90, 96)}),
}


@pytest.mark.parametrize("code", UNANALYSABLE)
def test_a_board_the_server_refuses_is_refused_alike(page: PageOdds, code: str) -> None:
    board = UNANALYSABLE[code]
    record = GameRecord(seats=(SeatInfo("Ana"), SeatInfo("Ben")), board=board, rules=Rules())
    with pytest.raises(UnanalysableBoard) as refused:
        game_story(record)
    assert refused.value.code == code
    ours = page.ask("story", record=record.to_data())
    assert ours["error"] == code, ours
    assert ours["message"].split(":")[0] == str(refused.value).split(":")[0]
