// The page's own room (js/local-room.js) driven from outside, one JSON command a line on
// stdin, one JSON answer a line on stdout: what the room delivered, and the AI timer it
// set (ms, at normal speed). Its dice are draws given in advance (each roll is 1 + draw
// mod faces, as the server's side of tests/js/test_local_room_differential.py rolls),
// and its timers are fired by command, never by a clock.
//
//   {"cmd": "open", "game": {code, mode, seats, rules, board}, "pacing": {...}, "draws": [int]}
//   {"cmd": "hello"} | {"cmd": "send", "message": {...}} | {"cmd": "fire"}

import { createInterface } from "node:readline";
import { LocalRoom, newGameData } from "../../../src/snakes/web/static/js/local-room.js";

let room = null;
let delivered = [];
let timer = null; // {fn, ms}
let draws = [];

const timers = {
  set(fn, ms) {
    timer = { fn, ms };
    return timer;
  },
  clear(id) {
    if (id && id === timer) timer = null;
  },
};

function answer() {
  const out = { messages: delivered, timer: timer ? timer.ms : null };
  delivered = [];
  return out;
}

const commands = {
  open({ game, pacing, draws: given }) {
    draws = given.slice();
    room = new LocalRoom(newGameData(game), {
      dice: (faces) => 1 + (draws.shift() % faces),
      timers,
      deliver: (message) => delivered.push(JSON.parse(JSON.stringify(message))),
      pacing,
    });
  },
  hello() {
    room.hello();
  },
  send({ message }) {
    room.take(message);
  },
  fire() {
    const due = timer;
    timer = null;
    due.fn();
  },
};

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const command = JSON.parse(line);
  try {
    commands[command.cmd](command);
    process.stdout.write(JSON.stringify(answer()) + "\n");
  } catch (err) {
    process.stdout.write(JSON.stringify({ failed: String(err && err.stack) }) + "\n");
  }
});
