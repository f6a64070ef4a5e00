// Fair dice (docs/FAIR_DICE.md): while an online room takes client seeds, this device
// adds its own random seed, once per commitment, and remembers it, so that Verify can
// show it was used. Loaded with the first online room (js/online-room.js).

const SEEDS_KEY = "snakes.seeds";
const KEEP_SEEDS = 20;

/** 16 random bytes from the browser's secure source, as 32 hex characters. */
export function newClientSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The client seeds this device sent, by commitment: [{commitment, seed, room, seats}]. */
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

/**
 * Send this device's seed whenever the room (store) shows a commitment that takes seeds
 * and this device holds a seat there, once per commitment. Returns the unsubscribe.
 */
export function sendSeeds(store) {
  const seeded = new Set();
  return store.subscribe((state) => {
    const fair = state.room && state.room.fair;
    if (!fair || typeof fair !== "object" || fair.accepting_seeds !== true) return;
    const commitment = typeof fair.commitment === "string" ? fair.commitment : "";
    const you = state.you;
    const seats = you && Array.isArray(you.seats) ? you.seats : [];
    if (!commitment || seeded.has(commitment) || !you || you.spectator || !seats.length) return;
    if (state.connection.state !== "open") return; // the next welcome tries again
    seeded.add(commitment);
    if (sentSeeds().some((x) => x.commitment === commitment)) return;
    const seed = newClientSeed();
    store.dispatch({ type: "intent", message: { type: "seed", seed, commitment }, quiet: true });
    rememberSeed({ commitment, seed, room: state.code, seats: seats.slice() });
  });
}
