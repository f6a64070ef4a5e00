// The page's reducer (js/reducer.js) without a browser: the server's messages, the
// connection, the player's actions and the board's news, each turned into the next state.

import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { reduce, initialState, canRoll, busy, finished, skipOffered, watching, mySeats } from "../../src/snakes/web/static/js/reducer.js";
import { room, seat, you, welcome, update, rolled } from "./support/rooms.mjs";

const play = (state, ...events) => events.reduce(reduce, state);

/** The board plays every moment the reducer left, in order. */
function showAll(state) {
  while (state.moments.length) {
    const id = state.moments[0].id;
    state = play(state, { type: "moment_started", id }, { type: "moment_played", id });
  }
  return state;
}

const local = () => play(initialState("0LOCAL", { local: true }), welcome(room()));
const online = (holder = you([0])) => play(initialState("K7Q2MX"), { type: "connection", state: "open", at: 5 }, welcome(room({ mode: "online" }), holder));

describe("the server's messages", () => {
  test("welcome: the room is shown at once, and this device's seats are known", () => {
    const state = local();
    assert.equal(state.shown, state.room);
    assert.deepEqual([...mySeats(state)], [0]);
    assert.equal(canRoll(state), true);
    assert.equal(busy(state), false);
  });

  test("welcome: a malformed one changes nothing", () => {
    const before = local();
    assert.equal(reduce(before, { type: "welcome", room: "nope" }), before);
    assert.equal(reduce(before, { type: "welcome" }), before);
  });

  test("update: its events wait as a moment; the room shown moves on once it is played", () => {
    const next = room({ version: 1, turn: 1, seats: [seat(0, { square: 3 }), seat(1, { kind: "ai" })] });
    let state = play(local(), update(next, rolled(0, 3, 0, 1)));
    assert.equal(state.room, next);
    assert.notEqual(state.shown, next);
    assert.equal(state.moments.length, 1);
    assert.equal(busy(state), true);
    assert.equal(canRoll(state), false, "no roll while a move is still being shown");
    state = showAll(state);
    assert.equal(state.shown, next);
    assert.equal(busy(state), false);
  });

  test("update: an instant one (Skip to results) cuts the moves still to show", () => {
    let state = play(local(), update(room({ version: 1, turn: 1 }), rolled(0, 3, 0, 1)));
    state = play(state, { type: "moment_started", id: state.moments[0].id });
    const end = room({ version: 9, over: true });
    state = play(state, update(end, [{ type: "game_ended", standings: [0], winner: 0, reason: "finished" }], { instant: true }));
    assert.equal(state.moments.length, 1);
    assert.equal(state.moments[0].instant, true);
    assert.equal(state.playing, null);
    assert.equal(state.cut, local().cut + 1);
    state = showAll(state);
    assert.equal(finished(state), true);
    assert.equal(state.skipped, true);
  });

  test("presence: only who is connected and the countdown change", () => {
    let state = online();
    const countdown = { seat: 0, total_ms: 20000, remaining_ms: 20000, starts_in_ms: 0, paused: true, deadline_ms: null, server_now_ms: 1 };
    state = play(state, { type: "presence", connected: [true, false], countdown });
    assert.equal(state.room.seats[1].connected, false);
    assert.deepEqual(state.room.countdown, countdown);
    assert.equal(state.shown, state.room, "nothing is playing: shown at once");
    assert.equal(reduce(state, { type: "presence", connected: [true] }), state, "a seat count that does not fit is ignored");
  });

  test("presence: while a move is being shown, it waits behind it", () => {
    let state = play(online(), update(room({ mode: "online", version: 1, turn: 1 }), rolled(0, 2, 0, 1)));
    state = play(state, { type: "presence", connected: [true, false] });
    assert.equal(state.moments.length, 2);
    assert.deepEqual(state.moments[1].events, []);
    state = showAll(state);
    assert.equal(state.shown.seats[1].connected, false);
  });

  test("error: a refusal is told, and the roll it answers is no longer awaited", () => {
    let state = play(local(), { type: "roll" });
    const ref = state.asked.roll.ref;
    state = play(state, { type: "error", code: "not_your_turn", message: "not yet", ref });
    assert.equal(state.asked.roll, undefined);
    assert.deepEqual({ ...state.notice, id: 0 }, { id: 0, code: "not_your_turn", message: "not yet", retryAfter: 0 });
    state = play(state, { type: "notice_expired", id: state.notice.id });
    assert.equal(state.notice, null);
  });

  test("error: room_not_found and bad_secret end the room for good", () => {
    for (const code of ["room_not_found", "bad_secret"]) {
      const state = play(initialState("K7Q2MX"), { type: "error", code, message: "gone", ref: null });
      assert.deepEqual(state.fatal, { code, message: "gone", local: false });
    }
    const gone = play(initialState("0LOCAL", { local: true }), { type: "error", code: "room_not_found", message: "", local: true });
    assert.equal(gone.fatal.local, true);
  });

  test("error: a seed's refusal is nobody's business", () => {
    let state = play(online(), { type: "intent", message: { type: "seed", seed: "ab", commitment: "c" }, quiet: true });
    const ref = state.outbox[0].ref;
    state = play(state, { type: "error", code: "bad_message", message: "x", ref });
    assert.equal(state.notice, null);
  });

  test("error: too_many_reactions keeps its wait", () => {
    const state = play(online(), { type: "error", code: "too_many_reactions", message: "slow down", ref: "c9", retry_after: 2.5 });
    assert.equal(state.notice.retryAfter, 2.5);
  });

  test("reaction: it waits to be shown, then goes", () => {
    let state = play(online(), { type: "reaction", seat: 1, reaction: "clap", you: you([0]) });
    assert.deepEqual(state.reactions.map(({ seat, reaction }) => [seat, reaction]), [[1, "clap"]]);
    state = play(state, { type: "reaction_shown", id: state.reactions[0].id });
    assert.deepEqual(state.reactions, []);
    assert.equal(reduce(state, { type: "reaction", seat: "x" }), state);
  });

  test("pong: the connection measures the clock with it; the room does not change", () => {
    const state = online();
    assert.equal(reduce(state, { type: "pong", t: 1, server_ms: 2 }), state);
  });

  test("an unknown message changes nothing", () => {
    const state = online();
    assert.equal(reduce(state, { type: "wave" }), state);
    assert.equal(reduce(state, null), state);
  });
});

describe("the connection", () => {
  test("its state is the state's, since when it changed (an outage tells device from server)", () => {
    let state = play(initialState("K7Q2MX"), { type: "connection", state: "offline", at: 100 });
    assert.deepEqual(state.connection, { state: "offline", since: 100, lost: 100 });
    state = play(state, { type: "connection", state: "reconnecting", at: 200 });
    assert.deepEqual(state.connection, { state: "reconnecting", since: 200, lost: 100 });
  });

  test("an outage is one from its start: a retry in the same state changes nothing", () => {
    let state = play(online(), { type: "connection", state: "reconnecting", at: 10 });
    const down = state;
    state = play(state, { type: "connection", state: "reconnecting", at: 600 });
    assert.equal(state, down, "a failed retry is the same outage");
    state = play(state, { type: "connection", state: "offline", at: 900 });
    assert.deepEqual(state.connection, { state: "offline", since: 900, lost: 10 });
    state = play(state, { type: "connection", state: "open", at: 1500 });
    assert.deepEqual(state.connection, { state: "open", since: 1500, lost: null });
  });

  test("reconnecting: no roll while the socket is down, and a roll in flight is forgotten", () => {
    let state = play(online(), { type: "roll" });
    assert.ok(state.asked.roll);
    state = play(state, { type: "connection", state: "reconnecting", at: 9 });
    assert.equal(state.asked.roll, undefined);
    assert.equal(canRoll(state), false);
    assert.equal(reduce(state, { type: "roll" }), state);
  });

  test("back after a blip: the same game's welcome lets the moves still being shown play on", () => {
    const next = room({ mode: "online", version: 1, turn: 1 });
    let state = play(online(), update(next, rolled(0, 2, 0, 1)));
    state = play(state, { type: "moment_started", id: state.moments[0].id });
    state = play(state, { type: "connection", state: "reconnecting", at: 7 }, { type: "connection", state: "open", at: 8 });
    const cut = state.cut;
    state = play(state, welcome({ ...next, countdown: null }, you([0])));
    assert.equal(state.cut, cut, "nothing is cut");
    assert.equal(state.moments.length, 2);
  });

  test("back after moves were missed: the board goes straight to the room as it is", () => {
    let state = play(online(), update(room({ mode: "online", version: 1, turn: 1 }), rolled(0, 2, 0, 1)));
    const cut = state.cut;
    const later = room({ mode: "online", version: 4, turn: 0 });
    state = play(state, welcome(later, you([0])));
    assert.equal(state.cut, cut + 1);
    assert.deepEqual(state.moments, []);
    assert.equal(state.shown, later);
  });
});

describe("a stale refusal", () => {
  test("is a welcome alone: the roll is no longer awaited, and nothing reconnects", () => {
    let state = play(online(), { type: "roll" });
    assert.equal(state.outbox.length, 1);
    state = play(state, { type: "outbox_sent", refs: [state.outbox[0].ref] });
    state = play(state, welcome(room({ mode: "online" }), you([0])));
    assert.equal(state.asked.roll, undefined);
    assert.equal(state.connection.state, "open");
    assert.deepEqual(state.outbox, []);
    assert.equal(canRoll(state), true);
  });

  test("Skip to results is sent again, naming the room as it now is", () => {
    const racing = room({ version: 3, change: 5, turn: 1, only_ai_racing: true, seats: [seat(0, { status: "finished", square: 100 }), seat(1, { kind: "ai" }), seat(2, { kind: "ai" })] });
    let state = play(initialState("0LOCAL", { local: true }), welcome(racing));
    state = play(state, { type: "skip" });
    assert.deepEqual(state.outbox.map((m) => [m.type, m.change]), [["finish_ai", 5]]);
    state = play(state, { type: "outbox_sent", refs: state.outbox.map((m) => m.ref) });
    state = play(state, welcome({ ...racing, version: 4, change: 6 }));
    assert.deepEqual(state.outbox.map((m) => [m.type, m.change]), [["finish_ai", 6]]);
    assert.equal(state.asked.finish_ai.tries, 1);
  });

  test("as an error (its welcome could not go out), Skip to results is sent again too", () => {
    const racing = room({ change: 5, turn: 1, only_ai_racing: true, seats: [seat(0, { status: "finished", square: 100 }), seat(1, { kind: "ai" })] });
    let state = play(initialState("0LOCAL", { local: true }), welcome(racing), { type: "skip" });
    const ref = state.outbox[0].ref;
    state = play(state, { type: "error", code: "stale_version", message: "", ref });
    assert.equal(state.notice, null);
    assert.equal(state.outbox.length, 2);
    assert.equal(state.asked.finish_ai.tries, 1);
  });
});

describe("the player's actions", () => {
  test("roll: sent for the seat whose turn it is, at the version shown, once", () => {
    let state = play(local(), { type: "roll" });
    assert.deepEqual(state.outbox.map(({ type, seat: s, version }) => ({ type, seat: s, version })), [{ type: "roll", seat: 0, version: 0 }]);
    assert.equal(state.outbox[0].ref, state.asked.roll.ref);
    assert.equal(reduce(state, { type: "roll" }), state, "a second press sends nothing");
    state = play(state, { type: "expired", kind: "roll", ref: state.asked.roll.ref });
    assert.equal(state.asked.roll, undefined, "unanswered, it is no longer awaited after a while");
  });

  test("roll: not for an AI seat, a spectator, or a seat of another device", () => {
    assert.equal(canRoll(play(local(), update(room({ version: 1, turn: 1 }), []), { type: "moments_shown" })), false);
    const watcher = online(you([]));
    assert.equal(watching(watcher), true);
    assert.equal(canRoll(watcher), false);
    const other = play(online(you([1])));
    assert.equal(canRoll(other), false);
  });

  test("watching: a player the host removed watches the rest; one still racing does not", () => {
    const removed = room({ mode: "online", seats: [seat(0), seat(1, { status: "left", removed: true })] });
    const lin = play(initialState("K7Q2MX"), { type: "connection", state: "open", at: 5 }, welcome(removed, you([1])));
    assert.equal(watching(lin), true);
    assert.equal(canRoll(lin), false);
    const hana = play(initialState("K7Q2MX"), { type: "connection", state: "open", at: 5 }, welcome(removed, you([0])));
    assert.equal(watching(hana), false);
  });

  test("skip: offered when only AI seats race on at this table; if the race ended meanwhile, the rest is skipped here", () => {
    const racing = room({ version: 3, turn: 1, only_ai_racing: true, seats: [seat(0, { status: "finished" }), seat(1, { kind: "ai" })] });
    let state = play(initialState("0LOCAL", { local: true }), welcome(racing));
    assert.equal(skipOffered(state), true);
    const end = room({ version: 8, over: true });
    state = play(state, update(room({ version: 5, turn: 1, only_ai_racing: true }), rolled(1, 2, 0, 1)), update(end, [{ type: "game_ended", standings: [0], winner: 0, reason: "finished" }]));
    state = play(state, { type: "skip" });
    assert.deepEqual(state.outbox, [], "nothing to ask: the race is over");
    assert.equal(state.moments.length, 1);
    assert.equal(state.moments[0].instant, true);
    assert.equal(showAll(state).shown, end);
    assert.equal(skipOffered(online()), false, "never online");
  });

  test("rematch: asked once, and awaited until the new game comes", () => {
    let state = play(initialState("0LOCAL", { local: true }), welcome(room({ version: 9, change: 9, over: true })));
    state = play(state, { type: "intent", message: { type: "rematch" } });
    assert.deepEqual(state.outbox.map(({ type, change }) => [type, change]), [["rematch", 9]]);
    assert.equal(state.asked.rematch.start, false);
    state = play(state, update(room({ version: 9, change: 10 }), [{ type: "rematch" }]));
    assert.equal(state.asked.rematch, undefined);
  });

  test("leave, remove, react, reactions, start, rules, add_ai: sent with the change they were made against", () => {
    const messages = [
      { type: "leave", seat: 0 },
      { type: "remove", seat: 1 },
      { type: "react", seat: 0, reaction: "clap" },
      { type: "reactions", on: false },
      { type: "start", shuffle: true },
      { type: "rules", rules: { finish: "classic", exact_finish: true, six_again: true }, countdown_seconds: 20 },
      { type: "add_ai", name: "Robo", colour: "green" },
    ];
    const state = play(online(), ...messages.map((message) => ({ type: "intent", message })));
    assert.deepEqual(state.outbox.map((m) => m.change), [0, 0, undefined, 0, 0, 0, 0]);
    assert.equal(new Set(state.outbox.map((m) => m.ref)).size, messages.length);
    assert.ok(state.asked.add_ai);
    const joined = play(state, update(room({ mode: "online", phase: "lobby", change: 1 }), [{ type: "joined", seat: 2 }]));
    assert.equal(joined.asked.add_ai, undefined);
  });

  test("an intent that cannot be sent (not connected) is told so", () => {
    let state = play(online(), { type: "intent", message: { type: "rematch" } });
    state = play(state, { type: "send_failed", ref: state.outbox[0].ref });
    assert.equal(state.notice.code, "not_connected");
    assert.equal(state.asked.rematch, undefined);
  });

  test("a local game's odds, worked out by the server, or not (offline)", () => {
    let state = play(local(), { type: "odds", version: 0, odds: { kind: "win", values: [0.6, 0.4] }, offline: false });
    assert.deepEqual(state.shown.odds.values, [0.6, 0.4]);
    state = play(state, { type: "odds", version: 7, odds: null, offline: true });
    assert.equal(state.oddsOffline, false, "odds for another version are old news");
    state = play(state, { type: "odds", version: 0, odds: null, offline: true });
    assert.equal(state.oddsOffline, true);
  });

  test("a screen with no board shows every update at once", () => {
    const next = room({ version: 2, turn: 1 });
    const state = play(local(), update(room({ version: 1 }), []), update(next, []), { type: "moments_shown" });
    assert.equal(state.shown, next);
    assert.equal(busy(state), false);
  });
});
