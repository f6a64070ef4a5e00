// How to play and FAQ: fetched from GET /api/content?lang=…, which the server builds from
// the same board and rule data the engine uses, in the words of the language's catalogue.
// No rules text lives in this file.

import { h } from "../dom.js";
import { getContent } from "../api.js";
import { t, currentLanguage, errorText } from "../i18n.js";

export function mount(root, route, ctx) {
  const faq = route.name === "faq";
  const title = faq ? t("nav.faq") : t("nav.howto");
  ctx.setTitle(title);
  // Home asks for the words while it is idle, so they are usually here already; if not,
  // "Loading…" shows only once the wait is long enough to notice.
  const body = h("div", { class: "content-body", "aria-busy": "true" });
  const slow = setTimeout(() => {
    if (!body.children.length) body.replaceChildren(h("p", { class: "loading" }, t("common.loading")));
  }, 400);
  const screen = h("section", { class: "screen content", dataset: { screen: faq ? "faq" : "howto" } },
    h("h1", {}, title),
    body,
    h("nav", { class: "form-actions", "aria-label": t("nav.more") },
      h("a", { class: "button button-secondary", href: "#/" }, t("common.home")),
      faq
        ? h("a", { class: "button button-secondary", href: "#/howto" }, t("nav.howto"))
        : h("a", { class: "button button-secondary", href: "#/faq" }, t("nav.faq")),
      h("a", { class: "button button-primary", href: "#/setup/ai" }, t("nav.playNow"))));
  root.append(screen);
  let alive = true;

  load();

  async function load() {
    try {
      const content = await getContent(currentLanguage());
      if (!alive) return;
      body.replaceChildren(...(faq ? renderFaq(content) : renderHowto(content)));
    } catch (err) {
      if (!alive) return;
      body.replaceChildren(
        h("p", { class: "form-error", role: "alert" }, err && err.code ? errorText(err.code, err.message) : t("content.failed")),
        h("button", { class: "button button-secondary", type: "button", on: { click: () => { body.replaceChildren(h("p", { class: "loading" }, t("common.loading"))); load(); } } }, t("common.tryAgain")));
    }
    clearTimeout(slow);
    body.removeAttribute("aria-busy");
  }

  return () => {
    clearTimeout(slow);
    alive = false;
  };
}

const text = (value) => (typeof value === "string" ? value : value === null || value === undefined ? "" : String(value));
const list = (value) => (Array.isArray(value) ? value : []);

function versionLine(content) {
  return content && content.version
    ? h("p", { class: "version-line", dataset: { testid: "content-version" } }, t("content.version", { version: text(content.version) }))
    : null;
}

function renderHowto(content) {
  const sections = list(content && content.howto);
  if (!sections.length) return [h("p", {}, t("content.noHowto"))];
  return [
    versionLine(content),
    ...sections.map((section, i) =>
      h("section", { class: "panel-card content-section", dataset: { testid: "howto-section" } },
        h("h2", {}, section && section.title ? text(section.title) : t("content.part", { n: i + 1 })),
        list(section && section.paragraphs).map((p) => h("p", {}, text(p))),
        list(section && section.items).length
          ? h("ul", { class: "content-items" }, list(section.items).map((item) => h("li", {}, text(item))))
          : null,
        jumpList(section, "ladders", t("content.ladders")),
        jumpList(section, "snakes", t("content.snakes")))),
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
  if (!entries.length) return [h("p", {}, t("content.noFaq"))];
  return [
    versionLine(content),
    h("div", { class: "faq-list" },
      entries.map((entry) =>
        h("details", { class: "panel-card faq-item", dataset: { testid: "faq-item" } },
          h("summary", {}, h("h2", { class: "faq-question" }, text(entry && entry.question))),
          h("p", {}, text(entry && entry.answer))))),
  ];
}
