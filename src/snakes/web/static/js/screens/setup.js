// Setup for Play with AI and Pass & Play: seats (name, colour, person/AI), how the game
// finishes, the house rules, shuffle, and "Start Game" (a game in the page: js/local-game.js).
// The seats themselves: js/setup-seats.js.

import { h, uniqueId } from "../dom.js";
import { colourList } from "../colours.js";
import { config, finishName } from "../config.js";
import { getSettings } from "../settings.js";
import { createLocalGame } from "../local-game.js";
import { saveGame } from "../saved-game.js";
import { boardPicker } from "../board-picker.js";
import { t, errorText, ordinal } from "../i18n.js";
import { nameProblem, trimName, NAME_MAX, MAX_MARKS } from "../names.js";
import { SeatTable, aiNames, playerName } from "../setup-seats.js";

const LAST_KEY = "snakes.lastSetup";

export function validName(name) {
  // The server's rule (js/names.js), in the player's language.
  const problem = nameProblem(name);
  if (problem === "length") return trimName(name) ? t("name.tooLong", { max: NAME_MAX }) : t("name.empty");
  if (problem === "marks") return t("name.marks", { max: MAX_MARKS });
  return problem ? t(`name.${problem}`) : "";
}

function loadLast() {
  try {
    return JSON.parse(localStorage.getItem(LAST_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function rememberLast(mode, seats) {
  try {
    const all = loadLast();
    all[mode] = seats.map(({ name, colour, kind }) => ({ name, colour, kind }));
    localStorage.setItem(LAST_KEY, JSON.stringify(all));
  } catch {
    // optional nicety only
  }
}

function initialSeats(mode) {
  const last = loadLast()[mode];
  if (Array.isArray(last) && last.length >= config().seats.min && last.length <= config().seats.max) {
    const colours = new Set();
    const ok = last.every((seat) => seat && typeof seat.name === "string" && !validName(seat.name)
      && colourList().some((c) => c.id === seat.colour) && !colours.has(seat.colour) && colours.add(seat.colour)
      && (seat.kind === "human" || seat.kind === "ai"));
    if (ok && (mode !== "ai" || (last[0].kind === "human" && last.slice(1).every((seat) => seat.kind === "ai")))) {
      return last.map((seat) => ({ ...seat }));
    }
  }
  if (mode === "ai") {
    return [
      { name: t("setup.youName"), colour: "red", kind: "human" },
      { name: aiNames()[0], colour: "blue", kind: "ai" },
      { name: aiNames()[1], colour: "green", kind: "ai" },
    ];
  }
  return [
    { name: playerName(1), colour: "red", kind: "human" },
    { name: playerName(2), colour: "blue", kind: "human" },
  ];
}

export function mount(root, route, ctx) {
  const mode = route.params[0] === "pass" ? "pass" : "ai";
  const defaults = getSettings();
  const state = { finish: "classic", exactFinish: defaults.exactFinish, sixAgain: defaults.sixAgain, shuffle: false };
  const seats = new SeatTable(mode, initialSeats(mode), validName);
  const title = mode === "ai" ? t("mode.ai") : t("mode.pass");
  ctx.setTitle(title);
  const formError = h("p", { class: "form-error", role: "alert", dataset: { testid: "form-error" } });
  const startButton = h("button", { class: "button button-primary button-huge", type: "submit", dataset: { testid: "start-game" } }, t("setup.start"));
  const boards = boardPicker({ legend: t("board.which"), hideLegend: true });
  const boardSection = h("section", { class: "panel-card", "aria-labelledby": "board-heading", hidden: true },
    h("h2", { id: "board-heading" }, t("board.heading")),
    h("p", { class: "hint" }, t("setup.boardHint")),
    boards.el);
  boards.ready.then((list) => {
    boardSection.hidden = !list;
  });
  const form = h("form", { class: "setup-form", novalidate: true, on: { submit: (e) => { e.preventDefault(); start(); } } },
    h("section", { class: "panel-card", "aria-labelledby": "seats-heading" },
      h("h2", { id: "seats-heading" }, mode === "ai" ? t("setup.players") : t("setup.whoPlays")),
      h("p", { class: "hint" }, mode === "ai" ? t("setup.aiIntro") : t("setup.passIntro")),
      seats.controls, seats.list, seats.note),
    boardSection,
    h("section", { class: "panel-card", "aria-labelledby": "finish-heading" },
      h("h2", { id: "finish-heading" }, t("rules.howEnd")),
      finishCards(state)),
    h("section", { class: "panel-card", "aria-labelledby": "rules-heading" },
      h("h2", { id: "rules-heading" }, t("rules.house")),
      toggle("exact", t("rules.exact"), t("rules.exactHint", { finish: 100 }), state.exactFinish, (v) => { state.exactFinish = v; }, "rule-exact-finish"),
      toggle("six", t("rules.six"), t("rules.sixHint"), state.sixAgain, (v) => { state.sixAgain = v; }, "rule-six-again"),
      toggle("shuffle", t("rules.shuffle"), t("rules.shuffleHint"), state.shuffle, (v) => { state.shuffle = v; }, "shuffle")),
    formError,
    h("div", { class: "form-actions" },
      h("a", { class: "button button-secondary", href: "#/", dataset: { testid: "back-home" } }, t("common.back")),
      startButton));
  const screen = h("section", { class: "screen setup", dataset: { screen: "setup", mode } }, h("h1", {}, title), form);
  root.append(screen);
  seats.renderSeats();

  async function start() {
    formError.textContent = "";
    const firstBad = seats.check();
    if (firstBad) {
      formError.textContent = t("setup.checkNames", { max: 20 });
      firstBad.focus();
      return;
    }
    if (!seats.seats.some((seat) => seat.kind === "human")) {
      formError.textContent = t("setup.needPerson");
      return;
    }
    const body = {
      mode,
      seats: seats.seats.map((seat) => ({ name: seat.name.trim(), colour: seat.colour, kind: seat.kind })),
      rules: { finish: state.finish, exact_finish: state.exactFinish, six_again: state.sixAgain },
      shuffle: state.shuffle,
    };
    if (boards.value()) body.board = boards.value();
    startButton.disabled = true;
    startButton.textContent = t("common.starting");
    try {
      // The game runs in this page, with or without the server (js/local-game.js).
      const code = await createLocalGame(body);
      saveGame({ code, mode, local: true });
      rememberLast(mode, seats.seats);
      ctx.navigate(`game/${code}`, { guard: false });
    } catch (err) {
      formError.textContent = err && err.code ? errorText(err.code, err.message) : err && err.message ? err.message : t("setup.couldNotStart");
      startButton.disabled = false;
      startButton.textContent = t("setup.start");
    }
  }
}

/** Classic or Last One Standing, as two cards. */
function finishCards(state) {
  const name = uniqueId("finish");
  const card = (value, label, text) => {
    const id = uniqueId("finish-opt");
    return h("label", { class: "radio-card", for: id },
      h("input", { type: "radio", name, id, value, checked: state.finish === value, dataset: { testid: `finish-${value}` }, on: { change: () => { state.finish = value; } } }),
      h("span", { class: "radio-card-body" },
        h("span", { class: "radio-card-title" }, label),
        h("span", { class: "radio-card-text" }, text)));
  };
  return h("fieldset", { class: "radio-cards" },
    h("legend", { class: "visually-hidden" }, t("rules.finishLegend")),
    card("classic", finishName("classic"), t("rules.classicHint", { finish: 100 })),
    card("last-one-standing", finishName("last-one-standing"), t("rules.lastHint", { places: placesSample() })));
}

/** "1st, 2nd, 3rd…" in the language (its ordinals), for the Last One Standing hint. */
export function placesSample() {
  return t("rules.places", { first: ordinal(1), second: ordinal(2), third: ordinal(3) });
}

function toggle(key, label, text, checked, onChange, testid) {
  const id = uniqueId(`switch-${key}`);
  const descId = uniqueId("desc");
  return h("div", { class: "switch-row" },
    h("input", { type: "checkbox", role: "switch", class: "switch", id, checked, "aria-describedby": descId, dataset: { testid }, on: { change: (e) => onChange(e.target.checked) } }),
    h("label", { for: id, class: "switch-label" },
      h("span", { class: "switch-title" }, label),
      h("span", { class: "switch-text", id: descId }, text)));
}

export { toggle };
