// One open room: its connection, the latest room view from the server and who we are
// in it. The game and result screens share it, so moving between them keeps the socket.

import { isLocalCode } from "./local-room.js";
import { LocalSession } from "./local-game.js";

const FATAL = new Set(["room_not_found", "bad_secret"]);
const SEEDS_KEY = "snakes.seeds";
const KEEP_SEEDS = 20;

/** 16 random bytes from the browser's secure source, as 32 hex characters. */
export function newClientSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The client seeds this device sent, by commitment: [{commitment, seed, room}]. */
export function sentSeeds() {
  try {
    const list = JSON.parse(localStorage.getItem(SEEDS_KEY) || "[]");
    return Array.isArray(list) ? list.filter((x) => x && typeof x.commitment === "string" && typeof x.seed === "string") : [];
  } catch {
    return [];
  }
}

function rememberSeed(entry) {
  try {
    const list = sentSeeds().filter((x) => x.commitment !== entry.commitment);
    list.push(entry);
    localStorage.setItem(SEEDS_KEY, JSON.stringify(list.slice(-KEEP_SEEDS)));
  } catch {
    // Storage unavailable: the seed was still sent.
  }
}

export class Session {
  constructor(code, secret) {
    this.code = code;
    this.secret = secret;
    this.room = null;
    this.you = null;
    this.fatal = null;
    this.listeners = new Set();
    this.quietRefs = new Set(); // intents whose errors nobody needs to see (client seeds)
    this.seededFor = new Set();
    // The socket's code loads with the first online room: a game at your own table
    // never needs it, and the first load stays small (docs/BENCHMARKS.md).
    this.connection = { state: "connecting", socket: null, send: () => null, close: () => {} };
    this.closed = false;
    import("./connection.js").then(({ Connection }) => {
      if (this.closed) return;
      this.connection = new Connection({
        room: code,
        secret,
        onMessage: (msg) => this._receive(msg),
        onState: (state) => this._emit({ type: "connection", state }),
      });
      this.connection.connect();
    }, (err) => {
      console.error(err);
      this._emit({ type: "connection", state: "offline" });
    });
  }

  /** Subscribe to {type: "welcome" | "update" | "error" | "connection", ...}. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  send(message) {
    return this.connection.send(message);
  }

  /** The room's `change` as last received: an intent that changes the room names the
   * state it was made against, and one made against an older state is refused. */
  change() {
    return this.room && Number.isInteger(this.room.change) ? this.room.change : 0;
  }

  /** Ask for the whole state again (after a stale intent): reconnect and say hello. */
  resync() {
    const socket = this.connection.socket;
    if (socket) socket.close(4000, "resync");
  }

  close() {
    this.closed = true;
    this.connection.close("idle"); // the top bar's indicator goes with it
    this.listeners.clear();
  }

  /** Seats this device may roll for (human seats it holds). */
  mySeats() {
    return new Set((this.you && Array.isArray(this.you.seats) ? this.you.seats : []).filter(Number.isInteger));
  }

  _receive(msg) {
    switch (msg.type) {
      case "welcome":
        if (!msg.room || typeof msg.room !== "object") return;
        this.you = msg.you || { seats: [], host: false, spectator: true };
        this.room = msg.room;
        this._emit({ type: "welcome", room: msg.room, you: this.you });
        this._sendSeed(msg.room);
        break;
      case "update":
        if (!msg.room || typeof msg.room !== "object") return;
        this.room = msg.room;
        if (msg.you && typeof msg.you === "object") this.you = msg.you;
        this._emit({ type: "update", events: Array.isArray(msg.events) ? msg.events : [], room: msg.room, instant: Boolean(msg.instant) });
        this._sendSeed(msg.room);
        break;
      case "presence":
        // A seat connected or went: only `connected` and the countdown change. Shown
        // like an update with no events, so every screen redraws its seat cards.
        if (!this.room || !Array.isArray(msg.connected) || msg.connected.length !== this.room.seats.length) return;
        this.room = {
          ...this.room,
          seats: this.room.seats.map((seat, i) => ({ ...seat, connected: msg.connected[i] === true })),
          countdown: msg.countdown && typeof msg.countdown === "object" ? msg.countdown : null,
        };
        this._emit({ type: "update", events: [], room: this.room, instant: false });
        break;
      case "error":
        if (msg.ref && this.quietRefs.has(msg.ref)) {
          this.quietRefs.delete(msg.ref);
          return;
        }
        if (FATAL.has(msg.code)) {
          // Only a hello names a room and a secret: these end the session for good.
          this.fatal = msg;
          this.connection.close("closed");
        }
        this._emit({ type: "error", code: String(msg.code || "error"), message: String(msg.message || "Something went wrong."), ref: msg.ref, retryAfter: Number(msg.retry_after) || 0 });
        break;
      case "reaction":
        // Not a game action: no room view comes with it, and nothing is kept.
        if (Number.isInteger(msg.seat) && typeof msg.reaction === "string") this._emit({ type: "reaction", seat: msg.seat, reaction: msg.reaction });
        break;
      default:
        break;
    }
  }

  /**
   * Fair dice (docs/FAIR_DICE.md): while the room takes client seeds, this device adds its
   * own random seed, once per commitment. The server keys it by the connection's seat.
   */
  _sendSeed(room) {
    const fair = room && room.fair;
    if (!fair || typeof fair !== "object" || fair.accepting_seeds !== true) return;
    const commitment = typeof fair.commitment === "string" ? fair.commitment : "";
    if (!commitment || this.seededFor.has(commitment)) return;
    if (!this.you || this.you.spectator || this.mySeats().size === 0) return;
    if (sentSeeds().some((x) => x.commitment === commitment)) {
      this.seededFor.add(commitment);
      return;
    }
    const seed = newClientSeed();
    const ref = this.connection.send({ type: "seed", seed, commitment });
    if (!ref) return; // not connected: the next welcome tries again
    this.quietRefs.add(ref);
    this.seededFor.add(commitment);
    rememberSeed({ commitment, seed, room: this.code, seats: [...this.mySeats()] });
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

let current = null;

/**
 * The session for `code`, reusing the open one when it is the same room. A game at your
 * own table runs in the page (js/local-room.js); every other room is the server's.
 */
export function openSession(code, secret) {
  const local = isLocalCode(code);
  if (current && current.code === code && (local || current.secret === secret) && !current.fatal) return current;
  if (current) current.close();
  current = local ? new LocalSession(code) : new Session(code, secret);
  return current;
}

export function currentSession() {
  return current;
}

export function closeSession() {
  if (current) current.close();
  current = null;
}
