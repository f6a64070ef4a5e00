// The story and the live odds of a game at your own table. The dice and the rules run in
// the page; the odds need the engine's Markov chains, which the page does not carry (see
// docs/ARCHITECTURE.md: they would weigh more than the whole first load). So the page
// sends the game's record, and the server replays it before it works anything out.
// Without the server they are not shown, and the screens say that they need a
// connection (error code "offline").

import { ApiError } from "./api.js";
import { t } from "./i18n.js";
import { getGame } from "./local-store.js";

async function post(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError("offline", t("story.needsConnection"));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const err = data && data.error;
    throw new ApiError(String((err && err.code) || `http_${response.status}`), (err && err.message) || t("error.http", { status: String(response.status) }), response.status);
  }
  return data;
}

/** The record of finished game `number` (the last one when null) of local game `code`. */
export async function localRecord(code, number = null) {
  const game = await getGame(code);
  const records = game ? game.records : [];
  const found = number ? records.find((r) => r.game_number === number) : records[records.length - 1];
  if (!found) throw new ApiError("record_not_found", t("story.unavailable"), 404);
  return found.record;
}

/** The story of a finished local game, as GET /api/rooms/{code}/story gives one. */
export async function localStory(code, number = null) {
  const story = await post("/api/records/story", await localRecord(code, number));
  return { ...story, code, game: number };
}

/** Each seat's odds now ({kind, values}, or null once over), from the record so far. */
export async function localOdds(record) {
  const answer = await post("/api/records/odds", record);
  return answer ? answer.odds : null;
}
