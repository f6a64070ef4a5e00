// The constants this page shares with the server (GET /api/config): the countdown's
// default and range, seat limits, token colours and the finish modes' names. The server
// is their one source; the page reads them once, before the first screen.

import { getConfig } from "./api.js";
import { t, has } from "./i18n.js";

let loaded = null;

/** Fetch the config (once). Rejects when the server cannot be reached. */
export async function loadConfig() {
  if (!loaded) loaded = await getConfig();
  return loaded;
}

/** The loaded config; only valid after loadConfig() resolved (main.js waits for it). */
export function config() {
  if (!loaded) throw new Error("the game's config is not loaded yet");
  return loaded;
}

/** "Classic", "Last One Standing": a finish mode's name in the language (else the server's). */
export function finishName(id) {
  if (has(`finish.${id}`)) return t(`finish.${id}`);
  const found = loaded && loaded.finishes.find((f) => f.id === id);
  return found ? found.name : String(id || "");
}
