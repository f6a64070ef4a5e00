// The game this device is playing (code, secret, mode), kept in localStorage so Home can
// offer "Resume game" and a reload brings the player back to their seats. A game at your
// own table has no secret (it is "local"): the game itself is kept in IndexedDB
// (js/local-store.js).

const KEY = "snakes.game";

export function saveGame({ code, secret, mode, local = false }) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ code, secret: local ? "local" : secret, mode, local, over: false, saved: Date.now() }));
  } catch {
    // Storage unavailable: the game still works until the tab closes.
  }
}

export function loadGame() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "null");
    if (data && typeof data.code === "string" && typeof data.secret === "string") return data;
  } catch {
    // fall through
  }
  return null;
}

/** The stored secret for a room code, if this device holds seats there. */
export function secretFor(code) {
  const game = loadGame();
  return game && game.code.toUpperCase() === String(code).toUpperCase() ? game.secret : null;
}

export function markOver(code, over = true) {
  const game = loadGame();
  if (!game || game.code !== code || game.over === over) return;
  game.over = over;
  try {
    localStorage.setItem(KEY, JSON.stringify(game));
  } catch {
    // ignore
  }
}

export function clearGame() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // ignore
  }
}
