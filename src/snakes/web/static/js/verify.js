// Checking a game's provably fair dice in the browser, so that checking needs no trust in
// the server (docs/FAIR_DICE.md, scheme "snakes-hmac-sha256-v1"):
//
//  1. SHA-256(server_seed) must equal the commitment published before the game;
//  2. the dice key is server_seed || SHA-256(UTF-8(client_seed)) for every seat in order;
//  3. roll number i (counting roll actions only) is HMAC-SHA256(key, "i:attempt"), the
//     first byte below 256 - 256 % faces giving (byte % faces) + 1.
//
// THE ONE PLACE THE BROWSER COMPUTES RULES. Everywhere else the server decides and the
// browser only shows what it is told. To know how many faces each roll had (5 after two
// sixes in one turn when sixes roll again), this module replays the record's actions on
// the record's board with the record's rules — a minimal replay of the engine
// (src/snakes/engine/game.py): entering from 0, walking, one ladder or snake per move,
// exact finish / overshoot, bonus rolls and the two-sixes limit, finishing (Classic ends at
// the first finisher, Last One Standing goes on), skips, leaves and removals. It keeps
// positions only to get `faces` right; it never draws anything on screen. The replay goes
// on with the recorded values, so every tampered roll is named, until an action no longer
// replays (reported too).

const SCHEME = "snakes-hmac-sha256-v1";
const FINISH = 100;
const MAX_SIXES = 2;
const HEX64 = /^[0-9a-f]{64}$/;
const MAX_CLIENT_SEED = 128;
const utf8 = new TextEncoder();

// Every reason this module gives is a message for the catalogue, never text: {key, params},
// a param being a number, a name from the record, or another such message. The Verify
// screen puts them into words (js/i18n.js), so they read in the player's language.
const message = (key, params = {}) => ({ key, params });

/** The record cannot be checked: `reason` says why ({key, params}). */
export class Unverifiable extends Error {
  constructor(key, params = {}) {
    super(key);
    this.reason = message(key, params);
  }
}

/** An action that does not replay on the record's table: `reason` says why. */
class NoReplay extends Error {
  constructor(key, params = {}) {
    super(key);
    this.reason = message(key, params);
  }
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fromHex(hex) {
  return Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16));
}

/** The commitment of a server seed (32 bytes), as lowercase hex. */
export async function commitment(serverSeed) {
  return toHex(await sha256(serverSeed));
}

/** The HMAC key: the server seed, then the SHA-256 of each client seed, in seat order. */
export async function diceKey(serverSeed, clientSeeds) {
  const parts = [serverSeed];
  for (const seed of clientSeeds) parts.push(await sha256(utf8.encode(seed)));
  const raw = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    raw.set(part, offset);
    offset += part.length;
  }
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** Roll number `index` (from 0) of the game, on a die of `faces` faces. */
export async function fairRoll(key, index, faces) {
  const limit = 256 - (256 % faces);
  for (let attempt = 0; ; attempt++) {
    const message = utf8.encode(`${index}:${attempt}`);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
    for (const byte of mac) {
      if (byte < limit) return (byte % faces) + 1;
    }
  }
}

const isInt = (v) => Number.isInteger(v);

/** Read the record's table and actions, or throw Unverifiable saying what is wrong. */
export function readRecord(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Unverifiable("verify.why.notObject");
  if (!Array.isArray(data.seats) || data.seats.length < 1 || data.seats.length > 6) {
    throw new Unverifiable("verify.why.noSeats");
  }
  const seats = data.seats.map((seat, i) => {
    if (!seat || typeof seat.name !== "string") throw new Unverifiable("verify.why.seatNoName", { seat: i + 1 });
    return { name: seat.name, colour: typeof seat.colour === "string" ? seat.colour : "" };
  });
  const rawRules = data.rules && typeof data.rules === "object" ? data.rules : {};
  const rules = {
    finish: rawRules.finish === undefined ? "classic" : rawRules.finish,
    exactFinish: rawRules.exact_finish === undefined ? true : rawRules.exact_finish,
    sixAgain: rawRules.six_again === undefined ? true : rawRules.six_again,
  };
  if (!["classic", "last-one-standing"].includes(rules.finish) || typeof rules.exactFinish !== "boolean" || typeof rules.sixAgain !== "boolean") {
    throw new Unverifiable("verify.why.rules");
  }
  // The board comes from the record itself (every record the server writes names it).
  const board = data.board;
  const jumps = new Map();
  if (board === undefined) throw new Unverifiable("verify.why.noBoard");
  if (!board || typeof board !== "object") throw new Unverifiable("verify.why.boardUnreadable");
  for (const [kind, list] of [["ladder", board.ladders || []], ["snake", board.snakes || []]]) {
    if (!Array.isArray(list)) throw new Unverifiable(`verify.why.${kind}sNotList`);
    for (const pair of list) {
      if (!Array.isArray(pair) || pair.length !== 2 || !pair.every(isInt)) throw new Unverifiable(`verify.why.${kind}Malformed`);
      const [start, end] = pair;
      if (start < 1 || start > 99 || end < 1 || end > FINISH || jumps.has(start)) throw new Unverifiable(`verify.why.${kind}Invalid`, { start, end });
      if ((kind === "ladder") !== (end > start)) throw new Unverifiable(`verify.why.${kind}WrongWay`, { start, end });
      jumps.set(start, end);
    }
  }
  const first = data.first === undefined ? 0 : data.first;
  if (!isInt(first) || first < 0 || first >= seats.length) throw new Unverifiable("verify.why.first");
  if (!Array.isArray(data.actions)) throw new Unverifiable("verify.why.actionsNotList");
  const actions = data.actions.map((action, i) => {
    const kind = action && action.type;
    const ok = kind === "abandon"
      || (["skip", "leave", "remove"].includes(kind) && isInt(action.seat))
      || (kind === "roll" && isInt(action.seat) && isInt(action.value));
    if (!ok) throw new Unverifiable("verify.why.unknownAction", { action: i + 1 });
    return action;
  });
  return { seats, rules, jumps, boardName: typeof board.name === "string" ? board.name : "", first, actions };
}

function readFair(data, seatCount) {
  const fair = data.fair;
  if (!fair || typeof fair !== "object") throw new Unverifiable("verify.why.noFair");
  const scheme = fair.scheme === undefined ? SCHEME : fair.scheme;
  if (scheme !== SCHEME) throw new Unverifiable("verify.why.scheme", { scheme: String(scheme), known: SCHEME });
  if (typeof fair.commitment !== "string" || !HEX64.test(fair.commitment)) throw new Unverifiable("verify.why.commitmentFormat");
  if (!("server_seed" in fair)) throw new Unverifiable("verify.why.unrevealed");
  if (typeof fair.server_seed !== "string" || !HEX64.test(fair.server_seed)) throw new Unverifiable("verify.why.serverSeedFormat");
  const seeds = fair.client_seeds;
  if (!Array.isArray(seeds)) throw new Unverifiable("verify.why.seedsNotList");
  if (seeds.length !== seatCount) throw new Unverifiable("verify.why.seedCount", { seeds: seeds.length, seats: seatCount });
  seeds.forEach((seed, seat) => {
    if (typeof seed !== "string") throw new Unverifiable("verify.why.seedNotText", { seat: seat + 1 });
    if (Array.from(seed).length > MAX_CLIENT_SEED) throw new Unverifiable("verify.why.seedTooLong", { seat: seat + 1, max: MAX_CLIENT_SEED });
  });
  return { commitment: fair.commitment, serverSeed: fair.server_seed, clientSeeds: seeds };
}

/** The minimal replay state (see the module comment): positions, turn and sixes. */
function startState(table) {
  return {
    positions: table.seats.map(() => 0),
    turn: table.first,
    sixes: 0,
    standings: [],
    leavers: [],
    over: false,
  };
}

function racing(state) {
  const done = new Set([...state.standings, ...state.leavers]);
  return state.positions.map((_, seat) => seat).filter((seat) => !done.has(seat));
}

function faces(state, rules) {
  return rules.sixAgain && state.sixes >= MAX_SIXES ? 5 : 6;
}

function nextTurn(state) {
  const stillRacing = new Set(racing(state));
  const n = state.positions.length;
  for (let step = 1; step <= n; step++) {
    const seat = (state.turn + step) % n;
    if (stillRacing.has(seat)) {
      state.turn = seat;
      break;
    }
  }
  state.sixes = 0;
}

function end(state) {
  state.over = true;
  state.turn = null;
  state.sixes = 0;
}

/** Apply one action to the replay state; throws NoReplay when it does not replay. */
function apply(state, action, table) {
  const { rules, jumps } = table;
  if (state.over) throw new NoReplay("verify.why.over");
  const seatOk = (seat) => seat >= 0 && seat < state.positions.length;
  const who = (seat) => (seatOk(seat) ? table.seats[seat].name : message("announce.seat", { n: seat + 1 }));
  switch (action.type) {
    case "roll": {
      if (!seatOk(action.seat) || action.seat !== state.turn) throw new NoReplay("verify.why.notTurn", { turn: who(state.turn), seat: who(action.seat) });
      const value = action.value;
      if (value < 1 || value > faces(state, rules)) throw new NoReplay("verify.why.impossible", { value, faces: faces(state, rules) });
      const seat = action.seat;
      const target = state.positions[seat] + value;
      if (target > FINISH && rules.exactFinish) {
        nextTurn(state); // overshoot: the token stays and the turn passes, even on a six
        return;
      }
      const walked = Math.min(target, FINISH);
      const landed = jumps.has(walked) ? jumps.get(walked) : walked;
      state.positions[seat] = landed;
      if (landed === FINISH) {
        state.standings.push(seat); // any bonus still owed is void
        if (rules.finish === "classic" || racing(state).length === 0) end(state);
        else nextTurn(state);
        return;
      }
      if (value === 6 && rules.sixAgain) {
        state.sixes += 1;
        return;
      }
      nextTurn(state);
      return;
    }
    case "skip":
      if (!seatOk(action.seat) || action.seat !== state.turn) throw new NoReplay("verify.why.notTurn", { turn: who(state.turn), seat: who(action.seat) });
      nextTurn(state);
      return;
    case "leave":
    case "remove": {
      if (!seatOk(action.seat) || !racing(state).includes(action.seat)) throw new NoReplay("verify.why.notRacing", { seat: who(action.seat) });
      state.leavers.push(action.seat);
      const left = racing(state);
      if (left.length === 0) end(state);
      else if (rules.finish === "classic" && left.length === 1 && state.positions.length > 1) end(state);
      else if (state.turn === action.seat) nextTurn(state);
      return;
    }
    case "abandon":
      end(state);
      return;
    default:
      throw new NoReplay("verify.why.unknownType", { type: String(action.type) });
  }
}

/**
 * Check a record (parsed JSON). Resolves to a report:
 * {status: "ok" | "tampered" | "unverifiable", rollsChecked, commitmentOk, mismatches:
 *  [{index, action, seat, name, expected, recorded}], problems: [message], reason: message,
 *  brokenAt: the action (from 1) that no longer replays or null, table,
 *  final: {positions, turn, standings, leavers, over}}. A message is {key, params} for the
 *  catalogue (name is null for a seat the record does not have).
 */
export async function verifyRecord(data) {
  let table;
  let fair;
  try {
    table = readRecord(data);
    fair = readFair(data, table.seats.length);
  } catch (err) {
    if (err instanceof Unverifiable) return { status: "unverifiable", reason: err.reason, rollsChecked: 0, mismatches: [], problems: [], brokenAt: null };
    throw err;
  }
  if (!globalThis.crypto || !crypto.subtle) {
    return { status: "unverifiable", reason: message("verify.why.noCrypto"), rollsChecked: 0, mismatches: [], problems: [], brokenAt: null };
  }
  const serverSeed = fromHex(fair.serverSeed);
  const commitmentOk = (await commitment(serverSeed)) === fair.commitment;
  const report = { status: "ok", rollsChecked: 0, commitmentOk, mismatches: [], problems: [], brokenAt: null, table, fair };
  if (!commitmentOk) report.problems.push(message("verify.why.seedChanged"));
  const key = await diceKey(serverSeed, fair.clientSeeds);
  const state = startState(table);
  for (let i = 0; i < table.actions.length; i++) {
    const action = table.actions[i];
    if (action.type === "roll") {
      const index = report.rollsChecked;
      const expected = await fairRoll(key, index, faces(state, table.rules));
      report.rollsChecked += 1;
      if (expected !== action.value) {
        const name = table.seats[action.seat] ? table.seats[action.seat].name : null;
        report.mismatches.push({ index, action: i + 1, seat: action.seat, name, expected, recorded: action.value });
        report.problems.push(message("verify.mismatch", { index, action: i + 1, name: name ?? message("announce.seat", { n: action.seat + 1 }), expected, recorded: action.value }));
      }
    }
    try {
      apply(state, action, table);
    } catch (err) {
      if (!(err instanceof NoReplay)) throw err;
      report.brokenAt = i + 1;
      report.problems.push(message("verify.why.noReplay", { action: i + 1, type: String(action.type), reason: err.reason }));
      break;
    }
  }
  if (report.problems.length) report.status = "tampered";
  // Where the replay got to (the end, or the action that broke it), for anyone checking it.
  report.final = { positions: state.positions, turn: state.turn, standings: state.standings, leavers: state.leavers, over: state.over };
  return report;
}
