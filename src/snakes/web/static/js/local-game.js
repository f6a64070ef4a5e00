// A game at your own table on this device: its room (js/local-room.js) with the page's
// dice, clock and speed, the server's pacing (/api/config, kept for offline play), and
// every change kept in IndexedDB (js/local-store.js) for "Resume game".

import { LocalRoom, newGameData } from "./local-room.js";
import { rollDie } from "./local-dice.js";
import { getGame, putGame } from "./local-store.js";
import { getSettings, onSettingsChange, SPEEDS } from "./settings.js";
import { getBoards } from "./api.js";
import { config } from "./config.js";

const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
// A config kept by an older page has no pacing: AI seats then roll a second after a move.
const NO_PACING = { move_seconds: 0, square_seconds: 0, jump_seconds: 0, scale: 0, ai_delay_seconds: 1 };

// The shipped boards come from GET /api/boards (kept on the device by js/api.js); this
// default (the engine's JUNGLE) serves a device that never saw the list.
const JUNGLE = {
  name: "jungle",
  ladders: [[1, 38], [4, 14], [9, 31], [21, 42], [28, 84], [36, 44], [51, 67], [71, 91], [80, 98]],
  snakes: [[16, 6], [47, 26], [49, 11], [56, 53], [62, 19], [64, 60], [87, 24], [93, 73], [95, 75], [99, 27]],
};

async function boardNamed(name) {
  const found = ((await getBoards()) || []).find((b) => b.name === (name || "jungle"));
  if (!found || !Array.isArray(found.jumps)) return JUNGLE;
  return { name: found.name, ladders: found.jumps.filter(([a, b]) => b > a), snakes: found.jumps.filter(([a, b]) => b < a) };
}

function rollBelow(n) {
  const limit = 256 - (256 % n);
  const byte = new Uint8Array(1);
  for (;;) {
    crypto.getRandomValues(byte);
    if (byte[0] < limit) return byte[0] % n;
  }
}

/** A local code: a 0, then five of the server's symbols (js/local-room.js isLocalCode). */
function newCode() {
  return "0" + Array.from({ length: 5 }, () => ALPHABET[rollBelow(ALPHABET.length)]).join("");
}

/** A new game ({mode, seats, rules, board: name, shuffle}), kept; resolves to its code. */
export async function createLocalGame({ mode, seats, rules, board: name, shuffle }) {
  const board = await boardNamed(name);
  const table = seats.slice();
  if (shuffle) {
    for (let i = table.length - 1; i > 0; i--) {
      const j = rollBelow(i + 1);
      [table[i], table[j]] = [table[j], table[i]];
    }
  }
  const game = { ...newGameData({ code: newCode(), mode, seats: table, rules, board }), created: Date.now() };
  await putGame(game);
  return game.code;
}

/** The pacing of a server room's AI seats, from the server's config. */
export function pacing() {
  try {
    return config().pacing || NO_PACING;
  } catch {
    return NO_PACING;
  }
}

/**
 * Open local game `code` on this device: its room, delivering the server's messages to
 * `deliver`. Resolves to the room (null when the device no longer has the game).
 */
export async function openLocalRoom(code, deliver) {
  const game = await getGame(code);
  if (!game) return null;
  return new LocalRoom(game, {
    dice: rollDie,
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (id) => clearTimeout(id) },
    deliver,
    pacing: pacing(),
    save: (data) => putGame(data).catch((err) => console.error("keeping the game:", err)),
    speed: () => SPEEDS[getSettings().speed].factor,
  });
}

/**
 * The transport of a game at your own table (js/store.js): the room in the page, which
 * delivers the server's messages to the store, and the live odds while they are shown
 * (js/live-odds.js).
 */
export function openLocalTransport(code, _secret, store) {
  let room = null;
  let closed = false;
  const download = { url: null, text: null };
  const askOdds = () => {
    if (closed || !room || room.state.over || !getSettings().showOdds) return;
    const version = room.game.version;
    const tell = (odds, offline) => {
      if (!closed) store.dispatch({ type: "odds", version, odds, offline });
    };
    import("./live-odds.js").then(({ oddsOf }) => {
      if (room && version === room.game.version) tell(oddsOf(room.state, room.table), false);
    }, () => tell(null, true));
  };
  const stopSettings = onSettingsChange(askOdds);
  const deliver = (message) => {
    store.dispatch(message);
    if (message.type !== "error") askOdds();
  };
  openLocalRoom(code, deliver).then((opened) => {
    if (closed) return;
    if (!opened) {
      store.dispatch({ type: "error", code: "room_not_found", message: "", local: true });
      return;
    }
    room = opened;
    room.hello();
  }, (err) => {
    console.error(err);
    store.dispatch({ type: "error", code: "unavailable", message: String(err && err.message) });
  });
  return {
    send(message) {
      if (!room) return false;
      // Answered later, as over a socket.
      queueMicrotask(() => {
        if (!closed) room.take(message);
      });
      return true;
    },
    close() {
      closed = true;
      stopSettings();
      if (room) room.close();
    },
    recordUrl(number) {
      const found = room && room.game.records.find((r) => r.game_number === number);
      if (!found) return "#";
      const text = JSON.stringify(found.record, null, 1);
      // The same record keeps its address: a result screen drawn again must not take the
      // file from under a link still on screen.
      if (download.text !== text) {
        if (download.url) URL.revokeObjectURL(download.url);
        download.text = text;
        download.url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      }
      return download.url;
    },
  };
}
