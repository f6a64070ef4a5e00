// The game's Markov chain, one player's turn at a time, solved exactly in the page: a
// port of snakes.analysis.markov (and of moves.py's roll table), so that the odds and the
// story of a game at your own table need no server. A turn is one go, bonus rolls
// included. Every roll's outcome comes from js/rules.js's apply, never from a rule
// written again here. tests/js/test_odds_differential.py holds it to the Python chain.
//
// chain.cdf(sixes, square)[k]: the chance that a token on `square` whose turn is at
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

/** [T0, T1, T2], sparse ({start, to, p} by row): where a turn at `sixes` sixes ends, from each square. */
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
  return dense.map((matrix) => {
    const start = new Int32Array(SQUARES + 1);
    const to = [];
    const p = [];
    for (let square = 0; square < SQUARES; square++) {
      for (let j = 0; j < SQUARES; j++) {
        if (matrix[square * SQUARES + j] !== 0) {
          to.push(j);
          p.push(matrix[square * SQUARES + j]);
        }
      }
      start[square + 1] = to.length;
    }
    return { start, to: Int32Array.from(to), p: Float64Array.from(p) };
  });
}

/** out[at + s] = (matrix @ vector[from ...])[s]: vectors live in flat arrays, 101 apart. */
function times(matrix, vector, from = 0, out = new Float64Array(SQUARES), at = 0) {
  const { start, to, p } = matrix;
  for (let square = 0; square < SQUARES; square++) {
    let sum = 0;
    for (let i = start[square]; i < start[square + 1]; i++) sum += p[i] * vector[from + to[i]];
    out[at + square] = sum;
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

/**
 * cdf0 turn by turn, as markov.py's _build follows it (the budget checked on the way),
 * then kept square by square: square s's chances to have finished within k = 0, 1, ...
 * turns lie side by side from s * width, so a game reads a square's row where it lies,
 * a view and no copy (read from the turn-by-turn columns, a row was one double in every
 * 808 bytes, a cache miss each). Built turn-major, each turn's column from the last one's
 * as before, and turned over once at the end (a pass, about 1 ms of a cold build).
 */
function rowsOf(matrices, live) {
  const columns = new Float64Array(SQUARES * (MAX_TURNS + 1));
  columns[FINISH] = 1;
  let width = 1;
  let tail = 1;
  while (width <= MAX_TURNS) {
    if (width === BUDGET_TURNS) tooSlow(matrices, columns.subarray((width - 1) * SQUARES, width * SQUARES), live);
    times(matrices[0], columns, (width - 1) * SQUARES, columns, width * SQUARES);
    width += 1;
    if (tail < TAIL) break;
    tail = unfinished(columns.subarray((width - 1) * SQUARES, width * SQUARES), live);
  }
  const rows = new Float64Array(SQUARES * width);
  for (let k = 0; k < width; k++) {
    for (let s = 0; s < SQUARES; s++) rows[s * width + k] = columns[k * SQUARES + s];
  }
  return { rows, width };
}

/**
 * One board's and house rules' chain. cdf(sixes, square)[k]: the chance that a token on
 * `square` whose turn is at `sixes` sixes has finished within k turns, k = 0..horizon.
 * The sixes = 0 rows are built with the chain; a row for a turn in progress at 1 or 2
 * sixes is worked out when first asked for (a game asks for a few) and kept: at most 10
 * rows of its turn matrix, each a pass over the horizon.
 */
class TurnChain {
  constructor(matrices, rows, width, live) {
    Object.assign(this, { matrices, width, live });
    this.first = Array.from({ length: SQUARES }, (_, s) => rows.subarray(s * width, (s + 1) * width));
    this.later = matrices.map(() => new Array(SQUARES).fill(null)); // [sixes][square], 1 and 2 used
  }

  get horizon() {
    return this.width - 1;
  }

  /** How many sixes counts a turn can be in: 3 with six-again, else 1. */
  get layers() {
    return this.matrices.length;
  }

  cdf(sixes, square) {
    if (sixes === 0) return this.first[square];
    const kept = this.later[sixes];
    return kept[square] || (kept[square] = this.layerRow(this.matrices[sixes], square));
  }

  /** The turn in progress ends somewhere (a row of its matrix), then whole turns follow. */
  layerRow(matrix, square) {
    const row = new Float64Array(this.width);
    if (square === FINISH) return row.fill(1);
    for (let i = matrix.start[square]; i < matrix.start[square + 1]; i++) {
      const from = this.first[matrix.to[i]];
      const w = matrix.p[i];
      for (let k = 1; k < this.width; k++) row[k] += w * from[k - 1];
    }
    return row;
  }

  /** The most probability still unfinished after the horizon, over every start. */
  get tail() {
    let tail = 0;
    for (let sixes = 0; sixes < this.layers; sixes++) {
      for (const s of this.live) tail = Math.max(tail, 1 - this.cdf(sixes, s)[this.horizon]);
    }
    return tail;
  }
}

function build(jumps, rules) {
  const outcomes = rollTable(jumps, rules);
  const live = liveSquares(outcomes);
  const matrices = turnMatrices(outcomes);
  const { rows, width } = rowsOf(matrices, live);
  return new TurnChain(matrices, rows, width, live);
}
const chains = new Map();

// A table's jumps, as the chains' key spells them: asked for on every move, and a game's
// jumps (rules.js's jumpsOf, made once a game) never change.
const spelt = new WeakMap();

function keyOf(jumps, rules) {
  let pairs = spelt.get(jumps);
  if (pairs === undefined) {
    pairs = JSON.stringify([...jumps].sort((a, b) => a[0] - b[0]));
    spelt.set(jumps, pairs);
  }
  return `${pairs} ${Boolean(rules.exact_finish)} ${Boolean(rules.six_again)}`;
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
