// Play Online: create a private room or join one by code (or invite link), then the
// lobby, where the seats show live and the host sets the rules and starts the game.

import { h, clear, uniqueId } from "../dom.js";
import { colourList, colour, tokenMarks } from "../colours.js";
import { config, finishName } from "../config.js";
import { getSettings } from "../settings.js";
import { createRoom, joinRoom, getRoom } from "../api.js";
import { saveGame, secretFor, clearGame } from "../saved-game.js";
import { openSession, closeSession } from "../session.js";
import { announcer } from "../announcer.js";
import { validName, toggle } from "./setup.js";
import { boardPicker } from "../board-picker.js";
import { WORDS as REACTION_WORDS } from "../reactions.js";
import { t, errorText } from "../i18n.js";
import { placesSample } from "./setup.js";

const CODE_RE = /^[A-Za-z0-9]{6}$/;
// The computer players' names in the language ("Robo, Monkey, ...").
const aiNames = () => t("online.aiNames").split(",").map((n) => n.trim()).filter(Boolean);

export function mount(root, route, ctx) {
  const [view, rawCode] = route.params;
  const code = String(rawCode || "").toUpperCase();
  if (view === "lobby" && code) return lobby(root, code, ctx);
  return entry(root, view === "join" ? code : "", ctx);
}

/** Join and Create, one above the other. */
function entry(root, presetCode, ctx) {
  ctx.setTitle(t("mode.online"));
  const defaults = getSettings();
  const range = config().countdown;
  const rules = { finish: "classic", exactFinish: defaults.exactFinish, sixAgain: defaults.sixAgain, countdown: range.default };

  // ---- create ----
  const hostName = nameField(t("setup.yourName"), "host-name", lastName());
  const hostColour = colourChoice("host-colour", "red", new Set());
  const createError = h("p", { class: "form-error", role: "alert" });
  const countdownId = uniqueId("countdown");
  const countdownInput = h("input", { id: countdownId, class: "text-input number-input", type: "number", min: String(range.min), max: String(range.max), step: "1", value: String(range.default), inputmode: "numeric", dataset: { testid: "countdown-seconds" } });
  const finishGroup = uniqueId("finish");
  const finishCard = (value, label, text) => {
    const id = uniqueId("finish-opt");
    return h("label", { class: "radio-card", for: id },
      h("input", { type: "radio", id, name: finishGroup, value, checked: rules.finish === value, on: { change: () => { rules.finish = value; } } }),
      h("span", { class: "radio-card-body" }, h("span", { class: "radio-card-title" }, label), h("span", { class: "radio-card-text" }, text)));
  };
  const createButton = h("button", { class: "button button-primary button-huge", type: "submit", dataset: { testid: "create-room" } }, t("online.create"));
  const boards = boardPicker({ legend: t("board.which"), testid: "online-board-picker" });
  const createForm = h("form", { class: "panel-card", novalidate: true, "aria-labelledby": "create-heading", on: { submit: (e) => { e.preventDefault(); create(); } } },
    h("h2", { id: "create-heading" }, t("online.createHeading")),
    h("p", { class: "hint" }, t("online.createHint")),
    hostName.el,
    hostColour.el,
    h("fieldset", { class: "radio-cards" }, h("legend", { class: "field-label" }, t("rules.howEnd")),
      finishCard("classic", finishName("classic"), t("rules.classicHint", { finish: 100 })),
      finishCard("last-one-standing", finishName("last-one-standing"), t("rules.lastHint", { places: placesSample() }))),
    boards.el,
    toggle("exact", t("rules.exact"), t("rules.exactHint", { finish: 100 }), rules.exactFinish, (v) => { rules.exactFinish = v; }, "online-exact-finish"),
    toggle("six", t("rules.six"), t("rules.sixHint"), rules.sixAgain, (v) => { rules.sixAgain = v; }, "online-six-again"),
    h("div", { class: "field" }, h("label", { class: "field-label", for: countdownId }, t("online.seconds", { min: range.min, max: range.max })), countdownInput),
    createError,
    h("div", { class: "form-actions" }, createButton));

  // ---- join ----
  const codeId = uniqueId("code");
  const codeInput = h("input", { id: codeId, class: "text-input code-input", type: "text", value: presetCode, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "6", dataset: { testid: "join-code" } });
  const joinName = nameField(t("setup.yourName"), "join-name", lastName());
  const joinColour = colourChoice("join-colour", "blue", new Set());
  const joinError = h("p", { class: "form-error", role: "alert" });
  const joinInfo = h("p", { class: "form-note", role: "status" });
  const joinButton = h("button", { class: "button button-primary button-huge", type: "submit", dataset: { testid: "join-room" } }, t("online.join"));
  const watchButton = h("a", { class: "button button-secondary", href: "#/", hidden: true, dataset: { testid: "watch-room" } }, t("online.watch"));
  const joinForm = h("form", { class: "panel-card", novalidate: true, "aria-labelledby": "join-heading", on: { submit: (e) => { e.preventDefault(); join(); } } },
    h("h2", { id: "join-heading" }, t("online.joinHeading")),
    h("div", { class: "field" }, h("label", { class: "field-label", for: codeId }, t("online.code")), codeInput),
    joinInfo,
    joinName.el,
    joinColour.el,
    joinError,
    h("div", { class: "form-actions" }, watchButton, joinButton));

  const screen = h("section", { class: "screen online", dataset: { screen: "online" } },
    h("h1", {}, t("mode.online")),
    // An invited friend needs only the join form; hosting is one link away.
    presetCode
      ? [joinForm, h("p", { class: "form-note" }, h("a", { href: "#/online", dataset: { testid: "create-instead" } }, t("online.createInstead")))]
      // Joining first: a friend who was texted a code finds its field on the first
      // screen, not under the whole create form; a host scrolls one short card.
      : [joinForm, createForm],
    h("div", { class: "form-actions" }, h("a", { class: "button button-secondary", href: "#/" }, t("common.back"))));
  root.append(screen);

  // This device already holds a seat in that room (an invite link opened again, or a
  // reload): straight back to it, with the whole state.
  if (CODE_RE.test(presetCode) && secretFor(presetCode)) backToSeat(presetCode);

  async function backToSeat(value) {
    joinInfo.textContent = t("online.backToSeat");
    try {
      const room = await getRoom(value);
      if (room.phase === "lobby") ctx.navigate(`online/lobby/${room.code || value}`, { guard: false, replace: true });
      else if (room.phase === "playing" && !room.over) ctx.navigate(`game/${room.code || value}`, { guard: false, replace: true });
      else joinInfo.textContent = t("online.over");
    } catch (err) {
      joinInfo.textContent = err.status === 404 ? t("online.roomGone") : errorText(err.code, err.message);
      if (err.status === 404) clearGame();
    }
  }

  /**
   * A room whose game has started (or ended) takes nobody new: its visitor is offered to
   * watch, with no name, colour or Join to fill in for nothing.
   */
  function offerJoin(open) {
    for (const part of [joinName.el, joinColour.el, joinButton]) part.hidden = !open;
    watchButton.classList.toggle("button-primary", !open);
    watchButton.classList.toggle("button-secondary", open);
  }
  // An invite link's room is looked up first: its form shows if it can be joined.
  if (CODE_RE.test(presetCode) && !secretFor(presetCode)) offerJoin(false);

  codeInput.addEventListener("input", () => {
    codeInput.value = codeInput.value.toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (CODE_RE.test(codeInput.value)) lookUp(codeInput.value);
    else {
      watchButton.hidden = true;
      offerJoin(true);
    }
  });
  if (CODE_RE.test(presetCode) && !secretFor(presetCode)) lookUp(presetCode);

  async function lookUp(value) {
    joinInfo.textContent = t("online.lookingUp");
    watchButton.hidden = true;
    try {
      const room = await getRoom(value);
      if (codeInput.value !== value) return;
      const taken = new Set(room.seats.map((seat) => seat.colour));
      joinColour.setTaken(taken);
      const host = room.seats.find((seat) => seat.host);
      offerJoin(room.phase === "lobby");
      if (room.phase === "lobby") {
        joinInfo.textContent = [
          host ? t("online.hostRoom", { name: host.name }) : t("online.roomWord"),
          t("online.seatsTaken", { count: room.seats.length, max: config().seats.max }),
          finishName(room.rules.finish),
        ].join(" · ");
      } else {
        joinInfo.textContent = room.phase === "over" ? t("online.over") : t("online.started");
        watchButton.href = `#/game/${room.code}`;
        watchButton.hidden = room.phase === "over";
      }
    } catch (err) {
      if (codeInput.value !== value) return;
      joinInfo.textContent = err.status === 404 ? t("online.noRoom") : errorText(err.code, err.message);
      offerJoin(true);
    }
  }

  async function create() {
    createError.textContent = "";
    const name = hostName.value();
    if (!hostName.check()) return;
    const countdown = Number(countdownInput.value);
    if (!Number.isInteger(countdown) || countdown < range.min || countdown > range.max) {
      createError.textContent = t("online.badSeconds", { min: range.min, max: range.max });
      countdownInput.focus();
      return;
    }
    createButton.disabled = true;
    try {
      const body = {
        mode: "online",
        seats: [{ name, colour: hostColour.value(), kind: "human" }],
        rules: { finish: rules.finish, exact_finish: rules.exactFinish, six_again: rules.sixAgain },
        countdown_seconds: countdown,
      };
      if (boards.value()) body.board = boards.value();
      const created = await createRoom(body);
      saveGame({ code: created.code, secret: created.secret, mode: "online" });
      rememberName(name);
      ctx.navigate(`online/lobby/${created.code}`, { guard: false });
    } catch (err) {
      createError.textContent = errorText(err.code, err.message);
      createButton.disabled = false;
    }
  }

  async function join() {
    joinError.textContent = "";
    const value = codeInput.value.trim().toUpperCase();
    if (!CODE_RE.test(value)) {
      joinError.textContent = t("online.badCode", { count: 6 });
      codeInput.focus();
      return;
    }
    if (!joinName.check()) return;
    joinButton.disabled = true;
    try {
      const joined = await joinRoom(value, joinName.value(), joinColour.value());
      saveGame({ code: joined.code, secret: joined.secret, mode: "online" });
      rememberName(joinName.value());
      ctx.navigate(`online/lobby/${joined.code}`, { guard: false });
    } catch (err) {
      joinError.textContent = errorText(err.code, err.message);
      joinButton.disabled = false;
      if (err.code === "colour_taken") lookUp(value);
    }
  }
}

/** The lobby: seats live, invite code/link/QR, the host's rules and Start. */
function lobby(root, code, ctx) {
  ctx.setTitle(t("online.room", { code }));
  const secret = secretFor(code);
  const session = openSession(code, secret);
  const seatsList = h("ol", { class: "lobby-seats", dataset: { testid: "lobby-seats" } });
  const rulesBox = h("div", { class: "lobby-rules" });
  const status = h("p", { class: "form-note", role: "status", dataset: { testid: "lobby-status" } });
  const error = h("p", { class: "form-error", role: "alert" });
  const startButton = h("button", { class: "button button-primary button-huge", type: "button", dataset: { testid: "start-online" }, on: { click: () => session.send({ type: "start", shuffle: shuffle.checked, change: shownChange() }) } }, t("setup.start"));
  const addAiButton = h("button", { class: "button button-secondary", type: "button", dataset: { testid: "add-ai" }, on: { click: addAi } }, t("online.addAi"));
  const aiNote = h("p", { class: "form-note", role: "status", dataset: { testid: "add-ai-note" } });
  const shuffleId = uniqueId("shuffle");
  const shuffle = h("input", { type: "checkbox", role: "switch", class: "switch", id: shuffleId });
  const hostControls = h("div", { class: "host-controls" },
    h("div", { class: "switch-row" }, shuffle, h("label", { for: shuffleId, class: "switch-label" }, h("span", { class: "switch-title" }, t("rules.shuffle")), h("span", { class: "switch-text" }, t("rules.shuffleHint")))),
    startButton);
  startButton.disabled = hostControls.hidden = true; // until the room is shown
  const leaveButton = h("button", { class: "button button-secondary", type: "button", dataset: { testid: "leave-room" }, on: { click: leave } }, t("online.leave"));
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
      h("div", { class: "lobby-add-ai", hidden: true }, addAiButton, aiNote)),
    h("section", { class: "panel-card", "aria-labelledby": "lobby-rules-heading" },
      h("h2", { id: "lobby-rules-heading" }, t("online.rules")), rulesBox),
    error,
    h("div", { class: "form-actions" }, leaveButton, hostControls));
  root.append(screen);
  let you = session.you;
  let builtRules = "";
  let lastRoom = session.room;
  let addAiUnsupported = false;
  let pendingAi = false;
  const boards = boardPicker({ legend: t("board.heading"), testid: "lobby-board-picker", remember: false, onChange: (name) => sendRules({ board: name }) });
  const boardLine = h("p", { class: "lobby-board", dataset: { testid: "lobby-board" } });

  const unsubscribe = session.subscribe((msg) => {
    if (msg.type === "welcome" || msg.type === "update") {
      you = session.you;
      if (msg.type === "update") {
        if (msg.events.some((ev) => ev.type === "joined")) pendingAi = false;
        speakEvents(msg.events, msg.room);
      }
      render(msg.room);
    } else if (msg.type === "error") {
      if (msg.code === "unknown_type" && pendingAi) {
        // This server cannot add AI seats (yet): say so once, and stop offering it.
        addAiUnsupported = true;
        pendingAi = false;
        aiNote.textContent = t("online.noAi");
        addAiButton.hidden = true;
        return;
      }
      pendingAi = false;
      error.textContent = errorText(msg.code, msg.message);
      // A refused change of board: show the room's board again.
      if (lastRoom && lastRoom.board) boards.set(lastRoom.board.name);
      if (msg.code === "room_not_found" || msg.code === "bad_secret") {
        hostControls.hidden = true;
      }
    }
  });
  if (session.room) render(session.room);

  /** The `change` of the lobby as shown: what the host's and players' intents name. */
  function shownChange() {
    return lastRoom && Number.isInteger(lastRoom.change) ? lastRoom.change : session.change();
  }

  function render(room) {
    if (room.phase !== "lobby") {
      ctx.navigate(`game/${code}`, { guard: false, replace: true });
      return;
    }
    lastRoom = room;
    const host = Boolean(you && you.host);
    const mine = new Set(you && you.seats ? you.seats : []);
    const marks = tokenMarks(room.seats);
    seatsList.replaceChildren(...room.seats.map((seat, i) =>
      h("li", { class: `lobby-seat colour-${seat.colour}`, dataset: { testid: "lobby-seat", seat: String(seat.index) } },
        h("span", { class: `token-badge colour-${seat.colour}`, "aria-hidden": "true" }, marks[i]),
        h("span", { class: "seat-name" }, seat.name),
        seat.kind === "ai" ? h("span", { class: "chip chip-ai" }, t("chip.ai")) : null,
        seat.host ? h("span", { class: "chip" }, t("chip.host")) : null,
        mine.has(seat.index) ? h("span", { class: "chip chip-you" }, t("chip.you")) : null,
        seat.connected || seat.kind === "ai" ? null : h("span", { class: "chip" }, t("chip.away")),
        host && !seat.host ? h("button", { class: "button button-ghost", type: "button", on: { click: () => session.send({ type: "remove", seat: seat.index, change: room.change }) } }, t("setup.remove", { name: seat.name })) : null)));
    status.textContent = room.seats.length < 2
      ? t("online.waitMore")
      : host ? t("online.startWhen", { count: room.seats.length }) : t("online.waitHost");
    hostControls.hidden = !host;
    startButton.disabled = room.seats.length < 2;
    const full = room.seats.length >= 6;
    addAiButton.parentElement.hidden = !host;
    addAiButton.hidden = addAiUnsupported;
    addAiButton.disabled = full || pendingAi;
    addAiButton.textContent = full ? t("setup.seatsMost", { count: 6 }) : t("online.addAi");
    renderInvite(room);
    renderRules(room, host);
  }

  function renderInvite(room) {
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
      h("img", { class: "invite-qr", src: `/api/rooms/${encodeURIComponent(code)}/qr.svg`, alt: t("online.qr", { code }), width: 132, height: 132 }),
      h("div", { class: "invite-text" },
        h("p", { class: "hint" }, t("online.inviteHint")),
        h("p", { class: "invite-link", dataset: { testid: "invite-link" } }, room.invite_url),
        copy));
  }

  function renderRules(room, host) {
    const boardName = room.board && typeof room.board.name === "string" ? room.board.name : "";
    boards.set(boardName);
    boardLine.textContent = boardName ? t("online.boardLine", { board: boards.titleOf(boardName) }) : "";
    const key = JSON.stringify([room.rules, room.countdown_seconds, host, room.reactions]);
    if (key === builtRules) return;
    builtRules = key;
    clear(rulesBox);
    const r = room.rules;
    if (!host) {
      rulesBox.append(boardLine, h("ul", { class: "content-items" },
        h("li", {}, finishName(r.finish)),
        h("li", {}, r.exact_finish ? t("rules.exact") : t("rules.noExact")),
        h("li", {}, r.six_again ? t("rules.six") : t("rules.noSix")),
        h("li", {}, t("online.perTurn", { count: room.countdown_seconds })),
        h("li", { dataset: { testid: "lobby-reactions-line" } }, REACTION_WORDS.lobbyLine(Boolean(room.reactions)))));
      return;
    }
    const send = (patch) => sendRules(patch);
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
      else error.textContent = t("online.badSeconds", { min: range.min, max: range.max });
    } } });
    rulesBox.append(
      boards.el,
      h("fieldset", { class: "radio-cards" }, h("legend", { class: "visually-hidden" }, t("rules.finishLegend")), option("classic", finishName("classic")), option("last-one-standing", finishName("last-one-standing"))),
      toggle("lobby-exact", t("rules.exact"), t("rules.exactHint", { finish: 100 }), r.exact_finish, (v) => send({ rules: { exact_finish: v } }), "lobby-exact-finish"),
      toggle("lobby-six", t("rules.six"), t("rules.sixHint"), r.six_again, (v) => send({ rules: { six_again: v } }), "lobby-six-again"),
      h("div", { class: "field" }, h("label", { class: "field-label", for: countdownId }, t("online.seconds", { min: range.min, max: range.max })), countdown),
      // Not a rule of the game: its own intent, and the host may change it later too.
      toggle("lobby-reactions", REACTION_WORDS.tableSwitch, REACTION_WORDS.tableHint, Boolean(room.reactions), (v) => session.send({ type: "reactions", on: v, change: shownChange() }), "lobby-reactions"));
  }

  /** The host changes the table's rules, countdown or board (all sent together). */
  function sendRules(patch) {
    const room = lastRoom;
    if (!room) return;
    const message = {
      type: "rules",
      rules: { ...room.rules, ...(patch.rules || {}) },
      countdown_seconds: patch.countdown ?? room.countdown_seconds,
      change: room.change,
    };
    const board = patch.board || boards.value();
    if (board) message.board = board;
    session.send(message);
  }

  function addAi() {
    const room = lastRoom;
    if (!room || room.seats.length >= 6 || pendingAi) return;
    const names = new Set(room.seats.map((seat) => seat.name));
    const colours = new Set(room.seats.map((seat) => seat.colour));
    const free = colourList().find((c) => !colours.has(c.id));
    if (!free) return;
    const name = aiNames().find((n) => !names.has(n)) || t("online.roboN", { n: room.seats.length + 1 });
    if (session.send({ type: "add_ai", name, colour: free.id, change: room.change })) {
      pendingAi = true;
      addAiButton.disabled = true;
      aiNote.textContent = "";
      setTimeout(() => {
        pendingAi = false;
        if (lastRoom) render(lastRoom);
      }, 4000);
    }
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

  function leave() {
    const seats = you && you.seats ? you.seats : [];
    for (const seat of seats) session.send({ type: "leave", seat, change: shownChange() });
    clearGame();
    closeSession();
    ctx.navigate("");
  }

  return () => unsubscribe();
}

function nameField(label, testid, initial) {
  const id = uniqueId("name");
  const errId = uniqueId("err");
  const err = h("span", { class: "field-error", id: errId });
  const input = h("input", { id, class: "text-input", type: "text", value: initial, autocomplete: "nickname", spellcheck: "false", "aria-describedby": errId, dataset: { testid } });
  const check = () => {
    const problem = validName(input.value);
    err.textContent = problem;
    if (problem) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    } else input.removeAttribute("aria-invalid");
    return !problem;
  };
  return {
    el: h("div", { class: "field" }, h("label", { class: "field-label", for: id }, label), input, err),
    value: () => input.value.trim(),
    check,
  };
}

function colourChoice(testid, initial, taken) {
  const name = uniqueId("colour");
  let current = initial;
  const fieldset = h("fieldset", { class: "colour-picker", dataset: { testid } }, h("legend", { class: "field-label" }, t("colour.legend")));
  const inputs = new Map();
  for (const c of colourList()) {
    const id = uniqueId("colour-opt");
    const input = h("input", { type: "radio", id, name, value: c.id, checked: c.id === initial, dataset: { testid: `colour-${c.id}` }, on: { change: () => { current = c.id; } } });
    const label = h("label", { class: `swatch colour-${c.id}`, for: id, title: c.label }, input, h("span", { class: "swatch-dot", "aria-hidden": "true" }), h("span", { class: "visually-hidden" }, c.label));
    inputs.set(c.id, { input, label });
    fieldset.append(label);
  }
  const setTaken = (set) => {
    for (const [id, { input, label }] of inputs) {
      const isTaken = set.has(id);
      input.disabled = isTaken;
      label.classList.toggle("taken", isTaken);
      label.title = isTaken ? t("colour.taken", { colour: colour(id).label }) : colour(id).label;
      label.lastChild.textContent = isTaken ? t("colour.takenShort", { colour: colour(id).label }) : colour(id).label;
    }
    if (set.has(current)) {
      const free = colourList().find((c) => !set.has(c.id));
      if (free) {
        current = free.id;
        inputs.get(free.id).input.checked = true;
      }
    }
  };
  setTaken(taken);
  return { el: fieldset, value: () => current, setTaken };
}

function lastName() {
  try {
    return localStorage.getItem("snakes.name") || "";
  } catch {
    return "";
  }
}

function rememberName(name) {
  try {
    localStorage.setItem("snakes.name", name);
  } catch {
    // optional
  }
}
