// How to play and FAQ: fetched from GET /api/content, which the server builds from the
// same board and rule data the engine uses. No rules text lives in this file.

import { h } from "../dom.js";
import { getContent } from "../api.js";

let cache = null;

export function mount(root, route, ctx) {
  const faq = route.name === "faq";
  const title = faq ? "FAQ" : "How to play";
  ctx.setTitle(title);
  const body = h("div", { class: "content-body", "aria-busy": "true" }, h("p", { class: "loading" }, "Loading…"));
  const screen = h("section", { class: "screen content", dataset: { screen: faq ? "faq" : "howto" } },
    h("h1", {}, title),
    body,
    h("nav", { class: "form-actions", "aria-label": "More" },
      h("a", { class: "button button-secondary", href: "#/" }, "Home"),
      faq
        ? h("a", { class: "button button-secondary", href: "#/howto" }, "How to play")
        : h("a", { class: "button button-secondary", href: "#/faq" }, "FAQ"),
      h("a", { class: "button button-primary", href: "#/setup/ai" }, "Play now")));
  root.append(screen);
  let alive = true;

  load();

  async function load() {
    try {
      cache = cache || (await getContent());
      if (!alive) return;
      body.replaceChildren(...(faq ? renderFaq(cache) : renderHowto(cache)));
    } catch (err) {
      if (!alive) return;
      body.replaceChildren(
        h("p", { class: "form-error", role: "alert" }, err && err.message ? err.message : "Could not load this page."),
        h("button", { class: "button button-secondary", type: "button", on: { click: () => { body.replaceChildren(h("p", { class: "loading" }, "Loading…")); load(); } } }, "Try again"));
    }
    body.removeAttribute("aria-busy");
  }

  return () => {
    alive = false;
  };
}

const text = (value) => (typeof value === "string" ? value : value === null || value === undefined ? "" : String(value));
const list = (value) => (Array.isArray(value) ? value : []);

function versionLine(content) {
  return content && content.version
    ? h("p", { class: "version-line", dataset: { testid: "content-version" } }, `Last reviewed against the game: ${text(content.version)}`)
    : null;
}

function renderHowto(content) {
  const sections = list(content && content.howto);
  if (!sections.length) return [h("p", {}, "No instructions are available right now.")];
  return [
    versionLine(content),
    ...sections.map((section, i) =>
      h("section", { class: "panel-card content-section", dataset: { testid: "howto-section" } },
        h("h2", {}, section && section.title ? text(section.title) : `Part ${i + 1}`),
        list(section && section.paragraphs).map((p) => h("p", {}, text(p))),
        list(section && section.items).length
          ? h("ul", { class: "content-items" }, list(section.items).map((item) => h("li", {}, text(item))))
          : null,
        jumpList(section, "ladders", "🪜 Ladders (up)"),
        jumpList(section, "snakes", "🐍 Snakes (down)"))),
  ];
}

/** A section's ladders or snakes (the board's own pairs), as "start → end" lines. */
function jumpList(section, key, heading) {
  const pairs = list(section && section[key]).filter((pair) => Array.isArray(pair) && pair.length === 2);
  if (!pairs.length) return null;
  const id = `howto-${key}`;
  return h("div", { class: `jump-list jump-list-${key}` },
    h("h3", { id }, heading),
    h("ul", { class: "content-items jump-items", "aria-labelledby": id, dataset: { testid: `howto-${key}` } },
      pairs.map(([start, end]) => h("li", {}, `${text(start)} → ${text(end)}`))));
}

function renderFaq(content) {
  const entries = list(content && content.faq);
  if (!entries.length) return [h("p", {}, "No questions here yet.")];
  return [
    versionLine(content),
    h("div", { class: "faq-list" },
      entries.map((entry) =>
        h("details", { class: "panel-card faq-item", dataset: { testid: "faq-item" } },
          h("summary", {}, h("h2", { class: "faq-question" }, text(entry && entry.question))),
          h("p", {}, text(entry && entry.answer))))),
  ];
}
