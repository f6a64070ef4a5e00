// How a moment's events move on the board: the die rolls, the token walks square by
// square, climbs a ladder or slides down a snake, the turn passes, each with its sound and
// big moment, and the announcer tells it in words. Loaded with the first move to show
// (js/game-player.js plays the moments; this is what it plays them with).

import { t } from "./i18n.js";
import { announcer } from "./announcer.js";
import { describeEvents } from "./event-words.js";
import { sound } from "./sound.js";
import { duration, setBoost, getSettings, SPEEDS } from "./settings.js";
import { pause, plannedMs, TURN_PAUSE_MS, BONUS_PAUSE_MS } from "./anim.js";
import { mySeats } from "./reducer.js";
import { countdownStartsAt } from "./countdown.js";

// Each tween ends on the first frame after its time: a busy device's frames come late.
const FRAME_MARGIN_MS = 100;

// The big moments load when first wanted: a six, a ladder, a snake, a win.
let moments = null;
function popMoment(...args) {
  moments = moments || import("./moments.js");
  return moments.then((module) => module.popMoment(...args));
}

/** Play `moment` on the player's board; `wasCut()` says the store has cut it short. */
export async function playMoment(player, moment, catchUp, wasCut) {
  if (moment.instant) tellFinishes(player, moment);
  else await playEvents(player, moment, catchUp, wasCut);
}

function sentences(player, moment) {
  const room = moment.room;
  const mine = mySeats(player.store.getState());
  return describeEvents(moment.events, {
    names: room.seats.map((seat) => seat.name),
    classic: room.rules && room.rules.finish === "classic",
    mine: (seat) => mine.has(seat),
    isAi: (seat) => room.seats[seat] && room.seats[seat].kind === "ai",
  });
}

/** "Skip to results": the rest of the race is already played, so the board goes
 * straight to where it ended and only the finishes are told. */
function tellFinishes(player, moment) {
  const finishes = new Set(moment.events.flatMap((ev, i) => (ev.type === "finished" ? [i] : [])));
  const spoken = sentences(player, moment).filter((x) => finishes.has(x.after) && !x.quiet).map((x) => x.text);
  for (const text of spoken) announcer.show(text);
  if (spoken.length) announcer.speak(spoken.join(" "));
}

async function playEvents(player, moment, catchUp, wasCut) {
  const told = sentences(player, moment);
  const spoken = [];
  for (let i = 0; i < moment.events.length; i++) {
    if (wasCut()) return;
    // Fitted again before each event, so time lost to late frames is made up.
    setBoost(Math.min(catchUp, fitBoost(moment.room.countdown, moment.events.slice(i))));
    await animate(player, moment.events[i], moment.room);
    for (const sentence of told.filter((x) => x.after === i)) {
      if (!sentence.quiet) announcer.show(sentence.text);
      spoken.push(sentence.text);
    }
  }
  if (spoken.length && !wasCut()) announcer.speak(spoken.join(" "));
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

async function animate(player, ev, room) {
  const { board, tokens, squares } = player;
  const seat = ev.seat;
  const step = MOVES[ev.type];
  if (step) await step(player, ev, room, { board, tokens, squares, seat });
  // A missed turn moves no token: nothing to glide, and the turn it passes to is shown
  // at once (its banner never lags behind the next player's countdown).
  if (step || ev.type !== "skipped") await tokens.layout(squares, { glide: true });
  tokens.setCurrent(player.turn);
  player.view.cards(room, squares, player.turn);
  player.renderTray(room);
}

// How each event is shown on the board, by the player.
const MOVES = {
  async rolled(player, ev, room, { seat }) {
    player.turn = seat;
    player.view.turn(room, seat, ev.bonus);
    player.view.cards(room, player.squares, seat);
    sound.roll();
    await player.die.roll(ev.value, { bonus: ev.bonus });
    if (ev.value === 6) {
      sound.six();
      popMoment(player.area, "six", t("moment.six"));
    }
  },
  async moved(player, ev, room, { tokens, squares, seat }) {
    tokens.onStep = (s, sq) => {
      squares.set(s, sq);
      sound.step();
      player.view.cards(room, squares, player.turn);
    };
    await tokens.walk(seat, ev.start, ev.end);
    squares.set(seat, ev.end);
  },
  async climbed(player, ev, _room, { board, tokens, squares, seat }) {
    board.highlight(ev.start, true);
    sound.climb();
    popMoment(player.area, "ladder", t("moment.ladder", { start: ev.start, end: ev.end }));
    await tokens.climb(seat, ev.start, ev.end, board.ladderPoints(ev.start));
    board.highlight(ev.start, false);
    squares.set(seat, ev.end);
    await tokens.hop(seat);
  },
  async slid(player, ev, _room, { board, tokens, squares, seat }) {
    board.highlight(ev.start, true);
    board.bite(ev.start, true);
    sound.hiss();
    sound.slide();
    popMoment(player.area, "snake", t("moment.snake", { start: ev.start, end: ev.end }));
    await tokens.slide(seat, ev.start, ev.end, board.snakePoints(ev.start));
    board.bite(ev.start, false);
    board.highlight(ev.start, false);
    squares.set(seat, ev.end);
  },
  async overshot(player, _ev, _room, { tokens, seat }) {
    sound.bump();
    await tokens.bump(seat);
  },
  async bonus_roll(player) {
    sound.bonus();
    player.view.sixAgain();
    await pause(duration(BONUS_PAUSE_MS));
  },
  async finished(player, _ev, _room, { tokens, squares, seat }) {
    sound.finish();
    await tokens.layout(squares, { glide: true });
    await tokens.celebrate(seat);
  },
  async turn_passed(player, _ev, room, { tokens, seat }) {
    player.turn = seat;
    player.view.turn(room, seat, false);
    // The cards say whose turn it is as the banner does, not after the pause.
    tokens.setCurrent(seat);
    player.view.cards(room, player.squares, seat);
    // A tab in the background was signalled when the update arrived (js/online-table.js).
    const mine = mySeats(player.store.getState()).has(seat);
    if (!document.hidden && mine && room.seats[seat] && room.seats[seat].kind === "human") sound.turn();
    await pause(duration(TURN_PAUSE_MS));
  },
  async game_ended(player, _ev, room) {
    sound.win();
    if (room.winner !== null && room.winner !== undefined && room.seats[room.winner]) {
      await popMoment(player.area, "win", t("result.wins", { name: room.seats[room.winner].name }));
    }
  },
};
