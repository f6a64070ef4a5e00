// The page's exact odds (js/turn-chain.js, js/live-odds.js, js/game-story.js) driven from
// outside, one JSON command a line on stdin, one JSON answer a line on stdout, for
// tests/js/test_odds_differential.py:
//
//   {"cmd": "chain", "board": {...}, "rules": {...}, "columns": [k...]}
//       -> {horizon, tail, cdf: [sixes][square][i] at turn columns[i] (clamped to the horizon)}
//   {"cmd": "odds", "board": {...}, "rules": {...}, "states": [state...]}
//       -> [{odds: liveOdds, places: livePlaceChances, view: oddsOf}]
//   {"cmd": "story", "record": {...}} -> the story, or {"error": code}

import { createInterface } from "node:readline";
import { jumpsOf, readRules } from "../../../src/snakes/web/static/js/rules.js";
import { turnChain } from "../../../src/snakes/web/static/js/turn-chain.js";
import { liveOdds, livePlaceChances, oddsOf } from "../../../src/snakes/web/static/js/live-odds.js";
import { gameStory } from "../../../src/snakes/web/static/js/game-story.js";

const tableOf = ({ board, rules }) => ({ rules: readRules(rules), jumps: jumpsOf(board) });

const commands = {
  chain(command) {
    const chain = turnChain(tableOf(command));
    const at = command.columns.map((k) => Math.min(k, chain.horizon));
    const cdf = Array.from({ length: chain.layers }, (_, sixes) =>
      Array.from({ length: 101 }, (_, square) => at.map((k) => chain.cdf(sixes, square)[k])));
    return { horizon: chain.horizon, tail: chain.tail, cdf };
  },
  odds(command) {
    const table = tableOf(command);
    return command.states.map((state) => ({
      odds: liveOdds(state, table),
      places: livePlaceChances(state, table),
      view: oddsOf(state, table),
    }));
  },
  story({ record }) {
    try {
      return gameStory(record);
    } catch (err) {
      if (!err.code) throw err;
      return { error: err.code, message: err.message };
    }
  },
};

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const command = JSON.parse(line);
  try {
    process.stdout.write(JSON.stringify({ answer: commands[command.cmd](command) }) + "\n");
  } catch (err) {
    process.stdout.write(JSON.stringify({ failed: String(err && err.stack) }) + "\n");
  }
});
