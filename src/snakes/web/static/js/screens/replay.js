// "Watch the replay": a finished game move by move on the board, beside the chart of
// each seat's odds after every move. Positions, events and odds all come from the
// story of the game (js/story-data.js: the server's engine for an online game, the page's
// port of it for a game at your own table); this screen decides no rule. Play/pause, step, first/last and speeds 1x-8x, all by keyboard too:
// Space or K play/pause, Left/Right step, Home/End first/last, 1/2/4/8 the speed.

import { h, isInteractive } from "../dom.js";
import { t, list, errorText } from "../i18n.js";
import { finishName } from "../config.js";
import { boardTitle } from "../board-picker.js";
import { Board } from "../board.js";
import { Tokens } from "../tokens.js";
import { describePositions } from "../announcer.js";
import { setBoost, duration } from "../settings.js";
import { pause } from "../anim.js";
import { getStory } from "../story-data.js";
import { oddsChart } from "../odds-chart.js";
import { replayLayout, stepWords, renderOdds, renderMoments, SPEEDS } from "../replay-parts.js";

const STEP_MS = 900; // one move at 1x, animation included
// The keys of the replay, and what each does.
const KEYS = {
  " ": (r) => r.toggle(),
  k: (r) => r.toggle(),
  K: (r) => r.toggle(),
  ArrowRight: (r) => r.stepForward(),
  ArrowLeft: (r) => r.jump(r.index - 1),
  Home: (r) => r.jump(0),
  End: (r) => r.jump(r.story.steps.length - 1),
};

export function mount(root, route, ctx) {
  const code = String(route.params[0] || "").toUpperCase();
  const gameNumber = Number.parseInt(route.params[1] || "", 10);
  ctx.setTitle(t("replay.title"));
  const replay = new Replay(root, code, Number.isInteger(gameNumber) && gameNumber > 0 ? gameNumber : null);
  return () => replay.stop();
}

class Replay {
  constructor(root, code, game) {
    Object.assign(this, { story: null, board: null, tokens: null, chart: null, index: 0, playing: false, speed: 1, generation: 0, work: Promise.resolve(), gone: false });
    this.ui = replayLayout(code, {
      first: () => this.jump(0),
      back: () => this.jump(this.index - 1),
      toggle: () => this.toggle(),
      forward: () => this.stepForward(),
      last: () => this.jump(this.story ? this.story.steps.length - 1 : 0),
      speed: (value) => this.setSpeed(value),
      scrub: (i) => this.jump(i),
    });
    root.append(this.ui.screen);
    this.ui.heading.focus({ preventScroll: true });
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    getStory(code, game).then((data) => this.start(data), (err) => {
      if (this.gone) return;
      this.ui.boardArea.replaceChildren(h("div", { class: "panel-card gone", dataset: { testid: "replay-error" } },
        h("h2", {}, err.code === "record_not_found" ? t("replay.none") : t("replay.failed")),
        h("p", {}, errorText(err.code, err.message)),
        h("a", { class: "button button-primary", href: "#/" }, t("common.home"))));
    });
  }

  stop() {
    this.gone = true;
    this.generation += 1;
    setBoost(1);
    document.removeEventListener("keydown", this.onKey);
  }

  key(e) {
    if (!this.story || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (document.querySelector("dialog[open]")) return;
    if (e.target instanceof Element && e.target.closest("input, textarea, select")) return;
    if (e.key === " " && isInteractive(e.target)) return;
    if (["1", "2", "4", "8"].includes(e.key)) {
      this.setSpeed(Number(e.key));
      return;
    }
    const action = KEYS[e.key];
    if (!action) return;
    e.preventDefault();
    action(this);
  }

  start(data) {
    if (this.gone) return;
    this.story = data;
    const classic = this.story.kind === "win";
    this.ui.heading.textContent = t("replay.heading", { names: list(this.story.seats.map((seat) => seat.name)) });
    this.ui.subtitle.textContent = [
      finishName(classic ? "classic" : "last-one-standing"),
      t("replay.moves", { count: this.story.steps.length - 1 }),
      t("replay.board", { board: boardTitle({ name: this.story.board.name || "jungle" }) }),
    ].join(" · ");
    this.board = new Board(this.story.board);
    this.board.showTray(true, this.story.seats.length); // a slot for each player of the game
    this.tokens = new Tokens(this.board);
    this.ui.boardArea.replaceChildren(this.board.el);
    this.tokens.setSeats(this.seatsAt(0));
    this.ui.scrub.max = String(this.story.steps.length - 1);
    this.chart = oddsChart(this.story, { onPick: (i) => this.jump(i) });
    this.ui.chartArea.replaceChildren(this.chart.el);
    renderMoments(this.ui.momentsPanel, this.ui.momentList, this.story, (i) => this.jump(i));
    this.show(0, { glide: false });
  }

  seatsAt(i) {
    const step = this.story.steps[i];
    return this.story.seats.map((seat) => {
      const place = step.standings.indexOf(seat.index);
      const status = place >= 0 ? "finished" : step.leavers.includes(seat.index) ? "left" : "racing";
      return { ...seat, square: step.positions[seat.index], status, place: place >= 0 ? place + 1 : null };
    });
  }

  /** Put the board, counter, odds and chart at move `i` (no animation of the move). */
  show(i, { glide = true } = {}) {
    this.index = i;
    const step = this.story.steps[i];
    const seats = this.seatsAt(i);
    this.tokens.setSeats(seats);
    this.tokens.layout(new Map(seats.map((seat) => [seat.index, seat.square])), { glide });
    this.tokens.setCurrent(step.over ? null : step.turn);
    this.board.describe(describePositions({ seats, board: this.story.board }));
    this.ui.screen.dataset.step = String(i);
    this.ui.screen.dataset.positions = step.positions.join(",");
    this.ui.counter.textContent = i === 0 ? t("replay.counterStart", { total: this.story.steps.length - 1 }) : t("replay.counter", { n: i, total: this.story.steps.length - 1 });
    this.ui.what.textContent = stepWords(this.story, step);
    this.ui.scrub.value = String(i);
    this.ui.scrub.setAttribute("aria-valuetext", this.ui.counter.textContent);
    this.chart.setCursor(i);
    renderOdds(this.ui.oddsList, this.story, step, seats);
    this.ui.backButton.disabled = this.ui.firstButton.disabled = i === 0;
    this.ui.forwardButton.disabled = this.ui.lastButton.disabled = i >= this.story.steps.length - 1;
    if (i >= this.story.steps.length - 1 && this.playing) this.setPlaying(false);
  }

  /** Serialise changes of position: an animation finishes before the next one starts. */
  queue(task) {
    this.work = this.work.then(task).catch((err) => console.error(err));
    return this.work;
  }

  jump(i) {
    if (!this.story) return;
    this.setPlaying(false);
    const target = Math.max(0, Math.min(this.story.steps.length - 1, i));
    this.generation += 1;
    this.queue(() => this.show(target, { glide: false }));
  }

  stepForward() {
    if (!this.story || this.index >= this.story.steps.length - 1) return;
    this.setPlaying(false);
    this.generation += 1;
    const gen = this.generation;
    this.queue(() => this.animateTo(this.index + 1, gen));
  }

  async animateTo(i, gen) {
    if (this.gone || gen !== this.generation || i > this.story.steps.length - 1) return;
    const step = this.story.steps[i];
    setBoost(1 / this.speed);
    try {
      const squares = new Map(this.story.steps[i - 1].positions.map((square, seat) => [seat, square]));
      for (const ev of step.events) {
        if (this.gone || gen !== this.generation) break;
        await this.animateEvent(ev, squares);
      }
    } finally {
      setBoost(1);
    }
    if (!this.gone) this.show(i, { glide: false });
  }

  async animateEvent(ev, squares) {
    const seat = ev.seat;
    switch (ev.type) {
      case "moved":
        await this.tokens.walk(seat, ev.start, ev.end);
        squares.set(seat, ev.end);
        break;
      case "climbed":
        this.board.highlight(ev.start, true);
        await this.tokens.climb(seat, ev.start, ev.end, this.board.ladderPoints(ev.start));
        this.board.highlight(ev.start, false);
        squares.set(seat, ev.end);
        break;
      case "slid":
        this.board.highlight(ev.start, true);
        await this.tokens.slide(seat, ev.start, ev.end, this.board.snakePoints(ev.start));
        this.board.highlight(ev.start, false);
        squares.set(seat, ev.end);
        break;
      case "overshot":
        await this.tokens.bump(seat);
        break;
      case "finished":
        await this.tokens.celebrate(seat);
        break;
      default:
        break;
    }
    await this.tokens.layout(squares, { glide: true });
  }

  setPlaying(on) {
    this.playing = on;
    this.ui.playButton.textContent = on ? t("replay.pause") : t("replay.play");
    this.ui.playButton.setAttribute("aria-pressed", String(on));
    this.ui.screen.dataset.playing = String(on);
  }

  toggle() {
    if (!this.story) return;
    if (this.playing) {
      this.setPlaying(false);
      this.generation += 1;
      return;
    }
    if (this.index >= this.story.steps.length - 1) this.show(0, { glide: false });
    this.setPlaying(true);
    this.generation += 1;
    const gen = this.generation;
    this.queue(async () => {
      while (this.playing && !this.gone && gen === this.generation && this.index < this.story.steps.length - 1) {
        const started = performance.now();
        await this.animateTo(this.index + 1, gen);
        const left = duration(STEP_MS) / this.speed - (performance.now() - started);
        if (left > 0) await pause(left);
      }
      if (gen === this.generation) this.setPlaying(false);
    });
  }

  setSpeed(value) {
    this.speed = value;
    this.ui.speedButtons.forEach((b, i) => b.setAttribute("aria-pressed", String(SPEEDS[i] === value)));
    this.ui.screen.dataset.speed = String(value);
  }
}
