// The game's Markov chain, one player's turn at a time, solved exactly in the page: a
// port of snakes.analysis.markov (and of moves.py's roll table), so that the odds and the
// story of a game at your own table need no server. A turn is one go, bonus rolls
// included. Every roll's outcome comes from js/rules.js's apply, never from a rule
// written again here. tests/js/test_odds_differential.py holds it to the Python chain.
//
// chain.cdf[sixes][square][k]: the chance that a token on `square` whose turn is at
// `sixes` sixes has finished within k turns (the turn in progress counting as the first).

import { apply, newGame, FINISH, MAX_SIXES } from "./rules.js";

export const SQUARES = FINISH + 1;
export const TAIL = 1e-12; // followed until less than this is still unfinished
export const BUDGET_TURNS = 2000; // the analysis budget (markov.py): at most BUDGET_MASS
export const BUDGET_MASS = 1e-9; //  still unfinished after BUDGET_TURNS turns
export const MAX_TURNS = 3000;
const KEPT = 4; // chains kept (at most 7 MB each): a page plays on one board at a time

/** A board whose exact analysis is refused, with the server's code and words. */
export class UnanalysableBoard extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** outcomes[sixes][square] = [{square, bonus}] for each face, squares 0-99. */
export function rollTable(jumps, rules) {
  const table = { rules: { ...rules, finish: "classic" }, jumps };
  const counts = rules.six_again ? MAX_SIXES + 1 : 1;
  const outcomes = [];
  for (let sixes = 0; sixes < counts; sixes++) {
    const rows = [];
    for (let square = 0; square < FINISH; square++) {
      const state = { ...newGame(1), positions: [square], sixes };
      const faces = rules.six_again && sixes >= MAX_SIXES ? 5 : 6;
      const row = [];
      for (let value = 1; value <= faces; value++) {
        const after = apply(state, { type: "roll", seat: 0, value }, table).state;
        row.push({ square: after.positions[0], bonus: after.sixes > sixes });
      }
      rows.push(row);
    }
    outcomes.push(rows);
  }
  return outcomes;
}

/** [T0, T1, T2] as sparse rows ({to, p}): where a turn at `sixes` sixes ends, from each square. */
function turnMatrices(outcomes) {
  const dense = outcomes.map(() => new Float64Array(SQUARES * SQUARES));
  for (let sixes = outcomes.length - 1; sixes >= 0; sixes--) {
    const matrix = dense[sixes];
    for (let square = 0; square < FINISH; square++) {
      const row = outcomes[sixes][square];
      for (const outcome of row) {
        if (outcome.bonus) {
          const next = dense[sixes + 1];
          for (let j = 0; j < SQUARES; j++) matrix[square * SQUARES + j] += next[outcome.square * SQUARES + j] / row.length;
        } else {
          matrix[square * SQUARES + outcome.square] += 1 / row.length;
        }
      }
    }
    matrix[FINISH * SQUARES + FINISH] = 1;
  }
  return dense.map((matrix) => Array.from({ length: SQUARES }, (_, square) => {
    const to = [];
    const p = [];
    for (let j = 0; j < SQUARES; j++) {
      if (matrix[square * SQUARES + j] !== 0) {
        to.push(j);
        p.push(matrix[square * SQUARES + j]);
      }
    }
    return { to: Int32Array.from(to), p: Float64Array.from(p) };
  }));
}

function times(matrix, vector) {
  const out = new Float64Array(SQUARES);
  for (let square = 0; square < SQUARES; square++) {
    const { to, p } = matrix[square];
    let sum = 0;
    for (let i = 0; i < to.length; i++) sum += p[i] * vector[to[i]];
    out[square] = sum;
  }
  return out;
}

function reachable(outcomes) {
  const seen = new Set([0]);
  const todo = [0];
  while (todo.length) {
    const square = todo.pop();
    if (square === FINISH) continue;
    for (const { square: next } of outcomes[0][square]) {
      if (!seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
    }
  }
  return seen;
}

function canFinish(outcomes) {
  const good = new Set([FINISH]);
  for (let changed = true; changed;) {
    changed = false;
    for (let square = 0; square < FINISH; square++) {
      if (!good.has(square) && outcomes[0][square].some((o) => good.has(o.square))) {
        good.add(square);
        changed = true;
      }
    }
  }
  return good;
}

/** The squares a game can rest on (100 aside); UnanalysableBoard for a board with traps. */
function liveSquares(outcomes) {
  const good = canFinish(outcomes);
  const live = [...reachable(outcomes)].filter((s) => s !== FINISH).sort((a, b) => a - b);
  const stuck = live.filter((s) => !good.has(s));
  if (stuck.length) {
    const shown = stuck.slice(0, 10).join(", ") + (stuck.length > 10 ? ", ..." : "");
    throw new UnanalysableBoard("unfinishable_board", `a token on square(s) ${shown} can never reach ${FINISH} (every way there is blocked), so a game on this board need never end`);
  }
  return live;
}

function unfinished(column, live) {
  let most = 0;
  for (const s of live) most = Math.max(most, 1 - column[s]);
  return most;
}

function tooSlow(matrices, column, live) {
  const most = Math.max(...matrices.map((first) => unfinished(times(first, column), live)));
  if (most > BUDGET_MASS) {
    throw new UnanalysableBoard("board_too_slow", `games on this board take too long to work out: after ${BUDGET_TURNS.toLocaleString("en")} turns a token is still short of ${FINISH} with a chance of ${most.toPrecision(2)} (at most ${BUDGET_MASS} is allowed)`);
  }
}

/** cdf0's columns, turn by turn, as markov.py's _build follows them (budget checked on the way). */
function columnsOf(matrices, live) {
  const start = new Float64Array(SQUARES);
  start[FINISH] = 1;
  const columns = [start];
  let tail = 1;
  while (columns.length <= MAX_TURNS) {
    if (columns.length === BUDGET_TURNS) tooSlow(matrices, columns[columns.length - 1], live);
    columns.push(times(matrices[0], columns[columns.length - 1]));
    if (tail < TAIL) break;
    tail = unfinished(columns[columns.length - 1], live);
  }
  return columns;
}

/** Layer `sixes` >= 1: the turn in progress ends somewhere, then whole turns follow. */
function layerOf(matrix, cdf0, width) {
  return Array.from({ length: SQUARES }, (_, square) => {
    const row = new Float64Array(width);
    if (square === FINISH) return row.fill(1);
    const { to, p } = matrix[square];
    for (let i = 0; i < to.length; i++) {
      const from = cdf0[to[i]];
      const w = p[i];
      for (let k = 1; k < width; k++) row[k] += w * from[k - 1];
    }
    return row;
  });
}

function build(jumps, rules) {
  const outcomes = rollTable(jumps, rules);
  const live = liveSquares(outcomes);
  const matrices = turnMatrices(outcomes);
  const columns = columnsOf(matrices, live);
  const width = columns.length;
  const cdf0 = Array.from({ length: SQUARES }, (_, square) => Float64Array.from(columns, (column) => column[square]));
  const cdf = [cdf0, ...matrices.slice(1).map((matrix) => layerOf(matrix, cdf0, width))];
  let tail = 0;
  for (const layer of cdf) for (const s of live) tail = Math.max(tail, 1 - layer[s][width - 1]);
  return { cdf, horizon: width - 1, tail, live };
}

const chains = new Map();

function keyOf(jumps, rules) {
  const pairs = [...jumps].sort((a, b) => a[0] - b[0]);
  return JSON.stringify([pairs, Boolean(rules.exact_finish), Boolean(rules.six_again)]);
}

/** The chain of a table ({rules, jumps: Map}); the finish mode does not matter. Kept. */
export function turnChain(table) {
  const key = keyOf(table.jumps, table.rules);
  let chain = chains.get(key);
  if (!chain) {
    chain = build(table.jumps, { exact_finish: Boolean(table.rules.exact_finish), six_again: Boolean(table.rules.six_again) });
    if (chains.size >= KEPT) chains.delete(chains.keys().next().value);
  } else {
    chains.delete(key);
  }
  chains.set(key, chain); // the newest last: the oldest goes first
  return chain;
}
