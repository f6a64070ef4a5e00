// Seat cards: colour, mark, name, square and status for every seat; the current one
// glows and says whose turn it is.

import { h, ordinal } from "./dom.js";
import { tokenMarks } from "./colours.js";

/**
 * Render the cards into `list`.
 * view: {seats, turn, over, mode}; squares: Map seat -> square shown now;
 * mine: Set of seats this device holds.
 */
export function renderSeatCards(list, view, squares, mine, onRemove = null) {
  const marks = tokenMarks(view.seats);
  const cards = view.seats.map((seat, i) => {
    const square = squares.has(seat.index) ? squares.get(seat.index) : seat.square;
    const current = !view.over && view.turn === seat.index && seat.status === "racing";
    const isMine = mine.has(seat.index) && seat.kind === "human";
    const chips = [];
    if (seat.kind === "ai") chips.push(h("span", { class: "chip chip-ai" }, "AI"));
    if (view.mode === "online" && isMine) chips.push(h("span", { class: "chip chip-you" }, "You"));
    if (seat.host && view.mode === "online") chips.push(h("span", { class: "chip" }, "Host"));
    const card = h("li", {
      class: ["seat-card", `colour-${seat.colour}`, current && "current", seat.status !== "racing" && `is-${seat.status}`],
      dataset: { testid: "seat-card", seat: String(seat.index), square: String(square), status: statusKey(seat), current: String(current) },
      "aria-current": current ? "true" : null,
    },
      h("span", { class: `token-badge colour-${seat.colour}`, "aria-hidden": "true" }, marks[i]),
      h("span", { class: "seat-info" },
        h("span", { class: "seat-name-row" }, h("span", { class: "seat-name" }, seat.name), chips),
        h("span", { class: "seat-meta" },
          h("span", { class: "seat-square" }, square > 0
            ? [h("span", { class: "seat-square-word" }, "Square "), String(square)]
            : [h("span", { class: "seat-square-word" }, "At the "), "start"]),
          h("span", { class: "seat-status" }, statusText(seat)))),
      // The banner says "Your turn, X!"; the card only marks whose go it is.
      current ? h("span", { class: "seat-turn", dataset: { testid: "seat-turn" } }, seat.kind === "ai" ? "Rolling…" : "Up now") : null,
      onRemove && seat.status === "racing" && !mine.has(seat.index) && (seat.away || (seat.kind === "human" && seat.connected === false))
        ? h("button", { class: "button button-ghost seat-remove", type: "button", dataset: { testid: "remove-player" }, on: { click: () => onRemove(seat) } }, `Remove ${seat.name}`)
        : null);
    return card;
  });
  list.replaceChildren(...cards);
}

function statusKey(seat) {
  if (seat.status === "finished" || seat.status === "left") return seat.status;
  if (seat.away) return "away";
  if (seat.kind === "human" && seat.connected === false) return "disconnected";
  return "racing";
}

export function statusText(seat) {
  if (seat.status === "finished") return seat.place ? `Finished ${ordinal(seat.place)}` : "Finished";
  if (seat.status === "left") return "Left";
  if (seat.away) return "Away";
  if (seat.kind === "human" && seat.connected === false) return "Disconnected";
  return "Racing";
}

export function turnText(seat, isMine) {
  if (isMine) return `Your turn, ${seat.name}!`;
  if (seat.kind === "ai") return `${seat.name} is rolling…`;
  return `Waiting for ${seat.name}…`;
}
