// The online turn countdown: seconds left and a shrinking bar, ticking locally from the
// server's remaining_ms (the server alone decides when a turn is skipped).

import { h } from "./dom.js";

export class Countdown {
  constructor() {
    this.text = h("span", { class: "countdown-text" });
    this.fill = h("span", { class: "countdown-fill" });
    this.el = h("div", { class: "countdown", hidden: true, dataset: { testid: "countdown" } },
      this.text, h("span", { class: "countdown-bar" }, this.fill));
    this.timer = null;
  }

  /** c: the room's countdown ({remaining_ms, total_ms, paused, starts_in_ms}) or null. */
  show(c) {
    this.stop();
    if (!c || typeof c.remaining_ms !== "number") {
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    const total = c.total_ms || c.remaining_ms || 1;
    const deadline = performance.now() + c.remaining_ms;
    const tick = () => {
      const left = c.paused ? c.remaining_ms : Math.max(0, Math.min(total, deadline - performance.now()));
      this.text.textContent = c.paused ? "Countdown paused" : `${Math.ceil(left / 1000)} s left to roll`;
      this.fill.style.width = `${Math.max(0, Math.min(100, (left / total) * 100))}%`;
      this.el.classList.toggle("urgent", left < 5000);
    };
    tick();
    if (!c.paused) this.timer = setInterval(tick, 250);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
