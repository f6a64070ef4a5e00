// The board picker of the setup screens and the online lobby: the shipped boards from
// GET /api/boards, each with a thumbnail and a "how long" hint worked out by the server
// ("short game · about 13 turns · most games 8–18"). Hidden when the server has no board list.

import { h, s, uniqueId } from "./dom.js";
import { getBoards } from "./api.js";
import { cellOf } from "./board.js";
import { t, has } from "./i18n.js";

const LAST_KEY = "snakes.board";

/** "short game", "medium game" or "long game", from the median turns one player needs. */
export function lengthWord(board) {
  const median = Number(board.median_turns);
  if (!Number.isFinite(median)) return "";
  if (median < 25) return t("board.short");
  if (median < 50) return t("board.medium");
  return t("board.long");
}

/** "short game · about 13 turns · most games 8–18": a game of two, its median and the
 * middle two games in three (per player, the range is too wide to help choose). */
export function lengthHint(board) {
  const parts = [];
  const word = lengthWord(board);
  if (word) parts.push(word);
  const median = Math.round(Number(board.game_median_turns ?? board.median_turns));
  const low = Math.round(Number(board.game_low_turns));
  const high = Math.round(Number(board.game_high_turns));
  if (Number.isFinite(median)) parts.push(t("board.about", { count: median }));
  if (low > 0 && high > low) parts.push(t("board.usually", { low, high }));
  return parts.join(" · ");
}

/** A board's display title: the catalogue's, its title, or its name made readable ("ladders-galore" → "Ladders galore"). */
export function boardTitle(board) {
  const key = `boards.${board && board.name}.title`;
  if (board && board.name && has(key)) return t(key);
  if (board && typeof board.title === "string" && board.title.trim()) return board.title.trim();
  const name = String((board && board.name) || "board").replace(/[-_]+/g, " ").trim();
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function count(value) {
  if (Array.isArray(value)) return value.length;
  return Number.isInteger(value) ? value : null;
}

/** A tiny drawing of the board: green ladders, red snakes (decorative; the text says it all). */
function thumbnail(board) {
  const svg = s("svg", { class: "board-thumb", viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" });
  svg.append(s("rect", { x: 0, y: 0, width: 100, height: 100, rx: 6, class: "board-thumb-bg" }));
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 10; col++) {
      if ((row + col) % 2) svg.append(s("rect", { x: col * 10, y: row * 10, width: 10, height: 10, class: "board-thumb-cell" }));
    }
  }
  const centre = (square) => {
    const { row, col } = cellOf(square);
    return { x: col * 10 + 5, y: (9 - row) * 10 + 5 };
  };
  const line = (pair, cls) => {
    if (!Array.isArray(pair) || pair.length !== 2) return;
    const a = centre(pair[0]);
    const b = centre(pair[1]);
    svg.append(s("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: cls }));
  };
  // A room's board lists its ladders and snakes; the catalogue counts them and sends `jumps`.
  const pairs = Array.isArray(board.jumps) ? board.jumps
    : [...(Array.isArray(board.ladders) ? board.ladders : []), ...(Array.isArray(board.snakes) ? board.snakes : [])];
  for (const pair of pairs) line(pair, Array.isArray(pair) && pair[1] > pair[0] ? "board-thumb-ladder" : "board-thumb-snake");
  return svg;
}

export function rememberedBoard() {
  try {
    return localStorage.getItem(LAST_KEY) || "";
  } catch {
    return "";
  }
}

function rememberBoard(name) {
  try {
    localStorage.setItem(LAST_KEY, name);
  } catch {
    // optional nicety only
  }
}

/**
 * A radio group of boards. Returns {el, value(), set(name), ready}; `el` stays hidden until
 * the list has loaded, and for good when the server has none (value() is then null, and
 * callers leave the "board" field out of what they send).
 * options: {selected, onChange(name), testid, legend, hideLegend, remember}
 */
/** A shipped board's description in the language (else the server's). */
function boardDescription(board) {
  const key = `boards.${board.name}.description`;
  if (has(key)) return t(key);
  return board.description ? String(board.description) : "";
}

export function boardPicker({ selected = "", onChange = null, testid = "board-picker", legend = t("board.heading"), hideLegend = false, remember = true } = {}) {
  let current = selected || (remember ? rememberedBoard() : "") || "";
  let list = null;
  const inputs = new Map();
  const group = h("div", { class: "board-cards" });
  const el = h("fieldset", { class: "board-picker", hidden: true, dataset: { testid } },
    h("legend", { class: hideLegend ? "visually-hidden" : "field-label board-legend" }, legend),
    group);
  const name = uniqueId("board");

  const ready = getBoards().then((boards) => {
    if (!boards) return null;
    list = boards;
    if (!boards.some((b) => b.name === current)) current = (boards.find((b) => b.name === "jungle") || boards[0]).name;
    for (const board of boards) {
      const id = uniqueId("board-opt");
      const ladders = count(board.ladders);
      const snakes = count(board.snakes);
      const facts = [
        ladders !== null ? t("count.ladders", { count: ladders }) : null,
        snakes !== null ? t("count.snakes", { count: snakes }) : null,
      ].filter(Boolean).join(" · ");
      const hint = lengthHint(board);
      const input = h("input", {
        type: "radio", id, name, value: board.name, checked: board.name === current,
        dataset: { testid: `board-${board.name}` },
        on: { change: () => {
          current = board.name;
          if (remember) rememberBoard(board.name);
          if (onChange) onChange(board.name);
        } },
      });
      inputs.set(board.name, input);
      group.append(h("label", { class: "radio-card board-card", for: id, dataset: { board: board.name } },
        input,
        Array.isArray(board.jumps) || Array.isArray(board.ladders) || Array.isArray(board.snakes) ? thumbnail(board) : null,
        h("span", { class: "radio-card-body" },
          h("span", { class: "radio-card-title" }, boardTitle(board)),
          hint ? h("span", { class: "board-length", dataset: { testid: "board-length" } }, hint) : null,
          boardDescription(board) ? h("span", { class: "radio-card-text" }, boardDescription(board)) : null,
          facts ? h("span", { class: "radio-card-text board-facts" }, facts) : null)));
    }
    el.hidden = false;
    return boards;
  });

  return {
    el,
    ready,
    value: () => (list ? current : null),
    /** Select a board from outside (the room's board changed), without calling onChange. */
    set(boardName) {
      if (!boardName) return;
      current = boardName;
      const input = inputs.get(boardName);
      if (input) input.checked = true;
    },
    titleOf(boardName) {
      const found = list && list.find((b) => b.name === boardName);
      return found ? boardTitle(found) : boardTitle({ name: boardName });
    },
  };
}
