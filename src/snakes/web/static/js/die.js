// A 3D-ish CSS die: six faces with pips; it tumbles, then settles on the value the
// server rolled. It never picks a value itself.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { duration, reducedMotion } from "./settings.js";
import { rollMs } from "./anim.js";

// Cube rotation (degrees about X and Y) that brings each face to the front.
const FACE_ROTATION = { 1: [0, 0], 2: [0, -90], 3: [-90, 0], 4: [90, 0], 5: [0, 90], 6: [0, 180] };
const PIPS = {
  1: ["c"],
  2: ["tl", "br"],
  3: ["tl", "c", "br"],
  4: ["tl", "tr", "bl", "br"],
  5: ["tl", "tr", "c", "bl", "br"],
  6: ["tl", "tr", "ml", "mr", "bl", "br"],
};

export class Die {
  constructor() {
    this.value = null;
    this.cube = h("div", { class: "die-cube" },
      [1, 2, 3, 4, 5, 6].map((n) => h("div", { class: `die-face die-face-${n}` }, PIPS[n].map((p) => h("span", { class: `pip pip-${p}` })))));
    this.el = h("div", { class: "die", role: "img", "aria-label": t("die.notRolled"), dataset: { testid: "die", value: "" } },
      h("div", { class: "die-bounce" }, this.cube));
    this.bounce = this.el.firstChild;
    // Not rolled yet: a blank die, never a 1 nobody rolled.
    this.current = FACE_ROTATION[1];
    this.cube.style.transform = rot(0, 0, 0);
    this.el.classList.add("die-idle");
  }

  /** Gentle shaking while the server rolls. */
  waiting(on) {
    this.el.classList.toggle("die-waiting", on && !reducedMotion());
  }

  /** Tumble, then show `value`. Resolves when the die has settled. */
  async roll(value, { bonus = false } = {}) {
    this.waiting(false);
    this.el.classList.remove("die-idle", "die-six");
    const [fx, fy] = FACE_ROTATION[value] || FACE_ROTATION[1];
    const ms = duration(rollMs());
    const canAnimate = typeof this.cube.animate === "function" && ms > 8 && !document.hidden;
    if (canAnimate) {
      if (reducedMotion()) {
        this._show(value);
        await this.el.animate([{ opacity: 0.3 }, { opacity: 1 }], { duration: ms, easing: "ease-out" }).finished.catch(() => {});
      } else {
        const spinX = 360 * (1 + Math.floor(Math.random() * 2));
        const spinY = 360 * (1 + Math.floor(Math.random() * 2));
        const start = this.current || [0, 0];
        const tumble = this.cube.animate(
          [
            { transform: rot(start[0], start[1], 0) },
            { transform: rot(start[0] + 200, start[1] + 130, 25), offset: 0.45 },
            { transform: rot(fx + spinX, fy + spinY, 0) },
          ],
          { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" },
        );
        this.bounce.animate(
          [
            { transform: "translateY(0) scale(1)" },
            { transform: "translateY(-28%) scale(1.08)", offset: 0.3 },
            { transform: "translateY(0) scale(0.96)", offset: 0.7 },
            { transform: "translateY(0) scale(1)" },
          ],
          { duration: ms, easing: "ease-out" },
        );
        this._show(value);
        await tumble.finished.catch(() => {});
      }
    } else {
      this._show(value);
    }
    this.el.classList.toggle("die-six", value === 6 || bonus);
  }

  /** Show a value straight away (restoring a game). */
  set(value) {
    if (value >= 1 && value <= 6) {
      this.el.classList.remove("die-idle");
      this._show(value);
    }
  }

  _show(value) {
    const [fx, fy] = FACE_ROTATION[value] || FACE_ROTATION[1];
    this.current = [fx, fy];
    this.cube.style.transform = rot(fx, fy, 0);
    this.value = value;
    this.el.dataset.value = String(value);
    this.el.setAttribute("aria-label", t("die.shows", { value }));
  }
}

// A fixed tilt first, so the die always shows a little of two more sides.
function rot(x, y, z) {
  return `rotateX(-16deg) rotateY(22deg) rotateX(${x}deg) rotateY(${y}deg) rotateZ(${z}deg)`;
}
