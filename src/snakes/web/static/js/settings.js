// Player preferences kept in localStorage: language, animation speed, sound, reduced
// motion, the live odds panel, muted reactions, and the house-rule defaults that new
// games start from.

const KEY = "snakes.settings";

// Their names are in the language catalogues (settings.speed.<id>).
export const SPEEDS = {
  slow: { factor: 1.6 },
  normal: { factor: 1 },
  fast: { factor: 0.5 },
  // Used by tests and impatient players: every animation still runs, in ~no time.
  instant: { factor: 0.001 },
};

const DEFAULTS = Object.freeze({
  // null: follow the browser's languages; a code ("hi"): the player's choice.
  language: null,
  speed: "normal",
  sound: true,
  // null: follow the system's "reduce motion"; true or false: the player's choice wins.
  reducedMotion: null,
  exactFinish: true,
  sixAgain: true,
  showOdds: false,
  // Online games: hide and silence everyone's reactions on this device.
  muteReactions: false,
});

const listeners = new Set();
let current = load();

function load() {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) || "{}");
    return sanitize(raw);
  } catch {
    return { ...DEFAULTS };
  }
}

function sanitize(raw) {
  const out = { ...DEFAULTS };
  if (raw && typeof raw === "object") {
    if (typeof raw.speed === "string" && raw.speed in SPEEDS) out.speed = raw.speed;
    for (const key of ["sound", "reducedMotion", "exactFinish", "sixAgain", "showOdds", "muteReactions"]) {
      if (typeof raw[key] === "boolean") out[key] = raw[key];
    }
    if (raw.reducedMotion === null) out.reducedMotion = null;
    if (typeof raw.language === "string" && /^[a-z]{2,3}(-[A-Za-z0-9]{1,8}){0,2}$/.test(raw.language)) out.language = raw.language;
  }
  return out;
}

export function getSettings() {
  return { ...current };
}

export function updateSettings(patch) {
  current = sanitize({ ...current, ...patch });
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Private mode or a full quota: the settings still apply for this visit.
  }
  applyToDocument();
  for (const listener of listeners) listener(getSettings());
}

export function onSettingsChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const systemReduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

/** The system's own "reduce motion" preference. */
export function systemReducedMotion() {
  return Boolean(systemReduced && systemReduced.matches);
}

/** Less motion: the player's choice when they made one (either way), else the system's. */
export function reducedMotion() {
  return typeof current.reducedMotion === "boolean" ? current.reducedMotion : systemReducedMotion();
}

let boost = 1;

/** Temporarily speed everything up (events piling up); 1 is normal. */
export function setBoost(factor) {
  boost = factor > 0 ? Math.min(1, factor) : 1;
}

/** Multiply a nominal duration (ms) by the chosen animation speed (and any boost). */
export function duration(ms) {
  return ms * SPEEDS[current.speed].factor * boost;
}

export function applyToDocument() {
  document.documentElement.classList.toggle("reduce-motion", reducedMotion());
  document.documentElement.dataset.speed = current.speed;
}

if (systemReduced && systemReduced.addEventListener) {
  systemReduced.addEventListener("change", () => {
    applyToDocument();
    for (const listener of listeners) listener(getSettings());
  });
}
