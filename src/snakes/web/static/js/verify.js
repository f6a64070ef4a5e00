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

export class Unverifiable extends Error {}

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
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Unverifiable("A game record is a JSON object.");
  if (!Array.isArray(data.seats) || data.seats.length < 1 || data.seats.length > 6) {
    throw new Unverifiable("The record has no list of 1–6 seats.");
  }
  const seats = data.seats.map((seat, i) => {
    if (!seat || typeof seat.name !== "string") throw new Unverifiable(`Seat ${i + 1} has no name.`);
    return { name: seat.name, colour: typeof seat.colour === "string" ? seat.colour : "" };
  });
  const rawRules = data.rules && typeof data.rules === "object" ? data.rules : {};
  const rules = {
    finish: rawRules.finish === undefined ? "classic" : rawRules.finish,
    exactFinish: rawRules.exact_finish === undefined ? true : rawRules.exact_finish,
    sixAgain: rawRules.six_again === undefined ? true : rawRules.six_again,
  };
  if (!["classic", "last-one-standing"].includes(rules.finish) || typeof rules.exactFinish !== "boolean" || typeof rules.sixAgain !== "boolean") {
    throw new Unverifiable("The record's rules are not ones this game knows.");
  }
  // The board comes from the record itself (every record the server writes names it).
  const board = data.board;
  const jumps = new Map();
  if (board === undefined) throw new Unverifiable("The record names no board.");
  if (!board || typeof board !== "object") throw new Unverifiable("The record's board is unreadable.");
  for (const [kind, list] of [["ladders", board.ladders || []], ["snakes", board.snakes || []]]) {
    if (!Array.isArray(list)) throw new Unverifiable(`The board's ${kind} are not a list.`);
    for (const pair of list) {
      if (!Array.isArray(pair) || pair.length !== 2 || !pair.every(isInt)) throw new Unverifiable(`The board has a malformed ${kind.slice(0, -1)}.`);
      const [start, end] = pair;
      if (start < 1 || start > 99 || end < 1 || end > FINISH || jumps.has(start)) throw new Unverifiable(`The board's ${kind.slice(0, -1)} ${start}→${end} is not a valid jump.`);
      if ((kind === "ladders") !== (end > start)) throw new Unverifiable(`The board's ${kind.slice(0, -1)} ${start}→${end} goes the wrong way.`);
      jumps.set(start, end);
    }
  }
  const first = data.first === undefined ? 0 : data.first;
  if (!isInt(first) || first < 0 || first >= seats.length) throw new Unverifiable("The record's first seat is not one of its seats.");
  if (!Array.isArray(data.actions)) throw new Unverifiable("The record's actions are not a list.");
  const actions = data.actions.map((action, i) => {
    const kind = action && action.type;
    const ok = kind === "abandon"
      || (["skip", "leave", "remove"].includes(kind) && isInt(action.seat))
      || (kind === "roll" && isInt(action.seat) && isInt(action.value));
    if (!ok) throw new Unverifiable(`Action ${i + 1} is not an action this game knows.`);
    return action;
  });
  return { seats, rules, jumps, boardName: typeof board.name === "string" ? board.name : "", first, actions };
}

function readFair(data, seatCount) {
  const fair = data.fair;
  if (!fair || typeof fair !== "object") throw new Unverifiable("The record has no “fair” section: its dice were not provably fair dice.");
  const scheme = fair.scheme === undefined ? SCHEME : fair.scheme;
  if (scheme !== SCHEME) throw new Unverifiable(`Unknown fair dice scheme “${String(scheme)}” (this page checks ${SCHEME}).`);
  if (typeof fair.commitment !== "string" || !HEX64.test(fair.commitment)) throw new Unverifiable("The commitment must be 64 lowercase hex digits (SHA-256).");
  if (!("server_seed" in fair)) throw new Unverifiable("The server seed has not been revealed yet: the server reveals it only when the game is over.");
  if (typeof fair.server_seed !== "string" || !HEX64.test(fair.server_seed)) throw new Unverifiable("The server seed must be 64 lowercase hex digits (32 bytes).");
  const seeds = fair.client_seeds;
  if (!Array.isArray(seeds)) throw new Unverifiable("The client seeds must be a list, one per seat.");
  if (seeds.length !== seatCount) throw new Unverifiable(`The record has ${seeds.length} client seed(s) for ${seatCount} seat(s).`);
  seeds.forEach((seed, seat) => {
    if (typeof seed !== "string") throw new Unverifiable(`The client seed of seat ${seat + 1} is not text.`);
    if (Array.from(seed).length > MAX_CLIENT_SEED) throw new Unverifiable(`The client seed of seat ${seat + 1} is longer than ${MAX_CLIENT_SEED} characters.`);
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

/** Apply one action to the replay state; throws Error(reason) when it does not replay. */
function apply(state, action, table) {
  const { rules, jumps } = table;
  if (state.over) throw new Error("the game was already over");
  const seatOk = (seat) => seat >= 0 && seat < state.positions.length;
  const who = (seat) => (seatOk(seat) ? table.seats[seat].name : `seat ${seat + 1}`);
  switch (action.type) {
    case "roll": {
      if (!seatOk(action.seat) || action.seat !== state.turn) throw new Error(`it was ${who(state.turn)}'s turn, not ${who(action.seat)}'s`);
      const value = action.value;
      if (value < 1 || value > faces(state, rules)) throw new Error(`a roll of ${value} is impossible there (the die had ${faces(state, rules)} faces)`);
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
      if (!seatOk(action.seat) || action.seat !== state.turn) throw new Error(`it was ${who(state.turn)}'s turn, not ${who(action.seat)}'s`);
      nextTurn(state);
      return;
    case "leave":
    case "remove": {
      if (!seatOk(action.seat) || !racing(state).includes(action.seat)) throw new Error(`${who(action.seat)} was no longer racing`);
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
      throw new Error(`unknown action ${String(action.type)}`);
  }
}

/**
 * Check a record (parsed JSON). Resolves to a report:
 * {status: "ok" | "tampered" | "unverifiable", rollsChecked, commitmentOk, mismatches:
 *  [{index, action, seat, name, expected, recorded}], problems: [string], reason, table,
 *  final: {positions, turn, standings, leavers, over}}.
 */
export async function verifyRecord(data) {
  let table;
  let fair;
  try {
    table = readRecord(data);
    fair = readFair(data, table.seats.length);
  } catch (err) {
    if (err instanceof Unverifiable) return { status: "unverifiable", reason: err.message, rollsChecked: 0, mismatches: [], problems: [] };
    throw err;
  }
  if (!globalThis.crypto || !crypto.subtle) {
    return { status: "unverifiable", reason: "This browser cannot compute SHA-256 here (WebCrypto needs a secure https:// page).", rollsChecked: 0, mismatches: [], problems: [] };
  }
  const serverSeed = fromHex(fair.serverSeed);
  const commitmentOk = (await commitment(serverSeed)) === fair.commitment;
  const report = { status: "ok", rollsChecked: 0, commitmentOk, mismatches: [], problems: [], table, fair };
  if (!commitmentOk) report.problems.push("The revealed server seed does not match the commitment published before the game: the server changed its seed.");
  const key = await diceKey(serverSeed, fair.clientSeeds);
  const state = startState(table);
  for (let i = 0; i < table.actions.length; i++) {
    const action = table.actions[i];
    if (action.type === "roll") {
      const index = report.rollsChecked;
      const expected = await fairRoll(key, index, faces(state, table.rules));
      report.rollsChecked += 1;
      if (expected !== action.value) {
        const name = table.seats[action.seat] ? table.seats[action.seat].name : `Seat ${action.seat + 1}`;
        report.mismatches.push({ index, action: i + 1, seat: action.seat, name, expected, recorded: action.value });
        report.problems.push(`Roll #${index} (action ${i + 1}, ${name}): the seeds give ${expected}, the record says ${action.value}.`);
      }
    }
    try {
      apply(state, action, table);
    } catch (err) {
      report.problems.push(`Action ${i + 1} (${action.type}) does not replay: ${err.message}.`);
      break;
    }
  }
  if (report.problems.length) report.status = "tampered";
  // Where the replay got to (the end, or the action that broke it), for anyone checking it.
  report.final = { positions: state.positions, turn: state.turn, standings: state.standings, leavers: state.leavers, over: state.over };
  return report;
}
