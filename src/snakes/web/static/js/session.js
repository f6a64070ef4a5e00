// One open room: its connection, the latest room view from the server and who we are
// in it. The game and result screens share it, so moving between them keeps the socket.

import { Connection, showConnectionState } from "./connection.js";

const FATAL = new Set(["room_not_found", "bad_secret"]);

export class Session {
  constructor(code, secret) {
    this.code = code;
    this.secret = secret;
    this.room = null;
    this.you = null;
    this.fatal = null;
    this.listeners = new Set();
    this.connection = new Connection({
      room: code,
      secret,
      onMessage: (msg) => this._receive(msg),
      onState: (state) => this._emit({ type: "connection", state }),
    });
    this.connection.connect();
  }

  /** Subscribe to {type: "welcome" | "update" | "error" | "connection", ...}. */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  send(message) {
    return this.connection.send(message);
  }

  /** Ask for the whole state again (after a stale intent): reconnect and say hello. */
  resync() {
    const socket = this.connection.socket;
    if (socket) socket.close(4000, "resync");
  }

  close() {
    this.connection.close("idle");
    showConnectionState("idle");
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
        break;
      case "update":
        if (!msg.room || typeof msg.room !== "object") return;
        this.room = msg.room;
        if (msg.you && typeof msg.you === "object") this.you = msg.you;
        this._emit({ type: "update", events: Array.isArray(msg.events) ? msg.events : [], room: msg.room, instant: Boolean(msg.instant) });
        break;
      case "error":
        if (FATAL.has(msg.code)) {
          // Only a hello names a room and a secret: these end the session for good.
          this.fatal = msg;
          this.connection.close("closed");
        }
        this._emit({ type: "error", code: String(msg.code || "error"), message: String(msg.message || "Something went wrong."), ref: msg.ref });
        break;
      default:
        break;
    }
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

/** The session for `code`, reusing the open one when it is the same room. */
export function openSession(code, secret) {
  if (current && current.code === code && current.secret === secret && !current.fatal) return current;
  if (current) current.close();
  current = new Session(code, secret);
  return current;
}

export function currentSession() {
  return current;
}

export function closeSession() {
  if (current) current.close();
  current = null;
}
