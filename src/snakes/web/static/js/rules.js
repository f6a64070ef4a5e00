// The engine's rules (src/snakes/engine/game.py) in the page, event for event, for games
// at your own table (js/local-room.js) and Verify; online, the server decides.
// tests/browser/test_rules_differential.py holds it to snakes.engine. A table is
// {rules, jumps: Map(start -> end)}; apply returns a new state, never changes one.

export const FINISH = 100;
export const MAX_SIXES = 2;
export const AWAY_AFTER = 3;

export class RuleError extends Error {
  constructor(code, message, details = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

export function readRules(raw = {}) {
  const data = raw && typeof raw === "object" ? raw : {};
  return {
    finish: data.finish === undefined ? "classic" : data.finish,
    exact_finish: data.exact_finish === undefined ? true : data.exact_finish,
    six_again: data.six_again === undefined ? true : data.six_again,
  };
}

export function jumpsOf(board) {
  const jumps = new Map();
  for (const [start, end] of [...(board.ladders || []), ...(board.snakes || [])]) jumps.set(start, end);
  return jumps;
}

export function newGame(players, first = 0) {
  const zeros = Array(players).fill(0);
  return {
    positions: zeros.slice(),
    turn: first,
    sixes: 0,
    standings: [],
    leavers: [],
    missed: zeros.slice(),
    turns: zeros.slice(),
    over: false,
    end_reason: null,
    version: 0,
  };
}

export function racing(state) {
  const out = [];
  for (let seat = 0; seat < state.positions.length; seat++) {
    if (!state.standings.includes(seat) && !state.leavers.includes(seat)) out.push(seat);
  }
  return out;
}

export function faces(state, rules) {
  return rules.six_again && state.sixes >= MAX_SIXES ? 5 : 6;
}

export function winner(state, rules) {
  if (rules.finish !== "classic") return null;
  if (state.standings.length) return state.standings[0];
  if (state.end_reason === "last-player") return racing(state)[0];
  return null;
}

// engine/results.py's order.
export function placings(state, rules) {
  const square = state.positions;
  const order = state.standings.map((seat) => [seat, "finished"]);
  const others = racing(state).sort((a, b) => square[b] - square[a] || a - b);
  let rest;
  if (!state.over) rest = "racing";
  else if (state.end_reason === "abandoned") rest = "did-not-finish";
  else if (state.end_reason === "last-player") rest = "winner";
  else if (rules.finish === "classic") rest = "not-finished";
  else rest = "did-not-finish";
  for (const seat of others) order.push([seat, rest]);
  for (const seat of [...state.leavers].reverse()) order.push([seat, "left"]);
  return order.map(([seat, status], i) => ({ place: i + 1, seat, square: square[seat], status }));
}

const isInt = (v) => Number.isInteger(v);

function checkSeat(state, seat) {
  if (!isInt(seat) || seat < 0 || seat >= state.positions.length) {
    throw new RuleError("unknown_seat", `seat ${seat} is not in this game`, { seat });
  }
}

function checkTurn(state, seat) {
  checkSeat(state, seat);
  if (seat !== state.turn) throw new RuleError("not_your_turn", `it is seat ${state.turn}'s turn, not seat ${seat}'s`, { seat, turn: state.turn });
}

// A refused action throws RuleError (its code is the protocol's) and changes nothing.
export function apply(state, action, table) {
  if (state.over) throw new RuleError("game_over", `the game is over; ${action.type} refused`);
  const next = {
    ...state,
    positions: state.positions.slice(),
    standings: state.standings.slice(),
    leavers: state.leavers.slice(),
    missed: state.missed.slice(),
    turns: state.turns.slice(),
  };
  const rules = table.rules;
  let events;
  switch (action.type) {
    case "roll":
      events = roll(next, action, table);
      break;
    case "skip":
      events = skip(next, action.seat);
      break;
    case "leave":
    case "remove":
      events = leave(next, action.seat, action.type === "remove", rules);
      break;
    case "abandon":
      events = end(next, "abandoned", rules);
      break;
    default:
      throw new RuleError("bad_message", `not an action: ${action.type}`);
  }
  next.version = state.version + 1;
  return { state: next, events };
}

function roll(next, action, table) {
  const { seat, value } = action;
  checkTurn(next, seat);
  const limit = faces(next, table.rules);
  if (!isInt(value) || value < 1 || value > limit) {
    throw new RuleError("forbidden_roll", `roll ${value} is forbidden (1-${limit})`, { value, faces: limit });
  }
  const start = next.positions[seat];
  const events = [{ type: "rolled", seat, value, bonus: next.sixes > 0 }];
  next.missed[seat] = 0;
  const target = start + value;
  if (target > FINISH && table.rules.exact_finish) {
    events.push({ type: "overshot", seat, square: start, value, needed: FINISH - start });
    passTurn(next, events);
    return events;
  }
  const walked = Math.min(target, FINISH);
  events.push({ type: "moved", seat, start, end: walked });
  const landed = table.jumps.has(walked) ? table.jumps.get(walked) : walked;
  if (landed > walked) events.push({ type: "climbed", seat, start: walked, end: landed });
  else if (landed < walked) events.push({ type: "slid", seat, start: walked, end: landed });
  next.positions[seat] = landed;
  if (landed === FINISH) {
    finish(next, seat, events, table.rules);
  } else if (value === 6 && table.rules.six_again) {
    events.push({ type: "bonus_roll", seat });
    next.sixes += 1;
  } else {
    passTurn(next, events);
  }
  return events;
}

function finish(next, seat, events, rules) {
  next.standings.push(seat);
  events.push({ type: "finished", seat, place: next.standings.length });
  next.turns[seat] += 1;
  if (rules.finish === "classic" || racing(next).length === 0) events.push(...end(next, "finished", rules));
  else nextTurn(next, events, seat); // any bonus roll still owed is void
}

function skip(next, seat) {
  checkTurn(next, seat);
  const bonusLost = next.sixes > 0;
  // A bonus roll that times out is lost, but that turn does not count as missed.
  if (!bonusLost) next.missed[seat] += 1;
  const events = [{ type: "skipped", seat, bonus_lost: bonusLost, missed: next.missed[seat] }];
  passTurn(next, events);
  return events;
}

function leave(next, seat, removed, rules) {
  checkSeat(next, seat);
  if (!racing(next).includes(seat)) throw new RuleError("seat_not_racing", `seat ${seat} has already finished or left`, { seat });
  next.leavers.push(seat);
  const events = [{ type: "left", seat, removed }];
  const left = racing(next);
  if (left.length === 0) return events.concat(end(next, next.standings.length ? "finished" : "everyone-left", rules));
  if (rules.finish === "classic" && left.length === 1 && next.positions.length > 1) {
    // Classic goes on without the leaver; the last player left wins at once.
    return events.concat(end(next, "last-player", rules));
  }
  if (next.turn === seat) nextTurn(next, events, null);
  return events;
}

function passTurn(next, events) {
  const seat = next.turn;
  next.turns[seat] += 1;
  nextTurn(next, events, seat);
}

function nextTurn(next, events, previous) {
  const still = new Set(racing(next));
  const n = next.positions.length;
  for (let step = 1; step <= n; step++) {
    const seat = (next.turn + step) % n;
    if (still.has(seat)) {
      events.push({ type: "turn_passed", previous, seat });
      next.turn = seat;
      next.sixes = 0;
      return;
    }
  }
}

function end(next, reason, rules) {
  next.over = true;
  next.turn = null;
  next.sixes = 0;
  next.end_reason = reason;
  return [{ type: "game_ended", standings: next.standings.slice(), winner: winner(next, rules), reason }];
}
