// The story of a game at your own table, worked out in the page from the record kept on
// this device: the replay, its odds chart and its moments need no server, so they work
// offline too. The exact odds come from the engine's Markov chain written again in
// JavaScript (js/turn-chain.js, js/live-odds.js, js/game-story.js; held to the Python
// chain by tests/js/test_odds_differential.py). Loaded only when a replay or a chart of a
// local game is opened; the live odds beside the board load js/live-odds.js alone.

import { ApiError } from "./api.js";
import { t } from "./i18n.js";
import { getGame } from "./local-store.js";
import { gameStory } from "./game-story.js";

/** The record of finished game `number` (the last one when null) of local game `code`. */
export async function localRecord(code, number = null) {
  const game = await getGame(code);
  const records = game ? game.records : [];
  const found = number ? records.find((r) => r.game_number === number) : records[records.length - 1];
  if (!found) throw new ApiError("record_not_found", t("story.unavailable"), 404);
  return found.record;
}

/**
 * The story of a finished local game, as GET /api/rooms/{code}/story gives one. A board
 * the server would refuse is refused alike (its code: board_too_slow, unfinishable_board).
 */
export async function localStory(code, number = null) {
  const story = gameStory(await localRecord(code, number));
  return { code, game: number, ...story };
}
