// "Watch the replay": a finished game move by move on the board, beside the chart of
// each seat's odds after every move. Positions, events and odds all come from the
// server's story of the game (the engine replayed the record); this screen decides no
// rule. Play/pause, step, first/last and speeds 1x-8x, all by keyboard too:
// Space or K play/pause, Left/Right step, Home/End first/last, 1/2/4/8 the speed.

import { h, s, isInteractive } from "../dom.js";
import { t, ordinal, list, errorText } from "../i18n.js";
import { finishName } from "../config.js";
import { boardTitle } from "../board-picker.js";
import { Board } from "../board.js";
import { Tokens } from "../tokens.js";
import { describeEvents, describePositions } from "../announcer.js";
import { setBoost, duration } from "../settings.js";
import { pause } from "../anim.js";
import { tokenMarks } from "../colours.js";
import { getStory } from "../story-data.js";
import { oddsChart, formatOdds, oddsWords } from "../odds-chart.js";

const SPEEDS = [1, 2, 4, 8];
const STEP_MS = 900; // one move at 1x, animation included

export function mount(root, route, ctx) {
  const code = String(route.params[0] || "").toUpperCase();
  const gameNumber = Number.parseInt(route.params[1] || "", 10);
  const game = Number.isInteger(gameNumber) && gameNumber > 0 ? gameNumber : null;
  ctx.setTitle(t("replay.title"));

  let story = null;
  let board = null;
  let tokens = null;
  let chart = null;
  let index = 0;
  let playing = false;
  let speed = 1;
  let generation = 0;
  let work = Promise.resolve();
  let gone = false;

  const heading = h("h1", { class: "replay-title", tabindex: "-1" }, t("replay.title"));
  const subtitle = h("p", { class: "rules-line replay-subtitle" });
  const boardArea = h("div", { class: "replay-board" }, h("p", { class: "loading" }, t("replay.loading")));
  const counter = h("p", { class: "replay-counter", dataset: { testid: "replay-counter" } });
  const what = h("p", { class: "replay-what", role: "status", "aria-live": "polite", dataset: { testid: "replay-what" } });
  // Icons drawn in SVG: the system fonts do not all have the media-control symbols.
  const icon = (d) => s("svg", { class: "replay-icon", viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", focusable: "false" }, s("path", { d, fill: "currentColor" }));
  const ICONS = {
    first: "M5 4h3v16H5z M20 4v16L9 12z",
    back: "M18 4v16L6 12z",
    forward: "M6 4v16l12-8z",
    last: "M16 4h3v16h-3z M4 4v16l11-8z",
  };
  const button = (testid, name, label, onClick) =>
    h("button", { class: "button button-secondary replay-button", type: "button", "aria-label": label, title: label, dataset: { testid }, on: { click: onClick } }, icon(ICONS[name]));
  const firstButton = button("replay-first", "first", t("replay.first"), () => jump(0));
  const backButton = button("replay-back", "back", t("replay.back"), () => jump(index - 1));
  const playButton = h("button", { class: "button button-primary replay-play", type: "button", "aria-pressed": "false", dataset: { testid: "replay-play" }, on: { click: () => toggle() } }, t("replay.play"));
  const forwardButton = button("replay-forward", "forward", t("replay.forward"), () => stepForward());
  const lastButton = button("replay-last", "last", t("replay.last"), () => jump(story ? story.steps.length - 1 : 0));
  const speedButtons = SPEEDS.map((value) => h("button", {
    class: "button button-ghost replay-speed", type: "button", "aria-pressed": String(value === speed),
    dataset: { testid: `replay-speed-${value}` }, on: { click: () => setSpeed(value) },
  }, t("replay.speed", { speed: value })));
  const scrub = h("input", {
    class: "replay-scrub", type: "range", min: "0", max: "0", value: "0", step: "1",
    "aria-label": t("replay.move"), dataset: { testid: "replay-scrub" },
    on: { input: () => jump(Number(scrub.value)) },
  });
  const oddsList = h("ol", { class: "replay-odds", dataset: { testid: "replay-odds" } });
  const chartArea = h("div", { class: "replay-chart" });
  const momentList = h("ol", { class: "replay-moments", dataset: { testid: "replay-moments" } });
  const momentsPanel = h("section", { class: "panel-card replay-moments-card", "aria-labelledby": "moments-heading", hidden: true },
    h("h2", { id: "moments-heading", class: "panel-heading" }, t("replay.moments")),
    momentList);
  const back = h("a", { class: "button button-ghost home-button", href: `#/result/${encodeURIComponent(code)}`, dataset: { testid: "replay-results" } },
    h("span", { "aria-hidden": "true" }, "← "), t("result.title"));

  const screen = h("section", { class: "screen replay", dataset: { screen: "replay", code, step: "" } },
    h("div", { class: "game-top" }, back, h("div", { class: "game-heading" }, heading, subtitle)),
    h("div", { class: "replay-layout" },
      boardArea,
      h("div", { class: "replay-side" },
        h("div", { class: "control-card replay-controls", role: "group", "aria-label": t("replay.controls") },
          counter,
          h("div", { class: "replay-buttons" }, firstButton, backButton, playButton, forwardButton, lastButton),
          scrub,
          h("div", { class: "replay-speeds", role: "group", "aria-label": t("replay.speedLabel") },
            h("span", { class: "replay-speed-label", "aria-hidden": "true" }, t("replay.speedLabel")), speedButtons),
          what),
        h("section", { class: "panel-card replay-odds-card", "aria-labelledby": "replay-odds-heading" },
          h("h2", { id: "replay-odds-heading", class: "panel-heading" }, t("replay.oddsHeading")),
          oddsList,
          chartArea),
        momentsPanel)));
  root.append(screen);
  heading.focus({ preventScroll: true });

  const onKey = (e) => {
    if (!story || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (document.querySelector("dialog[open]")) return;
    const typing = e.target instanceof Element && e.target.closest("input, textarea, select");
    if (typing) return;
    const key = e.key;
    if ((key === " " || key === "k" || key === "K") && !(key === " " && isInteractive(e.target))) {
      e.preventDefault();
      toggle();
    } else if (key === "ArrowRight") {
      e.preventDefault();
      stepForward();
    } else if (key === "ArrowLeft") {
      e.preventDefault();
      jump(index - 1);
    } else if (key === "Home") {
      e.preventDefault();
      jump(0);
    } else if (key === "End") {
      e.preventDefault();
      jump(story.steps.length - 1);
    } else if (["1", "2", "4", "8"].includes(key)) {
      setSpeed(Number(key));
    }
  };
  document.addEventListener("keydown", onKey);

  getStory(code, game).then(start, (err) => {
    if (gone) return;
    boardArea.replaceChildren(h("div", { class: "panel-card gone", dataset: { testid: "replay-error" } },
      h("h2", {}, err.code === "record_not_found" ? t("replay.none") : t("replay.failed")),
      h("p", {}, errorText(err.code, err.message)),
      h("a", { class: "button button-primary", href: "#/" }, t("common.home"))));
  });

  function start(data) {
    if (gone) return;
    story = data;
    const classic = story.kind === "win";
    heading.textContent = t("replay.heading", { names: list(story.seats.map((seat) => seat.name)) });
    subtitle.textContent = [
      finishName(classic ? "classic" : "last-one-standing"),
      t("replay.moves", { count: story.steps.length - 1 }),
      t("replay.board", { board: boardTitle({ name: story.board.name || "jungle" }) }),
    ].join(" · ");
    board = new Board(story.board);
    board.showTray(true, story.seats.length); // a slot for each player of the game
    tokens = new Tokens(board);
    boardArea.replaceChildren(board.el);
    tokens.setSeats(seatsAt(0));
    scrub.max = String(story.steps.length - 1);
    chart = oddsChart(story, { onPick: (i) => jump(i) });
    chartArea.replaceChildren(chart.el);
    renderMoments();
    show(0, { glide: false });
  }

  function seatsAt(i) {
    const step = story.steps[i];
    return story.seats.map((seat) => {
      const place = step.standings.indexOf(seat.index);
      const status = place >= 0 ? "finished" : step.leavers.includes(seat.index) ? "left" : "racing";
      return { ...seat, square: step.positions[seat.index], status, place: place >= 0 ? place + 1 : null };
    });
  }

  /** Put the board, counter, odds and chart at move `i` (no animation of the move). */
  function show(i, { glide = true } = {}) {
    index = i;
    const step = story.steps[i];
    const seats = seatsAt(i);
    tokens.setSeats(seats);
    tokens.layout(new Map(seats.map((seat) => [seat.index, seat.square])), { glide });
    tokens.setCurrent(step.over ? null : step.turn);
    board.describe(describePositions({ seats, board: story.board }));
    screen.dataset.step = String(i);
    screen.dataset.positions = step.positions.join(",");
    counter.textContent = i === 0 ? t("replay.counterStart", { total: story.steps.length - 1 }) : t("replay.counter", { n: i, total: story.steps.length - 1 });
    what.textContent = words(step);
    scrub.value = String(i);
    scrub.setAttribute("aria-valuetext", counter.textContent);
    chart.setCursor(i);
    renderOdds(step, seats);
    backButton.disabled = firstButton.disabled = i === 0;
    forwardButton.disabled = lastButton.disabled = i >= story.steps.length - 1;
    if (i >= story.steps.length - 1 && playing) setPlaying(false);
  }

  function words(step) {
    if (step.index === 0) return t("replay.waiting");
    const names = story.seats.map((seat) => seat.name);
    const sentences = describeEvents(step.events, {
      names,
      classic: story.kind === "win",
      mine: () => false,
      isAi: () => false,
    });
    return sentences.filter((x) => !x.quiet).map((x) => x.text).join(" ");
  }

  function renderOdds(step, seats) {
    const marks = tokenMarks(story.seats);
    oddsList.replaceChildren(...seats.map((seat, i) => {
      const value = step.odds[seat.index];
      const status = seat.status === "finished" ? t("odds.finished", { place: ordinal(seat.place) }) : seat.status === "left" ? t("replay.left") : t("replay.square", { square: seat.square });
      return h("li", { class: "replay-odds-row", dataset: { seat: String(seat.index), odds: String(value) } },
        h("span", { class: `token-badge colour-${seat.colour}`, "aria-hidden": "true" }, marks[i]),
        h("span", { class: "replay-odds-name" }, seat.name),
        h("span", { class: "replay-odds-value" }, h("span", { class: "visually-hidden" }, `${oddsWords(story.kind, value)} · ${status}`),
          h("span", { "aria-hidden": "true" }, formatOdds(story.kind, value))),
        h("span", { class: "replay-odds-square", "aria-hidden": "true" }, status));
    }));
  }

  function renderMoments() {
    const key = story.moments.filter((m) => m.key);
    momentsPanel.hidden = key.length === 0;
    momentList.replaceChildren(...key.map((moment) => {
      const seat = story.seats[moment.seat];
      const change = story.kind === "win"
        ? `${moment.swing >= 0 ? "+" : "−"}${formatOdds("win", Math.abs(moment.swing))}`
        : t(moment.swing <= 0 ? "replay.placeBetter" : "replay.placeWorse", { place: formatOdds("place", Math.abs(moment.swing)) });
      const text = t(moment.kind === "ladder" ? "replay.momentLadder" : "replay.momentSnake", { n: moment.step, name: seat.name, start: moment.start, end: moment.end, change });
      return h("li", {},
        h("button", { class: `button button-ghost replay-moment replay-moment-${moment.kind}`, type: "button", dataset: { testid: "replay-moment", step: String(moment.step) }, on: { click: () => jump(moment.step) } },
          h("span", { class: "replay-moment-icon", "aria-hidden": "true" }, moment.kind === "ladder" ? "▲" : "▼"), text));
    }));
  }

  /** Serialise changes of position: an animation finishes before the next one starts. */
  function queue(task) {
    work = work.then(task).catch((err) => console.error(err));
    return work;
  }

  function jump(i) {
    if (!story) return;
    setPlaying(false);
    const target = Math.max(0, Math.min(story.steps.length - 1, i));
    generation += 1;
    queue(() => show(target, { glide: false }));
  }

  function stepForward() {
    if (!story || index >= story.steps.length - 1) return;
    setPlaying(false);
    generation += 1;
    const gen = generation;
    queue(() => animateTo(index + 1, gen));
  }

  async function animateTo(i, gen) {
    if (gone || gen !== generation || i > story.steps.length - 1) return;
    const step = story.steps[i];
    setBoost(1 / speed);
    try {
      const squares = new Map(story.steps[i - 1].positions.map((square, seat) => [seat, square]));
      for (const ev of step.events) {
        if (gone || gen !== generation) break;
        await animateEvent(ev, squares);
      }
    } finally {
      setBoost(1);
    }
    if (!gone) show(i, { glide: false });
  }

  async function animateEvent(ev, squares) {
    const seat = ev.seat;
    switch (ev.type) {
      case "moved":
        await tokens.walk(seat, ev.start, ev.end);
        squares.set(seat, ev.end);
        break;
      case "climbed":
        board.highlight(ev.start, true);
        await tokens.climb(seat, ev.start, ev.end, board.ladderPoints(ev.start));
        board.highlight(ev.start, false);
        squares.set(seat, ev.end);
        break;
      case "slid":
        board.highlight(ev.start, true);
        await tokens.slide(seat, ev.start, ev.end, board.snakePoints(ev.start));
        board.highlight(ev.start, false);
        squares.set(seat, ev.end);
        break;
      case "overshot":
        await tokens.bump(seat);
        break;
      case "finished":
        await tokens.celebrate(seat);
        break;
      default:
        break;
    }
    await tokens.layout(squares, { glide: true });
  }

  function setPlaying(on) {
    playing = on;
    playButton.textContent = on ? t("replay.pause") : t("replay.play");
    playButton.setAttribute("aria-pressed", String(on));
    screen.dataset.playing = String(on);
  }

  function toggle() {
    if (!story) return;
    if (playing) {
      setPlaying(false);
      generation += 1;
      return;
    }
    if (index >= story.steps.length - 1) show(0, { glide: false });
    setPlaying(true);
    generation += 1;
    const gen = generation;
    queue(async () => {
      while (playing && !gone && gen === generation && index < story.steps.length - 1) {
        const started = performance.now();
        await animateTo(index + 1, gen);
        const left = duration(STEP_MS) / speed - (performance.now() - started);
        if (left > 0) await pause(left);
      }
      if (gen === generation) setPlaying(false);
    });
  }

  function setSpeed(value) {
    speed = value;
    speedButtons.forEach((b, i) => b.setAttribute("aria-pressed", String(SPEEDS[i] === value)));
    screen.dataset.speed = String(value);
  }

  return () => {
    gone = true;
    generation += 1;
    setBoost(1);
    document.removeEventListener("keydown", onKey);
  };
}
