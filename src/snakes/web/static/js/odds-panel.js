// The optional live odds beside the board (Settings: "Show live odds"): each seat's
// chance to win (Classic) or expected place (Last One Standing), from the room's `odds`.
// A list in words, so it never relies on the bars' colour or length. Loaded once shown.

import { h } from "./dom.js";
import { t, ordinal, formatNumber } from "./i18n.js";
import { tokenMarks } from "./colours.js";
import { useStyles } from "./lazy-screen.js";
import { isOver } from "./reducer.js";

/** The panel, put in place of `slot`: show(room, offline) draws it, hide() hides it. */
export function oddsPanel(slot) {
  const list = h("ol", { class: "odds-list", dataset: { testid: "odds-list" } });
  const note = h("p", { class: "odds-note", dataset: { testid: "odds-note" } });
  const panel = h("section", { class: "odds-panel", hidden: true, "aria-labelledby": "odds-heading", dataset: { testid: "odds-panel" } },
    h("h2", { id: "odds-heading", class: "panel-heading" }, t("odds.heading")), note, list);
  slot.replaceWith(panel);
  // Drawn once its styles apply (they come with it).
  const styled = useStyles("odds.css").catch((err) => console.error(err));
  return {
    hide() {
      panel.hidden = true;
    },
    show(room, offline) {
      styled.then(() => draw(panel, note, list, room, offline));
    },
  };
}

function draw(panel, note, list, room, offline) {
  panel.hidden = !room;
  if (!room) return;
  const odds = room.odds;
  const values = odds && Array.isArray(odds.values) ? odds.values : null;
  if (!values || (odds.kind !== "win" && odds.kind !== "place")) {
    list.replaceChildren();
    note.textContent = isOver(room) ? t("odds.over") : offline ? t("odds.needsConnection") : t("odds.none");
    return;
  }
  const place = odds.kind === "place";
  note.textContent = place ? t("odds.placeNote") : t("odds.winNote");
  const marks = tokenMarks(room.seats);
  list.replaceChildren(...room.seats.map((seat, i) => {
    const value = Number(values[seat.index ?? i]);
    const { text, share } = words(seat, value, place, room.seats.length);
    const fill = h("span", { class: "odds-fill" });
    fill.style.width = `${Math.max(0, Math.min(100, share * 100)).toFixed(1)}%`;
    return h("li", { class: `odds-row colour-${seat.colour}`, dataset: { testid: "odds-row", seat: String(seat.index ?? i), value: Number.isFinite(value) ? String(value) : "" } },
      h("span", { class: `token-badge small colour-${seat.colour}`, "aria-hidden": "true" }, marks[i]),
      h("span", { class: "odds-text" }, h("span", { class: "odds-name" }, seat.name), " ", h("span", { class: "odds-value" }, text)),
      h("span", { class: "odds-bar", "aria-hidden": "true" }, fill));
  }));
}

/** A seat's odds in words, and the share of the bar they fill. */
function words(seat, value, place, players) {
  if (seat.status === "left") return { text: t("odds.left"), share: 0 };
  if (!Number.isFinite(value)) return { text: t("odds.unknown"), share: 0 };
  if (place) {
    const text = seat.status === "finished" && seat.place
      ? t("odds.finished", { place: ordinal(seat.place) })
      : t("odds.aboutPlace", { place: ordinal(Math.max(1, Math.round(value))) });
    return { text, share: players > 1 ? (players - value) / (players - 1) : 1 };
  }
  const pct = value * 100;
  const text = pct > 0 && pct < 1 ? t("odds.under1") : pct > 99 && pct < 100 ? t("odds.over99") : t("odds.chance", { percent: formatNumber(Math.round(pct) / 100, { style: "percent" }) });
  return { text, share: value };
}
