// The token colours: which ones exist comes from the server (config.js), their names from
// the language catalogue (colour.<id>); this is how each one looks here, and a readable
// text colour on each.

import { config } from "./config.js";
import { t, has } from "./i18n.js";

const PALETTE = [
  { id: "red", label: "Red", fill: "#e0302b", light: "#ff8a80", ink: "#ffffff" },
  { id: "blue", label: "Blue", fill: "#1e6fd9", light: "#82b1ff", ink: "#ffffff" },
  { id: "green", label: "Green", fill: "#12a150", light: "#9ef0b8", ink: "#06240f" },
  { id: "yellow", label: "Yellow", fill: "#ffd21f", light: "#fff59d", ink: "#2b2000" },
  { id: "purple", label: "Purple", fill: "#8e3ccb", light: "#e1bee7", ink: "#ffffff" },
  { id: "orange", label: "Orange", fill: "#ff8a00", light: "#ffd180", ink: "#2b1600" },
];

const LOOK = new Map(PALETTE.map((c) => [c.id, c]));

/** The server's colours, in its order, each with how it looks. */
export function colourList() {
  return config().colours.map((c) => ({ ...colour(c.id), label: has(`colour.${c.id}`) ? t(`colour.${c.id}`) : c.label }));
}

export function colour(id) {
  const known = loadedLabel(id);
  const look = LOOK.get(id) || { id, label: String(id), fill: "#777777", light: "#bbbbbb", ink: "#ffffff" };
  return known ? { ...look, label: known } : look;
}

function loadedLabel(id) {
  if (has(`colour.${id}`)) return t(`colour.${id}`);
  try {
    const found = config().colours.find((c) => c.id === id);
    return found ? found.label : null;
  } catch {
    return null;
  }
}

/**
 * The mark printed on each token so tokens differ without colour: the name's first
 * letter, or every seat's number when two names share an initial.
 */
export function tokenMarks(seats) {
  const initials = seats.map((seat) => firstLetter(seat.name));
  const unique = new Set(initials).size === initials.length && initials.every(Boolean);
  return seats.map((seat, i) => (unique ? initials[i] : String((seat.index ?? i) + 1)));
}

function firstLetter(name) {
  const trimmed = String(name || "").trim();
  if (!trimmed) return "";
  // Take the first user-perceived character (handles accents and most scripts).
  const first = Array.from(trimmed)[0];
  return first.toLocaleUpperCase();
}
