// What an online room adds to the game screen, drawn from the room's store: the turn's
// countdown, the reactions (the tray, and those that float up from a seat's card), the
// "your turn" signal for a tab in the background, the fair dice's commitment, and the
// host's power to remove a player. Loaded with the first online room: a game at your own
// table never fetches it (the first load stays small: docs/BENCHMARKS.md).

import { h } from "./dom.js";
import { t, loadLater } from "./i18n.js";
import { sound } from "./sound.js";
import { announcer } from "./announcer.js";
import { useStyles, loadRetrying } from "./lazy-screen.js";
import { Countdown } from "./countdown.js";
import { isOver, mySeats } from "./reducer.js";
import { clearGame } from "./saved-game.js";

/** focusRoll(): back from a dialog on this device's turn, Roll takes the focus. */
export function onlineTable({ store, ui, ctx, focusRoll }) {
  const countdown = new Countdown();
  ui.countdownPlace.replaceWith(countdown.el);
  const reactions = tableReactions(store, ui);
  const removal = removalNotice(ctx);
  const outage = tableOutage(ui, countdown, store);
  const onVisible = () => {
    if (!document.hidden) ctx.setTitle(t("game.title"));
  };
  document.addEventListener("visibilitychange", onVisible);
  ui.leaveButton.addEventListener("click", () => leaveGame());

  function render(state, prev) {
    if (state.room !== prev.room) {
      // The countdown is the server's time, not the animation's: a new turn's (or a
      // skip's) countdown shows the moment it arrives, never the last turn's leftover.
      countdown.show(state.room && !isOver(state.room) ? state.room.countdown : null);
      turnSignal(state, prev);
    }
    outage.render(state);
    if (state.shown !== prev.shown && state.shown) renderFair(state.shown);
    if (state.shown) {
      const racingMine = state.shown.seats.some((seat) => mySeats(state).has(seat.index) && seat.status === "racing");
      ui.leaveButton.hidden = !(racingMine && !isOver(state.shown));
    }
    reactions.render(state, prev);
    removal.render(state);
  }

  /**
   * The "your turn" signal for a tab in the background: the title changes, a chime plays
   * and the device vibrates where it can, the moment the turn becomes ours.
   */
  function turnSignal(state, prev) {
    const mine = myTurn(state);
    if (mine && !myTurn(prev) && document.hidden) {
      sound.turn();
      ctx.setTitle(`● ${t("announce.yourTurn", { name: state.room.seats[state.room.turn].name })}`);
      if (typeof navigator.vibrate === "function") {
        try {
          navigator.vibrate([120, 60, 120]);
        } catch {
          // Not allowed here: the title and the chime still tell.
        }
      }
    } else if (!mine && myTurn(prev)) ctx.setTitle(t("game.title"));
  }

  /** Fair dice: the commitment everyone saw before the first roll (checked on Verify). */
  function renderFair(shown) {
    const commitment = shown.fair && typeof shown.fair.commitment === "string" ? shown.fair.commitment : "";
    ui.fairLine.hidden = !commitment;
    if (!commitment) return;
    const [before, after = ""] = t("game.fair").split("{commitment}");
    ui.fairLine.replaceChildren(before, h("span", { class: "mono" }, commitment), after);
  }

  /** "Leave game": this device gives up its seats, and goes home. */
  async function leaveGame() {
    const ok = await (await import("./dialog.js")).confirmDialog({
      title: t("game.giveUpTitle"),
      text: t("game.giveUpText"),
      ok: t("game.leave"),
      cancel: t("game.keepPlaying"),
    });
    if (!ok) return focusRoll();
    for (const seat of mySeats(store.getState())) store.dispatch({ type: "intent", message: { type: "leave", seat } });
    clearGame();
    ctx.navigate("", { guard: false });
  }

  async function removePlayer(seat) {
    const ok = await (await import("./dialog.js")).confirmDialog({
      title: t("game.removeTitle", { name: seat.name }),
      text: t("game.removeText", { name: seat.name }),
      ok: t("game.removeOk"),
      cancel: t("game.keepWaiting"),
    });
    if (ok) store.dispatch({ type: "intent", message: { type: "remove", seat: seat.index } });
  }

  return {
    render,
    removePlayer,
    noticeText: reactions.noticeText,
    outageText: outage.text,
    stop() {
      countdown.destroy();
      outage.stop();
      reactions.stop();
      document.removeEventListener("visibilitychange", onVisible);
    },
  };
}

/** This device's player was removed by the host (told on the update, or on coming back
 * to a welcome, which has no events): say who did it and why, then watch or go. */
function removalNotice(ctx) {
  let told = false;
  async function tell(room) {
    told = true;
    await loadLater().catch(() => {});
    const host = room.seats.find((seat) => seat.host);
    const leave = await (await import("./dialog.js")).confirmDialog({
      title: t("online.removedTitle"),
      text: t("online.removedText", { host: host ? host.name : "" }),
      ok: t("online.removedLeave"),
      cancel: t("online.removedWatch"),
    });
    if (!leave) return;
    clearGame();
    ctx.navigate("", { guard: false });
  }
  return {
    render(state) {
      if (!told && state.room && removedMine(state)) tell(state.room);
    },
  };
}

const LONG_OUTAGE_MS = 10_000; // no connection this long: say what happens next

/**
 * An outage told truly, and as it lasts: this device offline (the game goes on without
 * it), or the game server out of reach (then nothing goes on: once it is back, the game
 * goes on where it stopped, its countdown started again in full). The banner says which;
 * the line under it (the last event's, given back after) what it means, and after a
 * while what happens next. Meanwhile the countdown stops where it was: it cannot be
 * followed from here, or cannot run at all.
 */
function tableOutage(ui, countdown, store) {
  let timer = null;
  let lost = null;
  let said = "";
  let before = null; // the line's words before the outage
  const kindOf = (c) => (c.lost === null || c.state === "closed" ? null : c.state === "offline" ? "offline" : "unreachable");
  const key = (state) => {
    const kind = kindOf(state.connection);
    return kind && `${kind}${Date.now() - state.connection.lost >= LONG_OUTAGE_MS ? "Long" : ""}`;
  };
  const text = (state) => {
    const kind = kindOf(state.connection);
    return kind && t(`online.outage.${kind}`);
  };
  const tell = (state) => {
    const which = key(state);
    const note = which ? t(`online.outageNote.${which}`) : "";
    if (note && note !== said) {
      if (before === null) before = ui.logLine.textContent;
      ui.banner.textContent = text(state);
      ui.logLine.textContent = note;
      ui.logLine.classList.add("outage");
      announcer.speak(`${text(state)}. ${note}`);
    } else if (!note && said) {
      // Back: the last event's words again, unless a newer one was written meanwhile.
      if (ui.logLine.textContent === said) ui.logLine.textContent = before;
      ui.logLine.classList.remove("outage");
      before = null;
    }
    said = note;
  };
  return {
    text,
    render(state) {
      const c = state.connection;
      const kind = kindOf(c);
      if (kind) countdown.freeze(kind, t(`online.countdown.${kind}`));
      if (c.lost !== lost) {
        lost = c.lost;
        clearTimeout(timer);
        if (kind) timer = setTimeout(() => tell(store.getState()), c.lost + LONG_OUTAGE_MS - Date.now());
      }
      tell(state);
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/** A seat this device held was removed by the host (and none of its seats races). */
function removedMine(state) {
  const seats = state.room.seats.filter((seat) => mySeats(state).has(seat.index));
  return seats.some((seat) => seat.removed) && !seats.some((seat) => seat.status === "racing");
}

/** It is a seat's turn that this device holds, online, in a game still on. */
function myTurn(state) {
  const room = state.room;
  if (!room || room.mode !== "online" || room.phase !== "playing" || isOver(room)) return false;
  const seat = room.seats[room.turn];
  return Boolean(seat && seat.kind === "human" && seat.status === "racing" && mySeats(state).has(seat.index));
}

/** The reactions at the table: the tray to send one from, and those that float up from a
 * seat's card; their code and styles load with them. */
function tableReactions(store, ui) {
  let loaded = null; // {module, tray}
  let gone = false;
  loadRetrying(() => Promise.all([import("./reactions.js"), useStyles("reactions.css"), loadLater()]), () => gone).then(([module]) => {
    if (gone) return;
    const send = (message) => store.dispatch({ type: "intent", message });
    loaded = { module, tray: new module.ReactionTray({ send }) };
    ui.reactionSlot.replaceWith(loaded.tray.el);
    const state = store.getState();
    loaded.tray.update(state.room, state.you, mySeats(state));
    // Those that came while it loaded are old news.
    for (const shown of state.reactions) store.dispatch({ type: "reaction_shown", id: shown.id });
  });
  return {
    render(state, prev) {
      if (!loaded) return;
      const { module, tray } = loaded;
      if (state.room !== prev.room) tray.update(state.room, state.you, mySeats(state));
      for (const moment of state.moments.filter((m) => !prev.moments.includes(m))) {
        // The host's switch is said at once; it is no move to wait for.
        const switched = moment.events.find((ev) => ev.type === "reactions_changed");
        if (switched) announcer.speak(switched.on ? module.WORDS.turnedOn : module.WORDS.turnedOff);
      }
      for (const shown of state.reactions) {
        const cardOf = () => ui.cards.querySelector(`[data-testid=seat-card][data-seat="${shown.seat}"]`);
        module.showReaction(shown, state.shown || state.room, { layer: ui.screen, cardOf });
        store.dispatch({ type: "reaction_shown", id: shown.id });
      }
    },
    noticeText(notice) {
      if (notice.code !== "too_many_reactions" || !loaded) return null;
      return loaded.module.WORDS.tooMany(Math.max(1, Math.ceil(notice.retryAfter || 1)));
    },
    stop() {
      gone = true;
      if (loaded) loaded.tray.destroy();
    },
  };
}
