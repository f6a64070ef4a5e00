// The seats of a new game at your own table: each seat's name, colour and person or AI
// (Pass & Play), how many AI players (Play with AI), adding and removing seats. Two
// seats never share a colour: picking another's swaps the two.

import { h, clear, uniqueId } from "./dom.js";
import { colourList, colour, tokenMarks } from "./colours.js";
import { config } from "./config.js";
import { t } from "./i18n.js";

// The computer players' names, in the language ("Monkey, Tiger, ..."), and the default
// name of each person's seat ("Player 2").
export const aiNames = () => t("setup.aiNames").split(",").map((n) => n.trim()).filter(Boolean);
export const playerName = (n) => t("setup.playerName", { n });

export class SeatTable {
  /** mode: "ai" or "pass"; seats: [{name, colour, kind}], edited in place; validName(name):
   * what is wrong with a name ("" when nothing). */
  constructor(mode, seats, validName) {
    this.mode = mode;
    this.seats = seats;
    this.validName = validName;
    this.controls = h("div", { class: "seat-controls" });
    this.list = h("ol", { class: "seat-list", dataset: { testid: "seat-list" } });
    this.note = h("p", { class: "form-note", role: "status", "aria-live": "polite", dataset: { testid: "seat-note" } });
  }

  /** The first element of the table that matches `selector`. */
  find(selector) {
    return this.controls.querySelector(selector) || this.list.querySelector(selector);
  }

  /** Every name checked, its problem shown; the first field with one, or null. */
  check() {
    let firstBad = null;
    this.list.querySelectorAll("[data-testid=seat-name]").forEach((input) => {
      const problem = this.validName(input.value);
      this.showFieldError(input, document.getElementById(input.getAttribute("aria-describedby")), problem);
      if (problem && !firstBad) firstBad = input;
    });
    return firstBad;
  }

  renderSeats(focusKey = null) {
    clear(this.controls);
    if (this.mode === "ai") {
      const aiCount = this.seats.length - 1;
      const countId = uniqueId("ai-count");
      this.controls.append(h("div", { class: "stepper", role: "group", "aria-labelledby": countId },
        h("span", { id: countId, class: "stepper-label" }, t("setup.aiPlayers")),
        h("button", { class: "stepper-button", type: "button", "aria-label": t("setup.fewerAi"), disabled: aiCount <= config().seats.ai_min, dataset: { testid: "ai-fewer", focusKey: "ai-fewer" }, on: { click: () => this.setAiCount(aiCount - 1, "ai-fewer") } }, "−"),
        h("output", { class: "stepper-value", "aria-live": "off", dataset: { testid: "ai-count" } }, String(aiCount)),
        h("button", { class: "stepper-button", type: "button", "aria-label": t("setup.moreAi"), disabled: aiCount >= config().seats.ai_max, dataset: { testid: "ai-more", focusKey: "ai-more" }, on: { click: () => this.setAiCount(aiCount + 1, "ai-more") } }, "+")));
    }
    clear(this.list);
    const marks = tokenMarks(this.seats.map((seat, index) => ({ ...seat, index })));
    this.seats.forEach((seat, i) => this.list.append(this.seatRow(seat, i, marks[i])));
    if (this.mode === "pass") {
      this.list.append(h("li", { class: "seat-add" },
        h("button", { class: "button button-secondary", type: "button", disabled: this.seats.length >= config().seats.max, dataset: { testid: "add-seat", focusKey: "add-seat" }, on: { click: () => this.addSeat() } },
          this.seats.length >= config().seats.max ? t("setup.seatsMost", { count: config().seats.max }) : t("setup.addPlayer"))));
    }
    if (focusKey) {
      const target = this.find(`[data-focus-key="${focusKey}"]`);
      if (target && !target.disabled) target.focus();
      else if (target) this.find("[data-testid=add-seat], [data-testid=ai-more], [data-testid=ai-fewer]:not([disabled])")?.focus();
    }
  }

  seatRow(seat, i, mark) {
    const nameId = uniqueId("seat-name");
    const errId = uniqueId("seat-err");
    const isYou = this.mode === "ai" && i === 0;
    const label = isYou ? t("setup.yourName") : seat.kind === "ai" ? t("setup.aiNameLabel", { n: this.mode === "ai" ? i : i + 1 }) : t("setup.playerNameLabel", { n: i + 1 });
    const look = colour(seat.colour);
    const preview = h("span", { class: `token-preview colour-${seat.colour}`, "aria-hidden": "true" }, mark);
    const err = h("span", { class: "field-error", id: errId });
    const input = h("input", {
      id: nameId, class: "text-input", type: "text", value: seat.name, autocomplete: "off", spellcheck: "false",
      "aria-describedby": errId, dataset: { testid: "seat-name", focusKey: `name-${i}` },
      on: {
        input: () => {
          seat.name = input.value;
          const problem = this.validName(input.value);
          if (!problem || input.getAttribute("aria-invalid") === "true") this.showFieldError(input, err, problem);
          this.updateMarks();
        },
        blur: () => this.showFieldError(input, err, this.validName(input.value)),
      },
    });
    const head = h("div", { class: "seat-row-head" },
      preview,
      h("div", { class: "field" }, h("label", { for: nameId, class: "field-label" }, label), input, err));
    if (this.mode === "pass") {
      head.append(this.kindToggle(seat, i));
      if (this.seats.length > config().seats.min) {
        head.append(h("button", {
          class: "icon-button remove-seat", type: "button", "aria-label": t("setup.remove", { name: seat.name.trim() || t("setup.playerRef", { n: i + 1 }) }),
          dataset: { testid: "remove-seat", focusKey: `remove-${i}` }, on: { click: () => this.removeSeat(i) },
        }, h("span", { "aria-hidden": "true" }, "✕")));
      }
    } else if (seat.kind === "ai") {
      head.append(h("span", { class: "chip chip-ai" }, t("chip.ai")));
    } else {
      head.append(h("span", { class: "chip chip-you" }, t("chip.you")));
    }
    return h("li", { class: `seat-row colour-${seat.colour}`, dataset: { testid: "setup-seat", seat: String(i), colour: look.id, kind: seat.kind } },
      head,
      this.colourPicker(seat, i));
  }

  kindToggle(seat, i) {
    const name = uniqueId("kind");
    const option = (value, text) => {
      const id = uniqueId("kind-opt");
      return h("label", { class: "segment", for: id },
        h("input", { type: "radio", id, name, value, checked: seat.kind === value, dataset: { testid: `kind-${value}`, focusKey: `kind-${i}-${value}` }, on: { change: () => this.setKind(i, value) } }),
        h("span", {}, text));
    };
    return h("fieldset", { class: "segmented" },
      h("legend", { class: "visually-hidden" }, t("setup.whoSeat", { n: i + 1 })),
      option("human", t("setup.person")),
      option("ai", t("chip.ai")));
  }

  colourPicker(seat, i) {
    const name = uniqueId("colour");
    const owners = new Map(this.seats.map((other, j) => [other.colour, j]));
    const fieldset = h("fieldset", { class: "colour-picker" },
      h("legend", { class: "field-label" }, t("colour.legend")));
    for (const c of colourList()) {
      const id = uniqueId("colour-opt");
      const owner = owners.get(c.id);
      const takenBy = owner !== undefined && owner !== i ? this.seats[owner].name.trim() || t("setup.playerRef", { n: owner + 1 }) : null;
      fieldset.append(h("label", { class: `swatch colour-${c.id}${takenBy ? " taken" : ""}`, for: id, title: takenBy ? t("colour.usedBy", { colour: c.label, name: takenBy }) : c.label },
        h("input", { type: "radio", id, name, value: c.id, checked: seat.colour === c.id, dataset: { testid: `colour-${c.id}`, focusKey: `colour-${i}-${c.id}` }, on: { change: () => this.pickColour(i, c.id) } }),
        h("span", { class: "swatch-dot", "aria-hidden": "true" }),
        h("span", { class: "visually-hidden" }, takenBy ? t("colour.usedBySwap", { colour: c.label, name: takenBy }) : c.label)));
    }
    return fieldset;
  }

  updateMarks() {
    const marks = tokenMarks(this.seats.map((seat, index) => ({ ...seat, index })));
    this.list.querySelectorAll(".token-preview").forEach((el, i) => {
      el.textContent = marks[i];
    });
  }

  pickColour(i, colourId) {
    const other = this.seats.findIndex((seat, j) => j !== i && seat.colour === colourId);
    const previous = this.seats[i].colour;
    this.seats[i].colour = colourId;
    if (other >= 0) {
      this.seats[other].colour = previous;
      const who = this.seats[other].name.trim() || playerName(other + 1);
      this.note.textContent = t("colour.swapped", { colour: colour(colourId).label, name: who, other: colour(previous).label });
    } else {
      this.note.textContent = "";
    }
    this.renderSeats(`colour-${i}-${colourId}`);
  }

  setKind(i, kind) {
    const seat = this.seats[i];
    seat.kind = kind;
    const defaults = Array.from({ length: config().seats.max }, (_, n) => playerName(n + 1));
    if (kind === "ai" && defaults.includes(seat.name)) seat.name = this.freeAiName();
    else if (kind === "human" && aiNames().includes(seat.name)) seat.name = playerName(i + 1);
    this.renderSeats(`kind-${i}-${kind}`);
  }

  freeAiName() {
    const used = new Set(this.seats.map((seat) => seat.name));
    return aiNames().find((n) => !used.has(n)) || t("setup.robot");
  }

  freeColour() {
    const used = new Set(this.seats.map((seat) => seat.colour));
    return colourList().find((c) => !used.has(c.id)).id;
  }

  setAiCount(count, focusKey) {
    const target = Math.max(config().seats.ai_min, Math.min(config().seats.ai_max, count));
    while (this.seats.length - 1 < target) this.seats.push({ name: this.freeAiName(), colour: this.freeColour(), kind: "ai" });
    while (this.seats.length - 1 > target) this.seats.pop();
    this.note.textContent = t("setup.aiCount", { count: target });
    this.renderSeats(focusKey);
  }

  addSeat() {
    if (this.seats.length >= config().seats.max) return;
    const used = new Set(this.seats.map((seat) => seat.name));
    let n = this.seats.length + 1;
    while (used.has(playerName(n))) n++;
    this.seats.push({ name: playerName(n), colour: this.freeColour(), kind: "human" });
    this.note.textContent = t("setup.added", { n: this.seats.length });
    this.renderSeats(`name-${this.seats.length - 1}`);
  }

  removeSeat(i) {
    if (this.seats.length <= config().seats.min) return;
    const [gone] = this.seats.splice(i, 1);
    this.note.textContent = t("setup.removed", { name: gone.name.trim() || t("setup.aPlayer") });
    this.renderSeats(this.seats.length > config().seats.min ? `remove-${Math.min(i, this.seats.length - 1)}` : "add-seat");
  }

  showFieldError(input, err, problem) {
    err.textContent = problem;
    if (problem) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
}
