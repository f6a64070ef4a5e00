// The story of a finished game: every position and every seat's odds after each move.
// An online game's comes from the server's engine, in one call (GET
// /api/rooms/{code}/story[?game=N]); a game at your own table's is worked out in the
// page from the record on this device (js/local-story.js), with no server. The replay
// and the chart only draw it. Asked once per game and kept for the visit.

import { ApiError } from "./api.js";
import { t } from "./i18n.js";
import { isLocalCode } from "./local-room.js";

const stories = new Map();

export function storyUrl(code, game = null) {
  const query = Number.isInteger(game) && game > 0 ? `?game=${game}` : "";
  return `/api/rooms/${encodeURIComponent(code)}/story${query}`;
}

/** The story of game `game` of room `code` (its last finished game when null). */
export function getStory(code, game = null) {
  const url = storyUrl(code, game);
  if (!stories.has(url)) {
    // A game at your own table: its record is on this device, and the page works its
    // story out (js/local-story.js), offline too.
    const pending = isLocalCode(code) ? import("./local-story.js").then((m) => m.localStory(code, game)) : load(url);
    stories.set(url, pending);
    pending.catch(() => stories.delete(url));
  }
  return stories.get(url);
}

async function load(url) {
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  } catch {
    throw new ApiError("network", t("error.network"));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const err = data && data.error;
    throw new ApiError(String((err && err.code) || `http_${response.status}`), (err && err.message) || t("error.http", { status: String(response.status) }), response.status);
  }
  return data;
}
