// A game at your own table on this device: its room (js/local-room.js) with the page's
// dice, clock and speed, the server's pacing (/api/config, kept for offline play), and
// every change kept in IndexedDB (js/local-store.js) for "Resume game".

import { LocalRoom, newGameData, recordOf } from "./local-room.js";
import { rollDie } from "./local-dice.js";
import { getGame, putGame } from "./local-store.js";
import { getSettings, onSettingsChange, SPEEDS } from "./settings.js";
import { getBoards } from "./api.js";
import { config } from "./config.js";

const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
// A config kept by an older page has no pacing: AI seats then roll a second after a move.
const NO_PACING = { move_seconds: 0, square_seconds: 0, jump_seconds: 0, scale: 0, ai_delay_seconds: 1 };

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

function rollBelow(n) {
  const limit = 256 - (256 % n);
  const byte = new Uint8Array(1);
  for (;;) {
    crypto.getRandomValues(byte);
    if (byte[0] < limit) return byte[0] % n;
  }
}

/** A local code: a 0, then five of the server's symbols (js/local-room.js isLocalCode). */
function newCode() {
  return "0" + Array.from({ length: 5 }, () => ALPHABET[rollBelow(ALPHABET.length)]).join("");
}

/** A new game ({mode, seats, rules, board: name, shuffle}), kept; resolves to its code. */
export async function createLocalGame({ mode, seats, rules, board: name, shuffle }) {
  const board = await boardNamed(name);
  const table = seats.slice();
  if (shuffle) {
    for (let i = table.length - 1; i > 0; i--) {
      const j = rollBelow(i + 1);
      [table[i], table[j]] = [table[j], table[i]];
    }
  }
  const game = { ...newGameData({ code: newCode(), mode, seats: table, rules, board }), created: Date.now() };
  await putGame(game);
  return game.code;
}

/** The pacing of a server room's AI seats, from the server's config. */
export function pacing() {
  try {
    return config().pacing || NO_PACING;
  } catch {
    return NO_PACING;
  }
}

/**
 * Open local game `code` on this device: its room, delivering the server's messages to
 * `deliver`. Resolves to the room (null when the device no longer has the game).
 */
export async function openLocalRoom(code, deliver) {
  const game = await getGame(code);
  if (!game) return null;
  return new LocalRoom(game, {
    dice: rollDie,
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (id) => clearTimeout(id) },
    deliver,
    pacing: pacing(),
    save: (data) => putGame(data).catch((err) => console.error("keeping the game:", err)),
    speed: () => SPEEDS[getSettings().speed].factor,
  });
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
    this.localRoom = null;
    this.closed = false;
    this.refCounter = 0;
    this.stopSettings = onSettingsChange(() => this._askOdds());
    this.ready = openLocalRoom(code, (message) => this._receive(message)).then((room) => {
      if (this.closed) return;
      if (!room) {
        this.fatal = { code: "room_not_found" };
        this._emit({ type: "error", code: "room_not_found", message: "", local: true });
        return;
      }
      this.localRoom = room;
      room.hello();
    }, (err) => {
      console.error(err);
      this._emit({ type: "error", code: "unavailable", message: String(err && err.message) });
    });
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
    queueMicrotask(() => {
      if (this.localRoom && !this.closed) this.localRoom.take({ ...message, ref });
    });
    return ref;
  }

  change() {
    return this.room && Number.isInteger(this.room.change) ? this.room.change : 0;
  }

  resync() {
    if (this.room) this._emit({ type: "welcome", room: this.room, you: this.you });
  }

  close() {
    this.closed = true;
    this.stopSettings();
    if (this.localRoom) this.localRoom.close();
    this.listeners.clear();
  }

  recordJson(number) {
    const game = this.localRoom && this.localRoom.game;
    const found = game && game.records.find((r) => r.game_number === number);
    return found ? JSON.stringify(found.record, null, 1) : null;
  }

  /** A link that downloads finished game `number`'s record from the device. */
  recordUrl(number) {
    const text = this.recordJson(number);
    if (!text) return "#";
    if (this.download && this.downloadText === text) return this.download;
    if (this.download) URL.revokeObjectURL(this.download);
    this.downloadText = text;
    this.download = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    return this.download;
  }

  _receive(msg) {
    if (msg.type === "welcome") {
      this.you = msg.you;
      this.room = msg.room;
      this._emit({ type: "welcome", room: msg.room, you: msg.you });
      this._askOdds();
    } else if (msg.type === "update") {
      this.room = msg.room;
      this._emit({ type: "update", events: msg.events, room: msg.room, instant: msg.instant });
      this._askOdds();
    } else if (msg.type === "error") {
      this._emit({ type: "error", code: msg.code, message: msg.message, ref: msg.ref, retryAfter: 0 });
    }
  }

  // Live odds, while shown: the server works them out of the record (js/local-story.js);
  // without it the room says they need a connection (odds_offline).
  _askOdds() {
    const room = this.localRoom;
    if (this.closed || !room || room.state.over || !getSettings().showOdds) return;
    const version = room.game.version;
    const settle = (odds, offline) => {
      if (this.closed || room.game.version !== version) return;
      this.room = { ...this.room, odds, odds_offline: offline };
      this._emit({ type: "update", events: [], room: this.room, instant: false });
    };
    import("./local-story.js")
      .then(({ localOdds }) => localOdds(recordOf(room.game)))
      .then((odds) => settle(odds, false), (err) => settle(null, Boolean(err && err.code === "offline")));
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
