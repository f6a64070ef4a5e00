// The result: Classic names the winner (with confetti) and lists the others by square;
// Last One Standing shows the full finishing order with medals. "Play again" / "Home".

import { h } from "../dom.js";
import { t, ordinal, errorText, list as wordList } from "../i18n.js";
import { openSession, closeSession } from "../session.js";
import { secretFor, clearGame } from "../saved-game.js";
import { tokenMarks } from "../colours.js";
import { reducedMotion } from "../settings.js";
import { recordUrl } from "../api.js";
import { isOver } from "./game.js";
import { sound } from "../sound.js";
import { announcer } from "../announcer.js";
import { storyPanel } from "../story-panel.js";

// A result row's status in words: result.status.<status> in the catalogue.
const STATUSES = new Set(["finished", "winner", "not-finished", "did-not-finish", "left"]);
const statusText = (status) => (STATUSES.has(status) ? t(`result.status.${status}`) : String(status));

export function mount(root, route, ctx) {
  const code = String(route.params[0] || "").toUpperCase();
  const secret = secretFor(code);
  const session = openSession(code, secret);
  ctx.setTitle(t("result.title"));
  const body = h("div", { class: "result-body" }, h("p", { class: "loading" }, t("result.loading")));
  const screen = h("section", { class: "screen result", dataset: { screen: "result", code } },
    h("h1", { class: "visually-hidden" }, t("result.title")), body);
  root.append(screen);
  let rendered = false;
  let rematchSent = false;
  let confetti = null;

  const unsubscribe = session.subscribe((msg) => {
    if (msg.type === "welcome" || msg.type === "update") show(msg.room, msg.events);
    else if (msg.type === "error") {
      if (msg.code === "room_not_found" || msg.code === "bad_secret") {
        body.replaceChildren(h("div", { class: "panel-card" },
          h("h2", {}, t("result.gone")),
          h("p", {}, t("result.goneText")),
          h("a", { class: "button button-primary", href: "#/", dataset: { testid: "result-home" } }, t("common.home"))));
      } else if (rematchSent || startSent) {
        rematchSent = false;
        startSent = false;
        status.textContent = errorText(msg.code, msg.message);
      }
    }
  });
  const status = h("p", { class: "form-error", role: "alert" });
  const proposal = h("p", { class: "rematch-waiting", role: "status", hidden: true, dataset: { testid: "rematch-waiting" } });
  let again = null;
  let startNow = null;
  let startSent = false;
  if (session.room) show(session.room);

  function show(room, events = []) {
    if (!isOver(room)) {
      if (rendered && session.mySeats().size === 0) {
        // An online rematch began without this device (it never said yes, or it only
        // watches): its results stay, with a way to watch the new game.
        startedWithout();
        return;
      }
      if (events.some((ev) => ev.type === "rematch")) announcer.speak(t("announce.rematch"));
      // A rematch this device asked for (or a local game's): back to the board.
      ctx.navigate(`game/${code}`, { guard: false });
      return;
    }
    for (const ev of events) {
      const seat = ev.type === "rematch_wanted" && room.seats[ev.seat];
      if (seat && !session.mySeats().has(ev.seat)) announcer.speak(t("announce.rematchWanted", { name: seat.name }));
    }
    if (rendered) {
      showProposal(room);
      return;
    }
    rendered = true;
    ctx.setTitle(t("result.title"));
    screen.dataset.version = String(room.version);
    const classic = !room.rules || room.rules.finish === "classic";
    screen.dataset.finish = classic ? "classic" : "last-one-standing";
    const rows = resultRows(room);
    const marks = tokenMarks(room.seats);
    const seatOf = (index) => room.seats.find((seat) => seat.index === index) || room.seats[index];
    const winnerRow = rows.find((row) => row.place === 1 && (row.status === "finished" || row.status === "winner"));
    const winner = winnerRow ? seatOf(winnerRow.seat) : null;

    const headline = classic && winner
      ? h("div", { class: "winner-banner" },
        h("span", { class: "trophy", "aria-hidden": "true" }),
        h("span", { class: `token-badge big colour-${winner.colour}`, "aria-hidden": "true" }, marks[room.seats.indexOf(winner)]),
        h("h2", { class: "winner-name", dataset: { testid: "winner" } }, t("result.wins", { name: winner.name })),
        h("p", { class: "winner-sub" }, winnerRow.status === "winner" ? t("result.othersLeft") : t("result.firstTo", { finish: 100 })))
      : h("div", { class: "winner-banner" },
        h("span", { class: "trophy", "aria-hidden": "true" }),
        h("h2", { class: "winner-name" }, classic ? t("result.gameOver") : t("result.standings")),
        h("p", { class: "winner-sub" }, classic ? t("result.nobody", { finish: 100 }) : t("result.standingsSub")));

    const list = h("ol", { class: "result-list", dataset: { testid: "result-list" } },
      rows.map((row) => {
        const seat = seatOf(row.seat) || { name: t("announce.seat", { n: row.seat + 1 }), colour: "grey" };
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

    // A player who left an online game is no longer at its table: no rematch for them.
    const mine = [...session.mySeats()].some((seat) => room.mode !== "online" || (room.seats[seat] && room.seats[seat].status !== "left"));
    again = h("button", { class: "button button-primary button-huge", type: "button", dataset: { testid: "play-again" }, hidden: !mine, on: { click: () => rematch(again) } }, t("result.again"));
    startNow = h("button", { class: "button button-secondary", type: "button", dataset: { testid: "start-rematch" }, hidden: true, on: { click: () => startRematch() } });
    body.replaceChildren(
      headline,
      h("section", { class: "panel-card result-card", "aria-labelledby": "result-heading" },
        h("h2", { id: "result-heading", class: "panel-heading" }, classic ? t("result.race") : t("result.order")),
        list),
      storyPanel(code, room.game_number),
      status,
      proposal,
      h("div", { class: "form-actions result-actions" },
        h("button", { class: "button button-secondary", type: "button", dataset: { testid: "result-home" }, on: { click: goHome } }, t("common.home")),
        startNow,
        again),
      h("p", { class: "record-links" },
        h("a", { class: "record-link", href: session.local ? session.recordUrl(room.game_number) : recordUrl(code, room.game_number), download: `snakes-${code}-game-${room.game_number || 1}.json`, dataset: { testid: "download-record" } }, t("result.download")),
        room.mode === "online" || room.fair
          ? h("a", { class: "record-link", href: `#/verify/${encodeURIComponent(code)}${Number.isInteger(room.game_number) ? `/${room.game_number}` : ""}`, dataset: { testid: "verify-game" } }, t("result.verify"))
          : null));
    showProposal(room);
    sound.win();
    if (classic && winner && !reducedMotion()) confetti = throwConfetti();
    const heading = body.querySelector(".winner-name");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
  }

  /**
   * An online rematch is a proposal: each row says who wants to play again, the waiting
   * line names who has not said yet, and the host may start with those who did.
   */
  function showProposal(room) {
    if (room.mode !== "online") return;
    const agreed = new Set(Array.isArray(room.rematch) ? room.rematch : []);
    for (const row of body.querySelectorAll("[data-testid=result-row]")) {
      const seat = Number(row.dataset.seat);
      let tag = row.querySelector(".rematch-tag");
      if (agreed.has(seat) && !tag) {
        tag = h("span", { class: "rematch-tag", dataset: { testid: "wants-again" } }, t("result.wantsAgain"));
        row.append(tag);
      } else if (!agreed.has(seat) && tag) tag.remove();
    }
    const mineAgreed = [...session.mySeats()].some((seat) => agreed.has(seat));
    if (mineAgreed && again) {
      rematchSent = true;
      again.disabled = true;
      again.textContent = t("result.againWaiting");
    }
    const stillIn = room.seats.filter((seat) => seat.status !== "left");
    const waiting = stillIn.filter((seat) => seat.kind === "human" && seat.connected && !agreed.has(seat.index));
    proposal.hidden = agreed.size === 0 || waiting.length === 0;
    proposal.textContent = proposal.hidden ? "" : t("result.waitingFor", { names: wordList(waiting.map((seat) => seat.name)) });
    // The host may start with those who agreed (the host among them): two seats at least.
    const host = session.you && session.you.host;
    const mySeats = session.mySeats();
    const table = stillIn.filter((seat) => agreed.has(seat.index) || mySeats.has(seat.index) || seat.kind === "ai").length;
    const others = waiting.filter((seat) => !mySeats.has(seat.index));
    if (startNow) {
      startNow.hidden = !host || agreed.size === 0 || others.length === 0 || table < 2;
      startNow.textContent = t("result.startWith", { count: table });
    }
  }

  function startedWithout() {
    if (screen.querySelector("[data-testid=watch-new-game]")) return;
    if (again) again.hidden = true;
    if (startNow) startNow.hidden = true;
    proposal.hidden = false;
    proposal.replaceChildren(t("result.startedWithout"), " ",
      h("a", { class: "button button-secondary", href: `#/game/${code}`, dataset: { testid: "watch-new-game" } }, t("result.watchNew")));
  }

  function startRematch() {
    startSent = true;
    if (!session.send({ type: "rematch", start: true, change: session.change() })) {
      startSent = false;
      status.textContent = t("result.notConnected");
    }
  }

  function rematch(button) {
    if (rematchSent) return;
    rematchSent = true;
    button.disabled = true;
    button.textContent = t("common.starting");
    if (!session.send({ type: "rematch", change: session.change() })) {
      rematchSent = false;
      button.disabled = false;
      button.textContent = t("result.again");
      status.textContent = t("result.notConnected");
    }
  }

  function goHome() {
    clearGame();
    closeSession();
    ctx.navigate("");
  }

  return () => {
    unsubscribe();
    if (confetti) confetti();
  };
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

function throwConfetti() {
  const layer = h("div", { class: "confetti", "aria-hidden": "true" });
  document.body.append(layer);
  const colours = ["#e0302b", "#1e6fd9", "#12a150", "#ffd21f", "#8e3ccb", "#ff8a00", "#ffffff"];
  const pieces = [];
  for (let i = 0; i < 90; i++) {
    const piece = h("span", { class: "confetti-piece" });
    piece.style.left = `${Math.random() * 100}%`;
    piece.style.background = colours[i % colours.length];
    piece.style.width = `${6 + Math.random() * 8}px`;
    piece.style.height = `${8 + Math.random() * 10}px`;
    layer.append(piece);
    if (typeof piece.animate === "function") {
      const drift = (Math.random() - 0.5) * 260;
      const spin = 360 + Math.random() * 720;
      pieces.push(piece.animate(
        [
          { transform: "translate(0, -10vh) rotate(0deg)", opacity: 1 },
          { transform: `translate(${drift}px, 105vh) rotate(${spin}deg)`, opacity: 0.9 },
        ],
        { duration: 2600 + Math.random() * 2200, delay: Math.random() * 900, easing: "cubic-bezier(.25,.6,.45,1)", fill: "both" },
      ));
    }
  }
  const done = setTimeout(() => layer.remove(), 6500);
  return () => {
    clearTimeout(done);
    layer.remove();
  };
}
