// The page's own room (js/local-room.js) without a browser: each local action answered as
// a server room answers it. (tests/js/test_local_room_differential.py holds whole games
// to the server's runtime, step by step.)

import { test } from "node:test";
import assert from "node:assert/strict";
import { LocalRoom, newGameData, moveAllowance, isLocalCode } from "../../src/snakes/web/static/js/local-room.js";

const PACING = { move_seconds: 1.8, square_seconds: 0.21, jump_seconds: 1.3, scale: 1, ai_delay_seconds: 0.9 };
const JUNGLE = { name: "jungle", ladders: [[1, 38], [4, 14]], snakes: [[16, 6]] };

/** A room of `seats` ("human" or "ai"), its dice `values`, and what it delivered. */
function open(kinds, values, { mode = "ai", finish = "classic" } = {}) {
  const seats = kinds.map((kind, i) => ({ name: `P${i}`, colour: ["red", "blue", "green"][i], kind }));
  const delivered = [];
  const timers = { pending: null, set(fn, ms) { this.pending = { fn, ms }; return this.pending; }, clear(id) { if (id === this.pending) this.pending = null; } };
  const dice = values.slice();
  const saved = [];
  const room = new LocalRoom(newGameData({ code: "0ABCDE", mode, seats, rules: { finish }, board: JUNGLE }), {
    dice: (faces) => Math.min(dice.shift(), faces),
    timers,
    deliver: (message) => delivered.push(message),
    pacing: PACING,
    save: (game) => saved.push(game.change),
  });
  room.hello();
  return { room, delivered, timers, saved, take: (message) => { delivered.length = 0; room.take(message); return delivered.slice(); } };
}

test("hello: a welcome with this device's seats; an AI seat up first rolls after the AI delay", () => {
  const { delivered, timers } = open(["ai", "human"], [3]);
  assert.equal(delivered[0].type, "welcome");
  assert.deepEqual(delivered[0].you, { seats: [1], host: false, spectator: false });
  assert.equal(timers.pending.ms, 900);
});

test("roll: the device's seat rolls; the update tells it, and the AI seat's pause is the server's", () => {
  const { take, timers, saved } = open(["human", "ai"], [1]);
  const [update] = take({ type: "roll", seat: 0, version: 0, ref: "r1" });
  assert.deepEqual(update.events.map((e) => e.type), ["rolled", "moved", "climbed", "turn_passed"]);
  assert.equal(update.room.version, 1);
  assert.equal(update.room.change, 1);
  assert.deepEqual(saved, [1], "kept on the device after the change");
  // 1.8 s + one square hopped + one ladder, then the AI's 0.9 s.
  assert.equal(timers.pending.ms, (1.8 + 0.21 + 1.3 + 0.9) * 1000);
  assert.equal(moveAllowance(update.events, PACING), 1.8 + 0.21 + 1.3);
});

test("roll: refused for a seat not held, out of turn, or after the end; stale, a welcome alone", () => {
  const { take } = open(["human", "human"], [2, 2, 2]);
  assert.deepEqual(take({ type: "roll", seat: 1, version: 0, ref: "a" }).map((m) => [m.type, m.code, m.ref]), [["error", "not_your_turn", "a"]]);
  take({ type: "roll", seat: 0, version: 0 });
  const stale = take({ type: "roll", seat: 1, version: 0, ref: "b" });
  assert.deepEqual(stale.map((m) => m.type), ["welcome"]);
  assert.equal(stale[0].room.version, 1);
  const ai = open(["human", "ai"], []);
  assert.equal(ai.take({ type: "roll", seat: 1, version: 0 })[0].code, "not_your_seat");
});

test("the AI seat rolls when its timer runs out", () => {
  const { take, timers, delivered } = open(["human", "ai"], [2, 3]);
  take({ type: "roll", seat: 0, version: 0 });
  delivered.length = 0;
  timers.pending.fn();
  assert.deepEqual(delivered[0].events[0], { type: "rolled", seat: 1, value: 3, bonus: false });
  assert.equal(delivered[0].room.turn, 0);
});

test("leave: a seat gives up (naming the change it saw); stale, a welcome alone", () => {
  const { take } = open(["human", "human", "human"], [], { mode: "pass", finish: "last-one-standing" });
  assert.deepEqual(take({ type: "leave", seat: 1, change: 7 }).map((m) => m.type), ["welcome"]);
  const [update] = take({ type: "leave", seat: 1, change: 0 });
  assert.deepEqual(update.events.map((e) => e.type), ["left"]);
  assert.equal(update.room.seats[1].status, "left");
});

test("finish_ai: when only AI seats race, the rest is played at once (instant)", () => {
  const { room, take } = open(["human", "ai", "ai"], [6, 6, 4, ...Array.from({ length: 3000 }, (_, i) => 1 + (i % 5))], { finish: "last-one-standing" });
  assert.equal(take({ type: "finish_ai", change: 0 })[0].code, "not_allowed", "a person still races");
  take({ type: "leave", seat: 0, change: 0 });
  const [update] = take({ type: "finish_ai", change: room.game.change });
  assert.equal(update.instant, true);
  assert.equal(update.room.over, true);
  assert.equal(room.timers.pending, null, "no AI seat is left to wait for");
});

test("rematch: after the end, a new game with the first turn passed on", () => {
  const { room, take } = open(["human", "human"], [], { mode: "pass" });
  assert.equal(take({ type: "rematch", change: 0 })[0].code, "not_allowed");
  take({ type: "leave", seat: 1, change: 0 });
  assert.equal(room.view().over, true);
  const [update] = take({ type: "rematch", change: room.game.change });
  assert.deepEqual(update.events, [{ type: "rematch" }]);
  assert.equal(update.room.game_number, 2);
  assert.equal(update.room.turn, 1);
  assert.equal(room.game.records.length, 1, "the finished game's record is kept");
});

test("ping is answered by nothing; an intent a table does not take is refused", () => {
  const { take } = open(["human", "ai"], []);
  assert.deepEqual(take({ type: "ping" }), []);
  assert.equal(take({ type: "add_ai", name: "x", colour: "green", change: 0 })[0].code, "not_allowed");
});

test("a local code has a 0 in it; a server's never does", () => {
  assert.equal(isLocalCode("0ABCDE"), true);
  assert.equal(isLocalCode("K7Q2MX"), false);
});
