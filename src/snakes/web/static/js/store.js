// The open room: one store (js/reducer.js) shared by the game, result and lobby screens,
// and its transport: the game socket for an online room (js/online-room.js, loaded with
// the first one), or the room in the page for a game at your own table
// (js/local-game.js). Both deliver the server's messages to the same reducer; the store
// hands its outbox to whichever it has, and runs its few timers.

import { reduce, initialState } from "./reducer.js";
import { isLocalCode } from "./local-room.js";
import { openLocalTransport } from "./local-game.js";

// How long an intent may wait for its answer before it is no longer awaited.
const WAITS = { roll: 10000, add_ai: 4000 };
const NOTICE_MS = 6000;

/**
 * A store: getState(), dispatch(event), subscribe(listener(state, previous)). Events
 * dispatched while listeners run wait their turn, so every listener sees each state once,
 * in order.
 */
export function createStore(reducer, state) {
  const listeners = new Set();
  const queue = [];
  let dispatching = false;
  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch(event) {
      queue.push(event);
      if (dispatching) return;
      dispatching = true;
      try {
        while (queue.length) {
          const previous = state;
          state = reducer(state, queue.shift());
          if (state === previous) continue;
          for (const listener of [...listeners]) {
            try {
              listener(state, previous);
            } catch (err) {
              console.error(err);
            }
          }
        }
      } finally {
        dispatching = false;
      }
    },
  };
}

/** The store of room `code`, with its transport and timers. */
function roomStore(code, secret) {
  const local = isLocalCode(code);
  const store = createStore(reduce, initialState(code, { local }));
  const timers = new Set();
  let transport = null;
  let closed = false;
  const later = (ms, event) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      store.dispatch(event);
    }, ms);
    timers.add(timer);
  };
  store.subscribe((state, previous) => {
    const before = new Set(previous.outbox.map((message) => message.ref));
    const fresh = state.outbox.filter((message) => !before.has(message.ref));
    if (fresh.length) {
      store.dispatch({ type: "outbox_sent", refs: fresh.map((message) => message.ref) });
      for (const message of fresh) {
        if (!transport || !transport.send(message)) store.dispatch({ type: "send_failed", ref: message.ref });
      }
    }
    for (const [kind, ms] of Object.entries(WAITS)) {
      const asked = state.asked[kind];
      if (asked && asked !== previous.asked[kind]) later(ms, { type: "expired", kind, ref: asked.ref });
    }
    if (state.notice && state.notice !== previous.notice) later(NOTICE_MS, { type: "notice_expired", id: state.notice.id });
    // A room that is gone, or holds nothing of ours, is given up: no more reconnecting.
    if (state.fatal && !previous.fatal && transport) transport.close("closed");
  });
  const opened = local ? Promise.resolve({ openTransport: openLocalTransport }) : import("./online-room.js");
  opened.then(({ openTransport }) => {
    if (closed) return;
    transport = openTransport(code, secret, store);
  }, (err) => {
    console.error(err);
    store.dispatch({ type: "connection", state: "offline", at: Date.now() });
  });
  return {
    code,
    secret,
    local,
    ...store,
    /** A link that downloads finished game `number`'s record (from the device, for a local game). */
    recordUrl: (number) => (transport && transport.recordUrl ? transport.recordUrl(number) : null),
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      if (transport) transport.close("idle");
    },
  };
}

let current = null;

/**
 * The store of room `code`, reusing the open one when it is the same room. A game at your
 * own table runs in the page; every other room is the server's.
 */
export function openRoom(code, secret) {
  const same = current && current.code === code && (current.local || current.secret === secret);
  if (same && !current.getState().fatal) return current;
  closeRoom();
  current = roomStore(code, secret);
  return current;
}

/** The store of the room open now, if any. */
export function currentRoom() {
  return current;
}

export function closeRoom() {
  if (current) current.close();
  current = null;
}
