// The board of the game screen, and the player of the moments the store leaves: each
// update's events animate in order (js/moment-moves.js: the die, the walk, the ladder or
// snake, the turn passing, told in words too), then the store hears the moment was
// played. It keeps only what the animation itself is doing: which moment is on the
// board, and whether the store has cut it short (a welcome, "Skip to results").

import { Board } from "./board.js";
import { Tokens } from "./tokens.js";
import { describePositions } from "./announcer.js";
import { setBoost } from "./settings.js";
import { endAll, resumeAll } from "./anim.js";
import { isOver } from "./reducer.js";

// How a moment's events move on the board (js/moment-moves.js, with the sounds and the
// words of events) loads with the first move to show: a first game's load, up to its
// first board, stays small (tests/browser/test_page_weight.py).
let moves = null;
function loadMoves() {
  moves = moves || import("./moment-moves.js").catch((err) => {
    moves = null;
    console.error(err);
    return null;
  });
  return moves;
}

export class MomentPlayer {
  /**
   * area: the board's box; die: the Die; view: {cards(room, squares, turn),
   * turn(room, seat, bonus), sixAgain()} of the screen; store: the room's store.
   */
  constructor({ area, die, view, store }) {
    Object.assign(this, { area, die, view, store });
    this.board = null;
    this.boardKey = "";
    this.tokens = null;
    this.squares = new Map();
    this.turn = null;
    this.onBoard = null; // the moment being played
    this.cut = store.getState().cut;
  }

  /** Follow the store: end the moment playing if it was cut, play the next one. */
  follow(state) {
    if (state.cut !== this.cut) {
      this.cut = state.cut;
      if (this.onBoard) this.endNow();
    }
    if (!this.onBoard && state.moments.length && state.playing === null) this.play(state.moments[0], state.moments.length - 1);
  }

  /** Draw `room` on the board as it is (no moves to show): tokens, turn, tray, words. */
  settle(room, { glide = false } = {}) {
    this.ensureBoard(room);
    this.squares = new Map(room.seats.map((seat) => [seat.index, seat.square]));
    this.turn = room.turn;
    this.tokens.setSeats(room.seats);
    this.tokens.layout(this.squares, { glide });
    this.tokens.setCurrent(isOver(room) ? null : room.turn);
    this.renderTray(room);
    this.board.describe(describePositions(room));
  }

  ensureBoard(room) {
    const key = JSON.stringify(room.board || {});
    if (this.board && key === this.boardKey) return;
    this.boardKey = key;
    this.board = new Board(room.board || {});
    this.tokens = new Tokens(this.board);
    this.area.replaceChildren(this.board.el);
  }

  renderTray(room) {
    if (!this.board) return;
    const atStart = room.seats.some((seat) => seat.status !== "left" && (this.squares.get(seat.index) ?? seat.square) === 0);
    this.board.showTray(atStart, room.seats.length);
  }

  /** Tweens, pauses and the die's animations end now: what they show is old news. */
  endNow() {
    endAll();
    for (const animation of this.die.el.getAnimations({ subtree: true })) {
      if (Number.isFinite(animation.effect?.getComputedTiming().endTime)) animation.finish();
    }
  }

  async play(moment, waiting) {
    const { store } = this;
    this.onBoard = moment;
    const cut = this.cut;
    store.dispatch({ type: "moment_started", id: moment.id });
    // Catch up when updates pile up; "Skip to results" plays out in a flash.
    const catchUp = moment.instant ? 0.04 : waiting >= 3 ? 0.15 : waiting >= 1 ? 0.45 : 1;
    try {
      const moves = await loadMoves();
      setBoost(catchUp);
      this.ensureBoard(moment.room);
      if (moves) await moves.playMoment(this, moment, catchUp, () => cut !== this.cut);
      if (cut === this.cut) this.settle(moment.room, { glide: true });
    } finally {
      setBoost(1);
      if (cut !== this.cut) resumeAll();
      this.onBoard = null;
    }
    if (cut === this.cut) store.dispatch({ type: "moment_played", id: moment.id });
    else this.follow(store.getState());
  }

}
