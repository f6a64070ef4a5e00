// The story of a game, worked out in the page from its record (a port of
// snakes.analysis.story): every position after every action and each seat's exact odds
// there (js/live-odds.js), and the ladders and snakes that moved a seat's odds the most,
// the game's moments. The same data as the server's story (GET /api/rooms/{code}/story),
// its odds not rounded. tests/js/test_odds_differential.py holds it to the Python story.

import { apply, jumpsOf, newGame, readRules, RuleError } from "./rules.js";
import { storyOdds } from "./live-odds.js";
import { turnChain } from "./turn-chain.js";

export const KEY_MOMENTS = 5; // at most this many jumps are marked as moments that swung the game
export const KEY_SWING = { win: 0.03, place: 0.1 }; // ...if they moved their seat's odds this much

/** A record that does not replay: the server's code for one. */
export class BadRecord extends Error {
  constructor(message) {
    super(message);
    this.code = "bad_record";
  }
}

function actionData(action) {
  const data = { type: action.type };
  if (action.type !== "abandon") data.seat = action.seat;
  if (action.type === "roll") data.value = action.value;
  return data;
}

function stepData(index, action, events, state, odds) {
  return {
    index,
    action: action && actionData(action),
    events,
    positions: state.positions.slice(),
    turn: state.turn,
    sixes: state.sixes,
    standings: state.standings.slice(),
    leavers: state.leavers.slice(),
    over: state.over,
    odds,
  };
}

function boardData(board) {
  const byStart = (a, b) => a[0] - b[0];
  const pairs = [...jumpsOf(board)].sort(byStart);
  return { name: board.name, ladders: pairs.filter(([a, b]) => b > a), snakes: pairs.filter(([a, b]) => b < a) };
}

function markKey(moments, threshold) {
  const ranked = moments.map((_, i) => i).sort((a, b) => Math.abs(moments[b].swing) - Math.abs(moments[a].swing));
  const key = new Set(ranked.slice(0, KEY_MOMENTS).filter((i) => Math.abs(moments[i].swing) >= threshold));
  return moments.map((moment, i) => ({ ...moment, key: key.has(i) }));
}

/**
 * The story of `record` ({rules, board, seats, first, actions}): {kind, seats, rules,
 * board, first, over, steps, moments}. Throws BadRecord when an action does not apply,
 * and UnanalysableBoard (js/turn-chain.js) for a board whose chain is refused.
 */
export function gameStory(record) {
  const rules = readRules(record.rules);
  const table = { rules, jumps: jumpsOf(record.board) };
  turnChain(table); // a refused board is refused before anything is replayed
  const first = record.first || 0;
  let state = newGame(record.seats.length, first);
  const steps = [stepData(0, null, [], state, storyOdds(state, table))];
  const moments = [];
  record.actions.forEach((action, i) => {
    const index = i + 1;
    let events;
    try {
      ({ state, events } = apply(state, action, table));
    } catch (err) {
      if (err instanceof RuleError) throw new BadRecord(`action ${index} (${action.type}) does not replay: ${err.message}`);
      throw err;
    }
    const odds = storyOdds(state, table);
    const before = steps[steps.length - 1].odds;
    for (const event of events) {
      if (event.type === "climbed" || event.type === "slid") {
        const kind = event.type === "climbed" ? "ladder" : "snake";
        moments.push({ step: index, seat: event.seat, kind, start: event.start, end: event.end, swing: odds[event.seat] - before[event.seat] });
      }
    }
    steps.push(stepData(index, action, events, state, odds));
  });
  const kind = rules.finish === "classic" ? "win" : "place";
  return {
    kind,
    seats: record.seats.map((seat, index) => ({ index, name: seat.name, colour: seat.colour || "" })),
    rules,
    board: boardData(record.board),
    first,
    over: state.over,
    steps,
    moments: markKey(moments, KEY_SWING[kind]),
  };
}
