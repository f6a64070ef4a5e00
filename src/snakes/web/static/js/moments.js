// Big moments on the board: a ladder climbed, a snake's bite, a six, a win. A short
// word pops up over the board (the announcer already says it in full, so this is
// hidden from screen readers). With reduced motion it simply appears and fades.

import { h } from "./dom.js";
import { duration, reducedMotion } from "./settings.js";

const KINDS = {
  ladder: { icon: "🪜", className: "moment-ladder" },
  snake: { icon: "🐍", className: "moment-snake" },
  six: { icon: "🎲", className: "moment-six" },
  win: { icon: "🏆", className: "moment-win" },
};

/** Pop `text` over `area` (the board's box) for a moment; resolves when it is gone. */
export function popMoment(area, kind, text) {
  if (!area) return Promise.resolve();
  const look = KINDS[kind] || KINDS.six;
  const el = h("div", { class: ["moment", look.className, reducedMotion() && "still"], "aria-hidden": "true", dataset: { testid: "moment", kind } },
    h("span", { class: "moment-icon" }, look.icon), h("span", { class: "moment-text" }, text));
  area.append(el);
  const ms = Math.max(400, duration(kind === "win" ? 2200 : 1300));
  el.style.setProperty("--moment-ms", `${ms}ms`);
  return new Promise((resolve) => {
    setTimeout(() => {
      el.remove();
      resolve();
    }, ms);
  });
}
