// Big moments on the board: a ladder climbed, a snake's bite, a six, a win. A short
// word pops up over the board (the announcer already says it in full, so this is
// hidden from screen readers). With reduced motion it simply appears and fades.

import { h, s } from "./dom.js";
import { duration, reducedMotion } from "./settings.js";
import { useStyles } from "./lazy-screen.js";

// Its styles come with it (css/moments.css): a first game's load stays small.
const styles = useStyles("moments.css").catch((err) => console.error(err));

// Drawn icons, not emoji: a device without an emoji font would show an empty box.
const ICONS = {
  ladder: () => [
    s("path", { d: "M8 2v20M16 2v20", stroke: "#6b3f12", "stroke-width": 5, "stroke-linecap": "round" }),
    s("path", { d: "M8 2v20M16 2v20", stroke: "#f0b864", "stroke-width": 2.6, "stroke-linecap": "round" }),
    s("path", { d: "M8 6h8M8 11h8M8 16h8", stroke: "#f0b864", "stroke-width": 2.4 }),
  ],
  snake: () => [
    s("path", { d: "M3.5 20c3 1.6 6.5.4 6.5-2.6S6 13.6 6 10.2 9.5 4.6 14 5.4", fill: "none", stroke: "#1f5d12", "stroke-width": 5.2, "stroke-linecap": "round" }),
    s("path", { d: "M3.5 20c3 1.6 6.5.4 6.5-2.6S6 13.6 6 10.2 9.5 4.6 14 5.4", fill: "none", stroke: "#7ed957", "stroke-width": 3, "stroke-linecap": "round" }),
    s("ellipse", { cx: 16.8, cy: 6, rx: 4.6, ry: 3.4, fill: "#7ed957", stroke: "#1f5d12", "stroke-width": 1.4 }),
    s("circle", { cx: 18, cy: 5, r: 1, fill: "#111" }),
    s("path", { d: "M21.2 6.6l2 .9-2 .6", fill: "none", stroke: "#c21807", "stroke-width": 1 }),
  ],
  six: () => [
    s("rect", { x: 2.5, y: 2.5, width: 19, height: 19, rx: 4.5, fill: "#fff", stroke: "#2b1600", "stroke-width": 1.6 }),
    ...[[8, 7], [8, 12], [8, 17], [16, 7], [16, 12], [16, 17]].map(([cx, cy]) => s("circle", { cx, cy, r: 1.9, fill: "#2b1600" })),
  ],
  win: () => [
    s("path", { d: "M7 3h10v5c0 4-2.2 7-5 7.5C9.2 15 7 12 7 8z", fill: "#ffc928", stroke: "#6b4300", "stroke-width": 1.4 }),
    s("path", { d: "M7 5H3.6c0 3.4 1.8 5.2 3.8 5.4M17 5h3.4c0 3.4-1.8 5.2-3.8 5.4", fill: "none", stroke: "#6b4300", "stroke-width": 1.5 }),
    s("path", { d: "M10.5 15.5h3v3h-3zM7.5 18.5h9v3h-9z", fill: "#d18a00", stroke: "#6b4300", "stroke-width": 1.3 }),
  ],
};

const KINDS = {
  ladder: { className: "moment-ladder" },
  snake: { className: "moment-snake" },
  six: { className: "moment-six" },
  win: { className: "moment-win" },
};

function icon(kind) {
  return s("svg", { class: "moment-icon", viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true", focusable: "false" }, ICONS[kind]());
}

/** Pop `text` over `area` (the board's box) for a moment; resolves when it is gone. */
export async function popMoment(area, kind, text) {
  if (!area) return;
  await styles;
  if (!KINDS[kind]) kind = "six";
  const look = KINDS[kind];
  const el = h("div", { class: ["moment", look.className, reducedMotion() && "still"], "aria-hidden": "true", dataset: { testid: "moment", kind } },
    icon(kind), h("span", { class: "moment-text" }, text));
  area.append(el);
  const ms = Math.max(400, duration(kind === "win" ? 2200 : 1300));
  el.style.setProperty("--moment-ms", `${ms}ms`);
  await new Promise((resolve) => {
    setTimeout(() => {
      el.remove();
      resolve();
    }, ms);
  });
}
