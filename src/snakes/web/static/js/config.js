// The constants this page shares with the server (GET /api/config): the countdown's
// default and range, seat limits, token colours and the finish modes' names. The server
// is their one source; the page reads them once, before the first screen.

import { getConfig, keep, kept } from "./api.js";
import { t, has } from "./i18n.js";

const KEY = "snakes.config";
let loaded = null;

/**
 * Fetch the config (once). Without the server, the copy kept from the last visit is
 * used (games at your own table need no server); rejects when there is none.
 */
export async function loadConfig() {
  if (!loaded) {
    try {
      loaded = await getConfig();
      keep(KEY, loaded);
    } catch (err) {
      loaded = err && err.code === "network" ? kept(KEY) : null;
      if (!loaded) throw err;
    }
  }
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
