// Tokens on the board: placement (several on one square are fanned out so all are
// visible), and the walk / climb / slide / bump / celebrate animations.

import { s } from "./dom.js";
import { squareCentre, traySlot } from "./board.js";
import { colour, tokenMarks } from "./colours.js";
import { tween, pause, pointAlong, ease, GLIDE_MS, hopMs, climbMs, slideMs, bumpMs, joyMs, celebrateMs } from "./anim.js";
import { duration, reducedMotion } from "./settings.js";

const FANS = {
  1: [[0, 0]],
  2: [[-20, 4], [20, -4]],
  3: [[-20, -13], [20, -13], [0, 19]],
  4: [[-21, -20], [21, -20], [-21, 20], [21, 20]],
  5: [[-23, -22], [23, -22], [0, 0], [-23, 22], [23, 22]],
  6: [[-27, -17], [0, -17], [27, -17], [-27, 17], [0, 17], [27, 17]],
};
const RADIUS = { 1: 28, 2: 25, 3: 22, 4: 20, 5: 18, 6: 16 };
// A token alone on its square is this big on screen (CSS px) on a phone; 32 px at the very least.
const MIN_DIAMETER_PX = 34;
const BOARD_UNITS = 1028;

export class Tokens {
  /** @param {import("./board.js").Board} board */
  constructor(board) {
    this.board = board;
    this.layer = board.el.querySelector(".tokens") || board.tokenLayer;
    this.items = new Map(); // seat -> {g, body, x, y, r, square, hidden}
    this.moving = new Set();
    this.onStep = null;
    this.grow = 1;
  }

  /** How much tokens grow so a lone one is MIN_DIAMETER_PX on screen (1 on big boards). */
  _measure() {
    const width = this.board.el.getBoundingClientRect().width;
    if (width > 0) this.grow = Math.max(1, MIN_DIAMETER_PX / ((2 * RADIUS[1] * width) / BOARD_UNITS));
    return this.grow;
  }

  /** Create (or refresh) one token per seat. */
  setSeats(seats) {
    const marks = tokenMarks(seats);
    const seen = new Set();
    seats.forEach((seat, i) => {
      seen.add(seat.index);
      let item = this.items.get(seat.index);
      const look = colour(seat.colour);
      if (!item) {
        item = this._create(seat.index);
        this.items.set(seat.index, item);
      }
      item.gradientStop1.setAttribute("stop-color", look.light);
      item.gradientStop2.setAttribute("stop-color", look.fill);
      item.label.textContent = marks[i];
      item.label.setAttribute("fill", look.ink);
      item.g.dataset.colour = seat.colour;
      item.g.dataset.seat = String(seat.index);
      item.hidden = seat.status === "left";
      item.g.classList.toggle("left", item.hidden);
    });
    for (const [index, item] of this.items) {
      if (!seen.has(index)) {
        item.g.remove();
        this.items.delete(index);
      }
    }
  }

  /** Mark the token whose turn it is. */
  setCurrent(seatIndex) {
    for (const [index, item] of this.items) item.g.classList.toggle("current", index === seatIndex);
  }

  /**
   * Put every token on its square at once (or with a short glide), fanning out tokens
   * that share a square. positions: Map seat -> square.
   */
  layout(positions, { glide = false } = {}) {
    const groups = new Map();
    for (const [seat, square] of positions) {
      const item = this.items.get(seat);
      if (!item) continue;
      item.square = square;
      if (this.moving.has(seat)) continue;
      if (square <= 0) continue;
      if (!groups.has(square)) groups.set(square, []);
      groups.get(square).push(seat);
    }
    const moves = [];
    const spread = Math.min(this._measure(), 1.5);
    for (const [seat, square] of positions) {
      const item = this.items.get(seat);
      if (!item || this.moving.has(seat)) continue;
      let target;
      let r = RADIUS[1];
      if (square <= 0) {
        target = traySlot(seat);
      } else {
        const group = groups.get(square).sort((a, b) => a - b);
        const count = Math.min(group.length, 6);
        const fan = FANS[count][Math.min(group.indexOf(seat), 5)];
        const centre = squareCentre(square);
        target = { x: centre.x + fan[0] * spread, y: centre.y + fan[1] * spread + 4 };
        r = RADIUS[count];
      }
      moves.push({ item, target, r });
    }
    if (!glide) {
      for (const { item, target, r } of moves) this._put(item, target.x, target.y, r);
      return Promise.resolve();
    }
    const from = moves.map(({ item }) => ({ x: item.x, y: item.y, r: item.r }));
    return tween(duration(GLIDE_MS), (t) => {
      moves.forEach(({ item, target, r }, i) => {
        this._put(item, from[i].x + (target.x - from[i].x) * t, from[i].y + (target.y - from[i].y) * t, from[i].r + (r - from[i].r) * t);
      });
    });
  }

  /** Walk square by square from `start` to `end`, hopping on each square. */
  async walk(seat, start, end) {
    const item = this.items.get(seat);
    if (!item) return;
    this._lift(seat, item);
    const step = start <= end ? 1 : -1;
    const hopTime = duration(hopMs());
    for (let sq = start + step; step > 0 ? sq <= end : sq >= end; sq += step) {
      const from = { x: item.x, y: item.y };
      const to = squareCentre(sq);
      const height = reducedMotion() ? 0 : 26;
      await tween(hopTime, (t) => {
        const lift = Math.sin(Math.PI * t) * height;
        this._put(item, from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t - lift, RADIUS[1]);
      }, ease.inOut);
      item.square = sq;
      if (this.onStep) this.onStep(seat, sq);
    }
    this.moving.delete(seat);
  }

  /** Climb along a ladder (or glide along any straight line). */
  async climb(seat, start, end, points) {
    const item = this.items.get(seat);
    if (!item) return;
    this._lift(seat, item);
    const line = points || [squareCentre(start), squareCentre(end)];
    const from = { x: item.x, y: item.y };
    const path = [from, ...line.slice(1)];
    const ms = duration(climbMs(end - start));
    await tween(ms, (t) => {
      const p = pointAlong(path, t);
      this._put(item, p.x, p.y, RADIUS[1]);
    }, ease.inOut);
    item.square = end;
    this.moving.delete(seat);
  }

  /** Slide down a snake, following its curvy body from head to tail. */
  async slide(seat, start, end, points) {
    const item = this.items.get(seat);
    if (!item) return;
    this._lift(seat, item);
    const path = points && points.length > 1 ? points : [squareCentre(start), squareCentre(end)];
    const ms = duration(slideMs(start - end));
    const wobble = !reducedMotion();
    await tween(ms, (t) => {
      const p = pointAlong(path, t);
      const spin = wobble ? Math.sin(t * Math.PI * 6) * 12 : 0;
      this._put(item, p.x, p.y, RADIUS[1], spin);
    }, ease.in);
    this._put(item, item.x, item.y, RADIUS[1], 0);
    item.square = end;
    this.moving.delete(seat);
  }

  /** A little shake: the roll would pass 100, so the token stays. */
  async bump(seat) {
    const item = this.items.get(seat);
    if (!item) return;
    const { x, y, r } = item;
    const amount = reducedMotion() ? 0 : 7;
    await tween(duration(bumpMs()), (t) => this._put(item, x + Math.sin(t * Math.PI * 4) * amount, y, r), ease.linear);
    this._put(item, x, y, r);
  }

  /** A small bounce of joy at the top of a ladder (none with reduced motion). */
  async hop(seat, height = 18) {
    const item = this.items.get(seat);
    if (!item || reducedMotion()) return;
    const { x, y, r } = item;
    await tween(duration(joyMs()), (t) => this._put(item, x, y - Math.abs(Math.sin(t * Math.PI * 2)) * height, r), ease.linear);
    this._put(item, x, y, r);
  }

  /** A happy bounce on reaching 100. */
  async celebrate(seat) {
    const item = this.items.get(seat);
    if (!item) return;
    const { x, y, r } = item;
    const height = reducedMotion() ? 0 : 30;
    await tween(duration(celebrateMs()), (t) => this._put(item, x, y - Math.abs(Math.sin(t * Math.PI * 2)) * height, r * (1 + 0.25 * Math.sin(t * Math.PI))), ease.linear);
    this._put(item, x, y, r);
  }

  _lift(seat, item) {
    this.moving.add(seat);
    this.layer.append(item.g); // draw on top of the others while it moves
    if (item.r !== RADIUS[1]) this._put(item, item.x, item.y, RADIUS[1]);
  }

  _put(item, x, y, r, rotate = 0) {
    item.x = x;
    item.y = y;
    item.r = r;
    const scale = (r / RADIUS[1]) * this.grow;
    item.g.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale.toFixed(3)})${rotate ? ` rotate(${rotate.toFixed(1)})` : ""}`);
  }

  _create(seat) {
    const id = `token-grad-${seat}-${Math.random().toString(36).slice(2, 7)}`;
    const stop1 = s("stop", { offset: "0%" });
    const stop2 = s("stop", { offset: "100%" });
    const gradient = s("radialGradient", { id, cx: "35%", cy: "30%", r: "75%" }, stop1, stop2);
    const r = RADIUS[1];
    const label = s("text", { class: "token-mark", x: 0, y: 1, "text-anchor": "middle", "dominant-baseline": "central" });
    const g = s("g", { class: "token", "aria-hidden": "true", "data-testid": "token" },
      gradient,
      s("ellipse", { class: "token-shadow", cx: 3, cy: r * 0.75, rx: r * 0.95, ry: r * 0.42, fill: "#000", opacity: 0.35 }),
      s("circle", { class: "token-halo", r: r + 9, fill: "none" }),
      s("circle", { r, fill: `url(#${id})`, stroke: "#1b1b1b", "stroke-width": 3 }),
      s("circle", { r: r - 5, fill: "none", stroke: "#ffffff", "stroke-width": 3, opacity: 0.9 }),
      label);
    this.layer.append(g);
    const item = { g, label, gradientStop1: stop1, gradientStop2: stop2, x: 0, y: 0, r, square: 0, hidden: false };
    const slot = traySlot(seat);
    this._put(item, slot.x, slot.y, r);
    return item;
  }
}

export { pause };
