// The WebSocket to /ws: connects, says hello with the stored secret, reconnects by
// itself with exponential backoff (and jitter) and shows its state in the top bar.
// Its pings carry this device's time, so the pongs measure the server clock's offset.

import { pongSample, viewSample } from "./server-clock.js";
import { getSettings } from "./settings.js";
import { t } from "./i18n.js";

const BASE_DELAY = 500;
const MAX_DELAY = 15000;
const PING_EVERY = 20000;
const SILENCE_LIMIT = 50000;

// The words for each state are in the catalogue (connection.<state>).
const STATES = new Set(["connecting", "open", "reconnecting", "offline", "closed"]);

export class Connection {
  /**
   * @param {{room: string, secret?: string|null, onMessage: (msg: object) => void,
   *          onState?: (state: string) => void}} options
   */
  constructor({ room, secret, onMessage, onState }) {
    this.room = room;
    this.secret = secret || null;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.state = "idle";
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastHeard = Date.now();
    this._onOnline = () => this._reconnectNow();
    // The network went: say so now. A socket can stay "open" with no network under it
    // for a long time (until the silence limit), showing "Connected" all the while.
    this._onOffline = () => this._lost();
    this._onVisible = () => {
      if (document.visibilityState === "visible") this._reconnectNow();
    };
    window.addEventListener("online", this._onOnline);
    window.addEventListener("offline", this._onOffline);
    document.addEventListener("visibilitychange", this._onVisible);
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this._setState(this.attempt === 0 ? "connecting" : "reconnecting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let socket;
    try {
      // The room in the address keeps a room's players on one node behind a load
      // balancer (docs/DEPLOY.md); the server itself reads the room from the hello.
      socket = new WebSocket(`${scheme}://${location.host}/ws?room=${encodeURIComponent(this.room)}`);
    } catch {
      this._scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.lastHeard = Date.now();
      const hello = { type: "hello", room: this.room };
      if (this.secret) hello.secret = this.secret;
      // The server works the live odds out only while some device shows them.
      if (getSettings().showOdds) hello.odds = true;
      socket.send(JSON.stringify(hello));
      // Measure the clock offset at once (three tries: the quickest round trip wins).
      for (const wait of [0, 400, 1500]) {
        setTimeout(() => {
          if (socket === this.socket && socket.readyState === WebSocket.OPEN) this._ping();
        }, wait);
      }
      this._setState("open");
      this._startPing();
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "pong") {
        if (typeof msg.t === "number") pongSample(msg.t, msg.server_ms);
        return;
      }
      const countdown = msg.room && msg.room.countdown;
      if (countdown && typeof countdown.server_now_ms === "number") viewSample(countdown.server_now_ms);
      this.onMessage(msg);
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.socket = null;
      this._stopPing();
      if (!this.stopped) this._scheduleRetry();
    });
    socket.addEventListener("error", () => {
      // A "close" event always follows; the retry is scheduled there.
    });
  }

  /** Send an intent (with its ref). False when the socket is not open. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Stop for good: no more reconnects (leaving the game screen, or a fatal error). */
  close(finalState = "closed") {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this._stopPing();
    window.removeEventListener("online", this._onOnline);
    window.removeEventListener("offline", this._onOffline);
    document.removeEventListener("visibilitychange", this._onVisible);
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      try {
        socket.close(1000, "bye");
      } catch {
        // already closing
      }
    }
    this._setState(finalState);
  }

  _scheduleRetry() {
    this.attempt += 1;
    const backoff = Math.min(MAX_DELAY, BASE_DELAY * 2 ** (this.attempt - 1));
    // Offline, the "online" event reconnects at once; a slow try now and then is only a
    // safety net for a device that never says it is back.
    const delay = navigator.onLine === false ? MAX_DELAY : backoff / 2 + Math.random() * (backoff / 2);
    this._setState(navigator.onLine === false ? "offline" : "reconnecting");
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Drop the socket (the network is gone) and wait to reconnect: the state says why. */
  _lost() {
    if (this.stopped) return;
    const socket = this.socket;
    this.socket = null;
    this._stopPing();
    if (socket) {
      try {
        socket.close();
      } catch {
        // already closing
      }
    }
    this._scheduleRetry();
  }

  _reconnectNow() {
    if (this.stopped || this.socket) return;
    this.attempt = Math.max(this.attempt, 1);
    this.connect();
  }

  _startPing() {
    this._stopPing();
    this.pingTimer = setInterval(() => {
      if (!this.socket) return;
      if (Date.now() - this.lastHeard > SILENCE_LIMIT) {
        // The network died quietly: drop the socket and reconnect.
        this._lost();
        return;
      }
      this._ping();
    }, PING_EVERY);
  }

  _ping() {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ type: "ping", t: Date.now() }));
    }
  }

  _stopPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  _setState(state) {
    this.state = state;
    showConnectionState(state);
    this.onState(state);
  }
}

/** Reflect a connection state in the top bar's indicator ("idle" hides it). */
export function showConnectionState(state) {
  const el = document.getElementById("connection");
  if (!el) return;
  el.dataset.state = state;
  el.hidden = state === "idle";
  const text = el.querySelector(".connection-text");
  if (text) text.textContent = STATES.has(state) ? t(`connection.${state}`) : "";
}
