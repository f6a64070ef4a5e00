// Setup for Play with AI and Pass & Play: seats (name, colour, person/AI), how the game
// finishes, the house rules, shuffle, and "Start Game" (a game in the page: js/local-room.js).

import { h, clear, uniqueId } from "../dom.js";
import { colourList, colour, tokenMarks } from "../colours.js";
import { config, finishName } from "../config.js";
import { getSettings } from "../settings.js";
import { createLocalGame } from "../local-game.js";
import { saveGame } from "../saved-game.js";
import { boardPicker } from "../board-picker.js";
import { t, errorText, ordinal } from "../i18n.js";

// The computer players' names, in the language ("Monkey, Tiger, ..."), and the default
// name of each person's seat ("Player 2").
const aiNames = () => t("setup.aiNames").split(",").map((n) => n.trim()).filter(Boolean);
const playerName = (n) => t("setup.playerName", { n });
const LAST_KEY = "snakes.lastSetup";

export function validName(name) {
  const trimmed = String(name).trim();
  const length = Array.from(trimmed).length;
  if (length === 0) return t("name.empty");
  if (length > 20) return t("name.tooLong", { max: 20 });
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(trimmed)) return t("name.control");
  return "";
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
  const state = {
    mode,
    seats: initialSeats(mode),
    finish: "classic",
    exactFinish: defaults.exactFinish,
    sixAgain: defaults.sixAgain,
    shuffle: false,
  };
  const title = mode === "ai" ? t("mode.ai") : t("mode.pass");
  ctx.setTitle(title);

  const seatList = h("ol", { class: "seat-list", dataset: { testid: "seat-list" } });
  const seatNote = h("p", { class: "form-note", role: "status", "aria-live": "polite", dataset: { testid: "seat-note" } });
  const formError = h("p", { class: "form-error", role: "alert", dataset: { testid: "form-error" } });
  const seatControls = h("div", { class: "seat-controls" });
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
      seatControls,
      seatList,
      seatNote),
    boardSection,
    h("section", { class: "panel-card", "aria-labelledby": "finish-heading" },
      h("h2", { id: "finish-heading" }, t("rules.howEnd")),
      finishCards()),
    h("section", { class: "panel-card", "aria-labelledby": "rules-heading" },
      h("h2", { id: "rules-heading" }, t("rules.house")),
      toggle("exact", t("rules.exact"), t("rules.exactHint", { finish: 100 }), state.exactFinish, (v) => { state.exactFinish = v; }, "rule-exact-finish"),
      toggle("six", t("rules.six"), t("rules.sixHint"), state.sixAgain, (v) => { state.sixAgain = v; }, "rule-six-again"),
      toggle("shuffle", t("rules.shuffle"), t("rules.shuffleHint"), state.shuffle, (v) => { state.shuffle = v; }, "shuffle")),
    formError,
    h("div", { class: "form-actions" },
      h("a", { class: "button button-secondary", href: "#/", dataset: { testid: "back-home" } }, t("common.back")),
      startButton));

  const screen = h("section", { class: "screen setup", dataset: { screen: "setup", mode } },
    h("h1", {}, title),
    form);
  root.append(screen);
  renderSeats();

  function finishCards() {
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

  function renderSeats(focusKey = null) {
    clear(seatControls);
    if (mode === "ai") {
      const aiCount = state.seats.length - 1;
      const countId = uniqueId("ai-count");
      seatControls.append(h("div", { class: "stepper", role: "group", "aria-labelledby": countId },
        h("span", { id: countId, class: "stepper-label" }, t("setup.aiPlayers")),
        h("button", { class: "stepper-button", type: "button", "aria-label": t("setup.fewerAi"), disabled: aiCount <= config().seats.ai_min, dataset: { testid: "ai-fewer", focusKey: "ai-fewer" }, on: { click: () => setAiCount(aiCount - 1, "ai-fewer") } }, "−"),
        h("output", { class: "stepper-value", "aria-live": "off", dataset: { testid: "ai-count" } }, String(aiCount)),
        h("button", { class: "stepper-button", type: "button", "aria-label": t("setup.moreAi"), disabled: aiCount >= config().seats.ai_max, dataset: { testid: "ai-more", focusKey: "ai-more" }, on: { click: () => setAiCount(aiCount + 1, "ai-more") } }, "+")));
    }
    clear(seatList);
    const marks = tokenMarks(state.seats.map((seat, index) => ({ ...seat, index })));
    state.seats.forEach((seat, i) => seatList.append(seatRow(seat, i, marks[i])));
    if (mode === "pass") {
      seatList.append(h("li", { class: "seat-add" },
        h("button", { class: "button button-secondary", type: "button", disabled: state.seats.length >= config().seats.max, dataset: { testid: "add-seat", focusKey: "add-seat" }, on: { click: addSeat } },
          state.seats.length >= config().seats.max ? t("setup.seatsMost", { count: config().seats.max }) : t("setup.addPlayer"))));
    }
    if (focusKey) {
      const target = screen.querySelector(`[data-focus-key="${focusKey}"]`);
      if (target && !target.disabled) target.focus();
      else if (target) screen.querySelector("[data-testid=add-seat], [data-testid=ai-more], [data-testid=ai-fewer]:not([disabled])")?.focus();
    }
  }

  function seatRow(seat, i, mark) {
    const nameId = uniqueId("seat-name");
    const errId = uniqueId("seat-err");
    const isYou = mode === "ai" && i === 0;
    const label = isYou ? t("setup.yourName") : seat.kind === "ai" ? t("setup.aiNameLabel", { n: mode === "ai" ? i : i + 1 }) : t("setup.playerNameLabel", { n: i + 1 });
    const look = colour(seat.colour);
    const preview = h("span", { class: `token-preview colour-${seat.colour}`, "aria-hidden": "true" }, mark);
    const err = h("span", { class: "field-error", id: errId });
    const input = h("input", {
      id: nameId, class: "text-input", type: "text", value: seat.name, autocomplete: "off", spellcheck: "false",
      "aria-describedby": errId, dataset: { testid: "seat-name", focusKey: `name-${i}` },
      on: {
        input: () => {
          seat.name = input.value;
          const problem = validName(input.value);
          if (!problem || input.getAttribute("aria-invalid") === "true") showFieldError(input, err, problem);
          updateMarks();
        },
        blur: () => showFieldError(input, err, validName(input.value)),
      },
    });
    const head = h("div", { class: "seat-row-head" },
      preview,
      h("div", { class: "field" }, h("label", { for: nameId, class: "field-label" }, label), input, err));
    if (mode === "pass") {
      head.append(kindToggle(seat, i));
      if (state.seats.length > config().seats.min) {
        head.append(h("button", {
          class: "icon-button remove-seat", type: "button", "aria-label": t("setup.remove", { name: seat.name.trim() || t("setup.playerRef", { n: i + 1 }) }),
          dataset: { testid: "remove-seat", focusKey: `remove-${i}` }, on: { click: () => removeSeat(i) },
        }, h("span", { "aria-hidden": "true" }, "✕")));
      }
    } else if (seat.kind === "ai") {
      head.append(h("span", { class: "chip chip-ai" }, t("chip.ai")));
    } else {
      head.append(h("span", { class: "chip chip-you" }, t("chip.you")));
    }
    return h("li", { class: `seat-row colour-${seat.colour}`, dataset: { testid: "setup-seat", seat: String(i), colour: look.id, kind: seat.kind } },
      head,
      colourPicker(seat, i));
  }

  function kindToggle(seat, i) {
    const name = uniqueId("kind");
    const option = (value, text) => {
      const id = uniqueId("kind-opt");
      return h("label", { class: "segment", for: id },
        h("input", { type: "radio", id, name, value, checked: seat.kind === value, dataset: { testid: `kind-${value}`, focusKey: `kind-${i}-${value}` }, on: { change: () => setKind(i, value) } }),
        h("span", {}, text));
    };
    return h("fieldset", { class: "segmented" },
      h("legend", { class: "visually-hidden" }, t("setup.whoSeat", { n: i + 1 })),
      option("human", t("setup.person")),
      option("ai", t("chip.ai")));
  }

  function colourPicker(seat, i) {
    const name = uniqueId("colour");
    const owners = new Map(state.seats.map((other, j) => [other.colour, j]));
    const fieldset = h("fieldset", { class: "colour-picker" },
      h("legend", { class: "field-label" }, t("colour.legend")));
    for (const c of colourList()) {
      const id = uniqueId("colour-opt");
      const owner = owners.get(c.id);
      const takenBy = owner !== undefined && owner !== i ? state.seats[owner].name.trim() || t("setup.playerRef", { n: owner + 1 }) : null;
      fieldset.append(h("label", { class: `swatch colour-${c.id}${takenBy ? " taken" : ""}`, for: id, title: takenBy ? t("colour.usedBy", { colour: c.label, name: takenBy }) : c.label },
        h("input", { type: "radio", id, name, value: c.id, checked: seat.colour === c.id, dataset: { testid: `colour-${c.id}`, focusKey: `colour-${i}-${c.id}` }, on: { change: () => pickColour(i, c.id) } }),
        h("span", { class: "swatch-dot", "aria-hidden": "true" }),
        h("span", { class: "visually-hidden" }, takenBy ? t("colour.usedBySwap", { colour: c.label, name: takenBy }) : c.label)));
    }
    return fieldset;
  }

  function updateMarks() {
    const marks = tokenMarks(state.seats.map((seat, index) => ({ ...seat, index })));
    seatList.querySelectorAll(".token-preview").forEach((el, i) => {
      el.textContent = marks[i];
    });
  }

  function pickColour(i, colourId) {
    const other = state.seats.findIndex((seat, j) => j !== i && seat.colour === colourId);
    const previous = state.seats[i].colour;
    state.seats[i].colour = colourId;
    if (other >= 0) {
      state.seats[other].colour = previous;
      const who = state.seats[other].name.trim() || playerName(other + 1);
      seatNote.textContent = t("colour.swapped", { colour: colour(colourId).label, name: who, other: colour(previous).label });
    } else {
      seatNote.textContent = "";
    }
    renderSeats(`colour-${i}-${colourId}`);
  }

  function setKind(i, kind) {
    const seat = state.seats[i];
    seat.kind = kind;
    const defaults = Array.from({ length: config().seats.max }, (_, n) => playerName(n + 1));
    if (kind === "ai" && defaults.includes(seat.name)) seat.name = freeAiName();
    else if (kind === "human" && aiNames().includes(seat.name)) seat.name = playerName(i + 1);
    renderSeats(`kind-${i}-${kind}`);
  }

  function freeAiName() {
    const used = new Set(state.seats.map((seat) => seat.name));
    return aiNames().find((n) => !used.has(n)) || t("setup.robot");
  }

  function freeColour() {
    const used = new Set(state.seats.map((seat) => seat.colour));
    return colourList().find((c) => !used.has(c.id)).id;
  }

  function setAiCount(count, focusKey) {
    const target = Math.max(config().seats.ai_min, Math.min(config().seats.ai_max, count));
    while (state.seats.length - 1 < target) state.seats.push({ name: freeAiName(), colour: freeColour(), kind: "ai" });
    while (state.seats.length - 1 > target) state.seats.pop();
    seatNote.textContent = t("setup.aiCount", { count: target });
    renderSeats(focusKey);
  }

  function addSeat() {
    if (state.seats.length >= config().seats.max) return;
    const used = new Set(state.seats.map((seat) => seat.name));
    let n = state.seats.length + 1;
    while (used.has(playerName(n))) n++;
    state.seats.push({ name: playerName(n), colour: freeColour(), kind: "human" });
    seatNote.textContent = t("setup.added", { n: state.seats.length });
    renderSeats(`name-${state.seats.length - 1}`);
  }

  function removeSeat(i) {
    if (state.seats.length <= config().seats.min) return;
    const [gone] = state.seats.splice(i, 1);
    seatNote.textContent = t("setup.removed", { name: gone.name.trim() || t("setup.aPlayer") });
    renderSeats(state.seats.length > config().seats.min ? `remove-${Math.min(i, state.seats.length - 1)}` : "add-seat");
  }

  function showFieldError(input, err, problem) {
    err.textContent = problem;
    if (problem) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  async function start() {
    formError.textContent = "";
    let firstBad = null;
    seatList.querySelectorAll("[data-testid=seat-name]").forEach((input) => {
      const problem = validName(input.value);
      const err = document.getElementById(input.getAttribute("aria-describedby"));
      showFieldError(input, err, problem);
      if (problem && !firstBad) firstBad = input;
    });
    if (firstBad) {
      formError.textContent = t("setup.checkNames", { max: 20 });
      firstBad.focus();
      return;
    }
    if (!state.seats.some((seat) => seat.kind === "human")) {
      formError.textContent = t("setup.needPerson");
      return;
    }
    const body = {
      mode,
      seats: state.seats.map((seat) => ({ name: seat.name.trim(), colour: seat.colour, kind: seat.kind })),
      rules: { finish: state.finish, exact_finish: state.exactFinish, six_again: state.sixAgain },
      shuffle: state.shuffle,
    };
    if (boards.value()) body.board = boards.value();
    startButton.disabled = true;
    startButton.textContent = t("common.starting");
    try {
      // The game runs in this page, with or without the server (js/local-room.js).
      const code = await createLocalGame(body);
      saveGame({ code, mode, local: true });
      rememberLast(mode, state.seats);
      ctx.navigate(`game/${code}`, { guard: false });
    } catch (err) {
      formError.textContent = err && err.code ? errorText(err.code, err.message) : err && err.message ? err.message : t("setup.couldNotStart");
      startButton.disabled = false;
      startButton.textContent = t("setup.start");
    }
  }
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
