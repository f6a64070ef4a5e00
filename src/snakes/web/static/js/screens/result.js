// The result: Classic names the winner (with confetti) and lists the others by square;
// Last One Standing shows the full finishing order with medals. "Play again" / "Home".
// It draws the room's store (js/reducer.js): the updates that come meanwhile (who wants
// a rematch, the rematch itself) are shown at once, with no board to play them on.

import { h } from "../dom.js";
import { t, ordinal, errorText, list as wordList } from "../i18n.js";
import { openRoom, closeRoom } from "../store.js";
import { initialState, isOver, mySeats } from "../reducer.js";
import { secretFor, clearGame } from "../saved-game.js";
import { tokenMarks } from "../colours.js";
import { reducedMotion } from "../settings.js";
import { recordUrl } from "../api.js";
import { sound } from "../sound.js";
import { announcer } from "../announcer.js";
import { storyPanel } from "../story-panel.js";
import { throwConfetti } from "../confetti.js";

// A result row's status in words: result.status.<status> in the catalogue.
const STATUSES = new Set(["finished", "winner", "not-finished", "did-not-finish", "left"]);
const statusText = (status) => (STATUSES.has(status) ? t(`result.status.${status}`) : String(status));

export function mount(root, route, ctx) {
  const screen = new ResultScreen(root, String(route.params[0] || "").toUpperCase(), ctx);
  return () => screen.stop();
}

class ResultScreen {
  constructor(root, code, ctx) {
    Object.assign(this, { code, ctx, confetti: null, again: null, startNow: null });
    this.room = openRoom(code, secretFor(code));
    ctx.setTitle(t("result.title"));
    this.body = h("div", { class: "result-body" }, h("p", { class: "loading" }, t("result.loading")));
    this.screen = h("section", { class: "screen result", dataset: { screen: "result", code } },
      h("h1", { class: "visually-hidden" }, t("result.title")), this.body);
    this.status = h("p", { class: "form-error", role: "alert" });
    this.proposal = h("p", { class: "rematch-waiting", role: "status", hidden: true, dataset: { testid: "rematch-waiting" } });
    root.append(this.screen);
    this.unsubscribe = this.room.subscribe((state, prev) => this.render(state, prev));
    this.render(this.room.getState(), initialState(code));
  }

  stop() {
    this.unsubscribe();
    if (this.confetti) this.confetti();
  }

  render(state, prev) {
    if (state.moments.length) {
      this.tell(state.moments, state);
      this.room.dispatch({ type: "moments_shown" });
      return;
    }
    if (state.fatal) return this.showGone();
    const room = state.shown;
    if (!room) return;
    if (!isOver(room)) return this.notOver(state);
    if (!this.again) this.draw(state);
    this.showProposal(state);
    const refused = state.notice && state.notice !== prev.notice && prev.asked.rematch && !state.asked.rematch;
    if (refused) this.status.textContent = state.notice.code === "not_connected" ? t("result.notConnected") : errorText(state.notice.code, state.notice.message);
  }

  /** What the updates that came meanwhile say: someone wants a rematch, or it began. */
  tell(moments, state) {
    const mine = mySeats(state);
    for (const moment of moments) {
      for (const ev of moment.events) {
        const seat = ev.type === "rematch_wanted" && moment.room.seats[ev.seat];
        if (seat && !mine.has(ev.seat)) announcer.speak(t("announce.rematchWanted", { name: seat.name }));
        if (ev.type === "rematch" && mine.size) announcer.speak(t("announce.rematch"));
      }
    }
  }

  /** A new game began: back to the board, unless it began without this device. */
  notOver(state) {
    if (this.again && mySeats(state).size === 0) {
      // An online rematch began without this device (it never said yes, or it only
      // watches): its results stay, with a way to watch the new game.
      this.startedWithout();
      return;
    }
    this.ctx.navigate(`game/${this.code}`, { guard: false });
  }

  showGone() {
    this.body.replaceChildren(h("div", { class: "panel-card" },
      h("h2", {}, t("result.gone")),
      h("p", {}, t("result.goneText")),
      h("a", { class: "button button-primary", href: "#/", dataset: { testid: "result-home" } }, t("common.home"))));
  }

  draw(state) {
    const room = state.shown;
    this.ctx.setTitle(t("result.title"));
    this.screen.dataset.version = String(room.version);
    const classic = !room.rules || room.rules.finish === "classic";
    this.screen.dataset.finish = classic ? "classic" : "last-one-standing";
    const rows = resultRows(room);
    const winnerRow = rows.find((row) => row.place === 1 && (row.status === "finished" || row.status === "winner"));
    const winner = winnerRow ? seatOf(room, winnerRow.seat) : null;
    // A player who left an online game is no longer at its table: no rematch for them.
    const mine = [...mySeats(state)].some((seat) => room.mode !== "online" || (room.seats[seat] && room.seats[seat].status !== "left"));
    this.held = mySeats(state).size > 0; // this device played the game shown (or only watched it)
    this.again = h("button", { class: "button button-primary button-huge", type: "button", dataset: { testid: "play-again" }, hidden: !mine, on: { click: () => this.room.dispatch({ type: "intent", message: { type: "rematch" } }) } }, t("result.again"));
    this.startNow = h("button", { class: "button button-secondary", type: "button", dataset: { testid: "start-rematch" }, hidden: true, on: { click: () => this.room.dispatch({ type: "intent", message: { type: "rematch", start: true } }) } });
    const local = this.room.recordUrl(room.game_number);
    const yours = yourRow(state, rows);
    // Celebrate what is this device's to celebrate: its own win, or, at a table where
    // every seat is the device's, whoever won. Not an AI's or another device's win.
    const celebrate = Boolean(winner) && (yours ? yours.seat === winner.index : mySeats(state).size > 0);
    // Play again comes right under the headline: in view on a phone without scrolling.
    this.body.replaceChildren(
      headline(room, classic, winner, winnerRow, { yours, place: yours && rows.indexOf(yours) + 1, celebrate }),
      this.status,
      this.proposal,
      h("div", { class: "form-actions result-actions" },
        h("button", { class: "button button-secondary", type: "button", dataset: { testid: "result-home" }, on: { click: () => this.goHome() } }, t("common.home")),
        this.startNow,
        this.again),
      h("section", { class: "panel-card result-card", "aria-labelledby": "result-heading" },
        h("h2", { id: "result-heading", class: "panel-heading" }, classic ? t("result.race") : t("result.order")),
        resultList(room, rows)),
      storyPanel(this.code, room.game_number),
      h("p", { class: "record-links" },
        h("a", { class: "record-link", href: local || recordUrl(this.code, room.game_number), download: `snakes-${this.code}-game-${room.game_number || 1}.json`, dataset: { testid: "download-record" } }, t("result.download")),
        room.mode === "online" || room.fair
          ? h("a", { class: "record-link", href: `#/verify/${encodeURIComponent(this.code)}${Number.isInteger(room.game_number) ? `/${room.game_number}` : ""}`, dataset: { testid: "verify-game" } }, t("result.verify"))
          : null));
    sound.win();
    if (classic && celebrate && !reducedMotion()) this.confetti = throwConfetti();
    const heading = this.body.querySelector(".winner-name");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
  }

  /**
   * "Play again": locally the next game starts; online it is a proposal: each row says
   * who wants to play again, the waiting line names who has not said yet, and the host
   * may start with those who did.
   */
  showProposal(state) {
    const room = state.shown;
    const asked = state.asked.rematch;
    const agreed = new Set(room.mode === "online" && Array.isArray(room.rematch) ? room.rematch : []);
    const mine = mySeats(state);
    const mineAgreed = [...mine].some((seat) => agreed.has(seat));
    this.again.disabled = Boolean(asked) || mineAgreed;
    this.again.textContent = mineAgreed ? t("result.againWaiting") : asked && !asked.start ? t("common.starting") : t("result.again");
    if (room.mode !== "online") return;
    for (const row of this.body.querySelectorAll("[data-testid=result-row]")) {
      const tag = row.querySelector(".rematch-tag");
      if (agreed.has(Number(row.dataset.seat)) && !tag) row.append(h("span", { class: "rematch-tag", dataset: { testid: "wants-again" } }, t("result.wantsAgain")));
      else if (!agreed.has(Number(row.dataset.seat)) && tag) tag.remove();
    }
    const stillIn = room.seats.filter((seat) => seat.status !== "left");
    const waiting = stillIn.filter((seat) => seat.kind === "human" && seat.connected && !agreed.has(seat.index));
    this.proposal.hidden = agreed.size === 0 || waiting.length === 0;
    this.proposal.textContent = this.proposal.hidden ? "" : t("result.waitingFor", { names: wordList(waiting.map((seat) => seat.name)) });
    // The host may start with those who agreed (the host among them): two seats at least.
    const table = stillIn.filter((seat) => agreed.has(seat.index) || mine.has(seat.index) || seat.kind === "ai").length;
    const others = waiting.filter((seat) => !mine.has(seat.index));
    this.startNow.hidden = !(state.you && state.you.host) || agreed.size === 0 || others.length === 0 || table < 2;
    this.startNow.textContent = t("result.startWith", { count: table });
  }

  startedWithout() {
    if (this.screen.querySelector("[data-testid=watch-new-game]")) return;
    this.again.hidden = true;
    this.startNow.hidden = true;
    this.proposal.hidden = false;
    // The proposal is over: nobody's row still wants to play again.
    for (const tag of this.body.querySelectorAll("[data-testid=wants-again]")) tag.remove();
    this.proposal.replaceChildren(t(this.held ? "result.startedWithout" : "result.newGameStarted"), " ",
      h("a", { class: "button button-secondary", href: `#/game/${this.code}`, dataset: { testid: "watch-new-game" } }, t("result.watchNew")));
  }

  goHome() {
    clearGame();
    closeRoom();
    this.ctx.navigate("");
  }
}

function seatOf(room, index) {
  return room.seats.find((seat) => seat.index === index) || room.seats[index];
}

/**
 * The first lines: about this device's player where it holds one seat of several ("You
 * won!", "Gus won. You came 2nd."), about the winner at a shared table or for a spectator.
 */
function headline(room, classic, winner, winnerRow, { yours, place, celebrate }) {
  const marks = tokenMarks(room.seats);
  const trophy = celebrate ? h("span", { class: "trophy", "aria-hidden": "true" }) : null;
  if (classic && winner) {
    let title = t("result.wins", { name: winner.name });
    if (yours && yours.seat === winner.index) title = t("result.youWon");
    else if (yours && yours.status !== "left") title = t("result.theyWonYouCame", { name: winner.name, place: ordinal(place) });
    return h("div", { class: "winner-banner" },
      trophy,
      h("span", { class: `token-badge big colour-${winner.colour}`, "aria-hidden": "true" }, marks[room.seats.indexOf(winner)]),
      h("h2", { class: "winner-name", dataset: { testid: "winner" } }, title),
      h("p", { class: "winner-sub" }, winnerRow.status === "winner" ? t("result.othersLeft") : t("result.firstTo", { finish: 100 })));
  }
  const placed = !classic && yours && yours.status !== "left";
  return h("div", { class: "winner-banner" },
    trophy,
    h("h2", { class: "winner-name", dataset: placed ? { testid: "winner" } : {} },
      placed ? t("result.youCame", { place: ordinal(place) }) : classic ? t("result.gameOver") : t("result.standings")),
    h("p", { class: "winner-sub" }, classic ? t("result.nobody", { finish: 100 }) : t("result.standingsSub")));
}

/** This device's row, where it holds exactly one seat of several; else null. */
function yourRow(state, rows) {
  const mine = mySeats(state);
  if (mine.size !== 1 || rows.length < 2) return null;
  return rows.find((row) => mine.has(row.seat)) || null;
}

function resultList(room, rows) {
  const marks = tokenMarks(room.seats);
  return h("ol", { class: "result-list", dataset: { testid: "result-list" } },
    rows.map((row) => {
      const seat = seatOf(room, row.seat) || { name: t("announce.seat", { n: row.seat + 1 }), colour: "grey" };
      const finished = row.status === "finished" || row.status === "winner";
      const medal = finished && row.place <= 3 ? ["gold", "silver", "bronze"][row.place - 1] : null;
      const placeText = finished && row.place ? ordinal(row.place) : "—";
      const detail = finished ? statusText(row.status) : t("result.detail", { status: statusText(row.status), square: row.square });
      return h("li", { class: ["result-row", medal && `podium podium-${medal}`, !finished && "unfinished"], dataset: { testid: "result-row", seat: String(row.seat), place: String(row.place ?? ""), status: row.status } },
        h("span", { class: ["place", medal && `medal medal-${medal}`] }, h("span", { class: "visually-hidden" }, t("result.place")), placeText),
        h("span", { class: `token-badge colour-${seat.colour}`, "aria-hidden": "true" }, marks[room.seats.indexOf(seat)] || ""),
        h("span", { class: "result-name" }, seat.name),
        h("span", { class: "result-detail" }, detail));
    }));
}

/** The rows to show: the server's results, or (defensively) built from the seats. */
function resultRows(room) {
  if (Array.isArray(room.results) && room.results.length) return room.results;
  const finished = room.seats.filter((seat) => seat.status === "finished").sort((a, b) => (a.place || 99) - (b.place || 99));
  const racing = room.seats.filter((seat) => seat.status === "racing").sort((a, b) => b.square - a.square);
  const left = room.seats.filter((seat) => seat.status === "left");
  return [
    ...finished.map((seat, i) => ({ place: seat.place || i + 1, seat: seat.index, square: seat.square, status: "finished" })),
    ...racing.map((seat, i) => ({ place: finished.length + i + 1, seat: seat.index, square: seat.square, status: "not-finished" })),
    ...left.map((seat, i) => ({ place: finished.length + racing.length + i + 1, seat: seat.index, square: seat.square, status: "left" })),
  ];
}
