// The game: the board, tokens, the die, the Roll button, seat cards and the announcer.
// It sends intents and renders what the server says: every update's events are
// animated in order, then the update's room view is settled into.

import { h, isInteractive } from "../dom.js";
import { t, ordinal, errorText, formatNumber } from "../i18n.js";
import { Board } from "../board.js";
import { Tokens } from "../tokens.js";
import { Die } from "../die.js";
import { announcer, describeEvents, describePositions, describeWhere } from "../announcer.js";
import { sound } from "../sound.js";
import { duration, setBoost, getSettings, onSettingsChange, SPEEDS } from "../settings.js";
import { pause, endAll, resumeAll, plannedMs, TURN_PAUSE_MS, BONUS_PAUSE_MS } from "../anim.js";
import { openSession } from "../session.js";
import { secretFor, markOver, clearGame } from "../saved-game.js";
import { renderSeatCards, turnText } from "../seat-cards.js";
import { tokenMarks } from "../colours.js";
import { finishName } from "../config.js";
import { useStyles } from "../lazy-screen.js";
import { boardTitle } from "../board-picker.js";


// Each tween ends on the first frame after its time: a busy device's frames come late.
const FRAME_MARGIN_MS = 100;

// The big moments and the leave dialog load when first wanted, after the first roll:
// a first game's load stays small (tests/browser/test_page_weight.py).
let moments = null;
function popMoment(...args) {
  moments = moments || import("../moments.js");
  return moments.then((module) => module.popMoment(...args));
}

export function mount(root, route, ctx) {
  const code = String(route.params[0] || "").toUpperCase();
  const secret = secretFor(code);
  const session = openSession(code, secret);
  ctx.setTitle(t("game.title"));

  // What is on screen: the last room view applied, plus per-event progress.
  let shown = null;
  let squares = new Map();
  let turn = null;
  let board = null;
  let boardKey = "";
  let tokens = null;
  let queue = [];
  let busy = false;
  let pending = false;
  let pendingTimer = null;
  let generation = 0;
  let leaving = false;
  let skipSent = false;
  let skipped = false;
  let skipRef = null;
  let skipTries = 0;
  let turnWasMine = false;
  let titleSignalled = false;
  const die = new Die();

  const heading = h("h1", { class: "game-title" }, t("game.heading"));
  const rulesLine = h("p", { class: "rules-line", dataset: { testid: "rules-summary" } });
  const boardArea = h("div", { class: "board-area" }, h("p", { class: "loading" }, t("game.opening")));
  const banner = h("p", { class: "turn-banner", id: "turn-banner", dataset: { testid: "turn-banner" } });
  const rollButton = h("button", {
    class: "button roll-button", type: "button", "aria-disabled": "true", "aria-describedby": "turn-banner",
    dataset: { testid: "roll" }, on: { click: () => roll() },
  }, h("span", { class: "roll-label" }, t("game.roll")), h("span", { class: "roll-key", "aria-hidden": "true" }, t("game.space")));
  const logLine = h("p", { class: "log-line", dataset: { testid: "log-line", placeholder: t("game.startHint") } }, "");
  // It scrolls, so it takes focus: keyboard users can scroll it too.
  const logList = h("ol", { class: "log-list", tabindex: "0", "aria-label": t("game.logLabel"), dataset: { testid: "log-list" } });
  const skipButton = h("button", {
    class: "button button-secondary skip-button", type: "button", hidden: true, dataset: { testid: "skip-to-results" },
    on: { click: () => skipToResults() },
  }, t("game.skip"));
  // The online countdown loads with the first online room: a game at your own table
  // never shows one, and its first load stays small (tests/browser/test_page_weight.py).
  let countdown = null;
  let countdownStartsAt = () => null;
  let countdownLoading = null;
  const countdownPlace = h("div", { class: "countdown", hidden: true });
  // Reactions exist in online rooms only: their code loads with the first one, so a game
  // at your own table never fetches it (the first load stays small: docs/BENCHMARKS.md).
  let reactions = null;
  let reactionsAsked = false;
  let reactionTray = null;
  let unmounted = false;
  const reactionSlot = h("span", { hidden: true });
  const watchBadge = h("p", { class: "watch-badge", hidden: true, dataset: { testid: "watching" } },
    h("span", { "aria-hidden": "true" }, "👀 "), t("game.watchingBadge"));
  const cards = h("ol", { class: "seat-cards", "aria-label": t("setup.players") });
  const fairLine = h("p", { class: "fair-line", hidden: true, dataset: { testid: "fair-line" } });
  // On a big screen the log is open from the start: the right column has room for it.
  const gameLog = h("details", { class: "game-log", open: window.matchMedia("(min-width: 900px)").matches },
    h("summary", {}, t("game.log")), logList, fairLine);
  const oddsList = h("ol", { class: "odds-list", dataset: { testid: "odds-list" } });
  const oddsNote = h("p", { class: "odds-note", dataset: { testid: "odds-note" } });
  const oddsPanel = h("section", { class: "odds-panel", hidden: true, "aria-labelledby": "odds-heading", dataset: { testid: "odds-panel" } },
    h("h2", { id: "odds-heading", class: "panel-heading" }, t("odds.heading")),
    oddsNote,
    oddsList);
  const notice = h("p", { class: "game-notice", role: "alert", dataset: { testid: "game-notice" } });
  const leaveButton = h("button", { class: "button button-ghost leave-button", type: "button", hidden: true, dataset: { testid: "leave-game" }, on: { click: () => leaveGame() } }, t("game.leave"));
  const homeButton = h("button", { class: "button button-ghost home-button", type: "button", dataset: { testid: "home" }, on: { click: () => ctx.navigate("") } },
    h("span", { "aria-hidden": "true" }, "← "), t("common.home"));

  const screen = h("section", { class: "screen game", dataset: { screen: "game", code, version: "" } },
    h("div", { class: "game-top" }, homeButton, h("div", { class: "game-heading" }, heading, rulesLine)),
    h("div", { class: "game-layout" },
      boardArea,
      h("div", { class: "side-panel" },
        h("div", { class: "control-card" },
          h("div", { class: "roll-row" }, die.el, h("div", { class: "roll-col" }, banner, rollButton, skipButton, watchBadge)),
          logLine,
          countdownPlace,
          reactionSlot),
        notice,
        h("section", { class: "players", "aria-labelledby": "players-heading" },
          h("h2", { id: "players-heading", class: "panel-heading" }, t("setup.players")),
          cards),
        oddsPanel,
        gameLog,
        leaveButton)));
  root.append(screen);
  announcer.attach(logLine, logList);

  ctx.setGuard(async () => {
    if (leaving || !shown || shown.phase !== "playing" || shown.over || session.mySeats().size === 0) return true;
    const ok = await (await import("../dialog.js")).confirmDialog({
      title: t("game.leaveTitle"),
      text: shown.mode === "online" ? t("game.leaveOnline") : t("game.leaveLocal"),
      ok: t("game.leave"),
      cancel: t("game.keepPlaying"),
    });
    leaving = ok;
    if (!ok) focusRollIfMine();
    return ok;
  });

  /** Back from a dialog on your turn: Space or Enter must roll, not reopen the dialog. */
  function focusRollIfMine() {
    if (canRoll() && !rollButton.hidden) rollButton.focus();
  }

  const unsubscribe = session.subscribe(onSession);
  if (session.room) onSession({ type: "welcome", room: session.room, you: session.you });

  const onKey = (e) => {
    if (e.key !== " " && e.key !== "Enter") return;
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isInteractive(e.target)) return;
    if (document.querySelector("dialog[open]")) return;
    e.preventDefault();
    roll();
  };
  document.addEventListener("keydown", onKey);
  const onVisible = () => {
    if (!document.hidden) {
      ctx.setTitle(t("game.title"));
      titleSignalled = false;
    }
  };
  document.addEventListener("visibilitychange", onVisible);
  const stopSettings = onSettingsChange(() => renderOdds(shown));

  function onSession(msg) {
    if (msg.type === "welcome" || msg.type === "update") turnSignal(msg.room);
    if (msg.type === "welcome" && msg.room.mode === "online" && !reactionsAsked) loadReactions();
    if (msg.type === "welcome") {
      generation += 1;
      queue = [];
      clearPending();
      if (msg.room.phase === "lobby") {
        ctx.navigate(`online/lobby/${code}`, { guard: false, replace: true });
        return;
      }
      applyRoom(msg.room, { glide: false });
      // Joining mid-race (watching, or back after a reload): say where everyone is,
      // rather than "Roll the die to start the race!".
      // (A rematch's version carries on from the last game: a race not yet begun has
      // every token still off the board.)
      const begun = msg.room.seats.some((seat) => seat.square > 0 || seat.status !== "racing");
      if (!logLine.textContent && msg.room.phase === "playing" && begun) {
        announcer.show(t(watching() ? "game.watchingNow" : "game.welcomeBack", { where: describeWhere(msg.room) }));
      }
      if (isOver(msg.room)) finishSoon();
    } else if (msg.type === "update") {
      // The host's switch is said at once; it is no move to wait for.
      const switched = msg.events.find((ev) => ev.type === "reactions_changed");
      if (switched && reactions) announcer.speak(switched.on ? reactions.WORDS.turnedOn : reactions.WORDS.turnedOff);
      if (msg.instant) {
        // "Skip to results": the race is over already, so the move still playing and
        // the AI moves waiting behind it are old news. They end now (no AI is seen
        // rolling after the skip) and the end of the race shows at once.
        generation += 1;
        queue = [];
        if (busy) {
          endAll();
          for (const animation of die.el.getAnimations({ subtree: true })) {
            if (Number.isFinite(animation.effect?.getComputedTiming().endTime)) animation.finish();
          }
        }
      }
      queue.push({ events: msg.events, room: msg.room, instant: msg.instant });
      // The countdown is the server's time, not the animation's: a new turn's (or a
      // skip's) countdown shows the moment it arrives, never the last turn's leftover.
      showCountdown();
      process();
    } else if (msg.type === "reaction" && reactions) {
      const room = shown || session.room;
      const cardOf = () => cards.querySelector(`[data-testid=seat-card][data-seat="${msg.seat}"]`);
      reactions.showReaction(msg, room, { layer: screen, cardOf });
    } else if (msg.type === "error") {
      handleError(msg);
    } else if (msg.type === "connection") {
      if (msg.state !== "open") clearPending();
      renderControls();
    }
  }

  function loadReactions() {
    reactionsAsked = true;
    // The tray is drawn once its styles apply too (they load with it: online games only).
    Promise.all([import("../reactions.js"), useStyles("reactions.css")]).then(([module]) => {
      if (unmounted) return;
      reactions = module;
      reactionTray = new module.ReactionTray({ send: (message) => session.send(message.type === "reactions" ? { ...message, change: session.change() } : message) });
      reactionSlot.replaceWith(reactionTray.el);
      renderControls();
    }, (err) => console.error(err));
  }

  function handleError(err) {
    clearPending();
    if (err.code === "room_not_found" || err.code === "bad_secret") {
      boardArea.replaceChildren(h("div", { class: "panel-card gone" },
        h("h2", {}, err.code === "room_not_found" ? t("game.gone") : t("game.notPart")),
        // A local game lives in this device's store only: "no room has that code" would mislead.
        h("p", {}, err.local ? t("error.local_game_gone") : errorText(err.code, err.message)),
        h("a", { class: "button button-primary", href: "#/" }, t("game.backHome"))));
      leaving = true;
      return;
    }
    if (err.code === "stale_version") {
      // "Skip to results" still means the same while the AI seats play on (each of their
      // moves is a change): it is sent again, naming the room as the server now shows it.
      if (skipSent && err.ref === skipRef && skipTries < 8) {
        skipTries += 1;
        skipRef = session.send({ type: "finish_ai", change: session.change() });
        return;
      }
      session.resync();
      return;
    }
    const message =
      err.code === "too_many_reactions" && reactions
        ? reactions.WORDS.tooMany(Math.max(1, Math.ceil(err.retryAfter || 1)))
        : errorText(err.code, err.message);
    notice.textContent = message;
    announcer.speak(message);
    setTimeout(() => {
      if (notice.textContent === message) notice.textContent = "";
    }, 6000);
    renderControls();
  }

  async function process() {
    if (busy) return;
    busy = true;
    const gen = generation;
    renderControls();
    try {
      while (queue.length && gen === generation) {
        const update = queue.shift();
        // Catch up when updates pile up; "Skip to results" plays out in a flash.
        const catchUp = update.instant ? 0.04 : queue.length >= 3 ? 0.15 : queue.length >= 1 ? 0.45 : 1;
        setBoost(catchUp);
        if (!board) ensureBoard(update.room);
        const names = update.room.seats.map((seat) => seat.name);
        const sentences = describeEvents(update.events, {
          names,
          classic: update.room.rules && update.room.rules.finish === "classic",
          mine: (seat) => session.mySeats().has(seat),
          isAi: (seat) => update.room.seats[seat] && update.room.seats[seat].kind === "ai",
        });
        const spoken = [];
        if (update.instant) {
          // "Skip to results": the rest of the race is already played, so the board goes
          // straight to where it ended and only the finishes are told (a long Last One
          // Standing tail would otherwise take many seconds to watch, even sped up).
          const finishes = new Set(update.events.flatMap((ev, i) => (ev.type === "finished" ? [i] : [])));
          for (const sentence of sentences.filter((x) => finishes.has(x.after) && !x.quiet)) {
            announcer.show(sentence.text);
            spoken.push(sentence.text);
          }
          skipped = true;
          applyRoom(update.room, { glide: true });
          if (spoken.length) announcer.speak(spoken.join(" "));
          continue;
        }
        for (let i = 0; i < update.events.length; i++) {
          if (gen !== generation) return;
          // Fitted again before each event, so time lost to late frames is made up.
          setBoost(Math.min(catchUp, fitBoost(update.room.countdown, update.events.slice(i))));
          await animate(update.events[i], update.room);
          for (const sentence of sentences.filter((x) => x.after === i)) {
            if (!sentence.quiet) announcer.show(sentence.text);
            spoken.push(sentence.text);
          }
        }
        if (gen !== generation) return;
        applyRoom(update.room, { glide: true });
        if (spoken.length) announcer.speak(spoken.join(" "));
      }
    } finally {
      setBoost(1);
      busy = false;
      if (gen !== generation) resumeAll();
      // Overtaken by a skip: its update plays now, and the banner waits for it.
      if (gen !== generation && queue.length) process();
      else renderControls();
    }
    if (gen === generation && shown && isOver(shown)) finishSoon();
  }

  /**
   * The speed-up that ends these events' animation by the time its countdown starts to
   * fall (the server gives a move a fixed time to be shown): a countdown starts when its
   * player can act, at any speed setting and however late the update came.
   */
  function fitBoost(countdown, events) {
    const startsAt = countdownStartsAt(countdown);
    if (startsAt === null) return 1;
    const planned = plannedMs(events) * SPEEDS[getSettings().speed].factor;
    if (planned <= 0) return 1;
    // A frame or two of the margin is kept for the tweens' last frames, which come late.
    return Math.max(0.04, Math.min(1, (startsAt - FRAME_MARGIN_MS - Date.now()) / planned));
  }

  async function animate(ev, room) {
    if (!tokens) return;
    const seat = ev.seat;
    switch (ev.type) {
      case "rolled":
        clearPending();
        turn = seat;
        showTurn(room, seat, ev.bonus);
        renderCards(room);
        sound.roll();
        await die.roll(ev.value, { bonus: ev.bonus });
        if (ev.value === 6) {
          sound.six();
          popMoment(boardArea, "six", t("moment.six"));
        }
        break;
      case "moved":
        tokens.onStep = (s, sq) => {
          squares.set(s, sq);
          sound.step();
          renderCards(room);
        };
        await tokens.walk(seat, ev.start, ev.end);
        squares.set(seat, ev.end);
        break;
      case "climbed":
        board.highlight(ev.start, true);
        sound.climb();
        popMoment(boardArea, "ladder", t("moment.ladder", { start: ev.start, end: ev.end }));
        await tokens.climb(seat, ev.start, ev.end, board.ladderPoints(ev.start));
        board.highlight(ev.start, false);
        squares.set(seat, ev.end);
        await tokens.hop(seat);
        break;
      case "slid":
        board.highlight(ev.start, true);
        board.bite(ev.start, true);
        sound.hiss();
        sound.slide();
        popMoment(boardArea, "snake", t("moment.snake", { start: ev.start, end: ev.end }));
        await tokens.slide(seat, ev.start, ev.end, board.snakePoints(ev.start));
        board.bite(ev.start, false);
        board.highlight(ev.start, false);
        squares.set(seat, ev.end);
        break;
      case "overshot":
        sound.bump();
        await tokens.bump(seat);
        break;
      case "bonus_roll":
        sound.bonus();
        banner.textContent = t("game.sixAgain");
        banner.classList.add("bonus");
        await pause(duration(BONUS_PAUSE_MS));
        break;
      case "finished":
        sound.finish();
        await tokens.layout(squares, { glide: true });
        await tokens.celebrate(seat);
        break;
      case "turn_passed":
        turn = seat;
        showTurn(room, seat, false);
        // The cards say whose turn it is as the banner does, not after the pause.
        tokens.setCurrent(turn);
        renderCards(room);
        // A tab in the background was signalled when the update arrived (turnSignal).
        if (!document.hidden && session.mySeats().has(seat) && room.seats[seat] && room.seats[seat].kind === "human") sound.turn();
        await pause(duration(TURN_PAUSE_MS));
        break;
      case "game_ended":
        sound.win();
        if (room.winner !== null && room.winner !== undefined && room.seats[room.winner]) {
          await popMoment(boardArea, "win", t("result.wins", { name: room.seats[room.winner].name }));
        }
        break;
      default:
        break;
    }
    await tokens.layout(squares, { glide: true });
    tokens.setCurrent(turn);
    renderCards(room);
    renderTray(room);
  }

  function renderTray(room) {
    if (!board) return;
    board.showTray(room.seats.some((seat) => seat.status !== "left" && (squares.get(seat.index) ?? seat.square) === 0), room.seats.length);
  }

  function ensureBoard(room) {
    const key = JSON.stringify(room.board || {});
    if (board && key === boardKey) return;
    boardKey = key;
    board = new Board(room.board || {});
    tokens = new Tokens(board);
    boardArea.replaceChildren(board.el);
  }

  function applyRoom(room, { glide }) {
    ensureBoard(room);
    shown = room;
    if (!isOver(room)) markOver(code, false);
    squares = new Map(room.seats.map((seat) => [seat.index, seat.square]));
    turn = room.turn;
    tokens.setSeats(room.seats);
    tokens.layout(squares, { glide });
    tokens.setCurrent(isOver(room) ? null : room.turn);
    renderTray(room);
    screen.dataset.version = String(room.version);
    screen.dataset.phase = room.phase;
    screen.dataset.mode = room.mode;
    const rules = room.rules || {};
    rulesLine.textContent = [
      finishName(rules.finish || "classic"),
      rules.exact_finish ? t("rules.exactShort") : t("rules.noExactShort"),
      rules.six_again ? t("rules.sixShort") : t("rules.noSixShort"),
    ].join(" · ");
    rulesLine.title = rulesLine.textContent;
    // An online room names its board too: its players chose it in the lobby.
    heading.textContent = room.mode === "pass" ? t("mode.pass") : room.mode === "ai" ? t("mode.ai") : t("online.roomBoard", { code: room.code, board: boardTitle(room.board) });
    board.describe(describePositions(room));
    banner.classList.remove("bonus");
    renderCards(room);
    renderControls();
    renderOdds(room);
    renderFair(room);
    showCountdown();
  }

  /** The newest countdown the server sent (an update still animating may be older). */
  function showCountdown() {
    const latest = session.room || shown;
    const running = !latest || isOver(latest) ? null : latest.countdown;
    if (countdown) countdown.show(running);
    else if (running || (latest && latest.mode === "online")) loadCountdown();
  }

  function loadCountdown() {
    countdownLoading = countdownLoading || import("../countdown.js").then((module) => {
      if (unmounted) return;
      countdown = new module.Countdown();
      countdownStartsAt = module.countdownStartsAt;
      countdownPlace.replaceWith(countdown.el);
      showCountdown();
    }, (err) => {
      countdownLoading = null;
      console.error(err);
    });
  }

  /** Fair dice: the commitment everyone saw before the first roll (checked on Verify). */
  function renderFair(room) {
    const commitment = room.fair && typeof room.fair.commitment === "string" ? room.fair.commitment : "";
    fairLine.hidden = !commitment;
    if (!commitment) return;
    const [before, after = ""] = t("game.fair").split("{commitment}");
    fairLine.replaceChildren(before, h("span", { class: "mono" }, commitment), after);
  }

  /**
   * The optional live odds (Settings: "Show live odds"): each seat's chance to win
   * (Classic) or expected place (Last One Standing), from the server's room.odds. A list
   * in words, so it never relies on the bars' colour or length.
   */
  function renderOdds(room) {
    const on = getSettings().showOdds;
    oddsPanel.hidden = !on || !room;
    if (!on || !room) return;
    const odds = room.odds;
    const values = odds && Array.isArray(odds.values) ? odds.values : null;
    if (!values || (odds.kind !== "win" && odds.kind !== "place")) {
      oddsList.replaceChildren();
      oddsNote.textContent = isOver(room) ? t("odds.over") : room.odds_offline ? t("odds.needsConnection") : t("odds.none");
      return;
    }
    const place = odds.kind === "place";
    const players = room.seats.length;
    oddsNote.textContent = place ? t("odds.placeNote") : t("odds.winNote");
    const marks = tokenMarks(room.seats);
    oddsList.replaceChildren(...room.seats.map((seat, i) => {
      const value = Number(values[seat.index ?? i]);
      let text;
      let share;
      if (seat.status === "left") {
        text = t("odds.left");
        share = 0;
      } else if (!Number.isFinite(value)) {
        text = t("odds.unknown");
        share = 0;
      } else if (place) {
        text = seat.status === "finished" && seat.place ? t("odds.finished", { place: ordinal(seat.place) }) : t("odds.expected", { place: formatNumber(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
        share = players > 1 ? (players - value) / (players - 1) : 1;
      } else {
        const pct = value * 100;
        text = pct > 0 && pct < 1 ? t("odds.under1") : pct > 99 && pct < 100 ? t("odds.over99") : t("odds.chance", { percent: formatNumber(Math.round(pct) / 100, { style: "percent" }) });
        share = value;
      }
      const fill = h("span", { class: "odds-fill" });
      fill.style.width = `${Math.max(0, Math.min(100, share * 100)).toFixed(1)}%`;
      return h("li", { class: `odds-row colour-${seat.colour}`, dataset: { testid: "odds-row", seat: String(seat.index ?? i), value: Number.isFinite(value) ? String(value) : "" } },
        h("span", { class: `token-badge small colour-${seat.colour}`, "aria-hidden": "true" }, marks[i]),
        h("span", { class: "odds-text" }, h("span", { class: "odds-name" }, seat.name), " ", h("span", { class: "odds-value" }, text)),
        h("span", { class: "odds-bar", "aria-hidden": "true" }, fill));
    }));
  }

  /**
   * The "your turn" signal for a tab in the background (online): the title changes, a
   * chime plays and the device vibrates where it can, the moment the turn becomes ours.
   */
  function turnSignal(room) {
    if (!room || room.mode !== "online") return;
    const seat = room.seats && room.seats[room.turn];
    const mine = Boolean(seat && room.phase === "playing" && !isOver(room) && seat.kind === "human"
      && seat.status === "racing" && session.mySeats().has(seat.index));
    if (mine && !turnWasMine && document.hidden) {
      sound.turn();
      ctx.setTitle(`● ${t("announce.yourTurn", { name: seat.name })}`);
      titleSignalled = true;
      if (typeof navigator.vibrate === "function") {
        try {
          navigator.vibrate([120, 60, 120]);
        } catch {
          // Not allowed here: the title and the chime still tell.
        }
      }
    } else if (!mine && titleSignalled) {
      ctx.setTitle(t("game.title"));
      titleSignalled = false;
    }
    turnWasMine = mine;
  }

  function renderCards(room) {
    const host = Boolean(session.you && session.you.host) && room.mode === "online" && !isOver(room);
    renderSeatCards(cards, { seats: room.seats, turn, over: isOver(room) && !busy, mode: room.mode }, squares, session.mySeats(), host ? removePlayer : null);
  }

  function canRoll() {
    if (!shown || busy || pending || queue.length || isOver(shown) || shown.phase !== "playing") return false;
    if (session.connection.state !== "open") return false;
    const seat = shown.seats[shown.turn];
    return Boolean(seat && seat.kind === "human" && session.mySeats().has(seat.index) && seat.status === "racing");
  }

  /**
   * The banner while moves play out: who is rolling now. Updates can follow each other
   * for a long time (AI seats, "Skip to results"), so it must not wait for the end.
   */
  function showTurn(room, index, bonus) {
    const seat = room.seats[index];
    if (!seat) return;
    const mine = session.mySeats().has(index) && seat.kind === "human";
    banner.textContent = bonus && mine ? t("game.bonusRoll", { name: seat.name }) : turnText(seat, mine);
    banner.classList.toggle("bonus", Boolean(bonus));
    banner.classList.toggle("mine", mine);
  }

  function renderControls() {
    const ok = canRoll();
    rollButton.setAttribute("aria-disabled", String(!ok));
    rollButton.classList.toggle("ready", ok);
    if (!shown) return;
    const seat = shown.seats[shown.turn];
    if (isOver(shown)) banner.textContent = t("game.over");
    else if (!busy && seat) showTurn(shown, seat.index, shown.bonus);
    if (watching() && !isOver(shown) && seat) banner.textContent = t("game.watchingTurn", { name: seat.name });
    // Not connected: say so, and what the game waits for (a local game waits for this
    // device; an online one runs on, and this player's countdown with it).
    const state = session.connection.state;
    if (state !== "open" && !isOver(shown)) {
      const where = shown.mode === "online" ? "online" : "local";
      banner.textContent = t(state === "offline" ? `game.offline.${where}` : `game.reconnecting.${where}`);
    }
    const showSkip = Boolean(shown.only_ai_racing) && !isOver(shown) && shown.mode !== "online" && session.mySeats().size > 0;
    skipButton.hidden = !showSkip;
    // Skip to results goes straight there: the result screen is fetched while it is offered.
    if (showSkip) warmResult();
    // Nobody here rolls any more: the big button becomes "Skip to results".
    const rollHadFocus = document.activeElement === rollButton;
    rollButton.hidden = showSkip || watching();
    watchBadge.hidden = !watching();
    if (showSkip && rollHadFocus) skipButton.focus();
    if (!showSkip) skipSent = false;
    skipButton.disabled = skipSent;
    if (reactionTray) reactionTray.update(session.room || shown, session.you, session.mySeats());
    const racingMine = shown.seats.some((seat) => session.mySeats().has(seat.index) && seat.status === "racing");
    leaveButton.hidden = !(shown.mode === "online" && racingMine && !isOver(shown));
  }

  /** A spectator: this device holds no seat here (anyone may open a started game). */
  function watching() {
    return Boolean(session.you && session.you.spectator) || (session.you && session.mySeats().size === 0);
  }

  function roll() {
    if (!canRoll()) return;
    const seat = shown.turn;
    const ref = session.send({ type: "roll", seat, version: session.room ? session.room.version : shown.version });
    if (!ref) {
      notice.textContent = t("game.notConnected");
      return;
    }
    pending = true;
    die.waiting(true);
    renderControls();
    clearTimeout(pendingTimer);
    pendingTimer = setTimeout(() => {
      clearPending();
      renderControls();
    }, 10000);
  }

  function clearPending() {
    pending = false;
    clearTimeout(pendingTimer);
    die.waiting(false);
  }

  async function removePlayer(seat) {
    const ok = await (await import("../dialog.js")).confirmDialog({
      title: t("game.removeTitle", { name: seat.name }),
      text: t("game.removeText", { name: seat.name }),
      ok: t("game.removeOk"),
      cancel: t("game.keepWaiting"),
    });
    if (ok) session.send({ type: "remove", seat: seat.index, change: session.change() });
  }

  async function leaveGame() {
    const ok = await (await import("../dialog.js")).confirmDialog({
      title: t("game.giveUpTitle"),
      text: t("game.giveUpText"),
      ok: t("game.leave"),
      cancel: t("game.keepPlaying"),
    });
    if (!ok) {
      focusRollIfMine();
      return;
    }
    for (const seat of session.mySeats()) session.send({ type: "leave", seat, change: session.change() });
    leaving = true;
    clearGame();
    ctx.navigate("", { guard: false });
  }

  let resultWarmed = false;
  function warmResult() {
    if (resultWarmed) return;
    resultWarmed = true;
    Promise.all([import("./result.js"), useStyles("story.css")]).catch(() => {
      resultWarmed = false;
    });
  }

  function skipToResults() {
    if (skipSent) return;
    skipSent = true;
    skipButton.disabled = true;
    announcer.show(t("game.playingRest"));
    banner.textContent = t("game.playingRest");
    skipTries = 0;
    skipRef = session.send({ type: "finish_ai", change: session.change() });
  }

  let finishTimer = null;
  function finishSoon() {
    if (finishTimer) return;
    markOver(code);
    leaving = true;
    // A race watched to its end pauses on the board; a skipped one has nothing to watch.
    finishTimer = setTimeout(() => ctx.navigate(`result/${code}`, { guard: false }), duration(skipped ? 150 : 1200));
  }

  return () => {
    resumeAll();
    unmounted = true;
    generation += 1;
    clearTimeout(finishTimer);
    clearTimeout(pendingTimer);
    if (countdown) countdown.stop();
    setBoost(1);
    unsubscribe();
    if (reactionTray) reactionTray.destroy();
    announcer.attach(null, null);
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("visibilitychange", onVisible);
    stopSettings();
  };
}

export function isOver(room) {
  return Boolean(room && (room.over || room.phase === "over"));
}
