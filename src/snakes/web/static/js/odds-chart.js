// The odds chart: each seat's chance to win (Classic) or expected place (Last One
// Standing) after every move, one line per seat, drawn in SVG from the server's story
// (GET /api/rooms/{code}/story). Nothing is computed here but where to draw. The
// ladders and snakes that swung the game are marked; a click picks the move under it.
// Lines differ by dash as well as colour, and end in the seat's token mark.

import { h, s } from "./dom.js";
import { t, ordinal, formatNumber } from "./i18n.js";
import { colour, tokenMarks } from "./colours.js";

const DASHES = ["", "10 5", "3 4", "12 4 3 4", "6 3", "2 6"];

/** "48.2%" or "1.83" for one value of a story of kind `kind`. */
export function formatOdds(kind, value) {
  if (kind === "win") {
    const digits = value > 0 && value < 0.001 ? 2 : 1;
    return formatNumber(value, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
  }
  return formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** In words, for a screen reader or a tooltip: "48.2% chance to win", "expected place 1.83". */
export function oddsWords(kind, value) {
  return kind === "win" ? t("odds.chance", { percent: formatOdds(kind, value) }) : t("odds.expected", { place: formatOdds(kind, value) });
}

/**
 * Draw the chart. story: the server's story; options: {compact, onPick(index), label}.
 * Returns {el, setCursor(index)}.
 */
export function oddsChart(story, { compact = false, onPick = null, label = "" } = {}) {
  const steps = story.steps;
  const seats = story.seats;
  const last = Math.max(steps.length - 1, 1);
  // Sized near the pixels it gets (a side panel, a result card), so its text stays readable.
  const width = compact ? 420 : 400;
  const height = compact ? 170 : 270;
  const pad = { left: compact ? 48 : 52, right: compact ? 18 : 20, top: compact ? 12 : 24, bottom: compact ? 12 : 34 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const win = story.kind === "win";
  const places = seats.length;
  const x = (i) => pad.left + (i / last) * plotW;
  // Win: 0 at the bottom, 100% at the top. Place: 1st at the top, last at the bottom.
  const y = (v) => (win ? pad.top + (1 - v) * plotH : pad.top + ((v - 1) / Math.max(places - 1, 1)) * plotH);

  const svg = s("svg", {
    class: ["odds-chart", compact ? "odds-chart-compact" : ""].join(" ").trim(),
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": label || summary(story),
    "data-testid": compact ? "odds-chart-mini" : "odds-chart",
    preserveAspectRatio: "xMidYMid meet",
  });
  svg.append(s("title", { text: label || summary(story) }));

  const grid = s("g", { class: "chart-grid", "aria-hidden": "true" });
  const ticks = win ? [0, 0.25, 0.5, 0.75, 1] : Array.from({ length: places }, (_, i) => i + 1);
  for (const tick of ticks) {
    grid.append(
      s("line", { x1: pad.left, x2: width - pad.right, y1: y(tick), y2: y(tick) }),
      s("text", { class: "chart-tick", x: pad.left - 8, y: y(tick), "text-anchor": "end", "dominant-baseline": "central", text: win ? formatNumber(tick, { style: "percent" }) : ordinal(tick) }),
    );
  }
  if (!compact) {
    grid.append(
      s("text", { class: "chart-axis", x: pad.left + plotW / 2, y: height - 6, "text-anchor": "middle", text: t("chart.move", { last: steps.length - 1 }) }),
      s("text", { class: "chart-axis", x: 12, y: pad.top + plotH / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${pad.top + plotH / 2})`, text: win ? t("chart.win") : t("chart.place") }),
    );
  }
  svg.append(grid);

  svg.append(seatLines(story, { x, y, last, compact }), momentMarks(story, { x, y, compact }));

  const cursor = s("line", { class: "chart-cursor", x1: x(0), x2: x(0), y1: pad.top, y2: pad.top + plotH, "aria-hidden": "true" });
  svg.append(cursor);

  if (onPick) {
    svg.classList.add("pickable");
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      if (!box.width) return;
      // The viewBox keeps its aspect ratio centred: map the click back into chart units.
      const scale = Math.min(box.width / width, box.height / height);
      const offsetX = (box.width - width * scale) / 2;
      const unitX = (event.clientX - box.left - offsetX) / scale;
      const index = Math.round(((unitX - pad.left) / plotW) * last);
      onPick(Math.max(0, Math.min(steps.length - 1, index)));
    });
  }

  return {
    el: svg,
    /** Where the replay is: a vertical line at move `index`. */
    setCursor(index) {
      const at = x(Math.max(0, Math.min(last, index))).toFixed(1);
      cursor.setAttribute("x1", at);
      cursor.setAttribute("x2", at);
    },
    /** The point of move `index` in page pixels (tests and tooltips). */
    pointOf(index) {
      const box = svg.getBoundingClientRect();
      const scale = Math.min(box.width / width, box.height / height);
      const offsetX = (box.width - width * scale) / 2;
      return { x: box.left + offsetX + x(index) * scale, y: box.top + (box.height - height * scale) / 2 + (pad.top + plotH / 2) * scale };
    },
  };
}

/** Each seat's line over the moves, ending in its token's mark. */
function seatLines(story, { x, y, last, compact }) {
  const { steps, seats } = story;
  const marks = tokenMarks(seats);
  const lines = s("g", { class: "chart-lines", "aria-hidden": "true" });
  seats.forEach((seat, index) => {
    const look = colour(seat.colour);
    const points = steps.map((step, i) => `${x(i).toFixed(1)},${y(step.odds[index]).toFixed(1)}`).join(" ");
    const dash = DASHES[index % DASHES.length] || null;
    // A dark edge under each line, so light colours (yellow) stand out on the cream.
    lines.append(s("polyline", {
      class: "chart-line-edge", points, fill: "none", stroke: "#3b2410", "stroke-width": compact ? 4.5 : 5,
      "stroke-dasharray": dash, "stroke-linejoin": "round", opacity: 0.85,
    }), s("polyline", {
      class: "chart-line", points, fill: "none", stroke: look.fill, "stroke-width": compact ? 2.5 : 3,
      "stroke-dasharray": dash, "stroke-linejoin": "round", "data-seat": String(index),
    }));
    const end = steps[steps.length - 1].odds[index];
    lines.append(
      s("circle", { cx: x(last), cy: y(end), r: compact ? 7 : 10, fill: look.fill, stroke: "#1b1b1b", "stroke-width": 2 }),
      s("text", { class: "chart-end-mark", x: x(last), y: y(end) + 0.5, "text-anchor": "middle", "dominant-baseline": "central", fill: look.ink, text: marks[index] }),
    );
  });
  return lines;
}

/** The key moments: a triangle up (a ladder) or down (a snake) where each happened. */
function momentMarks(story, { x, y, compact }) {
  const steps = story.steps;
  const moments = s("g", { class: "chart-moments", "aria-hidden": "true" });
  for (const moment of story.moments.filter((m) => m.key)) {
    const cx = x(moment.step);
    const cy = y(steps[moment.step].odds[moment.seat]);
    const up = moment.kind === "ladder";
    const size = compact ? 7 : 9;
    const tip = up ? -size : size;
    moments.append(s("g", { class: `chart-moment chart-moment-${moment.kind}`, "data-step": String(moment.step) },
      s("path", { d: `M ${cx} ${cy + tip} L ${cx - size} ${cy - tip * 0.6} L ${cx + size} ${cy - tip * 0.6} Z` }),
      compact ? null : s("text", { class: "chart-moment-label", x: cx, y: cy + (up ? -size - 6 : size + 16), "text-anchor": "middle", text: `${moment.start}→${moment.end}` })));
  }
  return moments;
}

/**
 * Who each line is: every seat's name and colour in words, beside a sample of its line
 * (its colour, its dash and its token's mark), in the chart's order.
 */
export function chartLegend(story) {
  const marks = tokenMarks(story.seats);
  return h("ul", { class: "chart-legend", "aria-label": t("chart.legend"), dataset: { testid: "chart-legend" } },
    story.seats.map((seat, index) => {
      const look = colour(seat.colour);
      const dash = DASHES[index % DASHES.length] || null;
      return h("li", { class: "chart-legend-item", dataset: { testid: "chart-legend-item", seat: String(index) } },
        s("svg", { class: "chart-legend-line", viewBox: "0 0 44 20", width: 44, height: 20, "aria-hidden": "true" },
          s("line", { x1: 2, y1: 10, x2: 30, y2: 10, stroke: "#3b2410", "stroke-width": 5, "stroke-dasharray": dash, opacity: 0.85 }),
          s("line", { x1: 2, y1: 10, x2: 30, y2: 10, stroke: look.fill, "stroke-width": 3, "stroke-dasharray": dash }),
          s("circle", { cx: 34, cy: 10, r: 8, fill: look.fill, stroke: "#1b1b1b", "stroke-width": 1.5 }),
          s("text", { class: "chart-end-mark", x: 34, y: 10.5, "text-anchor": "middle", "dominant-baseline": "central", fill: look.ink, text: marks[index] })),
        h("span", { class: "chart-legend-name" }, t("chart.legendEntry", { name: seat.name, colour: look.label })));
    }));
}

/** The chart in one sentence: where each seat started and ended. */
export function summary(story) {
  const first = story.steps[0].odds;
  const final = story.steps[story.steps.length - 1].odds;
  const parts = story.seats.map((seat, i) => t("chart.seatLine", { name: seat.name, from: formatOdds(story.kind, first[i]), to: formatOdds(story.kind, final[i]) }));
  return t(story.kind === "win" ? "chart.summaryWin" : "chart.summaryPlace", { count: story.steps.length - 1, seats: parts.join("; ") });
}
