// The replay screen's parts: its controls, the odds beside the board in words and
// figures, the key moments, and what each move was, in words.

import { h, s } from "./dom.js";
import { t, ordinal } from "./i18n.js";
import { describeEvents } from "./event-words.js";
import { tokenMarks } from "./colours.js";
import { formatOdds, oddsWords } from "./odds-chart.js";

export const SPEEDS = [1, 2, 4, 8];

/** The screen's elements; `on`: what its controls do ({first, back, toggle, forward, last,
 * speed(value), scrub(i)}). */
export function replayLayout(code, on) {
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
  const firstButton = button("replay-first", "first", t("replay.first"), on.first);
  const backButton = button("replay-back", "back", t("replay.back"), on.back);
  const playButton = h("button", { class: "button button-primary replay-play", type: "button", "aria-pressed": "false", dataset: { testid: "replay-play" }, on: { click: on.toggle } }, t("replay.play"));
  const forwardButton = button("replay-forward", "forward", t("replay.forward"), on.forward);
  const lastButton = button("replay-last", "last", t("replay.last"), on.last);
  const speedButtons = SPEEDS.map((value) => h("button", {
    class: "button button-ghost replay-speed", type: "button", "aria-pressed": String(value === 1),
    dataset: { testid: `replay-speed-${value}` }, on: { click: () => on.speed(value) },
  }, t("replay.speed", { speed: value })));
  const scrub = h("input", {
    class: "replay-scrub", type: "range", min: "0", max: "0", value: "0", step: "1",
    "aria-label": t("replay.move"), dataset: { testid: "replay-scrub" },
    on: { input: () => on.scrub(Number(scrub.value)) },
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
  return { screen, heading, subtitle, boardArea, counter, what, playButton, firstButton, backButton, forwardButton, lastButton, speedButtons, scrub, oddsList, chartArea, momentList, momentsPanel };
}

/** What happened in `step`, in words (the story's own events). */
export function stepWords(story, step) {
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

/** Each seat's odds at `step`, in words and figures, into `list`. */
export function renderOdds(list, story, step, seats) {
  const marks = tokenMarks(story.seats);
  list.replaceChildren(...seats.map((seat, i) => {
    const value = step.odds[seat.index];
    const status = seat.status === "finished" ? t("odds.finished", { place: ordinal(seat.place) }) : seat.status === "left" ? t("replay.left") : t("replay.square", { square: seat.square });
    return h("li", { class: "replay-odds-row", dataset: { seat: String(seat.index), odds: String(value) } },
      h("span", { class: `token-badge colour-${seat.colour}`, "aria-hidden": "true" }, marks[i]),
      h("span", { class: "replay-odds-name" }, seat.name),
      h("span", { class: "replay-odds-value" }, h("span", { class: "visually-hidden" }, `${oddsWords(story.kind, value)} · ${status}`),
        h("span", { "aria-hidden": "true" }, story.kind === "win" ? formatOdds("win", value) : aboutPlace(value))),
      h("span", { class: "replay-odds-square", "aria-hidden": "true" }, status));
  }));
}

/** An expected place in words a child follows: "about 2nd" (the figure is on the chart). */
export function aboutPlace(value) {
  return t("odds.aboutPlace", { place: ordinal(Math.max(1, Math.round(value))) });
}

/** The key moments of the story, in words ("Gus's climb from 58 to 93 swung the race"),
 * each a button to jump to it: one tap shows the odds before and after it. */
export function renderMoments(panel, list, story, jump) {
  const key = story.moments.filter((m) => m.key);
  panel.hidden = key.length === 0;
  list.replaceChildren(...key.map((moment) => {
    const seat = story.seats[moment.seat];
    const text = t(moment.kind === "ladder" ? "replay.momentLadder" : "replay.momentSnake", { name: seat.name, start: moment.start, end: moment.end });
    return h("li", {},
      h("button", { class: `button button-ghost replay-moment replay-moment-${moment.kind}`, type: "button", dataset: { testid: "replay-moment", step: String(moment.step) }, on: { click: () => jump(moment.step) } },
        h("span", { class: "replay-moment-icon", "aria-hidden": "true" }, moment.kind === "ladder" ? "▲" : "▼"), text));
  }));
}
