// Play Online: create a private room or join one by code (or invite link); then the
// lobby (js/screens/lobby.js), where the seats show live and the host sets the rules.

import { h, uniqueId } from "../dom.js";
import { config, finishName } from "../config.js";
import { getSettings } from "../settings.js";
import { createRoom, joinRoom, getRoom, onReach, checkReach } from "../api.js";
import { saveGame, secretFor, clearGame } from "../saved-game.js";
import { toggle, placesSample } from "./setup.js";
import { boardPicker } from "../board-picker.js";
import { t, errorText } from "../i18n.js";
import { nameField, colourChoice, lastName, rememberName } from "../online-forms.js";
import { lobby } from "./lobby.js";

const CODE_RE = /^[A-Za-z0-9]{6}$/;
const RECHECK_MS = 3000; // while the server is out of reach, how often it is asked again

export function mount(root, route, ctx) {
  const [view, rawCode] = route.params;
  const code = String(rawCode || "").toUpperCase();
  if (view === "lobby" && code) return lobby(root, code, ctx);
  ctx.setTitle(t("mode.online"));
  const presetCode = view === "join" ? code : "";
  const notice = needsConnection();
  const forms = h("div", { class: "online-forms" });
  root.append(h("section", { class: "screen online", dataset: { screen: "online" } },
    h("h1", {}, t("mode.online")), notice.el, forms,
    h("div", { class: "form-actions" }, h("a", { class: "button button-secondary", href: "#/" }, t("common.back")))));
  // Without the server no room can be made or joined: the screen says so instead of
  // forms that could only fail, asks again now and then, and opens them once it answers.
  let gone = false;
  let timer = null;
  const draw = (now) => {
    if (gone) return;
    clearTimeout(timer);
    if (now !== "ok") timer = setTimeout(() => checkReach().then(draw), RECHECK_MS);
    notice.show(now);
    forms.hidden = now !== "ok";
    if (now !== "ok" || forms.firstChild) return;
    const join = new JoinForm(presetCode, ctx);
    forms.append(...(presetCode
      // An invited friend needs only the join form; hosting is one link away.
      ? [join.el, h("p", { class: "form-note" }, h("a", { href: "#/online", dataset: { testid: "create-instead" } }, t("online.createInstead")))]
      // Joining first: a friend who was texted a code finds its field on the first
      // screen, not under the whole create form; a host scrolls one short card.
      : [join.el, createForm(ctx)]));
    join.start();
  };
  const stopReach = onReach(draw);
  checkReach(10_000).then(draw);
  return () => {
    gone = true;
    clearTimeout(timer);
    stopReach();
  };
}

/** What the screen says while no room can be reached: why, and the tables that need no
 * connection. */
function needsConnection() {
  const why = h("p", {});
  const el = h("div", { class: "panel-card needs-connection", role: "status", hidden: true, dataset: { testid: "online-needs-connection" } },
    h("span", { class: "needs-connection-icon", "aria-hidden": "true" }),
    h("h2", {}, t("online.needsConnection")),
    why,
    h("p", { class: "hint" }, t("online.needsMeanwhile")),
    h("div", { class: "form-actions" },
      h("a", { class: "button button-primary", href: "#/setup/ai" }, t("mode.ai")),
      h("a", { class: "button button-secondary", href: "#/setup/pass" }, t("mode.pass"))));
  return {
    el,
    show(now) {
      el.hidden = now === "ok";
      el.dataset.reach = now;
      if (now !== "ok") why.textContent = t(`online.needs.${now}`);
    },
  };
}

/** Create: the host's name and colour, the table's rules, board and countdown. */
function createForm(ctx) {
  const defaults = getSettings();
  const range = config().countdown;
  const rules = { finish: "classic", exactFinish: defaults.exactFinish, sixAgain: defaults.sixAgain };
  const hostName = nameField(t("setup.yourName"), "host-name", lastName());
  const hostColour = colourChoice("host-colour", "red", new Set());
  const error = h("p", { class: "form-error", role: "alert" });
  const countdownId = uniqueId("countdown");
  const countdownInput = h("input", { id: countdownId, class: "text-input number-input", type: "number", min: String(range.min), max: String(range.max), step: "1", value: String(range.default), inputmode: "numeric", dataset: { testid: "countdown-seconds" } });
  const finishGroup = uniqueId("finish");
  const finishCard = (value, label, text) => {
    const id = uniqueId("finish-opt");
    return h("label", { class: "radio-card", for: id },
      h("input", { type: "radio", id, name: finishGroup, value, checked: rules.finish === value, on: { change: () => { rules.finish = value; } } }),
      h("span", { class: "radio-card-body" }, h("span", { class: "radio-card-title" }, label), h("span", { class: "radio-card-text" }, text)));
  };
  const button = h("button", { class: "button button-primary button-huge", type: "submit", dataset: { testid: "create-room" } }, t("online.create"));
  const boards = boardPicker({ legend: t("board.which"), testid: "online-board-picker" });

  async function create() {
    error.textContent = "";
    const name = hostName.value();
    if (!hostName.check()) return;
    const countdown = Number(countdownInput.value);
    if (!Number.isInteger(countdown) || countdown < range.min || countdown > range.max) {
      error.textContent = t("online.badSeconds", { min: range.min, max: range.max });
      countdownInput.focus();
      return;
    }
    button.disabled = true;
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
      error.textContent = errorText(err.code, err.message);
      button.disabled = false;
    }
  }

  return h("form", { class: "panel-card", novalidate: true, "aria-labelledby": "create-heading", on: { submit: (e) => { e.preventDefault(); create(); } } },
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
    error,
    h("div", { class: "form-actions" }, button));
}

/** Join: a room's code (looked up as it is typed), then a name and a free colour. */
class JoinForm {
  constructor(presetCode, ctx) {
    Object.assign(this, { presetCode, ctx });
    const codeId = uniqueId("code");
    this.codeInput = h("input", { id: codeId, class: "text-input code-input", type: "text", value: presetCode, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "6", dataset: { testid: "join-code" } });
    this.name = nameField(t("setup.yourName"), "join-name", lastName());
    this.colour = colourChoice("join-colour", "blue", new Set());
    this.error = h("p", { class: "form-error", role: "alert" });
    this.info = h("p", { class: "form-note", role: "status" });
    this.button = h("button", { class: "button button-primary button-huge", type: "submit", dataset: { testid: "join-room" } }, t("online.join"));
    this.watchButton = h("a", { class: "button button-secondary", href: "#/", hidden: true, dataset: { testid: "watch-room" } }, t("online.watch"));
    this.el = h("form", { class: "panel-card", novalidate: true, "aria-labelledby": "join-heading", on: { submit: (e) => { e.preventDefault(); this.join(); } } },
      h("h2", { id: "join-heading" }, t("online.joinHeading")),
      h("div", { class: "field" }, h("label", { class: "field-label", for: codeId }, t("online.code")), this.codeInput),
      this.info, this.name.el, this.colour.el, this.error,
      h("div", { class: "form-actions" }, this.watchButton, this.button));
    this.codeInput.addEventListener("input", () => {
      const input = this.codeInput;
      input.value = input.value.toUpperCase().replace(/[^A-Z0-9]/g, "");
      if (CODE_RE.test(input.value)) this.lookUp(input.value);
      else {
        this.watchButton.hidden = true;
        this.offerJoin(true);
      }
    });
  }

  /** An invite link's room: straight back to a seat this device holds there, or looked up. */
  start() {
    const code = this.presetCode;
    if (!CODE_RE.test(code)) return;
    if (secretFor(code)) this.backToSeat(code);
    else {
      this.offerJoin(false);
      this.lookUp(code);
    }
  }

  /** This device holds a seat there (a link opened again, or a reload): back to it. */
  async backToSeat(value) {
    this.info.textContent = t("online.backToSeat");
    try {
      const room = await getRoom(value);
      if (room.phase === "lobby") this.ctx.navigate(`online/lobby/${room.code || value}`, { guard: false, replace: true });
      else if (room.phase === "playing" && !room.over) this.ctx.navigate(`game/${room.code || value}`, { guard: false, replace: true });
      else this.info.textContent = t("online.over");
    } catch (err) {
      this.info.textContent = err.status === 404 ? t("online.roomGone") : errorText(err.code, err.message);
      if (err.status === 404) clearGame();
    }
  }

  /**
   * A room whose game has started (or ended) takes nobody new: its visitor is offered to
   * watch, with no name, colour or Join to fill in for nothing.
   */
  offerJoin(open) {
    for (const part of [this.name.el, this.colour.el, this.button]) part.hidden = !open;
    this.watchButton.classList.toggle("button-primary", !open);
    this.watchButton.classList.toggle("button-secondary", open);
  }

  async lookUp(value) {
    this.info.textContent = t("online.lookingUp");
    this.watchButton.hidden = true;
    try {
      const room = await getRoom(value);
      if (this.codeInput.value !== value) return;
      this.colour.setTaken(new Set(room.seats.map((seat) => seat.colour)));
      const host = room.seats.find((seat) => seat.host);
      this.offerJoin(room.phase === "lobby");
      if (room.phase === "lobby") {
        this.info.textContent = [
          host ? t("online.hostRoom", { name: host.name }) : t("online.roomWord"),
          t("online.seatsTaken", { count: room.seats.length, max: config().seats.max }),
          finishName(room.rules.finish),
        ].join(" · ");
      } else {
        this.info.textContent = room.phase === "over" ? t("online.over") : t("online.started");
        this.watchButton.href = `#/game/${room.code}`;
        this.watchButton.hidden = room.phase === "over";
      }
    } catch (err) {
      if (this.codeInput.value !== value) return;
      this.info.textContent = err.status === 404 ? t("online.noRoom") : errorText(err.code, err.message);
      this.offerJoin(true);
    }
  }

  async join() {
    this.error.textContent = "";
    const value = this.codeInput.value.trim().toUpperCase();
    if (!CODE_RE.test(value)) {
      this.error.textContent = t("online.badCode", { count: 6 });
      this.codeInput.focus();
      return;
    }
    if (!this.name.check()) return;
    this.button.disabled = true;
    try {
      const joined = await joinRoom(value, this.name.value(), this.colour.value());
      saveGame({ code: joined.code, secret: joined.secret, mode: "online" });
      rememberName(this.name.value());
      this.ctx.navigate(`online/lobby/${joined.code}`, { guard: false });
    } catch (err) {
      this.error.textContent = errorText(err.code, err.message);
      this.button.disabled = false;
      if (err.code === "colour_taken") this.lookUp(value);
    }
  }
}
