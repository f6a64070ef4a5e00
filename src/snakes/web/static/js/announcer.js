// The announcer: what happened, spoken through the aria-live region and shown on the
// visible log line (the words of each event: js/event-words.js), and where everyone is.

import { t, ordinal, list } from "./i18n.js";

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
