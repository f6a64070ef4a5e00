// Room views and server messages for the reducer's tests, shaped as the server sends
// them (docs/protocol.schema.json): a game at one table, and an online room.

export function seat(index, { kind = "human", square = 0, status = "racing", connected = true, host = false } = {}) {
  const names = ["Ana", "Ben", "Cy", "Dee"];
  const colours = ["red", "blue", "green", "yellow"];
  return { index, name: names[index], colour: colours[index], kind, connected, away: false, host, square, status, place: status === "finished" ? 1 : null, missed: 0 };
}

export function room({ mode = "ai", phase = "playing", version = 0, change = version, turn = 0, seats = null, over = false, ...rest } = {}) {
  return {
    code: mode === "online" ? "K7Q2MX" : "0LOCAL",
    mode,
    phase: over ? "over" : phase,
    game_number: 1,
    rules: { finish: "classic", exact_finish: true, six_again: true },
    countdown_seconds: 20,
    board: { name: "jungle", ladders: [[1, 38]], snakes: [[16, 6]] },
    finish_square: 100,
    seats: seats || [seat(0), seat(1, { kind: "ai" })],
    turn: over ? null : turn,
    faces: 6,
    bonus: false,
    over,
    end_reason: over ? "finished" : null,
    winner: over ? 0 : null,
    standings: over ? [0] : [],
    results: null,
    countdown: null,
    only_ai_racing: false,
    version,
    change,
    odds: null,
    fair: null,
    reactions: mode === "online",
    rematch: [],
    invite_url: "",
    ...rest,
  };
}

export const you = (seats = [0], { host = false } = {}) => ({ seats, host, spectator: seats.length === 0 });

export const welcome = (view, holder = you()) => ({ type: "welcome", you: holder, room: view });

export const update = (view, events = [], { instant = false, holder = you() } = {}) => ({ type: "update", events, instant, room: view, you: holder });

/** The events of a roll of `value` from `start` by `seat`, and the turn passing on. */
export function rolled(seat, value, start, next) {
  return [
    { type: "rolled", seat, value, bonus: false },
    { type: "moved", seat, start, end: start + value },
    { type: "turn_passed", previous: seat, seat: next },
  ];
}
