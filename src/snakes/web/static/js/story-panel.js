// The result screen's "story of the game": a small chart of each seat's odds after every
// move and "Watch the replay". The chart's code loads once the result is on screen.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export function storyPanel(code, game) {
  const number = Number.isInteger(game) && game > 0 ? game : null;
  const href = `#/replay/${encodeURIComponent(code)}${number ? `/${number}` : ""}`;
  const chartArea = h("div", { class: "story-mini-chart" }, h("p", { class: "hint" }, t("story.drawing")));
  const panel = h("section", { class: "panel-card story-mini", "aria-labelledby": "story-heading", dataset: { testid: "story-panel" } },
    h("h2", { id: "story-heading", class: "panel-heading" }, t("story.heading")),
    chartArea,
    h("a", { class: "button button-secondary story-replay", href, dataset: { testid: "watch-replay" } }, t("story.watch")));
  Promise.all([import("./story-data.js"), import("./odds-chart.js")])
    .then(([data, charts]) => data.getStory(code, number).then((story) => {
      const chart = charts.oddsChart(story, { compact: true });
      chart.setCursor(story.steps.length - 1);
      chartArea.replaceChildren(chart.el, charts.chartLegend(story));
    }))
    .catch((err) => {
      const offline = err && err.code === "offline";
      chartArea.replaceChildren(h("p", { class: "hint", dataset: { testid: offline ? "story-offline" : "story-unavailable" } }, t(offline ? "story.needsConnection" : "story.unavailable")));
    });
  return panel;
}
