// Checking a game's provably fair dice in the browser, so that checking needs no trust in
// the server (docs/FAIR_DICE.md, scheme "snakes-hmac-sha256-v1"):
//
//  1. SHA-256(server_seed) must equal the commitment published before the game;
//  2. the dice key is server_seed || SHA-256(UTF-8(client_seed)) for every seat in order;
//  3. roll number i (counting roll actions only) is HMAC-SHA256(key, "i:attempt"), the
//     first byte below 256 - 256 % faces giving (byte % faces) + 1.
//
// To know how many faces each roll had (5 after two sixes in one turn when sixes roll
// again), this module replays the record's actions on the record's board with the
// record's rules, through the page's one copy of the rules (js/rules.js, the same that
// runs games at your own table). The replay goes on with the recorded values, so every
// tampered roll is named, until an action no longer replays (reported too).

import { FINISH, RuleError, apply, faces, newGame } from "./rules.js";

const SCHEME = "snakes-hmac-sha256-v1";
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
  const game = { rules: { finish: rules.finish, exact_finish: rules.exactFinish, six_again: rules.sixAgain }, jumps };
  return { seats, rules, jumps, game, boardName: typeof board.name === "string" ? board.name : "", first, actions };
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

/** Apply one action through the rules (js/rules.js); throws NoReplay when it does not replay. */
function replay(state, action, table) {
  const seatOk = (seat) => Number.isInteger(seat) && seat >= 0 && seat < state.positions.length;
  const who = (seat) => (seatOk(seat) ? table.seats[seat].name : message("announce.seat", { n: seat + 1 }));
  try {
    return apply(state, action, table.game).state;
  } catch (err) {
    if (!(err instanceof RuleError)) throw err;
    if (err.code === "game_over") throw new NoReplay("verify.why.over");
    if (err.code === "forbidden_roll") throw new NoReplay("verify.why.impossible", { value: action.value, faces: err.details.faces });
    if (action.type === "leave" || action.type === "remove") throw new NoReplay("verify.why.notRacing", { seat: who(action.seat) });
    throw new NoReplay("verify.why.notTurn", { turn: who(state.turn), seat: who(action.seat) });
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
  let state = newGame(table.seats.length, table.first);
  for (let i = 0; i < table.actions.length; i++) {
    const action = table.actions[i];
    if (action.type === "roll") {
      const index = report.rollsChecked;
      const expected = await fairRoll(key, index, faces(state, table.game.rules));
      report.rollsChecked += 1;
      if (expected !== action.value) {
        const name = table.seats[action.seat] ? table.seats[action.seat].name : null;
        report.mismatches.push({ index, action: i + 1, seat: action.seat, name, expected, recorded: action.value });
        report.problems.push(message("verify.mismatch", { index, action: i + 1, name: name ?? message("announce.seat", { n: action.seat + 1 }), expected, recorded: action.value }));
      }
    }
    try {
      state = replay(state, action, table);
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
