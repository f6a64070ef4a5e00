// The router between screens (hash routes, so reloads and the back button work) and
// the app-wide bits: settings on <html>, the sound toggle, audio unlocking.

import { applyToDocument, getSettings, updateSettings, onSettingsChange } from "./settings.js";
import { unlockAudio } from "./audio.js";
import { loadConfig } from "./config.js";
import { t, setAvailable, chooseLanguage, loadLanguage, currentLanguage } from "./i18n.js";
import { closeRoom } from "./store.js";
import * as home from "./screens/home.js";
import * as setup from "./screens/setup.js";
import * as game from "./screens/game.js";
import { lazyScreen } from "./lazy-screen.js";

// Every screen but the first game's own loads when first opened; its heading then takes
// the focus, as a screen's always does.
const lazy = (load, options = {}) => lazyScreen(load, { ...options, onShown: focusHeading });
const content = lazy(() => import("./screens/content.js"), { styles: ["content.css"] });
const settingsScreen = lazy(() => import("./screens/settings-screen.js"));
const online = lazy(() => import("./screens/online.js"), { styles: ["online.css"] });
const result = lazy(() => import("./screens/result.js"), { styles: ["story.css"] });
const verify = lazy(() => import("./screens/verify.js"), { styles: ["verify.css"] });
const replay = lazy(() => import("./screens/replay.js"), { styles: ["story.css"] });

const ROUTES = {
  "": home,
  setup,
  game,
  result,
  howto: content,
  faq: content,
  settings: settingsScreen,
  online,
  verify,
  replay,
};
// Screens that keep the room's store (and its connection) open between each other.
const ROOM_SCREENS = new Set(["game", "result", "online", "replay"]);

const app = document.getElementById("app");
let active = null; // {name, path, cleanup, guard}
let routing = Promise.resolve();

function parse(hash) {
  const path = hash.replace(/^#\/?/, "").replace(/\/+$/, "");
  const [name = "", ...params] = path.split("/").map(decodeURIComponent);
  return { name: name in ROUTES ? name : "", params, path };
}

let bypassGuard = false;

/** Go to a screen. App-driven moves (game over -> result) pass {guard: false}. */
export function navigate(path, { replace = false, guard = true } = {}) {
  const hash = `#/${path}`;
  if (!guard) bypassGuard = true;
  if (location.hash === hash) {
    route(true);
  } else if (replace) {
    history.replaceState(null, "", hash);
    route(true);
  } else {
    location.hash = hash;
  }
}

async function route(force = false) {
  const next = parse(location.hash);
  if (active && !force && active.path === next.path) return;
  const skip = bypassGuard;
  bypassGuard = false;
  if (active && active.guard && !force && !skip) {
    const ok = await active.guard(next);
    if (!ok) {
      history.pushState(null, "", `#/${active.path}`);
      return;
    }
  }
  if (active && active.cleanup) active.cleanup();
  if (!ROOM_SCREENS.has(next.name)) closeRoom();
  app.replaceChildren();
  const ctx = {
    navigate,
    setGuard: (fn) => {
      if (active) active.guard = fn;
    },
    setTitle: (title) => {
      document.title = title ? t("page.title", { screen: title }) : t("app.name");
    },
    /** Fetch a screen that loads on first use before it is opened (its code and styles). */
    prefetch: (name) => {
      if (ROUTES[name] && ROUTES[name].prefetch) ROUTES[name].prefetch();
    },
  };
  active = { name: next.name, path: next.path, cleanup: null, guard: null };
  ctx.setTitle("");
  const cleanup = ROUTES[next.name].mount(app, { name: next.name, params: next.params }, ctx);
  active.cleanup = typeof cleanup === "function" ? cleanup : null;
  focusHeading();
  window.scrollTo(0, 0);
}

function focusHeading() {
  const heading = app.querySelector("h1");
  if (heading) {
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }
}

function setupSoundToggle() {
  const button = document.getElementById("sound-toggle");
  const sync = () => {
    const on = getSettings().sound;
    button.setAttribute("aria-pressed", String(on));
    button.title = on ? t("page.soundOn") : t("page.soundOff");
  };
  button.addEventListener("click", () => updateSettings({ sound: !getSettings().sound }));
  onSettingsChange(sync);
  setupSoundSync = sync;
  sync();
}

/** Show the chosen language (the player's, else the browser's); English if that fails. */
async function useLanguage() {
  const wanted = chooseLanguage(getSettings().language);
  try {
    await loadLanguage(wanted);
  } catch (err) {
    if (wanted === "en") throw err;
    console.error(err);
    await loadLanguage("en");
  }
}

/** A new language from Settings: load it and draw the screen again in it. */
function followLanguage() {
  let shown = currentLanguage();
  onSettingsChange((now) => {
    const wanted = chooseLanguage(now.language);
    if (wanted === shown) return;
    shown = wanted;
    routing = routing
      .then(() => useLanguage())
      .then(() => {
        setupSoundSync();
        return route(true);
      })
      .catch((err) => console.error(err));
  });
}

let setupSoundSync = () => {};

async function start() {
  applyToDocument();
  try {
    const config = await loadConfig();
    setAvailable(config.languages);
    await useLanguage();
  } catch (err) {
    const retry = document.createElement("button");
    retry.className = "button button-primary";
    retry.type = "button";
    retry.textContent = t("common.tryAgain") === "common.tryAgain" ? "Try again" : t("common.tryAgain");
    retry.addEventListener("click", () => location.reload());
    const text = document.createElement("p");
    text.className = "panel-card";
    text.textContent = t("error.network") === "error.network" ? "Could not reach the game server." : t("error.network");
    app.replaceChildren(text, retry);
    return;
  }
  unlockAudio();
  setupSoundToggle();
  followLanguage();
  // An invite link (/r/CODE) opens the online join screen for that room.
  const invite = location.pathname.match(/^\/r\/([A-Za-z0-9]{4,12})\/?$/);
  if (invite && !location.hash) {
    history.replaceState(null, "", `/#/online/join/${invite[1].toUpperCase()}`);
  }
  window.addEventListener("hashchange", () => {
    routing = routing.then(() => route()).catch((err) => console.error(err));
  });
  routing = routing.then(() => route(true));
}

start();
