"""What the exact odds of a game at your own table cost the page, on a phone-class CPU.

The page works out a local game's odds and story itself (js/turn-chain.js,
js/live-odds.js, js/game-story.js). This runs them in headless Chromium at phone size
with the CPU slowed 4x (the DevTools protocol's ``Emulation.setCPUThrottlingRate``),
for every shipped board under the four house-rule sets, on one seeded game each (four
seats, Last One Standing, played to its end: the longest kind):

- the chain, built cold (a fresh copy of its module, as a page's first game on a board
  builds it);
- the live odds after one move (``oddsOf``, the panel beside the board), chain kept:
  each move's odds are asked for once, in play order, as the page asks after a move, so
  a move pays whatever it is the first to need (nothing is worked out ahead); mean,
  median and slowest (the page's clock steps by 0.1 ms, so a median of quicker moves
  reads 0 and the mean tells more);
- the whole story (the replay's data: every move's odds and the moments), chain kept,
  and per move.

    .venv/bin/python -m bench.page_odds_bench [RATE]
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, WEB_FLAGS
from tests.browser.helpers import module_url
from tests.support.server import running_server

from snakes.boards import SHIPPED, shipped_board
from snakes.engine import Finish, Roll, Rules, apply
from snakes.engine.record import GameRecord, SeatInfo, start_state

TIMES = """async ([base, record, runs]) => {
  const rules = await import(base + 'rules.js');
  const odds = await import(base + 'live-odds.js');
  const story = await import(base + 'game-story.js');
  const table = { rules: rules.readRules(record.rules), jumps: rules.jumpsOf(record.board) };
  const clock = (fn) => {
    const start = performance.now();
    fn();
    return performance.now() - start;
  };
  const cold = [];
  for (let run = 0; run < runs; run++) {
    const fresh = await import(base + 'turn-chain.js?cold=' + Math.random());
    cold.push(clock(() => fresh.turnChain(table)));
  }
  odds.oddsOf(rules.newGame(record.seats.length), table);  // the kept chain, built
  let state = rules.newGame(record.seats.length, record.first);
  const move = [];
  for (const action of record.actions) {
    state = rules.apply(state, action, table).state;
    if (!state.over) move.push(clock(() => odds.oddsOf(state, table)));
  }
  const whole = [];
  for (let run = 0; run < runs; run++) whole.push(clock(() => story.gameStory(record)));
  const chain = (await import(base + 'turn-chain.js')).turnChain(table);
  return { cold, move, whole, horizon: chain.horizon };
}"""


def seeded_game(board_name: str, exact: bool, six: bool, seed: int = 1) -> GameRecord:
    rules = Rules(finish=Finish.LAST_ONE_STANDING, exact_finish=exact, six_again=six)
    record = GameRecord(
        seats=tuple(SeatInfo(name) for name in ("Ana", "Ben", "Cy", "Dee")),
        rules=rules,
        board=shipped_board(board_name).board,
    )
    rng = random.Random(f"{seed}-{board_name}-{exact}-{six}")
    state = start_state(record)
    actions = []
    while not state.over:
        assert state.turn is not None
        action = Roll(state.turn, rng.randint(1, state.faces))
        state, _ = apply(state, action)
        actions.append(action)
    return record.with_actions(actions)


def measure(rate: float, runs: int = 5) -> None:
    with running_server(Path(tempfile.mkdtemp()), *WEB_FLAGS) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(
            base_url=server.url, service_workers="block", viewport={"width": 360, "height": 640}
        )
        page = context.new_page()
        page.goto("/")
        page.wait_for_selector("[data-screen=home]")
        base = module_url(page, "main.js").removesuffix("main.js")
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        print(f"CPU slowed {rate:g}x; median of {runs} runs (cold chain, whole story)")
        print(
            "board           exact six  turns  moves  chain cold ms"
            "  odds/move ms (mean, median, max)  story ms  story/move ms"
        )
        worst: dict[str, float] = {}
        for name in SHIPPED:
            for exact in (True, False):
                for six in (True, False):
                    record = seeded_game(name, exact, six)
                    got: dict[str, Any] = page.evaluate(TIMES, [base, record.to_data(), runs])
                    cold = statistics.median(got["cold"])
                    whole = statistics.median(got["whole"])
                    moves = len(record.actions)
                    per_move = whole / moves
                    print(
                        f"{name:15} {exact!s:5} {six!s:5} {got['horizon']:5} {moves:6}"
                        f"  {cold:13.1f}  {statistics.mean(got['move']):8.3f}, "
                        f"{statistics.median(got['move']):6.3f}, {max(got['move']):6.3f}"
                        f"  {whole:16.1f}  {per_move:13.3f}"
                    )
                    for key, value in (
                        ("chain cold", cold),
                        ("odds per move", max(got["move"])),
                        ("story per move", per_move),
                    ):
                        worst[key] = max(worst.get(key, 0.0), value)
        print("worst:", ", ".join(f"{key} {value:.2f} ms" for key, value in worst.items()))
        browser.close()


if __name__ == "__main__":
    measure(float(sys.argv[1]) if len(sys.argv) > 1 else 4.0)
