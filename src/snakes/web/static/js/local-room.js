// A game at your own table (Play with AI, Pass & Play) runs in the page, with or without
// the server: your device decides. It takes a server room's intents and answers with its
// messages and room view (docs/PROTOCOL.md), so the screens draw it like any room. Every
// change is kept on the device (js/local-store.js) for "Resume game". Online rooms never
// come here: the server decides there.

import { apply, faces, jumpsOf, newGame, placings, racing, readRules, winner, AWAY_AFTER, RuleError } from "./rules.js";
import { rollDie } from "./local-dice.js";
import { getGame, putGame } from "./local-store.js";
import { duration, getSettings, onSettingsChange } from "./settings.js";
import { getBoards } from "./api.js";

const ENGINE_VERSION = "1.0.0";
// A server room's pauses (server/settings.py), at the chosen animation speed.
const AI_DELAY_MS = 900;
const MAX_FAST_FORWARD = 50000;
// A local code has a 0 in it: server codes never do (their alphabet has no 0, O, 1 or I).
const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

export function isLocalCode(code) {
  return /^0[2-9A-HJ-NP-Z]{5}$/.test(String(code || ""));
}

function newCode() {
  const bytes = new Uint8Array(5);
  crypto.getRandomValues(bytes);
  return "0" + Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
}

function allowanceMs(events) {
  let squares = 0;
  let jumps = 0;
  for (const ev of events) {
    if (ev.type === "moved") squares += ev.end - ev.start;
    else if (ev.type === "climbed" || ev.type === "slid") jumps += 1;
  }
  return 600 + 120 * squares + 700 * jumps;
}

// The shipped boards come from GET /api/boards (kept on the device by js/api.js); this
// default (the engine's JUNGLE) serves a device that never saw the list.
const JUNGLE = {
  name: "jungle",
  ladders: [[1, 38], [4, 14], [9, 31], [21, 42], [28, 84], [36, 44], [51, 67], [71, 91], [80, 98]],
  snakes: [[16, 6], [47, 26], [49, 11], [56, 53], [62, 19], [64, 60], [87, 24], [93, 73], [95, 75], [99, 27]],
};

async function boardNamed(name) {
  const found = ((await getBoards()) || []).find((b) => b.name === (name || "jungle"));
  if (!found || !Array.isArray(found.jumps)) return JUNGLE;
  return { name: found.name, ladders: found.jumps.filter(([a, b]) => b > a), snakes: found.jumps.filter(([a, b]) => b < a) };
}

/** A new game ({mode, seats, rules, board: name, shuffle}), kept; resolves to its code. */
export async function createLocalGame({ mode, seats, rules, board: name, shuffle }) {
  const board = await boardNamed(name);
  const table = seats.map(({ name, colour, kind }) => ({ name, colour, kind }));
  if (shuffle) {
    for (let i = table.length - 1; i > 0; i--) {
      const j = rollBelow(i + 1);
      [table[i], table[j]] = [table[j], table[i]];
    }
  }
  const game = {
    code: newCode(),
    mode,
    seats: table,
    rules: readRules(rules),
    board: { name: board.name, ladders: board.ladders, snakes: board.snakes },
    first: 0,
    game_number: 1,
    version: 1,
    actions: [],
    records: [],
    created: Date.now(),
  };
  await putGame(game);
  return game.code;
}

function rollBelow(n) {
  const limit = 256 - (256 % n);
  const byte = new Uint8Array(1);
  for (;;) {
    crypto.getRandomValues(byte);
    if (byte[0] < limit) return byte[0] % n;
  }
}

// As the server writes records (snakes verify and replay read them).
function recordOf(game) {
  return {
    engine_version: ENGINE_VERSION,
    rules: game.rules,
    board: game.board,
    seats: game.seats.map(({ name, colour }) => ({ name, colour })),
    first: game.first,
    actions: game.actions,
  };
}

/** A local game, with a Session's interface (js/session.js). */
export class LocalSession {
  constructor(code) {
    this.code = code;
    this.secret = null;
    this.local = true;
    this.room = null;
    this.you = null;
    this.fatal = null;
    this.listeners = new Set();
    this.connection = { state: "open" };
    this.game = null;
    this.state = null;
    this.table = null;
    this.aiTimer = null;
    this.closed = false;
    this.refCounter = 0;
    this.stopSettings = onSettingsChange(() => this._askOdds());
    this.ready = getGame(code).then((game) => {
      if (this.closed) return;
      if (!game) {
        this.fatal = { code: "room_not_found" };
        this._emit({ type: "error", code: "room_not_found", message: "", local: true });
        return;
      }
      this._load(game);
      this._emit({ type: "welcome", room: this.room, you: this.you });
      this._scheduleAi([]);
      this._askOdds();
    }, (err) => {
      console.error(err);
      this._emit({ type: "error", code: "unavailable", message: String(err && err.message) });
    });
  }

  _load(game) {
    this.game = game;
    this.table = { rules: readRules(game.rules), jumps: jumpsOf(game.board) };
    let state = newGame(game.seats.length, game.first);
    for (const action of game.actions) state = apply(state, action, this.table).state;
    this.state = state;
    const mine = game.seats.flatMap((seat, i) => (seat.kind === "human" ? [i] : []));
    this.you = { seats: mine, host: false, spectator: false };
    this.room = this._view();
  }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  mySeats() {
    return new Set(this.you ? this.you.seats : []);
  }

  send(message) {
    this.refCounter += 1;
    const ref = `l${this.refCounter}`;
    // Answered later, as over a socket: the caller notes its ref first.
    queueMicrotask(() => this._take(message, ref));
    return ref;
  }

  /** The room's change counter, as a Session gives it; a local game applies intents in
   * the order they were made, so it checks only a roll's version against it. */
  change() {
    return this.game ? this.game.version : 0;
  }

  resync() {
    if (this.room) this._emit({ type: "welcome", room: this.room, you: this.you });
  }

  close() {
    this.closed = true;
    this.stopSettings();
    clearTimeout(this.aiTimer);
    this.listeners.clear();
  }

  recordJson(number) {
    const found = this.game && this.game.records.find((r) => r.game_number === number);
    return found ? JSON.stringify(found.record, null, 1) : null;
  }

  /** A link that downloads finished game `number`'s record from the device. */
  recordUrl(number) {
    const text = this.recordJson(number);
    if (!text) return "#";
    // The same record keeps its address: a result screen drawn again (or a second one on
    // its way) must not take the file from under a link still on screen.
    if (this.download && this.downloadText === text) return this.download;
    if (this.download) URL.revokeObjectURL(this.download);
    this.downloadText = text;
    this.download = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    return this.download;
  }

  _take(message, ref) {
    if (this.closed || !this.game) return;
    try {
      switch (message.type) {
        case "roll":
          this._roll(message);
          break;
        case "leave":
          this._mine(message.seat);
          this._act([{ type: "leave", seat: message.seat }]);
          break;
        case "finish_ai":
          this._finishAi();
          break;
        case "rematch":
          this._rematch();
          break;
        case "ping":
          break;
        default:
          throw new RuleError("not_allowed", "a game at your own table does not take that");
      }
    } catch (err) {
      if (!(err instanceof RuleError)) throw err;
      this._emit({ type: "error", code: err.code, message: err.message, ref, retryAfter: 0 });
    }
  }

  _mine(seat) {
    if (!this.mySeats().has(seat)) throw new RuleError("not_your_seat", "that seat is not one you hold");
  }

  _roll({ seat, version }) {
    this._mine(seat);
    if (this.state.over) throw new RuleError("game_over", "the game has ended");
    if (version !== this.game.version) throw new RuleError("stale_version", `that roll was made at version ${version}; it is ${this.game.version}`);
    if (this.state.turn !== seat) throw new RuleError("not_your_turn", "it is another seat's turn");
    this._act([{ type: "roll", seat, value: rollDie(faces(this.state, this.table.rules)) }]);
  }

  _finishAi() {
    if (this.state.over) throw new RuleError("game_over", "the game has ended");
    if (!racing(this.state).every((s) => this.game.seats[s].kind === "ai")) throw new RuleError("not_allowed", "people are still racing");
    const actions = [];
    let state = this.state;
    for (let i = 0; i < MAX_FAST_FORWARD && !state.over; i++) {
      const action = { type: "roll", seat: state.turn, value: rollDie(faces(state, this.table.rules)) };
      state = apply(state, action, this.table).state;
      actions.push(action);
    }
    this._act(actions, { instant: true });
  }

  _rematch() {
    if (!this.state.over) throw new RuleError("not_allowed", "a rematch comes after the game is over");
    const game = this.game;
    game.first = (game.first + 1) % game.seats.length;
    game.game_number += 1;
    game.actions = [];
    this.state = newGame(game.seats.length, game.first);
    this._publish([{ type: "rematch" }]);
  }

  _act(actions, { instant = false } = {}) {
    const events = [];
    let state = this.state;
    for (const action of actions) {
      const out = apply(state, action, this.table);
      state = out.state;
      events.push(...out.events);
    }
    this.state = state;
    this.game.actions.push(...actions);
    if (state.over) {
      this.game.records = this.game.records.filter((r) => r.game_number !== this.game.game_number).slice(-9);
      this.game.records.push({ game_number: this.game.game_number, record: recordOf(this.game) });
    }
    this._publish(events, { instant });
  }

  _publish(events, { instant = false } = {}) {
    this.game.version += 1;
    this.room = this._view();
    putGame(this.game).catch((err) => console.error("keeping the game:", err));
    this._emit({ type: "update", events, room: this.room, instant });
    this._scheduleAi(instant ? [] : events);
    this._askOdds();
  }

  // Live odds, while shown: the server works them out of the record (js/local-story.js);
  // without it the room says they need a connection (odds_offline).
  _askOdds() {
    if (this.closed || !this.game || this.state.over || !getSettings().showOdds) return;
    const version = this.game.version;
    const settle = (odds, offline) => {
      if (this.closed || this.game.version !== version) return;
      this.room = { ...this.room, odds, odds_offline: offline };
      this._emit({ type: "update", events: [], room: this.room, instant: false });
    };
    import("./local-story.js")
      .then(({ localOdds }) => localOdds(recordOf(this.game)))
      .then((odds) => settle(odds, false), (err) => settle(null, Boolean(err && err.code === "offline")));
  }

  _scheduleAi(events) {
    clearTimeout(this.aiTimer);
    const state = this.state;
    if (this.closed || !state || state.over || this.game.seats[state.turn].kind !== "ai") return;
    const wait = duration(allowanceMs(events) * (events.length ? 1 : 0) + AI_DELAY_MS);
    this.aiTimer = setTimeout(() => {
      if (this.closed || this.state !== state) return;
      this._act([{ type: "roll", seat: state.turn, value: rollDie(faces(state, this.table.rules)) }]);
    }, wait);
  }

  // server/rooms/views.py's room view.
  _view() {
    const game = this.game;
    const state = this.state;
    const rules = this.table.rules;
    const seats = game.seats.map((seat, index) => {
      const finished = state.standings.indexOf(index);
      const left = state.leavers.includes(index);
      const status = finished >= 0 ? "finished" : left ? "left" : "racing";
      return {
        index,
        name: seat.name,
        colour: seat.colour,
        kind: seat.kind,
        connected: true,
        away: status === "racing" && state.missed[index] >= AWAY_AFTER,
        host: false,
        square: state.positions[index],
        status,
        place: finished >= 0 ? finished + 1 : null,
        missed: state.missed[index],
      };
    });
    const still = state.over ? [] : racing(state);
    return {
      code: game.code,
      mode: game.mode,
      phase: state.over ? "over" : "playing",
      game_number: game.game_number,
      rules,
      countdown_seconds: 20,
      board: game.board,
      finish_square: 100,
      seats,
      turn: state.turn,
      faces: faces(state, rules),
      bonus: state.sixes > 0,
      over: state.over,
      end_reason: state.end_reason,
      winner: winner(state, rules),
      standings: state.standings.slice(),
      results: state.over ? placings(state, rules) : null,
      countdown: null,
      only_ai_racing: still.length > 0 && still.every((s) => game.seats[s].kind === "ai"),
      version: game.version,
      odds: null,
      fair: null,
      reactions: false,
      invite_url: "",
      local: true,
    };
  }

  _emit(event) {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        console.error(err);
      }
    }
  }
}
