// A game at your own table (Play with AI, Pass & Play) is a room the page runs itself:
// your device decides. LocalRoom takes a server room's intents and answers with its
// messages and its room view (docs/PROTOCOL.md, docs/protocol.schema.json), and paces
// its AI seats as a server room does (/api/config's pacing). It reads no clock, die or
// storage of its own: they come in, so Node runs it as the page does, and
// tests/js/test_local_room_differential.py holds it to the server's runtime step by step.

import { apply, faces, jumpsOf, newGame, placings, racing, readRules, winner, AWAY_AFTER, FINISH, RuleError } from "./rules.js";

export const ENGINE_VERSION = "1.0.0";
const MAX_FAST_FORWARD = 50000;
const COUNTDOWN_SECONDS = 20;
// Intents that name the room's `change` they were made against.
const NAMES_CHANGE = new Set(["leave", "finish_ai", "rematch"]);

/** A local code has a 0 in it: server codes never do (their alphabet has no 0, O, 1 or I). */
export function isLocalCode(code) {
  return /^0[2-9A-HJ-NP-Z]{5}$/.test(String(code || ""));
}

/** A new game's data ({code, mode, seats, rules, board}), as the device keeps it. */
export function newGameData({ code, mode, seats, rules, board }) {
  return {
    code,
    mode,
    seats: seats.map(({ name, colour, kind }) => ({ name, colour, kind })),
    rules: readRules(rules),
    board: { name: board.name, ladders: board.ladders, snakes: board.snakes },
    first: 0,
    game_number: 1,
    version: 0,
    change: 0,
    actions: [],
    records: [],
  };
}

/** The game's record as the server writes records (snakes verify and replay read them). */
export function recordOf(game) {
  return {
    engine_version: ENGINE_VERSION,
    rules: game.rules,
    board: game.board,
    seats: game.seats.map(({ name, colour }) => ({ name, colour })),
    first: game.first,
    actions: game.actions,
  };
}

/**
 * Seconds a server room gives these events to be shown before its next AI roll or
 * countdown (Settings.move_allowance): pacing is /api/config's.
 */
export function moveAllowance(events, pacing) {
  let squares = 0;
  let jumps = 0;
  for (const ev of events) {
    if (ev.type === "moved") squares += ev.end - ev.start;
    else if (ev.type === "climbed" || ev.type === "slid") jumps += 1;
  }
  return pacing.scale * (pacing.move_seconds + pacing.square_seconds * squares + pacing.jump_seconds * jumps);
}

export class LocalRoom {
  /**
   * game: the device's data of the game (newGameData); options:
   * dice(faces) -> 1..faces; timers: {set(fn, ms) -> id, clear(id)}; deliver(message):
   * where its messages go; pacing: /api/config's; save(game): keep the game after each
   * change; speed(): the animation speed's factor (1: normal), which its pauses follow.
   */
  constructor(game, { dice, timers, deliver, pacing, save = () => {}, speed = () => 1 }) {
    this.game = game;
    if (!Number.isInteger(game.change)) game.change = game.version || 0;
    this.dice = dice;
    this.timers = timers;
    this.deliver = deliver;
    this.pacing = pacing;
    this.save = save;
    this.speed = speed;
    this.table = { rules: readRules(game.rules), jumps: jumpsOf(game.board) };
    let state = newGame(game.seats.length, game.first);
    for (const action of game.actions) state = apply(state, action, this.table).state;
    this.state = state;
    this.you = { seats: game.seats.flatMap((seat, i) => (seat.kind === "human" ? [i] : [])), host: false, spectator: false };
    this.aiTimer = null;
    this.closed = false;
  }

  /** A device opened the game: it is told everything, and the AI seats go on. */
  hello() {
    this.deliver({ type: "welcome", you: this.you, room: this.view() });
    this._scheduleAi(this.pacing.ai_delay_seconds);
  }

  /** One intent, as a server room takes it: applied, refused with an error, or (stale) answered by a welcome. */
  take(message) {
    if (this.closed) return;
    try {
      this._apply(message);
    } catch (err) {
      if (!(err instanceof RuleError)) throw err;
      if (err.code === "stale_version") this.deliver({ type: "welcome", you: this.you, room: this.view() });
      else this.deliver({ type: "error", code: err.code, message: err.message, ref: message.ref ?? null });
    }
  }

  close() {
    this.closed = true;
    this.timers.clear(this.aiTimer);
  }

  _apply(message) {
    if (message.type === "ping") return;
    if (NAMES_CHANGE.has(message.type) && message.change !== this.game.change) {
      throw new RuleError("stale_version", `that was sent at change ${message.change}; the room is at ${this.game.change}`);
    }
    switch (message.type) {
      case "roll":
        return this._roll(message);
      case "leave":
        this._mine(message.seat);
        return this._act([{ type: "leave", seat: message.seat }]);
      case "finish_ai":
        return this._finishAi();
      case "rematch":
        return this._rematch();
      default:
        throw new RuleError("not_allowed", "a game at your own table does not take that");
    }
  }

  _mine(seat) {
    if (!this.you.seats.includes(seat)) throw new RuleError("not_your_seat", "that seat is not one you hold");
  }

  _roll({ seat, version }) {
    this._mine(seat);
    if (this.state.over) throw new RuleError("game_over", "the game has ended");
    if (version !== this.game.version) throw new RuleError("stale_version", `that roll was made at version ${version}; it is ${this.game.version}`);
    if (this.state.turn !== seat) throw new RuleError("not_your_turn", "it is another seat's turn");
    this._act([{ type: "roll", seat, value: this.dice(faces(this.state, this.table.rules)) }]);
  }

  _finishAi() {
    if (this.state.over) throw new RuleError("game_over", "the game has ended");
    if (!racing(this.state).every((s) => this.game.seats[s].kind === "ai")) throw new RuleError("not_allowed", "people are still racing");
    const actions = [];
    let state = this.state;
    for (let i = 0; i < MAX_FAST_FORWARD && !state.over; i++) {
      const action = { type: "roll", seat: state.turn, value: this.dice(faces(state, this.table.rules)) };
      state = apply(state, action, this.table).state;
      actions.push(action);
    }
    this._act(actions, { instant: true });
  }

  _rematch() {
    if (!this.state.over) throw new RuleError("not_allowed", "a rematch comes after the game is over");
    const game = this.game;
    game.first = (game.first + 1) % game.seats.length;
    game.game_number += 1;
    game.actions = [];
    this.state = newGame(game.seats.length, game.first);
    this._publish([{ type: "rematch" }]);
  }

  _act(actions, { instant = false } = {}) {
    const events = [];
    let state = this.state;
    for (const action of actions) {
      const out = apply(state, action, this.table);
      state = out.state;
      events.push(...out.events);
    }
    this.state = state;
    this.game.actions.push(...actions);
    this.game.version += actions.length;
    if (state.over) {
      this.game.records = this.game.records.filter((r) => r.game_number !== this.game.game_number).slice(-9);
      this.game.records.push({ game_number: this.game.game_number, record: recordOf(this.game) });
    }
    this._publish(events, { instant });
  }

  _publish(events, { instant = false } = {}) {
    this.game.change += 1;
    this.save(this.game);
    this.deliver({ type: "update", events, instant, room: this.view(), you: this.you });
    // ("Skip to results" has played the game to its end: no AI seat is left to wait for.)
    this._scheduleAi(moveAllowance(events, this.pacing) + this.pacing.ai_delay_seconds);
  }

  /** An AI seat whose turn it is rolls after `seconds` (at the chosen speed), as a server room's AI timer. */
  _scheduleAi(seconds) {
    this.timers.clear(this.aiTimer);
    const state = this.state;
    if (this.closed || state.over || this.game.seats[state.turn].kind !== "ai") return;
    this.aiTimer = this.timers.set(() => {
      if (this.closed || this.state !== state) return;
      this._act([{ type: "roll", seat: state.turn, value: this.dice(faces(state, this.table.rules)) }]);
    }, seconds * 1000 * this.speed());
  }

  /** The room view, as server/rooms/views.py builds it for a room of this mode. */
  view() {
    const { game, state } = this;
    const rules = this.table.rules;
    const still = state.over ? [] : racing(state);
    return {
      code: game.code,
      mode: game.mode,
      phase: state.over ? "over" : "playing",
      game_number: game.game_number,
      rules,
      countdown_seconds: COUNTDOWN_SECONDS,
      board: game.board,
      finish_square: FINISH,
      seats: game.seats.map((seat, index) => this._seatView(seat, index)),
      turn: state.turn,
      faces: faces(state, rules),
      bonus: state.sixes > 0,
      over: state.over,
      end_reason: state.end_reason,
      winner: winner(state, rules),
      standings: state.standings.slice(),
      results: state.over ? placings(state, rules) : null,
      countdown: null,
      only_ai_racing: still.length > 0 && still.every((s) => game.seats[s].kind === "ai"),
      version: game.version,
      change: game.change,
      // The live odds of a local game come apart (js/local-game.js: the server works them
      // out of the record), as the page asks for them.
      odds: null,
      fair: null,
      reactions: false,
      rematch: [],
      invite_url: "",
    };
  }

  _seatView(seat, index) {
    const { state } = this;
    const finished = state.standings.indexOf(index);
    const status = finished >= 0 ? "finished" : state.leavers.includes(index) ? "left" : "racing";
    return {
      index,
      name: seat.name,
      colour: seat.colour,
      kind: seat.kind,
      connected: true,
      away: status === "racing" && state.missed[index] >= AWAY_AFTER,
      host: false,
      square: state.positions[index],
      status,
      place: finished >= 0 ? finished + 1 : null,
      missed: state.missed[index],
    };
  }
}
