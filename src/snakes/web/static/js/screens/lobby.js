// The lobby of an online room: the seats live, the invite (code, link, QR), the host's
// rules and Start. It draws the room's store (js/reducer.js); each update is shown at
// once (nothing moves on a board here) and what it means is said.

import { h, clear, uniqueId } from "../dom.js";
import { colourList, tokenMarks } from "../colours.js";
import { config, finishName } from "../config.js";
import { openRoom, closeRoom } from "../store.js";
import { initialState, mySeats } from "../reducer.js";
import { secretFor, clearGame } from "../saved-game.js";
import { announcer } from "../announcer.js";
import { toggle } from "./setup.js";
import { boardPicker } from "../board-picker.js";
import { WORDS as REACTION_WORDS } from "../reactions.js";
import { t, errorText } from "../i18n.js";

// The computer players' names in the language ("Robo, Monkey, ...").
const aiNames = () => t("online.aiNames").split(",").map((n) => n.trim()).filter(Boolean);

export function lobby(root, code, ctx) {
  const screen = new Lobby(root, code, ctx);
  return () => screen.stop();
}

class Lobby {
  constructor(root, code, ctx) {
    Object.assign(this, { code, ctx, builtRules: "" });
    ctx.setTitle(t("online.room", { code }));
    this.room = openRoom(code, secretFor(code));
    const intent = (message) => this.room.dispatch({ type: "intent", message });
    this.intent = intent;
    this.boards = boardPicker({ legend: t("board.heading"), testid: "lobby-board-picker", remember: false, onChange: (name) => this.sendRules({ board: name }) });
    this.ui = lobbyLayout(code, {
      start: () => intent({ type: "start", shuffle: this.ui.shuffle.checked }),
      addAi: () => this.addAi(),
      leave: () => this.leave(),
    });
    root.append(this.ui.screen);
    this.unsubscribe = this.room.subscribe((state, prev) => this.render(state, prev));
    this.render(this.room.getState(), initialState(code));
  }

  stop() {
    this.unsubscribe();
  }

  render(state, prev) {
    if (state.moments.length) {
      for (const moment of state.moments) speakEvents(moment.events, moment.room);
      this.room.dispatch({ type: "moments_shown" });
      return;
    }
    const { ui } = this;
    if (state.notice && state.notice !== prev.notice) {
      ui.error.textContent = errorText(state.notice.code, state.notice.message);
      // A refused change of board: show the room's board again.
      if (state.room && state.room.board) this.boards.set(state.room.board.name);
    }
    if (state.fatal) {
      ui.error.textContent = errorText(state.fatal.code, state.fatal.message);
      ui.hostControls.hidden = true;
      return;
    }
    const room = state.shown;
    if (!room) return;
    if (room.phase !== "lobby") return this.ctx.navigate(`game/${this.code}`, { guard: false, replace: true });
    if (room !== prev.shown || state.you !== prev.you || state.asked.add_ai !== prev.asked.add_ai) this.draw(state);
  }

  draw(state) {
    const { ui } = this;
    const room = state.shown;
    const host = Boolean(state.you && state.you.host);
    const mine = mySeats(state);
    const marks = tokenMarks(room.seats);
    ui.seatsList.replaceChildren(...room.seats.map((seat, i) =>
      h("li", { class: `lobby-seat colour-${seat.colour}`, dataset: { testid: "lobby-seat", seat: String(seat.index) } },
        h("span", { class: `token-badge colour-${seat.colour}`, "aria-hidden": "true" }, marks[i]),
        h("span", { class: "seat-name" }, seat.name),
        seat.kind === "ai" ? h("span", { class: "chip chip-ai" }, t("chip.ai")) : null,
        seat.host ? h("span", { class: "chip" }, t("chip.host")) : null,
        mine.has(seat.index) ? h("span", { class: "chip chip-you" }, t("chip.you")) : null,
        seat.connected || seat.kind === "ai" ? null : h("span", { class: "chip" }, t("chip.away")),
        host && !seat.host ? h("button", { class: "button button-ghost", type: "button", on: { click: () => this.intent({ type: "remove", seat: seat.index }) } }, t("setup.remove", { name: seat.name })) : null)));
    ui.status.textContent = room.seats.length < 2
      ? t("online.waitMore")
      : host ? t("online.startWhen", { count: room.seats.length }) : t("online.waitHost");
    ui.hostControls.hidden = !host;
    ui.startButton.disabled = room.seats.length < 2;
    const full = room.seats.length >= config().seats.max;
    ui.addAiButton.parentElement.hidden = !host;
    ui.addAiButton.disabled = full || Boolean(state.asked.add_ai);
    ui.addAiButton.textContent = full ? t("setup.seatsMost", { count: config().seats.max }) : t("online.addAi");
    this.renderInvite(room);
    this.renderRules(room, host);
  }

  renderInvite(room) {
    const invite = this.ui.invite;
    if (invite.dataset.url === room.invite_url) return;
    invite.dataset.url = room.invite_url;
    const copy = h("button", { class: "button button-secondary", type: "button", on: { click: async () => {
      try {
        await navigator.clipboard.writeText(room.invite_url);
        copy.textContent = t("online.copied");
      } catch {
        copy.textContent = t("online.copyFailed");
      }
    } } }, t("online.copy"));
    invite.replaceChildren(
      h("img", { class: "invite-qr", src: `/api/rooms/${encodeURIComponent(this.code)}/qr.svg`, alt: t("online.qr", { code: this.code }), width: 132, height: 132 }),
      h("div", { class: "invite-text" },
        h("p", { class: "hint" }, t("online.inviteHint")),
        h("p", { class: "invite-link", dataset: { testid: "invite-link" } }, room.invite_url),
        copy));
  }

  renderRules(room, host) {
    const { ui, boards } = this;
    const boardName = room.board && typeof room.board.name === "string" ? room.board.name : "";
    boards.set(boardName);
    ui.boardLine.textContent = boardName ? t("online.boardLine", { board: boards.titleOf(boardName) }) : "";
    const key = JSON.stringify([room.rules, room.countdown_seconds, host, room.reactions]);
    if (key === this.builtRules) return;
    this.builtRules = key;
    clear(ui.rulesBox);
    if (host) ui.rulesBox.append(...this.hostRules(room));
    else ui.rulesBox.append(ui.boardLine, rulesList(room));
  }

  /** The host's controls: board, finish, house rules, countdown, reactions. */
  hostRules(room) {
    const r = room.rules;
    const send = (patch) => this.sendRules(patch);
    const name = uniqueId("lobby-finish");
    const option = (value, label) => {
      const id = uniqueId("lobby-finish-opt");
      return h("label", { class: "radio-card compact", for: id },
        h("input", { type: "radio", id, name, value, checked: r.finish === value, on: { change: () => send({ rules: { finish: value } }) } }),
        h("span", { class: "radio-card-body" }, h("span", { class: "radio-card-title" }, label)));
    };
    const countdownId = uniqueId("lobby-countdown");
    const range = config().countdown;
    const countdown = h("input", { id: countdownId, class: "text-input number-input", type: "number", min: String(range.min), max: String(range.max), step: "1", value: String(room.countdown_seconds), on: { change: () => {
      const seconds = Number(countdown.value);
      if (Number.isInteger(seconds) && seconds >= range.min && seconds <= range.max) send({ countdown: seconds });
      else this.ui.error.textContent = t("online.badSeconds", { min: range.min, max: range.max });
    } } });
    return [
      this.boards.el,
      h("fieldset", { class: "radio-cards" }, h("legend", { class: "visually-hidden" }, t("rules.finishLegend")), option("classic", finishName("classic")), option("last-one-standing", finishName("last-one-standing"))),
      toggle("lobby-exact", t("rules.exact"), t("rules.exactHint", { finish: 100 }), r.exact_finish, (v) => send({ rules: { exact_finish: v } }), "lobby-exact-finish"),
      toggle("lobby-six", t("rules.six"), t("rules.sixHint"), r.six_again, (v) => send({ rules: { six_again: v } }), "lobby-six-again"),
      h("div", { class: "field" }, h("label", { class: "field-label", for: countdownId }, t("online.seconds", { min: range.min, max: range.max })), countdown),
      // Not a rule of the game: its own intent, and the host may change it later too.
      toggle("lobby-reactions", REACTION_WORDS.tableSwitch, REACTION_WORDS.tableHint, Boolean(room.reactions), (v) => this.intent({ type: "reactions", on: v }), "lobby-reactions"),
    ];
  }

  /** The host changes the table's rules, countdown or board (all sent together). */
  sendRules(patch) {
    const room = this.room.getState().shown;
    if (!room) return;
    const message = {
      type: "rules",
      rules: { ...room.rules, ...(patch.rules || {}) },
      countdown_seconds: patch.countdown ?? room.countdown_seconds,
    };
    const board = patch.board || this.boards.value();
    if (board) message.board = board;
    this.intent(message);
  }

  addAi() {
    const state = this.room.getState();
    const room = state.shown;
    if (!room || room.seats.length >= config().seats.max || state.asked.add_ai) return;
    const names = new Set(room.seats.map((seat) => seat.name));
    const colours = new Set(room.seats.map((seat) => seat.colour));
    const free = colourList().find((c) => !colours.has(c.id));
    if (!free) return;
    const name = aiNames().find((n) => !names.has(n)) || t("online.roboN", { n: room.seats.length + 1 });
    this.intent({ type: "add_ai", name, colour: free.id });
  }

  leave() {
    for (const seat of mySeats(this.room.getState())) this.intent({ type: "leave", seat });
    clearGame();
    closeRoom();
    this.ctx.navigate("");
  }
}

function rulesList(room) {
  const r = room.rules;
  return h("ul", { class: "content-items" },
    h("li", {}, finishName(r.finish)),
    h("li", {}, r.exact_finish ? t("rules.exact") : t("rules.noExact")),
    h("li", {}, r.six_again ? t("rules.six") : t("rules.noSix")),
    h("li", {}, t("online.perTurn", { count: room.countdown_seconds })),
    h("li", { dataset: { testid: "lobby-reactions-line" } }, REACTION_WORDS.lobbyLine(Boolean(room.reactions))));
}

function speakEvents(events, room) {
  const name = (seat) => (room.seats[seat] ? room.seats[seat].name : t("online.aPlayer"));
  for (const ev of events) {
    if (ev.type === "joined") announcer.speak(t("announce.joined", { name: name(ev.seat) }));
    else if (ev.type === "seat_left") announcer.speak(t("online.seatLeft"));
    else if (ev.type === "rules_changed") announcer.speak(t("online.rulesChanged"));
    else if (ev.type === "host_changed") announcer.speak(t("online.hostChanged", { name: name(ev.seat) }));
    else if (ev.type === "reactions_changed") announcer.speak(ev.on ? REACTION_WORDS.turnedOn : REACTION_WORDS.turnedOff);
  }
}

function lobbyLayout(code, on) {
  const seatsList = h("ol", { class: "lobby-seats", dataset: { testid: "lobby-seats" } });
  const rulesBox = h("div", { class: "lobby-rules" });
  const status = h("p", { class: "form-note", role: "status", dataset: { testid: "lobby-status" } });
  const error = h("p", { class: "form-error", role: "alert" });
  const startButton = h("button", { class: "button button-primary button-huge", type: "button", dataset: { testid: "start-online" }, on: { click: on.start } }, t("setup.start"));
  const addAiButton = h("button", { class: "button button-secondary", type: "button", dataset: { testid: "add-ai" }, on: { click: on.addAi } }, t("online.addAi"));
  const shuffleId = uniqueId("shuffle");
  const shuffle = h("input", { type: "checkbox", role: "switch", class: "switch", id: shuffleId });
  const hostControls = h("div", { class: "host-controls" },
    h("div", { class: "switch-row" }, shuffle, h("label", { for: shuffleId, class: "switch-label" }, h("span", { class: "switch-title" }, t("rules.shuffle")), h("span", { class: "switch-text" }, t("rules.shuffleHint")))),
    startButton);
  startButton.disabled = hostControls.hidden = true; // until the room is shown
  const invite = h("div", { class: "invite-row" });
  const screen = h("section", { class: "screen online", dataset: { screen: "lobby", code } },
    h("h1", {}, t("online.room", { code })),
    h("section", { class: "panel-card", "aria-labelledby": "invite-heading" },
      h("h2", { id: "invite-heading" }, t("online.invite")),
      h("p", { class: "room-code", dataset: { testid: "room-code" }, "aria-hidden": "true" }, code),
      invite),
    h("section", { class: "panel-card", "aria-labelledby": "lobby-seats-heading" },
      h("h2", { id: "lobby-seats-heading" }, t("setup.players")),
      seatsList, status,
      h("div", { class: "lobby-add-ai", hidden: true }, addAiButton, h("p", { class: "form-note", role: "status", dataset: { testid: "add-ai-note" } }))),
    h("section", { class: "panel-card", "aria-labelledby": "lobby-rules-heading" },
      h("h2", { id: "lobby-rules-heading" }, t("online.rules")), rulesBox),
    error,
    h("div", { class: "form-actions" }, h("button", { class: "button button-secondary", type: "button", dataset: { testid: "leave-room" }, on: { click: on.leave } }, t("online.leave")), hostControls));
  const boardLine = h("p", { class: "lobby-board", dataset: { testid: "lobby-board" } });
  return { screen, seatsList, rulesBox, status, error, startButton, addAiButton, shuffle, hostControls, invite, boardLine };
}
