// Fetch wrappers for the HTTP API (docs/PROTOCOL.md). Errors become ApiError with the
// server's code and message; screens show the catalogue's words for the code
// (errorText), or the server's message for a code the catalogue does not know.

import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// Can the game server be reached: "offline" (this device says so), else what the last
// request to /api/ found: "ok", or "unreachable" (no answer, or a proxy's 502-504).
let heardOk = true;
let heardAt = 0;
const reachers = new Set();
export const reach = () => (navigator.onLine === false ? "offline" : heardOk ? "ok" : "unreachable");
const tell = () => reachers.forEach((listener) => listener(reach()));
addEventListener("online", tell);
addEventListener("offline", tell);

function heard(ok) {
  heardAt = Date.now();
  if (ok !== heardOk) {
    heardOk = ok;
    tell();
  }
}

/** Call `listener(reach())` whenever it may have changed; returns what stops it. */
export function onReach(listener) {
  reachers.add(listener);
  return () => reachers.delete(listener);
}

/** Ask the server (/healthz) unless it was heard from within `fresh` ms; resolves to reach(). */
export async function checkReach(fresh = 0) {
  if (navigator.onLine !== false && Date.now() - heardAt >= fresh) {
    heard(await fetch("/healthz", { cache: "no-store" }).then((r) => r.ok, () => false));
  }
  return reach();
}

async function request(method, path, body) {
  const server = path.startsWith("/api/"); // not a copy the service worker keeps
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    if (server) heard(false);
    throw new ApiError("network", t("error.network"));
  }
  if (server) heard(![502, 503, 504].includes(response.status));
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data && data.error;
    if (err && typeof err.message === "string") {
      throw new ApiError(String(err.code || "error"), err.message, response.status);
    }
    throw new ApiError("http_" + response.status, t("error.http", { status: String(response.status) }), response.status);
  }
  return data;
}

/** POST /api/rooms — returns {code, secret, seats}. */
export function createRoom(body) {
  return request("POST", "/api/rooms", body);
}

/** POST /api/rooms/{code}/join — returns {code, secret, seats}. */
export function joinRoom(code, name, colour) {
  return request("POST", `/api/rooms/${encodeURIComponent(code)}/join`, { name, colour });
}

/** GET /api/rooms/{code} — the room's public view. */
export function getRoom(code) {
  return request("GET", `/api/rooms/${encodeURIComponent(code)}`);
}

/** GET /api/config — countdown range, seat limits, colours, finish names. */
export function getConfig() {
  return request("GET", "/api/config");
}

/** How to play and FAQ, built by the server from the board and rules, in `lang`: GET
 * /api/content, or with no server to answer, the copy kept with the app shell. */
const contents = new Map(); // language -> Promise of its How to play and FAQ
const KEPT = "/static/content/";

/** How to play and the FAQ in `lang`; asked once per language (a failure is asked again
 * next time). */
export function getContent(lang) {
  if (!contents.has(lang)) {
    const code = encodeURIComponent(lang);
    const asked = request("GET", `/api/content?lang=${code}`).catch((err) => (err.code === "network" ? keptContent(code, err) : Promise.reject(err)));
    contents.set(lang, asked);
    asked.catch(() => contents.delete(lang));
  }
  return contents.get(lang);
}

/** The copy kept with the app shell, asked for apart from the server's API (an answer from
 * the device's cache says nothing of whether the server can be reached). */
async function keptContent(code, err) {
  const response = await fetch(`${KEPT}${code}.json`).catch(() => null);
  if (!response || !response.ok) throw err;
  return response.json();
}

/** The room's last finished game's record, or game number `game` of the room. */
export function recordUrl(code, game = null) {
  const query = Number.isInteger(game) && game > 0 ? `?game=${game}` : "";
  return `/api/rooms/${encodeURIComponent(code)}/record${query}`;
}

/** GET /api/rooms/{code}/record — the game record (JSON), for the Verify screen. */
export function getRecord(code, game = null) {
  return request("GET", recordUrl(code, game));
}

let boards = null;
const BOARDS_KEY = "snakes.boards";

/**
 * GET /api/boards — the shipped boards with how long a game on each takes, or null when
 * this server has no such list (the board pickers then stay hidden). Asked once per visit;
 * the last list is kept on the device, so games at your own table pick boards offline.
 */
export function getBoards() {
  if (!boards) {
    boards = request("GET", "/api/boards")
      .then((data) => {
        const list = Array.isArray(data) ? data : data && Array.isArray(data.boards) ? data.boards : null;
        const valid = (list || []).filter((b) => b && typeof b.name === "string" && b.name);
        keep(BOARDS_KEY, valid.length ? valid : null);
        return valid.length ? valid : null;
      })
      .catch((err) => {
        if (err && err.code === "network") {
          boards = null; // a hiccup: ask again next time
          return kept(BOARDS_KEY);
        }
        return null;
      });
  }
  return boards;
}

/** A copy of an answer on the device (for the games that run without the server). */
export function keep(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or off: the next visit asks the server again.
  }
}

export function kept(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}
