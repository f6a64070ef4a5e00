// The page's one store of a room, and its one pure transition: reduce(state, event) ->
// state. Events are the server's messages (welcome, update, presence, error, reaction,
// pong), which a game at your own table speaks too (js/local-room.js), the connection's
// state, the player's actions (roll, skip, rematch, leave, ...), and the board's news
// that it played a moment. The screens draw the state; the board plays the queue of
// moments the reducer leaves (`moments`); what to send waits in `outbox`, which the
// store hands to the room's transport (js/store.js). No clock, DOM or storage here:
// tests/js run it in Node.

const FATAL = new Set(["room_not_found", "bad_secret"]);
// Intents that name the room's `change` they were made against (docs/PROTOCOL.md).
const NAMES_CHANGE = new Set(["leave", "start", "rules", "add_ai", "remove", "rematch", "finish_ai", "reactions"]);
// What this device asked for and waits to see answered, by kind.
const TRACKED = new Set(["roll", "finish_ai", "rematch", "add_ai"]);
const MAX_SKIP_TRIES = 8;
const KEEP_REACTIONS = 20;

/** The state of room `code` before anything is known of it. */
export function initialState(code, { local = false } = {}) {
  return {
    code,
    local,
    // "connecting" | "open" | "reconnecting" | "offline" | "closed", since when (ms), and
    // since when there has been no connection (the outage's start: null while connected).
    connection: { state: local ? "open" : "connecting", since: 0, lost: null },
    room: null, // the newest room view the room sent
    you: null, // {seats, host, spectator}: what this device holds there
    shown: null, // the room as the screens show it: the last moment played
    moments: [], // [{id, events, room, instant}]: updates still to play, oldest first
    playing: null, // the id of the moment the board is playing
    cut: 0, // moves on when the moment playing must end at once
    skipped: false, // the last moments were skipped ("Skip to results")
    outbox: [], // intents to send, each with its ref
    quiet: [], // refs of intents whose refusal nobody needs to hear (a fair-dice seed)
    asked: {}, // by kind: {ref, ...} of what this device asked for and awaits
    notice: null, // {id, code, message, retryAfter}: a refusal to tell the player
    fatal: null, // {code, message, local}: the room is gone, or holds nothing of ours
    reactions: [], // [{id, seat, reaction}] not shown yet
    oddsOffline: false, // a local game's odds could not be loaded (offline)
    serial: 0, // ids of refs, moments, notices and reactions
  };
}

export function isOver(room) {
  return Boolean(room && (room.over || room.phase === "over"));
}

/** Seats this device may roll for (human seats it holds). */
export function mySeats(state) {
  const seats = state.you && Array.isArray(state.you.seats) ? state.you.seats : [];
  return new Set(seats.filter(Number.isInteger));
}

/** A spectator: this device holds no seat here (anyone may open a started game), or
 * every seat it held has left the race (the host removed it): it watches the rest. */
export function watching(state) {
  if (!state.you) return false;
  const mine = [...mySeats(state)];
  if (state.you.spectator || mine.length === 0) return true;
  const room = state.shown || state.room;
  return Boolean(room && room.phase === "playing" && mine.every((i) => room.seats[i] && room.seats[i].status === "left"));
}

/** Moves are still to be shown (or being shown). */
export function busy(state) {
  return state.playing !== null || state.moments.length > 0;
}

/** The seat whose turn the shown room says it is, when this device rolls for it now. */
export function canRoll(state) {
  const shown = state.shown;
  if (!shown || busy(state) || state.asked.roll || isOver(shown) || shown.phase !== "playing") return false;
  if (state.connection.state !== "open") return false;
  const seat = shown.seats[shown.turn];
  return Boolean(seat && seat.kind === "human" && mySeats(state).has(seat.index) && seat.status === "racing");
}

/** "Skip to results" is offered: only AI seats race on, at a table this device holds. */
export function skipOffered(state) {
  const shown = state.shown;
  return Boolean(shown && shown.only_ai_racing && !isOver(shown) && shown.mode !== "online" && mySeats(state).size > 0);
}

/** The race is over on screen too: every move of it has been shown. */
export function finished(state) {
  return isOver(state.shown) && !busy(state);
}

/** The room's `change` as last received: what an intent that changes the room names. */
export function change(state) {
  return state.room && Number.isInteger(state.room.change) ? state.room.change : 0;
}

const isRoom = (room) => Boolean(room && typeof room === "object" && Array.isArray(room.seats));

export function reduce(state, event) {
  const handler = HANDLERS[event && event.type];
  return handler ? handler(state, event) : state;
}

/** The socket's state; a retry in the same state changes nothing (an outage that goes
 * on is one outage, from offline to out of reach and back alike). */
function connection(state, { state: now, at = 0 }) {
  const was = state.connection;
  if (was.state === now) return state;
  const lost = now === "open" || now === "connecting" ? null : (was.lost ?? at);
  return {
    ...state,
    connection: { state: now, since: at, lost },
    asked: now === "open" ? state.asked : without(state.asked, "roll"),
  };
}

const HANDLERS = {
  welcome,
  update,
  presence,
  error,
  reaction,
  pong: (state) => state,
  connection,
  odds,
  roll: rollIntent,
  skip,
  intent: (state, { message, quiet = false }) => send(state, message, { quiet }),
  moment_started: (state, { id }) => (state.moments[0] && state.moments[0].id === id ? { ...state, playing: id } : state),
  moment_played: momentPlayed,
  // A screen with no board (the result, the lobby) shows each update at once.
  moments_shown: (state) => (state.moments.length ? { ...state, shown: state.moments[state.moments.length - 1].room, moments: [], playing: null } : state),
  outbox_sent: (state, { refs }) => ({ ...state, outbox: state.outbox.filter((m) => !refs.includes(m.ref)) }),
  send_failed: (state, { ref }) =>
    state.quiet.includes(ref) ? { ...state, quiet: state.quiet.filter((r) => r !== ref) } : notice(forget(state, ref), { code: "not_connected", message: "" }),
  expired: (state, { kind, ref }) => (state.asked[kind] && state.asked[kind].ref === ref ? { ...state, asked: without(state.asked, kind) } : state),
  notice_expired: (state, { id }) => (state.notice && state.notice.id === id ? { ...state, notice: null } : state),
  reaction_shown: (state, { id }) => ({ ...state, reactions: state.reactions.filter((r) => r.id !== id) }),
};

// ---- the room's messages -----------------------------------------------------------------

function welcome(state, { room, you }) {
  if (!isRoom(room)) return state;
  you = you && typeof you === "object" ? you : { seats: [], host: false, spectator: true };
  const known = state.room;
  const sameGame = known && known.game_number === room.game_number && known.version === room.version && known.phase === room.phase;
  let next = { ...state, room, you, fatal: null, asked: keptAfterWelcome(state.asked, room, you) };
  // Nothing new in the game (a stale intent's answer, or back after a blip): the moves
  // still being shown play on. Otherwise the board goes straight to the room as it is.
  if (sameGame) next = refresh(next, room);
  else next = { ...next, shown: room, moments: [], playing: null, cut: state.cut + 1, skipped: false };
  return askSkipAgain(next, state.asked.finish_ai);
}

function update(state, msg) {
  if (!isRoom(msg.room)) return state;
  const events = Array.isArray(msg.events) ? msg.events : [];
  const instant = Boolean(msg.instant);
  const room = msg.room;
  let next = { ...state, room, you: msg.you && typeof msg.you === "object" ? msg.you : state.you, serial: state.serial + 1 };
  const moment = { id: next.serial, events, room, instant };
  // "Skip to results": the race is over already, so the moves still to be shown are
  // old news: the one playing ends now and the end shows at once.
  if (instant) next = { ...next, moments: [moment], playing: null, cut: state.cut + 1, skipped: true };
  else next = { ...next, moments: [...state.moments, moment] };
  return { ...next, asked: keptAfterUpdate(state.asked, room, events) };
}

/** A seat connected or went: only `connected` and the countdown change. */
function presence(state, { connected, countdown }) {
  const room = state.room;
  if (!room || !Array.isArray(connected) || connected.length !== room.seats.length) return state;
  const seats = room.seats.map((seat, i) => ({ ...seat, connected: connected[i] === true }));
  const patched = { ...room, seats, countdown: countdown && typeof countdown === "object" ? countdown : null };
  return refresh({ ...state, room: patched }, patched);
}

function error(state, msg) {
  const ref = typeof msg.ref === "string" ? msg.ref : null;
  if (ref && state.quiet.includes(ref)) return { ...state, quiet: state.quiet.filter((r) => r !== ref) };
  const code = String(msg.code || "error");
  const message = String(msg.message || "");
  if (FATAL.has(code)) return { ...state, fatal: { code, message, local: Boolean(msg.local) }, outbox: [], asked: {} };
  const skipAsked = state.asked.finish_ai;
  const next = forget(state, ref);
  if (code === "stale_version") {
    // Only when the room's welcome could not go out: the next update shows the room.
    return skipAsked && skipAsked.ref === ref ? askSkipAgain(next, skipAsked) : next;
  }
  return notice({ ...next, asked: without(next.asked, "roll") }, { code, message, retryAfter: Number(msg.retry_after) || 0 });
}

function reaction(state, { seat, reaction: id }) {
  if (!Number.isInteger(seat) || typeof id !== "string") return state;
  const serial = state.serial + 1;
  return { ...state, serial, reactions: [...state.reactions, { id: serial, seat, reaction: id }].slice(-KEEP_REACTIONS) };
}

/** A local game's live odds, worked out in the page (or not: offline). */
function odds(state, { version, odds: values, offline = false }) {
  if (!state.room || state.room.version !== version) return state;
  const withOdds = (room) => (room && room.version === version ? { ...room, odds: values } : room);
  return {
    ...state,
    oddsOffline: Boolean(offline),
    room: withOdds(state.room),
    shown: withOdds(state.shown),
    moments: state.moments.map((m) => ({ ...m, room: withOdds(m.room) })),
  };
}

// ---- the player's actions ---------------------------------------------------------------

function rollIntent(state) {
  if (!canRoll(state)) return state;
  const version = state.room ? state.room.version : state.shown.version;
  return send(state, { type: "roll", seat: state.shown.turn, version });
}

/** "Skip to results": played out by the room; if the race has ended meanwhile, the moves
 * still to be shown are skipped here. */
function skip(state) {
  if (state.asked.finish_ai || !skipOffered(state)) return state;
  if (isOver(state.room)) {
    const last = state.moments[state.moments.length - 1];
    const end = { id: state.serial + 1, events: [], room: state.room, instant: true };
    return { ...state, serial: state.serial + 1, moments: [last ? { ...last, instant: true } : end], playing: null, cut: state.cut + 1, skipped: true };
  }
  return send(state, { type: "finish_ai" }, { tries: 0 });
}

/** An intent to send: its ref, the `change` it was made against, and what is awaited. */
function send(state, message, { quiet = false, ...track } = {}) {
  if (!message || typeof message.type !== "string") return state;
  const serial = state.serial + 1;
  const ref = `c${serial}`;
  const out = { ...message, ref };
  if (NAMES_CHANGE.has(message.type) && !Number.isInteger(message.change)) out.change = change(state);
  const next = { ...state, serial, outbox: [...state.outbox, out] };
  if (quiet) next.quiet = [...state.quiet, ref].slice(-KEEP_REACTIONS);
  if (TRACKED.has(message.type)) next.asked = { ...state.asked, [message.type]: { ref, ...track, ...pick(message) } };
  return next;
}

// ---- the board's news -------------------------------------------------------------------

function momentPlayed(state, { id }) {
  const [first, ...rest] = state.moments;
  if (!first || first.id !== id) return state;
  // Skipped: the end shown came at once (a moment with no events after it keeps that so).
  const skipped = first.instant || (first.events.length === 0 && state.skipped);
  return { ...state, shown: first.room, moments: rest, playing: null, skipped };
}

// ---- helpers ----------------------------------------------------------------------------

/** `room` is the newest without a move to show: a moment with no events while moves are
 * still being shown, else the room as shown at once. */
function refresh(state, room) {
  if (!busy(state)) return { ...state, shown: room };
  const serial = state.serial + 1;
  return { ...state, serial, moments: [...state.moments, { id: serial, events: [], room, instant: false }] };
}

function notice(state, { code, message, retryAfter = 0 }) {
  const serial = state.serial + 1;
  return { ...state, serial, notice: { id: serial, code, message, retryAfter } };
}

/** Whatever was asked with `ref` is no longer awaited. */
function forget(state, ref) {
  if (!ref) return state;
  const asked = Object.fromEntries(Object.entries(state.asked).filter(([, v]) => v.ref !== ref));
  return { ...state, asked };
}

function without(asked, kind) {
  if (!(kind in asked)) return asked;
  const { [kind]: _, ...rest } = asked;
  return rest;
}

function pick(message) {
  if (message.type === "roll") return { version: message.version };
  if (message.type === "rematch") return { start: Boolean(message.start) };
  return {};
}

/** A welcome answers every intent still awaited: each was applied or refused as stale;
 * a rematch this device agreed to stays asked while the room shows its yes. */
function keptAfterWelcome(asked, room, you) {
  const kept = {};
  const mine = new Set(you && Array.isArray(you.seats) ? you.seats : []);
  if (asked.rematch && isOver(room) && (room.rematch || []).some((s) => mine.has(s))) kept.rematch = asked.rematch;
  if (asked.finish_ai) kept.finish_ai = asked.finish_ai;
  return kept;
}

function keptAfterUpdate(asked, room, events) {
  let kept = asked;
  if (kept.roll && room.version !== kept.roll.version) kept = without(kept, "roll");
  if (kept.add_ai && events.some((ev) => ev.type === "joined")) kept = without(kept, "add_ai");
  if (kept.rematch && !isOver(room)) kept = without(kept, "rematch");
  if (kept.finish_ai && (isOver(room) || !room.only_ai_racing)) kept = without(kept, "finish_ai");
  return kept;
}

/** "Skip to results" still means the same while the AI seats play on (each of their moves
 * is a change): it is sent again, naming the room as it now is, a few times at most. */
function askSkipAgain(state, asked) {
  if (!asked) return state;
  const room = state.room;
  const rest = { ...state, asked: without(state.asked, "finish_ai") };
  if (!room || isOver(room) || !room.only_ai_racing || asked.tries >= MAX_SKIP_TRIES) return rest;
  return send(rest, { type: "finish_ai" }, { tries: asked.tries + 1 });
}
