// The words of the game, in the player's language. Each language is one catalogue file
// (/static/i18n/<code>.json, see docs/LANGUAGES.md); only the active one is fetched.
// Plural forms, ordinals, lists and numbers come from the browser's Intl APIs: a
// catalogue gives one text per plural category ("one", "few", "other" ...), never rules.

const BASE = "/static/i18n/";
const FALLBACK = "en";
const MANIFEST = "/manifest.webmanifest";

let active = { code: FALLBACK, dir: "ltr", messages: {} };
let later = null; // the rest of the active catalogue, once asked for: see loadLater
let cardinal = new Intl.PluralRules(FALLBACK);
let ordinalRules = new Intl.PluralRules(FALLBACK, { type: "ordinal" });
let numbers = new Intl.NumberFormat(FALLBACK);
let available = [{ code: FALLBACK, name: "English", dir: "ltr" }];

/** The languages the server ships ([{code, name, dir}], from /api/config). */
export function setAvailable(list) {
  if (Array.isArray(list) && list.length) available = list.filter((x) => x && typeof x.code === "string");
}

export function languages() {
  return available.slice();
}

/**
 * The language to show: the player's choice when it is shipped, else the first of the
 * browser's languages we have (exact "pt-BR", then its base "pt"), else English.
 */
export function chooseLanguage(choice, wanted = navigator.languages || [navigator.language]) {
  const codes = new Set(available.map((x) => x.code));
  if (choice && codes.has(choice)) return choice;
  for (const tag of wanted || []) {
    if (typeof tag !== "string") continue;
    const lower = tag.toLowerCase();
    const exact = available.find((x) => x.code.toLowerCase() === lower);
    if (exact) return exact.code;
    const base = lower.split("-")[0];
    const found = available.find((x) => x.code.toLowerCase() === base);
    if (found) return found.code;
  }
  return codes.has(FALLBACK) ? FALLBACK : available[0].code;
}

/** Fetch and switch to a catalogue; sets lang and dir on <html>. */
export async function loadLanguage(code) {
  const response = await fetch(`${BASE}${encodeURIComponent(code)}.json`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`no catalogue for ${code}`);
  const data = await response.json();
  const meta = (data && data.meta) || {};
  active = { code, dir: meta.dir === "rtl" ? "rtl" : "ltr", messages: (data && data.messages) || {} };
  later = null;
  cardinal = new Intl.PluralRules(code);
  ordinalRules = new Intl.PluralRules(code, { type: "ordinal" });
  numbers = new Intl.NumberFormat(code);
  document.documentElement.lang = code;
  document.documentElement.dir = active.dir;
  translateStatic(document);
  setManifest(code);
  return code;
}

/**
 * The rest of the active catalogue: the words of what a first game never shows (Verify,
 * the replay and its chart, Settings, the reactions, the live odds), which the server
 * leaves out of <code>.json so the first load stays small. Each screen and part that
 * shows them waits for this first (js/lazy-screen.js); fetched once per language.
 */
export function loadLater() {
  if (!later) {
    const catalogue = active;
    later = fetch(`${BASE}${encodeURIComponent(catalogue.code)}.later.json`, { headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) throw new Error(`no catalogue for ${catalogue.code}`);
        return response.json();
      })
      .then((data) => {
        Object.assign(catalogue.messages, (data && data.messages) || {});
      })
      .catch((err) => {
        if (active === catalogue) later = null;
        throw err;
      });
  }
  return later;
}

/**
 * The manifest in the page's language (its name and description are what a home screen
 * shows once the game is installed): the server writes it per ?lang=, English without.
 */
function setManifest(code) {
  const link = document.querySelector("link[rel=manifest]");
  if (!link) return;
  const href = code === FALLBACK ? MANIFEST : `${MANIFEST}?lang=${encodeURIComponent(code)}`;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

export function currentLanguage() {
  return active.code;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

/**
 * The text of `key` with {placeholders} filled in. A plural entry (an object of plural
 * categories) is chosen by params.count; numbers are formatted for the language.
 */
export function t(key, params = {}) {
  let entry = active.messages[key];
  if (entry === undefined) return key;
  if (entry && typeof entry === "object") {
    const count = Number(params.count);
    const category = Number.isFinite(count) ? cardinal.select(count) : "other";
    entry = entry[category] ?? entry.other ?? "";
  }
  return fill(String(entry), params);
}

/** Is there a text for `key` in this language? */
export function has(key) {
  return active.messages[key] !== undefined;
}

/** 1st, 2nd, 3rd ... as the language writes them (its ordinal categories). */
export function ordinal(n) {
  const entry = active.messages.ordinal;
  if (!entry || typeof entry !== "object") return numbers.format(n);
  const text = entry[ordinalRules.select(n)] ?? entry.other ?? "{n}";
  return fill(String(text), { n });
}

/** "a, b and c" in the language's own way. */
export function list(items, type = "conjunction") {
  const parts = items.map(String);
  if (typeof Intl.ListFormat !== "function") return parts.join(", ");
  return new Intl.ListFormat(active.code, { style: "long", type }).format(parts);
}

export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(active.code, options).format(value);
}

/** A server error in words: the catalogue's text for its code, else what the server said. */
export function errorText(code, fallback = "") {
  const key = `error.${code}`;
  if (code && has(key)) return t(key);
  return fallback || t("error.generic");
}

/**
 * The page's own markup (index.html): data-i18n="key" sets the text, and
 * data-i18n-attr="attr:key;attr:key" sets attributes (the meta description among them).
 * The server writes the same words in before it sends the page (transport/static.py).
 */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}
