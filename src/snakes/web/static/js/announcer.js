// Turns server events into words in the player's language: one sentence per roll ("Ana
// rolled 6 and climbed the ladder from 28 to 84 — bonus roll!"), spoken through the
// aria-live region and shown on the visible log line.

import { t, ordinal, list } from "./i18n.js";

const FINISH = 100;

/**
 * Split an update's events into sentences. Returns [{after, text, seat}] where `after`
 * is the index of the event after whose animation the sentence should appear.
 * ctx: {names: string[], classic: boolean, mine: (seat) => boolean, single: boolean}
 */
export function describeEvents(events, ctx) {
  const out = [];
  const name = (seat) => (ctx.names[seat] !== undefined ? ctx.names[seat] : t("announce.seat", { n: seat + 1 }));
  let i = 0;
  while (i < events.length) {
    const ev = events[i];
    if (ev.type === "rolled") {
      let j = i + 1;
      const parts = { rolled: ev };
      while (j < events.length && ["moved", "climbed", "slid", "overshot", "bonus_roll", "finished"].includes(events[j].type) && events[j].seat === ev.seat) {
        parts[events[j].type] = events[j];
        j++;
      }
      out.push({ after: j - 1, text: rollSentence(parts, name(ev.seat), ctx), seat: ev.seat });
      i = j;
      continue;
    }
    const text = otherSentence(ev, name, ctx);
    // Whose turn it is already shows on the banner and seat card: spoken, not logged.
    if (text) out.push({ after: i, text, seat: ev.seat, quiet: ev.type === "turn_passed" });
    i++;
  }
  return out;
}

// A roll's sentence is built from clauses, each a whole phrase in the catalogue: the roll,
// what the token did, then how the turn ends.
function rollSentence(p, who, ctx) {
  const value = p.rolled.value;
  const roll = t(p.rolled.bonus ? "announce.rolledBonus" : "announce.rolled", { name: who, value });
  if (p.overshot) return t("announce.overshot", { roll, needed: p.overshot.needed, square: p.overshot.square });
  let text = roll;
  if (p.climbed) text = t("announce.climbed", { roll, start: p.climbed.start, end: p.climbed.end });
  else if (p.slid) text = t("announce.slid", { roll, start: p.slid.start, end: p.slid.end });
  else if (p.moved && p.moved.start === 0) text = t("announce.entered", { roll, end: p.moved.end });
  else if (p.moved) text = t("announce.moved", { roll, start: p.moved.start, end: p.moved.end });
  if (p.finished) {
    if (ctx.classic) return t("announce.endWins", { text, finish: FINISH });
    return t("announce.endPlace", { text, finish: FINISH, place: ordinal(p.finished.place) });
  }
  if (p.bonus_roll) return t("announce.endBonus", { text });
  return t("announce.end", { text });
}

function otherSentence(ev, name, ctx) {
  switch (ev.type) {
    case "turn_passed":
      return ctx.mine(ev.seat) && !ctx.isAi(ev.seat) ? t("announce.yourTurn", { name: name(ev.seat) }) : t("announce.turn", { name: name(ev.seat) });
    case "skipped":
      return t(ev.bonus_lost ? "announce.bonusLost" : "announce.skipped", { name: name(ev.seat) });
    case "left":
      return t(ev.removed ? "announce.removed" : "announce.left", { name: name(ev.seat) });
    case "game_ended":
      if (ev.winner !== null && ev.winner !== undefined) return t("announce.gameWinner", { name: name(ev.winner) });
      if (ev.reason === "abandoned") return t("announce.gameAbandoned");
      if (ev.reason === "everyone-left") return t("announce.gameEveryoneLeft");
      return t("announce.gameAllFinished", { finish: FINISH });
    case "joined":
      return t("announce.joined", { name: name(ev.seat) });
    case "started":
      return t("announce.started");
    case "rematch":
      return t("announce.rematch");
    case "finished":
      return t("announce.takesPlace", { name: name(ev.seat), place: ordinal(ev.place) });
    default:
      return "";
  }
}

/** Where everyone is, as one list ("Ana on 12, Ben at the start"). */
export function describeWhere(room) {
  return list(room.seats.map((seat) => {
    if (seat.status === "left") return t("position.left", { name: seat.name });
    if (seat.status === "finished") return seat.place ? t("position.finishedPlace", { name: seat.name, place: ordinal(seat.place) }) : t("position.finished", { name: seat.name });
    return seat.square > 0 ? t("position.on", { name: seat.name, square: seat.square }) : t("position.start", { name: seat.name });
  }), "unit");
}

/** The board's accessible summary: how many ladders and snakes, and where everyone is. */
export function describePositions(room) {
  const board = room.board || {};
  const ladders = t("count.ladders", { count: (board.ladders || []).length });
  const snakes = t("count.snakes", { count: (board.snakes || []).length });
  return t("board.summary", { ladders, snakes, where: describeWhere(room) });
}

/** Speaks through the page's polite live region and keeps a short visible history. */
export class Announcer {
  constructor() {
    this.region = document.getElementById("announcer");
    this.timer = null;
    this.pending = [];
    this.lineEl = null;
    this.logEl = null;
    this.history = [];
    this.serial = 0;
  }

  attach(lineEl, logEl) {
    this.lineEl = lineEl;
    this.logEl = logEl;
    this.serial = 0;
  }

  /** Show on the visible line and add to the log (no speech). */
  show(text) {
    if (this.lineEl) this.lineEl.textContent = text;
    this.history.push(text);
    if (this.history.length > 60) this.history.shift();
    if (this.logEl) {
      // Newest first, but each entry keeps its number (the oldest is 1): a list that
      // counted from the top would renumber every entry on every turn.
      const li = document.createElement("li");
      this.serial += 1;
      li.value = this.serial;
      li.textContent = text;
      this.logEl.prepend(li);
      while (this.logEl.children.length > 60) this.logEl.lastChild.remove();
    }
  }

  /** Say something to screen readers (polite). Quick successive calls are joined, not lost. */
  speak(text) {
    if (!this.region || !text) return;
    this.pending.push(text);
    if (this.timer) return;
    // Clear first so that the same sentence twice is still announced twice.
    this.region.textContent = "";
    this.timer = setTimeout(() => {
      this.region.textContent = this.pending.join(" ");
      this.pending = [];
      this.timer = null;
    }, 80);
  }
}

export const announcer = new Announcer();
