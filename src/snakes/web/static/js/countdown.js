// The online turn countdown: seconds left and a shrinking bar. It counts down to the
// server's own deadline (deadline_ms, on the server's clock, brought onto this device's
// clock with the measured offset), however late the view is shown after a move's
// animation. It never shows more time than is left: a roll sent at "1 s" must still
// reach the server in time, so the shown time runs a little ahead of the server's.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { toLocal, oneWayDelay } from "./server-clock.js";

// Besides the trip to the server: timer ticks, rendering, the server's own queue.
const SAFETY_MS = 300;
const TICK_MS = 100;

/**
 * When this device's countdown starts to fall (Date.now() time), for a countdown that the
 * server starts after a move has been shown; null when it is paused or already running.
 * A move's animation is fitted to end by then, so the player has every second shown.
 */
export function countdownStartsAt(c) {
  if (!c || c.paused || !(c.starts_in_ms > 0) || typeof c.deadline_ms !== "number") return null;
  return toLocal(c.deadline_ms) - (c.total_ms || 0) - oneWayDelay() - SAFETY_MS;
}

export class Countdown {
  constructor() {
    this.text = h("span", { class: "countdown-text" });
    this.fill = h("span", { class: "countdown-fill" });
    this.el = h("div", { class: "countdown", hidden: true, dataset: { testid: "countdown" } },
      this.text, h("span", { class: "countdown-bar" }, this.fill));
    this.timer = null;
    this.key = "";
    this.tick = null;
    this.ticking = false;
    this.onVisibility = () => this.resume();
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  /**
   * c: the room's countdown ({remaining_ms, total_ms, paused, deadline_ms, ...}) or null;
   * receivedAt: when its view arrived (Date.now()), for a server without deadline_ms.
   */
  show(c, receivedAt = Date.now()) {
    if (!c || typeof c.remaining_ms !== "number") {
      this.stop();
      this.key = "";
      this.el.hidden = true;
      return;
    }
    this.stop();
    this.el.hidden = false;
    this.el.classList.remove("frozen");
    delete this.el.dataset.frozen;
    const total = c.total_ms || c.remaining_ms || 1;
    const deadline = typeof c.deadline_ms === "number"
      ? toLocal(c.deadline_ms)
      : receivedAt + c.remaining_ms;
    const tick = () => {
      const left = c.paused
        ? c.remaining_ms
        : Math.max(0, Math.min(total, deadline - Date.now() - oneWayDelay() - SAFETY_MS));
      const seconds = Math.ceil(left / 1000);
      this.text.textContent = c.paused ? t("countdown.paused") : t("countdown.left", { count: seconds });
      this.el.dataset.left = String(seconds);
      this.fill.style.width = `${Math.max(0, Math.min(100, (left / total) * 100))}%`;
      this.el.classList.toggle("urgent", !c.paused && left < 5000);
      if (!c.paused && left <= 0) this.stop();
    };
    this.tick = tick;
    this.ticking = !c.paused;
    tick();
    this.resume();
  }

  /**
   * Ticks only while the page is seen: a hidden tab's countdown costs nothing, and it is
   * right again the moment the tab is shown (it counts to the deadline, not by ticks).
   */
  resume() {
    clearInterval(this.timer);
    this.timer = null;
    if (!this.ticking || document.hidden) return;
    this.tick();
    if (this.ticking) this.timer = setInterval(this.tick, TICK_MS);
  }

  /**
   * No connection: what this device shows cannot run on, so it stops where it was and
   * says why (`reason`: "offline" or "unreachable"), until the room is shown again.
   */
  freeze(reason, text) {
    if (this.el.hidden || this.el.dataset.frozen === reason) return;
    this.stop();
    this.el.dataset.frozen = reason;
    this.el.classList.remove("urgent");
    this.el.classList.add("frozen");
    this.text.textContent = text;
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.ticking = false;
  }

  /** Gone with its screen: nothing of it runs on. */
  destroy() {
    this.stop();
    document.removeEventListener("visibilitychange", this.onVisibility);
  }
}
