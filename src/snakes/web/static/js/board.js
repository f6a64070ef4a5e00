// The jungle board, drawn in SVG from the room's board data (never hard-coded):
// 10 x 10 squares in snaking order, wooden ladders, curvy patterned snakes, a start tray.

import { s } from "./dom.js";
import { t } from "./i18n.js";

export const CELL = 100;
export const SIDE = 10;
const BOARD = CELL * SIDE;
const TRAY_TOP = BOARD + 22;
const TRAY_HEIGHT = 86;
const PAD = 14;

const SNAKE_LOOKS = [
  { body: "#7e3fbf", dark: "#3d1466", mark: "#ffd54f", pattern: "bands" },
  { body: "#ef6c00", dark: "#7a3000", mark: "#3e2723", pattern: "spots" },
  { body: "#d32f2f", dark: "#6d0f0f", mark: "#ffeb3b", pattern: "diamonds" },
  { body: "#1565c0", dark: "#0a2f63", mark: "#80deea", pattern: "bands" },
  { body: "#c2185b", dark: "#5e0a2b", mark: "#f8bbd0", pattern: "spots" },
  { body: "#f9b200", dark: "#6e4b00", mark: "#4e342e", pattern: "diamonds" },
  { body: "#00838f", dark: "#003d43", mark: "#ffcc80", pattern: "bands" },
  { body: "#8d5524", dark: "#3e2210", mark: "#ffe082", pattern: "spots" },
  { body: "#e64a19", dark: "#6b1e05", mark: "#fff3e0", pattern: "bands" },
  { body: "#303f9f", dark: "#141c4d", mark: "#ffab91", pattern: "diamonds" },
];

// Each ladder of a board is painted a colour of its own, and its foot and top are capped
// in it: where long ladders cross, the eye follows a colour, not a tangle of wood. No two
// are alike (they differ by at least 60 in RGB), and none is the board's green.
const LADDER_PAINTS = [
  { paint: "#e53935", dark: "#6d1210" },
  { paint: "#1e88e5", dark: "#0b3a66" },
  { paint: "#fdd835", dark: "#6b5a00" },
  { paint: "#8e24aa", dark: "#3d0a4d" },
  { paint: "#fb8c00", dark: "#6b3a00" },
  { paint: "#f5f5f5", dark: "#4a4a4a" },
  { paint: "#4dd0e1", dark: "#0b5560" },
  { paint: "#ff80ab", dark: "#7a1f41" },
  { paint: "#3949ab", dark: "#141c4d" },
  { paint: "#5d4037", dark: "#22140f" },
];

/** Row 0 is the bottom row; columns run left to right on even rows, right to left on odd. */
export function cellOf(square) {
  const row = Math.floor((square - 1) / SIDE);
  const offset = (square - 1) % SIDE;
  const col = row % 2 === 0 ? offset : SIDE - 1 - offset;
  return { row, col };
}

/** The centre of a square in board units; square 0 is the start tray. */
export function squareCentre(square) {
  if (square <= 0) return { x: 60, y: TRAY_TOP + TRAY_HEIGHT / 2 };
  const { row, col } = cellOf(Math.min(square, SIDE * SIDE));
  return { x: col * CELL + CELL / 2, y: (SIDE - 1 - row) * CELL + CELL / 2 };
}

/** Where seat `seat` waits in the start tray (square 0). */
export function traySlot(seat) {
  return { x: 200 + seat * 135, y: TRAY_TOP + TRAY_HEIGHT / 2 };
}

export class Board {
  /** @param {{name: string, ladders: number[][], snakes: number[][]}} data */
  constructor(data) {
    this.data = normalise(data);
    this.snakePaths = new Map();
    this.ladderLines = new Map();
    this.jumpEls = new Map();
    this.el = s("svg", {
      class: "board",
      viewBox: `${-PAD} ${-PAD} ${BOARD + PAD * 2} ${TRAY_TOP + TRAY_HEIGHT + PAD * 2}`,
      role: "img",
      "aria-label": t("board.label"),
      "data-testid": "board",
      focusable: "false",
    });
    this.title = s("title", { text: t("board.label") });
    this.el.append(this.title, this._defs());
    this.trayEl = this._tray();
    this.el.append(this._frame(), this._squares(), this.trayEl);
    this.jumpLayer = s("g", { class: "jumps" });
    this.el.append(this.jumpLayer);
    this.data.ladders.forEach(([start, end], i) => this._ladder(start, end, LADDER_PAINTS[i % LADDER_PAINTS.length]));
    const routes = routeSnakes(this.data);
    this.data.snakes.forEach(([head, tail], i) => this._snake(head, tail, i, routes.get(head)));
    // Snakes and ladders lie under the numbers and tokens. A token is big enough to
    // touch on a phone, so the square's number stays on top, in its corner, readable.
    this.tokenLayer = s("g", { class: "tokens" });
    this.el.append(this.tokenLayer, this._numbers());
  }

  /** The START tray shows only while some token waits on square 0, with a slot for each
   * of the game's `seats` players. */
  showTray(on, seats = null) {
    if (seats !== null) this._traySlots(seats);
    const height = on ? TRAY_TOP + TRAY_HEIGHT + PAD * 2 : BOARD + PAD * 2;
    this.el.setAttribute("viewBox", `${-PAD} ${-PAD} ${BOARD + PAD * 2} ${height}`);
    this.trayEl.style.display = on ? "" : "none";
    this.el.classList.toggle("with-tray", on);
  }

  /** Replace the accessible summary (positions of every token). */
  describe(text) {
    this.el.setAttribute("aria-label", text);
    this.title.textContent = text;
  }

  /** The centre line of the snake whose head is on `head`, from head to tail. */
  snakePoints(head) {
    return this.snakePaths.get(head) || [squareCentre(head), squareCentre(this._tailOf(head))];
  }

  ladderPoints(bottom) {
    return this.ladderLines.get(bottom);
  }

  /** The snake whose head is on `head` wobbles as it bites (CSS; none with reduced motion). */
  bite(head, on) {
    const el = this.jumpEls.get(head);
    if (el) el.classList.toggle("biting", on);
  }

  /** Light up a ladder or snake while a token uses it. */
  highlight(start, on) {
    const el = this.jumpEls.get(start);
    if (el) el.classList.toggle("active", on);
  }

  _tailOf(head) {
    const found = this.data.snakes.find(([h]) => h === head);
    return found ? found[1] : head;
  }

  _defs() {
    const defs = s("defs");
    const grad = (id, inner, outer) =>
      s("radialGradient", { id, cx: "35%", cy: "30%", r: "85%" },
        s("stop", { offset: "0%", "stop-color": inner }),
        s("stop", { offset: "100%", "stop-color": outer }));
    defs.append(
      grad("sq-a", "#b5de78", "#93c652"),
      grad("sq-b", "#d7ee9f", "#bddd7f"),
      grad("sq-finish", "#fff6b0", "#ffd54a"),
      s("linearGradient", { id: "wood", x1: "0", y1: "0", x2: "1", y2: "1" },
        s("stop", { offset: "0%", "stop-color": "#a86b35" }),
        s("stop", { offset: "50%", "stop-color": "#8a5526" }),
        s("stop", { offset: "100%", "stop-color": "#6d3f18" })),
      s("filter", { id: "soft-shadow", x: "-20%", y: "-20%", width: "140%", height: "140%" },
        s("feDropShadow", { dx: "3", dy: "5", stdDeviation: "3", "flood-color": "#0b2a10", "flood-opacity": "0.45" })),
      s("filter", { id: "glow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
        s("feGaussianBlur", { in: "SourceAlpha", stdDeviation: "6", result: "blur" }),
        s("feFlood", { "flood-color": "#fff59d", "flood-opacity": "0.95" }),
        s("feComposite", { in2: "blur", operator: "in", result: "halo" }),
        s("feMerge", {}, s("feMergeNode", { in: "halo" }), s("feMergeNode", { in: "SourceGraphic" }))),
    );
    return defs;
  }

  _frame() {
    return s("g", { class: "frame" },
      s("rect", { x: -PAD, y: -PAD, width: BOARD + PAD * 2, height: BOARD + PAD * 2, rx: 18, fill: "url(#wood)" }),
      s("rect", { x: -3, y: -3, width: BOARD + 6, height: BOARD + 6, rx: 6, fill: "#3b2410" }));
  }

  _squares() {
    const g = s("g", { class: "squares" });
    const jumpEnds = new Set(this.data.ladders.flat().concat(this.data.snakes.flat()));
    for (let n = 1; n <= SIDE * SIDE; n++) {
      const { row, col } = cellOf(n);
      const x = col * CELL;
      const y = (SIDE - 1 - row) * CELL;
      const fill = n === SIDE * SIDE ? "url(#sq-finish)" : (row + col) % 2 === 0 ? "url(#sq-a)" : "url(#sq-b)";
      g.append(s("rect", { x, y, width: CELL, height: CELL, fill, "data-square": n }));
      if (!jumpEnds.has(n) && n !== 1 && n !== SIDE * SIDE && hash(n) % 7 === 0) g.append(leaf(x, y, n));
    }
    // Finish flag on 100.
    const top = squareCentre(SIDE * SIDE);
    g.append(s("g", { class: "finish-mark", transform: `translate(${top.x + 6} ${top.y + 4})` },
      s("path", { d: "M -14 30 L -14 -26", stroke: "#5d4037", "stroke-width": 5, "stroke-linecap": "round" }),
      s("path", { d: "M -12 -26 L 24 -16 L -12 -4 Z", fill: "#e53935", stroke: "#7f1d1d", "stroke-width": 2 })));
    return g;
  }

  _tray() {
    const g = s("g", { class: "tray" });
    g.append(
      s("rect", { x: 0, y: TRAY_TOP, width: BOARD, height: TRAY_HEIGHT, rx: 16, fill: "url(#wood)", stroke: "#3b2410", "stroke-width": 4 }),
      s("text", { x: 64, y: TRAY_TOP + TRAY_HEIGHT / 2 + 11, class: "tray-label", "text-anchor": "middle", text: t("board.start") }),
    );
    this.slotLayer = s("g", { class: "tray-slots" });
    g.append(this.slotLayer);
    this.slotCount = -1;
    this._traySlots(6);
    return g;
  }

  _traySlots(count) {
    if (count === this.slotCount) return;
    this.slotCount = count;
    const slots = [];
    for (let seat = 0; seat < count; seat++) {
      const slot = traySlot(seat);
      slots.push(s("circle", { cx: slot.x, cy: slot.y, r: 30, fill: "#5a3415", stroke: "#b07a43", "stroke-width": 2, opacity: 0.7 }));
    }
    this.slotLayer.replaceChildren(...slots);
  }

  _ladder(bottom, top, look) {
    const a = squareCentre(bottom);
    const b = squareCentre(top);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy);
    const ux = dx / len;
    const uy = dy / len;
    const nx = -uy;
    const ny = ux;
    const half = 17;
    // Rails run a little past both centres so the ends sit inside their squares.
    const over = 20;
    const sx = a.x - ux * over;
    const sy = a.y - uy * over;
    const ex = b.x + ux * over;
    const ey = b.y + uy * over;
    const g = s("g", { class: "ladder", "data-ladder": `${bottom}-${top}` });
    const rails = [-1, 1].map((side) => ({
      x1: sx + nx * half * side, y1: sy + ny * half * side,
      x2: ex + nx * half * side, y2: ey + ny * half * side,
    }));
    const shadow = s("g", { transform: "translate(5 7)", opacity: 0.28 });
    const wood = s("g");
    const rungCount = Math.max(2, Math.round((len + over * 2) / 34));
    for (let i = 1; i < rungCount; i++) {
      const t = i / rungCount;
      const cx = sx + (ex - sx) * t;
      const cy = sy + (ey - sy) * t;
      const line = { x1: cx - nx * half, y1: cy - ny * half, x2: cx + nx * half, y2: cy + ny * half };
      shadow.append(s("line", { ...line, stroke: "#000", "stroke-width": 8, "stroke-linecap": "round" }));
      wood.append(s("line", { ...line, stroke: "#4a2a0e", "stroke-width": 9, "stroke-linecap": "round" }));
      wood.append(s("line", { ...line, stroke: "#d4934f", "stroke-width": 5, "stroke-linecap": "round" }));
    }
    for (const rail of rails) {
      shadow.append(s("line", { ...rail, stroke: "#000", "stroke-width": 10, "stroke-linecap": "round" }));
      wood.append(s("line", { ...rail, stroke: look.dark, "stroke-width": 14, "stroke-linecap": "round" }));
      wood.append(s("line", { ...rail, class: "ladder-rail", stroke: look.paint, "stroke-width": 9, "stroke-linecap": "round" }));
      wood.append(s("line", {
        x1: rail.x1 - nx * 1.5, y1: rail.y1 - ny * 1.5, x2: rail.x2 - nx * 1.5, y2: rail.y2 - ny * 1.5,
        stroke: "#ffffff", "stroke-width": 2, "stroke-linecap": "round", opacity: 0.45,
      }));
    }
    // A cap in the ladder's colour on its foot and on its top, each on its own square.
    for (const [end, x, y] of [["foot", sx + ux * 4, sy + uy * 4], ["top", ex - ux * 4, ey - uy * 4]]) {
      wood.append(s("circle", {
        class: "ladder-end", "data-end": end, cx: fmt(x), cy: fmt(y), r: 15,
        fill: look.paint, stroke: look.dark, "stroke-width": 3,
      }));
    }
    g.append(shadow, wood);
    this.jumpLayer.append(g);
    this.jumpEls.set(bottom, g);
    this.ladderLines.set(bottom, [a, b]);
  }

  _snake(head, tail, index, route) {
    const look = SNAKE_LOOKS[index % SNAKE_LOOKS.length];
    const a = squareCentre(head);
    const samples = 72;
    const centre = snakeCurve(head, tail, route || { sign: index % 2 ? -1 : 1, waves: 1.5, amp: 30, bow: 0 }, samples);
    this.snakePaths.set(head, centre);
    // Thick enough for a finger to follow, tapering to a clear pointed tail.
    const width = (t) => 5 + 26 * (1 - t) ** 0.6;
    const normals = centre.map((p, i) => {
      const q = centre[Math.min(samples, i + 1)];
      const r = centre[Math.max(0, i - 1)];
      const tx = q.x - r.x;
      const ty = q.y - r.y;
      const tl = Math.hypot(tx, ty) || 1;
      return { x: -ty / tl, y: tx / tl };
    });
    const left = centre.map((p, i) => ({ x: p.x + normals[i].x * width(i / samples) / 2, y: p.y + normals[i].y * width(i / samples) / 2 }));
    const right = centre.map((p, i) => ({ x: p.x - normals[i].x * width(i / samples) / 2, y: p.y - normals[i].y * width(i / samples) / 2 }));
    const outline = smoothPath(left) + " " + smoothPath(right.reverse(), true) + " Z";

    const g = s("g", { class: "snake", "data-snake": `${head}-${tail}` });
    g.append(s("path", { d: outline, fill: "#000", opacity: 0.25, transform: "translate(5 7)" }));
    g.append(s("path", { d: outline, fill: look.body, stroke: look.dark, "stroke-width": 3, "stroke-linejoin": "round" }));
    // Markings, scaled to the body's width where they sit.
    const marks = s("g", { fill: look.mark });
    for (let i = 5; i < samples - 3; i += 4) {
      const p = centre[i];
      const w = width(i / samples);
      const n = normals[i];
      const angle = (Math.atan2(n.y, n.x) * 180) / Math.PI;
      if (look.pattern === "bands") {
        marks.append(s("rect", { x: -w / 2 + 1.5, y: -2.6, width: w - 3, height: 5.2, rx: 2.6, transform: `translate(${p.x} ${p.y}) rotate(${angle})` }));
      } else if (look.pattern === "spots") {
        const side = (i / 4) % 2 === 0 ? 1 : -1;
        marks.append(s("circle", { cx: p.x + n.x * side * w * 0.18, cy: p.y + n.y * side * w * 0.18, r: Math.max(1.5, w * 0.2) }));
      } else {
        const d = Math.max(2, w * 0.3);
        marks.append(s("rect", { x: -d / 2, y: -d / 2, width: d, height: d, transform: `translate(${p.x} ${p.y}) rotate(${angle + 45})` }));
      }
    }
    g.append(marks);
    g.append(s("path", {
      d: smoothPath(centre.slice(2, samples - 6).map((p, i) => ({ x: p.x + normals[i + 2].x * width((i + 2) / samples) * 0.22, y: p.y + normals[i + 2].y * width((i + 2) / samples) * 0.22 }))),
      fill: "none", stroke: "#ffffff", "stroke-width": 2.5, "stroke-linecap": "round", opacity: 0.35,
    }));
    const end = centre[samples];
    const before = centre[samples - 3];
    const angle = Math.atan2(end.y - before.y, end.x - before.x);
    g.append(s("path", {
      class: "snake-tail",
      d: `M ${fmt(end.x - Math.sin(angle) * 3)} ${fmt(end.y + Math.cos(angle) * 3)} L ${fmt(end.x + Math.cos(angle) * 14)} ${fmt(end.y + Math.sin(angle) * 14)} L ${fmt(end.x + Math.sin(angle) * 3)} ${fmt(end.y - Math.cos(angle) * 3)} Z`,
      fill: look.dark,
    }));
    g.append(snakeHead(a, centre[3], look));
    this.jumpLayer.append(g);
    this.jumpEls.set(head, g);
  }

  _numbers() {
    const g = s("g", { class: "numbers", "aria-hidden": "true" });
    for (let n = 1; n <= SIDE * SIDE; n++) {
      const { row, col } = cellOf(n);
      g.append(s("text", { x: col * CELL + 6, y: (SIDE - 1 - row) * CELL + 5, class: "square-number", text: n }));
    }
    return g;
  }
}

function snakeHead(at, neck, look) {
  const angle = (Math.atan2(at.y - neck.y, at.x - neck.x) * 180) / Math.PI;
  return s("g", { class: "snake-head", transform: `translate(${at.x} ${at.y}) rotate(${angle})` },
    s("path", { d: "M 16 0 l 14 0 m -5 0 l 6 -5 m -6 5 l 6 5", stroke: "#e0102f", "stroke-width": 3, "stroke-linecap": "round", fill: "none", class: "snake-tongue" }),
    s("ellipse", { cx: 0, cy: 0, rx: 22, ry: 17, fill: look.body, stroke: look.dark, "stroke-width": 3 }),
    s("ellipse", { cx: 4, cy: 0, rx: 12, ry: 8, fill: look.mark, opacity: 0.35 }),
    s("circle", { cx: 6, cy: -8, r: 6, fill: "#ffffff", stroke: look.dark, "stroke-width": 1.5 }),
    s("circle", { cx: 6, cy: 8, r: 6, fill: "#ffffff", stroke: look.dark, "stroke-width": 1.5 }),
    s("circle", { cx: 8, cy: -8, r: 3, fill: "#111" }),
    s("circle", { cx: 8, cy: 8, r: 3, fill: "#111" }),
    s("circle", { cx: 16, cy: -4, r: 1.4, fill: look.dark }),
    s("circle", { cx: 16, cy: 4, r: 1.4, fill: look.dark }));
}

/**
 * The curve of a snake from its head to its tail: a gentle bow plus a wiggle that dies
 * out towards both ends, so the head and the tail sit on their squares.
 */
function snakeCurve(head, tail, { sign, waves, amp, bow }, samples) {
  const a = squareCentre(head);
  const b = squareCentre(tail);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const nx = -dy / len;
  const ny = dx / len;
  const points = [];
  for (let i = 0; i <= samples; i++) {
    const t = i / samples;
    const envelope = Math.sin(Math.PI * Math.min(1, t * 1.1)) ** 0.7;
    const side = sign * (amp * Math.sin(2 * Math.PI * waves * t) * envelope) + bow * Math.sin(Math.PI * t);
    points.push({ x: a.x + dx * t + nx * side, y: a.y + dy * t + ny * side });
  }
  return points;
}

/**
 * Route every snake so that snakes and ladders cross each other as little as possible
 * and no body runs over another jump's start or end: for each snake, longest first,
 * try a set of bows and wiggles and keep the one that costs least. Neighbouring snakes
 * get different shapes, so no two look alike.
 */
const ROUTES = new Map(); // board -> routes: a board is routed once per visit

function routeSnakes(data) {
  const key = JSON.stringify([data.ladders, data.snakes]);
  if (!ROUTES.has(key)) ROUTES.set(key, computeRoutes(data));
  return ROUTES.get(key);
}

function computeRoutes(data) {
  const segments = []; // drawn so far: [{x1, y1, x2, y2}]
  for (const [start, end] of data.ladders) {
    const a = squareCentre(start);
    const b = squareCentre(end);
    segments.push({ x1: a.x, y1: a.y, x2: b.x, y2: b.y, ladder: true });
  }
  const ends = [...data.ladders, ...data.snakes].flat().map(squareCentre);
  const order = [...data.snakes].sort((p, q) => Math.abs(q[0] - q[1]) - Math.abs(p[0] - p[1]));
  const routes = new Map();
  const used = [];
  for (const [head, tail] of order) {
    const mine = [squareCentre(head), squareCentre(tail)];
    const len = Math.hypot(mine[1].x - mine[0].x, mine[1].y - mine[0].y);
    let best = null;
    for (const sign of [1, -1]) {
      for (const waves of [0.5, 1, 1.5, 2]) {
        if (waves > 0.5 && len / waves < 110) continue;
        for (const amp of [16, 36]) {
          if (amp > len * 0.3) continue;
          for (const bow of [0, 60, -60, 130, -130, 200, -200]) {
            const route = { sign, waves, amp, bow };
            const pts = snakeCurve(head, tail, route, 16);
            if (pts.some((p) => p.x < 10 || p.x > BOARD - 10 || p.y < 10 || p.y > BOARD - 10)) continue;
            let cost = Math.abs(bow) * 0.006 + amp * 0.005;
            for (let i = 0; i < pts.length - 1; i++) {
              const seg = { x1: pts[i].x, y1: pts[i].y, x2: pts[i + 1].x, y2: pts[i + 1].y };
              for (const other of segments) if (crosses(seg, other)) cost += other.ladder ? 12 : 10;
              if (best && cost >= best.cost) break;
            }
            if (best && cost >= best.cost) continue;
            for (const p of pts.slice(2, -2)) {
              for (const e of ends) {
                if (mine.some((m) => m.x === e.x && m.y === e.y)) continue;
                if (Math.hypot(p.x - e.x, p.y - e.y) < 42) cost += 3;
              }
            }
            if (used.some((u) => u.waves === waves && u.sign === sign && u.bow === bow)) cost += 1.5;
            if (!best || cost < best.cost) best = { cost, route, pts };
          }
        }
      }
    }
    if (!best) best = { route: { sign: 1, waves: 0.5, amp: 16, bow: 0 }, pts: snakeCurve(head, tail, { sign: 1, waves: 0.5, amp: 16, bow: 0 }, 16) };
    routes.set(head, best.route);
    used.push(best.route);
    for (let i = 0; i < best.pts.length - 1; i++) {
      segments.push({ x1: best.pts[i].x, y1: best.pts[i].y, x2: best.pts[i + 1].x, y2: best.pts[i + 1].y });
    }
  }
  return routes;
}

function crosses(p, q) {
  const d = (ax, ay, bx, by, cx, cy) => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d1 = d(q.x1, q.y1, q.x2, q.y2, p.x1, p.y1);
  const d2 = d(q.x1, q.y1, q.x2, q.y2, p.x2, p.y2);
  const d3 = d(p.x1, p.y1, p.x2, p.y2, q.x1, q.y1);
  const d4 = d(p.x1, p.y1, p.x2, p.y2, q.x2, q.y2);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** A smooth path through points (quadratic curves through the midpoints). */
function smoothPath(points, continueLine = false) {
  let d = `${continueLine ? "L" : "M"} ${fmt(points[0].x)} ${fmt(points[0].y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const mx = (points[i].x + points[i + 1].x) / 2;
    const my = (points[i].y + points[i + 1].y) / 2;
    d += ` Q ${fmt(points[i].x)} ${fmt(points[i].y)} ${fmt(mx)} ${fmt(my)}`;
  }
  const last = points[points.length - 1];
  d += ` L ${fmt(last.x)} ${fmt(last.y)}`;
  return d;
}

function leaf(x, y, n) {
  const cx = x + 62 + (hash(n * 3) % 20);
  const cy = y + 66 + (hash(n * 5) % 16);
  const rot = hash(n * 11) % 360;
  return s("g", { transform: `translate(${cx} ${cy}) rotate(${rot})`, opacity: 0.55, "aria-hidden": "true" },
    s("path", { d: "M 0 0 C 8 -14 22 -14 28 0 C 22 14 8 14 0 0 Z", fill: "#4f8a2b" }),
    s("path", { d: "M 2 0 L 26 0", stroke: "#2f5e17", "stroke-width": 1.5 }),
    s("circle", { cx: -6, cy: 8, r: 4, fill: n % 2 ? "#ff7aa8" : "#ffd54f" }));
}

function hash(n) {
  let x = (n * 2654435761) >>> 0;
  x ^= x >>> 13;
  return x >>> 0;
}

const fmt = (v) => Math.round(v * 10) / 10;

function normalise(data) {
  const pairs = (list) =>
    (Array.isArray(list) ? list : [])
      .filter((p) => Array.isArray(p) && p.length === 2 && p.every((v) => Number.isInteger(v) && v >= 1 && v <= 100))
      .map(([a, b]) => [a, b]);
  return {
    name: data && typeof data.name === "string" ? data.name : "board",
    ladders: pairs(data && data.ladders),
    snakes: pairs(data && data.snakes),
  };
}
