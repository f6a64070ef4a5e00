// Seat cards: colour, mark, name, square and status for every seat; the current one
// glows and says whose turn it is.

import { h } from "./dom.js";
import { t, ordinal } from "./i18n.js";
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
    if (seat.kind === "ai") chips.push(h("span", { class: "chip chip-ai" }, t("chip.ai")));
    if (view.mode === "online" && isMine) chips.push(h("span", { class: "chip chip-you" }, t("chip.you")));
    if (seat.host && view.mode === "online") chips.push(h("span", { class: "chip" }, t("chip.host")));
    const card = h("li", {
      class: ["seat-card", `colour-${seat.colour}`, current && "current", seat.status !== "racing" && `is-${seat.status}`],
      dataset: { testid: "seat-card", seat: String(seat.index), square: String(square), status: statusKey(seat), current: String(current) },
      "aria-current": current ? "true" : null,
    },
      h("span", { class: `token-badge colour-${seat.colour}`, "aria-hidden": "true" }, marks[i]),
      h("span", { class: "seat-info" },
        h("span", { class: "seat-name-row" }, h("span", { class: "seat-name" }, seat.name), chips),
        h("span", { class: "seat-meta" },
          h("span", { class: "seat-square" }, square > 0 ? squareWords(square) : startWords()),
          h("span", { class: "seat-status" }, statusText(seat)))),
      // The banner says "Your turn, X!"; the card only marks whose go it is.
      current ? h("span", { class: "seat-turn", dataset: { testid: "seat-turn" } }, seat.kind === "ai" ? t("seat.rolling") : t("seat.upNow")) : null,
      onRemove && seat.status === "racing" && !mine.has(seat.index) && (seat.away || (seat.kind === "human" && seat.connected === false && seat.missed > 0))
        ? h("button", { class: "button button-ghost seat-remove", type: "button", dataset: { testid: "remove-player" }, on: { click: () => onRemove(seat) } }, t("setup.remove", { name: seat.name }))
        : null);
    return card;
  });
  list.replaceChildren(...cards);
}

// "Square 12" / "At the start": on a narrow card only the number (or "start") shows, so
// the catalogue marks the part that may hide with [brackets].
function squareWords(square) {
  return bracketed(t("seat.square", { square }));
}

function startWords() {
  return bracketed(t("seat.atStart"));
}

function bracketed(text) {
  const match = text.match(/^(.*)\[(.*)\](.*)$/);
  if (!match) return text;
  return [match[1], h("span", { class: "seat-square-word" }, match[2]), match[3]].filter((x) => x !== "");
}

function statusKey(seat) {
  if (seat.status === "finished" || seat.status === "left") return seat.status;
  if (seat.away) return "away";
  if (seat.kind === "human" && seat.connected === false) return "disconnected";
  return "racing";
}

export function statusText(seat) {
  if (seat.status === "finished") return seat.place ? t("seat.finishedPlace", { place: ordinal(seat.place) }) : t("seat.finished");
  if (seat.status === "left") return t("seat.left");
  if (seat.away) return t("chip.away");
  if (seat.kind === "human" && seat.connected === false) return t("seat.disconnected");
  return t("seat.racing");
}

export function turnText(seat, isMine) {
  if (isMine) return t("announce.yourTurn", { name: seat.name });
  if (seat.kind === "ai") return t("seat.isRolling", { name: seat.name });
  return t("seat.waitingFor", { name: seat.name });
}
