// Turns server events into words: one sentence per roll ("Ana rolled 6 and climbed the
// ladder from 28 to 84 — bonus roll!"), spoken through the aria-live region and shown
// on the visible log line.

import { ordinal } from "./dom.js";

/**
 * Split an update's events into sentences. Returns [{after, text, seat}] where `after`
 * is the index of the event after whose animation the sentence should appear.
 * ctx: {names: string[], classic: boolean, mine: (seat) => boolean, single: boolean}
 */
export function describeEvents(events, ctx) {
  const out = [];
  const name = (seat) => (ctx.names[seat] !== undefined ? ctx.names[seat] : `Seat ${seat + 1}`);
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

function rollSentence(p, who, ctx) {
  const v = p.rolled.value;
  let text = p.rolled.bonus ? `${who} rolled ${v} on the bonus roll` : `${who} rolled ${v}`;
  if (p.overshot) {
    return `${text} but needed exactly ${p.overshot.needed} — stays on ${p.overshot.square}.`;
  }
  if (p.climbed) text += ` and climbed the ladder from ${p.climbed.start} to ${p.climbed.end}`;
  else if (p.slid) text += `, hit a snake on ${p.slid.start} and slid down to ${p.slid.end}`;
  else if (p.moved && p.moved.start === 0) text += ` and entered the board on ${p.moved.end}`;
  else if (p.moved) text += ` and moved from ${p.moved.start} to ${p.moved.end}`;
  if (p.finished) {
    if (ctx.classic) return `${text} — reached 100 and wins the game!`;
    return `${text} — reached 100 and takes ${ordinal(p.finished.place)} place!`;
  }
  if (p.bonus_roll) return `${text} — bonus roll!`;
  return `${text}.`;
}

function otherSentence(ev, name, ctx) {
  switch (ev.type) {
    case "turn_passed":
      return ctx.mine(ev.seat) && !ctx.isAi(ev.seat) ? `Your turn, ${name(ev.seat)}!` : `${name(ev.seat)}'s turn.`;
    case "skipped":
      return ev.bonus_lost
        ? `${name(ev.seat)}'s bonus roll timed out and is lost.`
        : `${name(ev.seat)} ran out of time — turn skipped.`;
    case "left":
      return ev.removed ? `${name(ev.seat)} was removed by the host.` : `${name(ev.seat)} left the game.`;
    case "game_ended":
      if (ev.winner !== null && ev.winner !== undefined) return `Game over — ${name(ev.winner)} wins!`;
      if (ev.reason === "abandoned") return "Game over — everyone still racing stayed away.";
      if (ev.reason === "everyone-left") return "Game over — everyone left.";
      return "Game over — everyone has reached 100!";
    case "joined":
      return `${name(ev.seat)} joined the room.`;
    case "started":
      return "The race is on!";
    case "rematch":
      return "Rematch! Same table, same rules — everyone back to the start.";
    case "finished":
      return `${name(ev.seat)} takes ${ordinal(ev.place)} place!`;
    default:
      return "";
  }
}

/** The board's accessible summary: how many ladders and snakes, and where everyone is. */
export function describePositions(room) {
  const parts = room.seats.map((seat) => {
    if (seat.status === "left") return `${seat.name} left`;
    if (seat.status === "finished") return `${seat.name} finished${seat.place ? ` ${ordinal(seat.place)}` : ""}`;
    return seat.square > 0 ? `${seat.name} on ${seat.square}` : `${seat.name} at the start`;
  });
  const board = room.board || {};
  const ladders = (board.ladders || []).length;
  const snakes = (board.snakes || []).length;
  return `Board with ${ladders} ladders and ${snakes} snakes. ${parts.join(", ")}.`;
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
  }

  attach(lineEl, logEl) {
    this.lineEl = lineEl;
    this.logEl = logEl;
  }

  /** Show on the visible line and add to the log (no speech). */
  show(text) {
    if (this.lineEl) this.lineEl.textContent = text;
    this.history.push(text);
    if (this.history.length > 60) this.history.shift();
    if (this.logEl) {
      const li = document.createElement("li");
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
