// Reactions at the table (online rooms): the small tray a seated player sends one from,
// and the emoji that float up from a seat's card on every device in the room. A
// reaction is never a game action; the server keeps the limits (one a second, ten a
// minute per seat) and the host's switch. Settings can mute everyone's reactions here.

import { h, uniqueId } from "./dom.js";
import { config } from "./config.js";
import { announcer } from "./announcer.js";
import { getSettings } from "./settings.js";
import { t } from "./i18n.js";

// Every word this feature shows or speaks, from the language catalogue (reaction.*).
const IDS = ["clap", "laugh", "wow", "scream", "snake", "ladder", "party", "wave"];

export const WORDS = Object.freeze({
  get names() {
    return Object.fromEntries(IDS.map((id) => [id, t(`reaction.${id}`)]));
  },
  get open() {
    return t("reaction.open");
  },
  get openLabel() {
    return t("reaction.openLabel");
  },
  get tray() {
    return t("reaction.tray");
  },
  /** What the announcer says: "Ava: clap". */
  said: (name, word) => t("reaction.said", { name, word }),
  get tableSwitch() {
    return t("reaction.tableSwitch");
  },
  get tableHint() {
    return t("reaction.tableHint");
  },
  get turnedOff() {
    return t("reaction.turnedOff");
  },
  get turnedOn() {
    return t("reaction.turnedOn");
  },
  get offNote() {
    return t("reaction.offNote");
  },
  lobbyLine: (on) => t(on ? "reaction.lobbyOn" : "reaction.lobbyOff"),
  get muteTitle() {
    return t("reaction.muteTitle");
  },
  get muteHint() {
    return t("reaction.muteHint");
  },
  muteSaved: (muted) => t(muted ? "reaction.muted" : "reaction.shown"),
  tooMany: (seconds) => t("reaction.tooMany", { count: seconds }),
});

const EMOJI = Object.freeze({
  clap: "👏", laugh: "😂", wow: "😮", scream: "😱", snake: "🐍", ladder: "🪜", party: "🎉", wave: "👋",
});
const FLOAT_MS = 2200;

/** The reactions to offer, in the server's order (GET /api/config), that we can draw. */
export function reactionIds() {
  let ids = [];
  try {
    ids = Array.isArray(config().reactions) ? config().reactions : [];
  } catch {
    ids = [];
  }
  return ids.filter((id) => id in EMOJI);
}

export function emojiOf(id) {
  return EMOJI[id] || "";
}

export function wordOf(id) {
  return IDS.includes(id) ? t(`reaction.${id}`) : String(id);
}

/**
 * The tray: a "React" button that opens a small popover of eight buttons (Escape or a
 * choice closes it), and for the host a switch that turns reactions off for the room.
 * It lays itself over the page rather than pushing the die and Roll down on a phone.
 * send(message) sends on the room's socket.
 */
export class ReactionTray {
  constructor({ send }) {
    this.send = send;
    this.open = false;
    this.trayId = uniqueId("reaction-tray");
    this.button = h("button", {
      class: "button reaction-open", type: "button",
      "aria-expanded": "false", "aria-controls": this.trayId, "aria-label": WORDS.openLabel, title: WORDS.openLabel,
      dataset: { testid: "reaction-open" },
      on: { click: () => this.toggle() },
    }, h("span", { class: "reaction-open-emoji", "aria-hidden": "true" }, "😀"), h("span", { class: "reaction-open-word" }, WORDS.open));
    this.choices = reactionIds().map((id) => h("button", {
      class: "reaction-choice", type: "button", "aria-label": wordOf(id), title: wordOf(id),
      dataset: { testid: "reaction-choice", reaction: id },
      on: { click: () => this.choose(id) },
    }, h("span", { "aria-hidden": "true" }, emojiOf(id))));
    this.grid = h("div", { class: "reaction-grid", role: "group", "aria-label": WORDS.tray }, this.choices);
    this.offNote = h("p", { class: "reaction-off-note", hidden: true }, WORDS.offNote);
    const switchId = uniqueId("reaction-switch");
    const hintId = uniqueId("reaction-hint");
    this.tableSwitch = h("input", {
      type: "checkbox", role: "switch", class: "switch", id: switchId, checked: true, "aria-describedby": hintId,
      dataset: { testid: "reactions-switch" },
      on: { change: (e) => this.send({ type: "reactions", on: e.target.checked }) },
    });
    this.hostRow = h("div", { class: "switch-row reaction-host", hidden: true },
      this.tableSwitch,
      h("label", { for: switchId, class: "switch-label" },
        h("span", { class: "switch-title" }, WORDS.tableSwitch),
        h("span", { class: "switch-text", id: hintId }, WORDS.tableHint)));
    this.panel = h("div", { class: "reaction-tray", id: this.trayId, hidden: true, dataset: { testid: "reaction-tray" } },
      this.grid, this.offNote, this.hostRow);
    this.el = h("div", { class: "reaction-bar", hidden: true, dataset: { testid: "reaction-bar" } }, this.button, this.panel);
    this.el.addEventListener("keydown", (e) => this.onKey(e));
    this.onOutside = (e) => {
      if (this.open && !this.el.contains(e.target)) this.close(false);
    };
    document.addEventListener("pointerdown", this.onOutside);
  }

  /** Who may use it: a seat still in the game; the host also sees the room's switch. */
  update(room, you, mySeats) {
    const online = room && room.mode === "online";
    const seat = online ? [...mySeats].find((i) => room.seats[i] && room.seats[i].status !== "left") : undefined;
    const host = Boolean(online && you && you.host);
    const on = Boolean(room && room.reactions);
    this.seat = seat;
    this.el.hidden = !(online && seat !== undefined && (on || host));
    this.grid.hidden = !on;
    this.offNote.hidden = on;
    this.hostRow.hidden = !host;
    this.tableSwitch.checked = on;
    if (this.el.hidden && this.open) this.close(false);
  }

  toggle() {
    if (this.open) this.close(true);
    else {
      this.open = true;
      this.panel.hidden = false;
      this.button.setAttribute("aria-expanded", "true");
      const first = this.grid.hidden ? this.tableSwitch : this.choices[0];
      if (first) first.focus();
    }
  }

  close(focusButton) {
    this.open = false;
    this.panel.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    if (focusButton) this.button.focus();
  }

  choose(id) {
    if (this.seat === undefined) return;
    this.send({ type: "react", seat: this.seat, reaction: id });
    this.close(true);
  }

  /** Escape closes; the arrow keys move between the reactions, Home and End to the ends. */
  onKey(e) {
    if (e.key === "Escape" && this.open) {
      e.preventDefault();
      e.stopPropagation();
      this.close(true);
      return;
    }
    const at = this.choices.indexOf(document.activeElement);
    if (at < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 4, ArrowLeft: -1, ArrowUp: -4 }[e.key];
    let next = null;
    if (step) next = (at + step + this.choices.length) % this.choices.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = this.choices.length - 1;
    if (next === null) return;
    e.preventDefault();
    this.choices[next].focus();
  }

  destroy() {
    document.removeEventListener("pointerdown", this.onOutside);
  }
}

/**
 * A reaction arrived: float it up from the seat's card (inside `layer`, a positioned
 * element) and let the announcer say it, unless this device muted reactions.
 * `cardOf()` finds the seat's card as it is now: an update may draw the cards anew.
 */
export function showReaction(msg, room, { layer, cardOf }) {
  if (getSettings().muteReactions) return;
  const id = String(msg.reaction || "");
  const seat = room && room.seats ? room.seats[msg.seat] : null;
  if (!seat || !(id in EMOJI)) return;
  announcer.speak(WORDS.said(seat.name, wordOf(id)));
  const card = cardOf ? cardOf() : null;
  if (!layer || !card) return;
  const box = card.getBoundingClientRect();
  const float = h("span", {
    class: `reaction-float colour-${seat.colour}`, "aria-hidden": "true",
    dataset: { testid: "reaction-float", seat: String(msg.seat), reaction: id },
  }, emojiOf(id));
  // From the card's right-hand part, a little jitter so two in a row do not overlap.
  const jitter = Math.round((Math.random() - 0.5) * Math.min(24, box.width / 4));
  layer.append(float);
  const place = (at) => {
    const origin = layer.getBoundingClientRect();
    float.style.left = `${Math.round(at.left - origin.left + at.width * 0.72 + jitter)}px`;
    float.style.top = `${Math.round(at.top - origin.top + (at.height - float.offsetHeight) / 2)}px`;
  };
  place(box);
  // The card can move during the flight (the phone's seat strip scrolls, the layout
  // changes on a turn): the float follows it, frame by frame, while it flies.
  const follow = () => {
    if (!float.isConnected) return;
    const now = cardOf();
    if (now) place(now.getBoundingClientRect());
    requestAnimationFrame(follow);
  };
  requestAnimationFrame(follow);
  // Gone when its flight ends; the timer is for a page whose animations do not run.
  float.addEventListener("animationend", () => float.remove());
  setTimeout(() => float.remove(), FLOAT_MS * 2);
}
