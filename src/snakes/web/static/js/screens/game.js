// The game: the board, tokens, the die, the Roll button, seat cards and the announcer.
// It draws the room's store (js/reducer.js) and sends the player's actions to it; the
// board plays the moments the store leaves (js/game-player.js). An online room adds its
// countdown, reactions and host's powers (js/online-table.js, loaded with it); the live
// odds load when they are shown (js/odds-panel.js).

import { h, isInteractive } from "../dom.js";
import { t, errorText, loadLater } from "../i18n.js";
import { Die } from "../die.js";
import { announcer, describeWhere } from "../announcer.js";
import { getSettings, onSettingsChange, setBoost, duration } from "../settings.js";
import { resumeAll } from "../anim.js";
import { openRoom } from "../store.js";
import { initialState, isOver, busy, canRoll, watching, mySeats, skipOffered, finished } from "../reducer.js";
import { secretFor, markOver } from "../saved-game.js";
import { renderSeatCards, turnText } from "../seat-cards.js";
import { finishName } from "../config.js";
import { boardTitle } from "../board-picker.js";
import { MomentPlayer } from "../game-player.js";
import { loadRetrying } from "../lazy-screen.js";

export function mount(root, route, ctx) {
  const screen = new GameScreen(root, String(route.params[0] || "").toUpperCase(), ctx);
  return () => screen.stop();
}

class GameScreen {
  constructor(root, code, ctx) {
    Object.assign(this, { code, ctx, online: null, odds: null, finishTimer: null, gone: false });
    const room = (this.room = openRoom(code, secretFor(code)));
    ctx.setTitle(t("game.title"));
    this.die = new Die();
    const on = { roll: () => room.dispatch({ type: "roll" }), skip: () => room.dispatch({ type: "skip" }), home: () => ctx.navigate("") };
    const ui = (this.ui = layout(this.die, on));
    ui.screen.dataset.code = code;
    root.append(ui.screen);
    announcer.attach(ui.logLine, ui.logList);
    const view = {
      cards: (shown, squares, turn) => this.renderCards(room.getState(), shown, squares, turn),
      turn: (shown, seat, bonus) => this.showTurn(room.getState(), shown, seat, bonus),
      sixAgain: () => {
        ui.banner.textContent = t("game.sixAgain");
        ui.banner.classList.add("bonus");
      },
    };
    this.player = new MomentPlayer({ area: ui.boardArea, die: this.die, view, store: room });
    ctx.setGuard(() => this.mayLeave());
    this.onKey = (e) => {
      if (e.key !== " " && e.key !== "Enter") return;
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isInteractive(e.target)) return;
      if (document.querySelector("dialog[open]")) return;
      e.preventDefault();
      room.dispatch({ type: "roll" });
    };
    document.addEventListener("keydown", this.onKey);
    this.stopSettings = onSettingsChange(() => this.renderOdds(room.getState()));
    this.unsubscribe = room.subscribe((state, prev) => this.render(state, prev));
    this.render(room.getState(), initialState(code));
  }

  stop() {
    this.gone = true;
    resumeAll();
    clearTimeout(this.finishTimer);
    setBoost(1);
    this.unsubscribe();
    if (this.online) this.online.stop();
    announcer.attach(null, null);
    document.removeEventListener("keydown", this.onKey);
    this.stopSettings();
  }

  /** Leaving a game in progress asks first. */
  async mayLeave() {
    const state = this.room.getState();
    if (state.fatal || !state.shown || state.shown.phase !== "playing" || isOver(state.shown) || mySeats(state).size === 0) return true;
    const ok = await (await import("../dialog.js")).confirmDialog({
      title: t("game.leaveTitle"),
      text: state.shown.mode === "online" ? t("game.leaveOnline") : t("game.leaveLocal"),
      ok: t("game.leave"),
      cancel: t("game.keepPlaying"),
    });
    if (!ok) this.focusRollIfMine();
    return ok;
  }

  /** Back from a dialog on your turn: Space or Enter must roll, not reopen the dialog. */
  focusRollIfMine() {
    if (canRoll(this.room.getState()) && !this.ui.rollButton.hidden) this.ui.rollButton.focus();
  }

  render(state, prev) {
    if (state.fatal) return this.showGone(state.fatal);
    const shown = state.shown;
    if (!shown) return;
    if (shown.phase === "lobby") return this.ctx.navigate(`online/lobby/${this.code}`, { guard: false, replace: true });
    if (shown.mode === "online" && !this.online) this.loadOnline();
    if (shown !== prev.shown) {
      const played = prev.moments[0] && prev.moments[0].room === shown;
      if (!played) this.player.settle(shown);
      if (!played && (!prev.shown || state.cut !== prev.cut)) this.welcomeWords(shown);
      if (!isOver(shown)) markOver(this.code, false);
      this.renderRoom(state);
    } else if (state.you !== prev.you && !busy(state)) this.renderCards(state, shown, null, shown.turn);
    this.renderControls(state, prev);
    if (state.notice !== prev.notice) this.showNotice(state.notice);
    if (this.online) this.online.render(state, prev);
    this.player.follow(state);
    if (finished(state) && !finished(prev)) this.finishSoon(state.skipped);
  }

  /** Joining mid-race (watching, or back after a reload): where everyone is, not "Roll
   * the die to start the race!". (A rematch's race not yet begun has every token home.) */
  welcomeWords(shown) {
    const begun = shown.seats.some((seat) => seat.square > 0 || seat.status !== "racing");
    if (!this.ui.logLine.textContent && shown.phase === "playing" && begun) {
      announcer.show(t(watching(this.room.getState()) ? "game.watchingNow" : "game.welcomeBack", { where: describeWhere(shown) }));
    }
  }

  /** What the shown room says beside the board: the heading, the rules, the cards. */
  renderRoom(state) {
    const shown = state.shown;
    this.ui.screen.dataset.version = String(shown.version);
    this.ui.screen.dataset.phase = shown.phase;
    this.ui.screen.dataset.mode = shown.mode;
    const rules = shown.rules || {};
    this.ui.rulesLine.textContent = [
      finishName(rules.finish || "classic"),
      rules.exact_finish ? t("rules.exactShort") : t("rules.noExactShort"),
      rules.six_again ? t("rules.sixShort") : t("rules.noSixShort"),
    ].join(" · ");
    this.ui.rulesLine.title = this.ui.rulesLine.textContent;
    // An online room names its board too: its players chose it in the lobby.
    this.ui.heading.textContent = shown.mode === "pass" ? t("mode.pass") : shown.mode === "ai" ? t("mode.ai") : t("online.roomBoard", { code: shown.code, board: boardTitle(shown.board) });
    this.ui.banner.classList.remove("bonus");
    this.renderCards(state, shown, null, shown.turn);
    this.renderOdds(state);
  }

  renderCards(state, shown, squares, turn) {
    const over = isOver(shown) && !busy(state);
    const remove = this.online && state.you && state.you.host && shown.mode === "online" && !isOver(shown) ? this.online.removePlayer : null;
    renderSeatCards(this.ui.cards, { seats: shown.seats, turn, over, mode: shown.mode }, squares || new Map(), mySeats(state), remove);
  }

  /** The banner while moves play out: who is rolling now. */
  showTurn(state, shown, index, bonus) {
    const seat = shown.seats[index];
    if (!seat) return;
    const mine = mySeats(state).has(index) && seat.kind === "human";
    this.ui.banner.textContent = bonus && mine ? t("game.bonusRoll", { name: seat.name }) : turnText(seat, mine);
    this.ui.banner.classList.toggle("bonus", Boolean(bonus));
    this.ui.banner.classList.toggle("mine", mine);
  }

  renderControls(state, prev) {
    const shown = state.shown;
    const ok = canRoll(state);
    this.ui.rollButton.setAttribute("aria-disabled", String(!ok));
    this.ui.rollButton.classList.toggle("ready", ok);
    this.die.waiting(Boolean(state.asked.roll));
    const text = this.bannerText(state);
    if (text !== null) this.ui.banner.textContent = text;
    else if (!busy(state) && shown.seats[shown.turn]) this.showTurn(state, shown, shown.turn, shown.bonus);
    const skip = skipOffered(state);
    this.ui.skipButton.hidden = !skip;
    this.ui.skipButton.disabled = Boolean(state.asked.finish_ai);
    if (state.asked.finish_ai && !prev.asked.finish_ai) announcer.show(t("game.playingRest"));
    // Skip to results goes straight there: the result screen is fetched while offered.
    if (skip) this.ctx.prefetch("result");
    // Nobody here rolls any more: the big button becomes "Skip to results".
    const rollHadFocus = document.activeElement === this.ui.rollButton;
    this.ui.rollButton.hidden = skip || watching(state);
    this.ui.watchBadge.hidden = !watching(state);
    if (skip && rollHadFocus) this.ui.skipButton.focus();
  }

  /** The banner when it says more than whose turn it is: over, offline, skipping, watching. */
  bannerText(state) {
    const shown = state.shown;
    const seat = shown.seats[shown.turn];
    if (isOver(shown)) return t("game.over");
    // Not connected: say so, and what the game waits for (a local game waits for this
    // device; an online room's table tells its outage as it lasts: js/online-table.js).
    const connection = state.connection.state;
    const where = shown.mode === "online" ? "online" : "local";
    if (connection !== "open") return (this.online && this.online.outageText(state)) || t(connection === "offline" ? `game.offline.${where}` : `game.reconnecting.${where}`);
    if (state.asked.finish_ai) return t("game.playingRest");
    if (watching(state) && seat) return t("game.watchingTurn", { name: seat.name });
    return null;
  }

  showNotice(notice) {
    if (!notice) {
      this.ui.notice.textContent = "";
      return;
    }
    const text = notice.code === "not_connected" ? t("game.notConnected") : (this.online && this.online.noticeText(notice)) || errorText(notice.code, notice.message);
    this.ui.notice.textContent = text;
    announcer.speak(text);
  }

  showGone(fatal) {
    this.ui.boardArea.replaceChildren(h("div", { class: "panel-card gone" },
      h("h2", {}, fatal.code === "room_not_found" ? t("game.gone") : t("game.notPart")),
      // A local game lives in this device's store only: "no room has that code" would mislead.
      h("p", {}, fatal.local ? t("error.local_game_gone") : errorText(fatal.code, fatal.message)),
      h("a", { class: "button button-primary", href: "#/" }, t("game.backHome"))));
  }

  /** The optional live odds (Settings: "Show live odds"), drawn once their code is here. */
  renderOdds(state) {
    if (!getSettings().showOdds) {
      if (this.odds) this.odds.hide();
      return;
    }
    if (this.odds) this.odds.show(state.shown, state.oddsOffline);
    else if (!this.oddsLoading) {
      this.oddsLoading = true;
      loadRetrying(() => Promise.all([import("../odds-panel.js"), loadLater()]), () => this.gone).then(([module]) => {
        if (this.gone) return;
        this.odds = this.odds || module.oddsPanel(this.ui.oddsSlot);
        this.renderOdds(this.room.getState());
      });
    }
  }

  loadOnline() {
    this.online = { render: () => {}, noticeText: () => null, outageText: () => null, removePlayer: null, stop: () => {} };
    // Its words (the outage's among them) come with the catalogue's later part.
    loadRetrying(() => Promise.all([import("../online-table.js"), loadLater()]), () => this.gone).then(([module]) => {
      if (this.gone) return;
      this.online = module.onlineTable({ store: this.room, ui: this.ui, ctx: this.ctx, focusRoll: () => this.focusRollIfMine() });
      const state = this.room.getState();
      this.online.render(state, initialState(this.code));
      if (state.shown && !busy(state)) this.renderCards(state, state.shown, null, state.shown.turn);
    });
  }

  finishSoon(skipped) {
    markOver(this.code);
    // A race watched to its end pauses on the board; a skipped one has nothing to watch.
    this.finishTimer = setTimeout(() => this.ctx.navigate(`result/${this.code}`, { guard: false }), duration(skipped ? 150 : 1200));
  }

}

/** The game screen's parts; `on`: what its buttons do. */
function layout(die, on) {
  const heading = h("h1", { class: "game-title" }, t("game.heading"));
  const rulesLine = h("p", { class: "rules-line", dataset: { testid: "rules-summary" } });
  const boardArea = h("div", { class: "board-area" }, h("p", { class: "loading" }, t("game.opening")));
  const banner = h("p", { class: "turn-banner", id: "turn-banner", dataset: { testid: "turn-banner" } });
  const rollButton = h("button", {
    class: "button roll-button", type: "button", "aria-disabled": "true", "aria-describedby": "turn-banner",
    dataset: { testid: "roll" }, on: { click: on.roll },
  }, h("span", { class: "roll-label" }, t("game.roll")), h("span", { class: "roll-key", "aria-hidden": "true" }, t("game.space")));
  const logLine = h("p", { class: "log-line", dataset: { testid: "log-line", placeholder: t("game.startHint") } }, "");
  // It scrolls, so it takes focus: keyboard users can scroll it too.
  const logList = h("ol", { class: "log-list", tabindex: "0", "aria-label": t("game.logLabel"), dataset: { testid: "log-list" } });
  const skipButton = h("button", { class: "button button-secondary skip-button", type: "button", hidden: true, dataset: { testid: "skip-to-results" }, on: { click: on.skip } }, t("game.skip"));
  // The online countdown and the reactions come with the first online room (js/online-table.js).
  const countdownPlace = h("div", { class: "countdown", hidden: true });
  const reactionSlot = h("span", { hidden: true });
  const watchBadge = h("p", { class: "watch-badge", hidden: true, dataset: { testid: "watching" } },
    h("span", { "aria-hidden": "true" }, "👀 "), t("game.watchingBadge"));
  const cards = h("ol", { class: "seat-cards", "aria-label": t("setup.players") });
  const fairLine = h("p", { class: "fair-line", hidden: true, dataset: { testid: "fair-line" } });
  // On a big screen the log is open from the start: the right column has room for it.
  const gameLog = h("details", { class: "game-log", open: window.matchMedia("(min-width: 900px)").matches },
    h("summary", {}, t("game.log")), logList, fairLine);
  const oddsSlot = h("span", { hidden: true });
  const notice = h("p", { class: "game-notice", role: "alert", dataset: { testid: "game-notice" } });
  // Giving up the seat is an online room's (js/online-table.js).
  const leaveButton = h("button", { class: "button button-ghost leave-button", type: "button", hidden: true, dataset: { testid: "leave-game" } }, t("game.leave"));
  const homeButton = h("button", { class: "button button-ghost home-button", type: "button", dataset: { testid: "home" }, on: { click: on.home } },
    h("span", { "aria-hidden": "true" }, "← "), t("common.home"));
  const screen = h("section", { class: "screen game", dataset: { screen: "game", version: "" } },
    h("div", { class: "game-top" }, homeButton, h("div", { class: "game-heading" }, heading, rulesLine)),
    h("div", { class: "game-layout" },
      boardArea,
      h("div", { class: "side-panel" },
        h("div", { class: "control-card" },
          h("div", { class: "roll-row" }, die.el, h("div", { class: "roll-col" }, banner, rollButton, skipButton, watchBadge)),
          logLine, countdownPlace, reactionSlot),
        notice,
        h("section", { class: "players", "aria-labelledby": "players-heading" },
          h("h2", { id: "players-heading", class: "panel-heading" }, t("setup.players")), cards),
        oddsSlot, gameLog, leaveButton)));
  return { screen, heading, rulesLine, boardArea, banner, rollButton, logLine, logList, skipButton, countdownPlace, reactionSlot, watchBadge, cards, fairLine, oddsSlot, notice, leaveButton };
}
