// Screens fetched when first opened: the first game does not need them, so the first
// load stays small. Once the service worker holds the app shell they come from it.

import { h } from "./dom.js";
import { t, loadLater } from "./i18n.js";

const sheets = new Map(); // file name -> Promise, so a style sheet is added once

/** Add one of the app's style sheets (css/NAME) to the page; resolves once it applies. */
export function useStyles(name) {
  if (!sheets.has(name)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(`../css/${name}`, import.meta.url).href;
    sheets.set(name, new Promise((resolve, reject) => {
      link.addEventListener("load", resolve, { once: true });
      link.addEventListener("error", () => {
        sheets.delete(name);
        link.remove();
        reject(new Error(`could not load ${name}`));
      }, { once: true });
    }));
    document.head.append(link);
  }
  return sheets.get(name);
}

/**
 * A screen whose module (its style sheets, and the catalogue's later words) load on
 * first use. It is drawn only when all
 * of them have arrived, so it never shows unstyled; if they cannot be fetched (offline,
 * before the shell was kept), the screen says so and offers to try again.
 */
export function lazyScreen(load, { styles = [], onShown = () => {} } = {}) {
  let fetched = null;
  return {
    /** Fetch it now (a screen likely next: the result while "Skip to results" is offered). */
    prefetch() {
      fetched = fetched || Promise.all([load(), loadLater(), ...styles.map(useStyles)]).catch(() => {
        fetched = null;
      });
    },
    mount(root, route, ctx) {
      let cleanup = null;
      let gone = false;
      const attempt = () => {
        Promise.all([load(), loadLater(), ...styles.map(useStyles)]).then(([screen]) => {
          if (gone) return;
          root.replaceChildren();
          cleanup = screen.mount(root, route, ctx);
          onShown();
        }, (err) => {
          console.error(err);
          if (gone) return;
          const retry = h("button", { class: "button button-primary", type: "button", on: { click: attempt } }, t("common.tryAgain"));
          root.replaceChildren(h("section", { class: "screen", dataset: { testid: "screen-unavailable" } },
            h("h1", {}, t("error.screenUnavailable")),
            h("p", { class: "panel-card" }, t("error.network")),
            h("div", { class: "form-actions" }, retry, h("a", { class: "button button-secondary", href: "#/" }, t("common.home")))));
          onShown();
        });
      };
      attempt();
      return () => {
        gone = true;
        if (typeof cleanup === "function") cleanup();
      };
    },
  };
}

// Parts of a screen fetched after it is drawn (the online table, its reactions, the live
// odds): if the network drops while one loads, it is asked for again when the browser
// says it is online, or after a wait that grows (a mobile link can drop a request while
// the browser still says online), for as long as its screen is shown. The player never
// has to reload the page for the turn's countdown.

const FIRST_WAIT_MS = 2000;
const LONGEST_WAIT_MS = 30000;

/**
 * What `load` resolves with, once it succeeds. While `gone()` is true (the screen has
 * left) it stops trying, and the promise never settles.
 */
export function loadRetrying(load, gone) {
  return new Promise((resolve) => {
    let wait = FIRST_WAIT_MS;
    const attempt = () => {
      if (gone()) return;
      load().then(resolve, (err) => {
        console.warn(err); // asked for again below
        if (gone()) return;
        let timer = 0;
        const again = () => {
          clearTimeout(timer);
          window.removeEventListener("online", again);
          attempt();
        };
        timer = setTimeout(again, wait);
        window.addEventListener("online", again);
        wait = Math.min(wait * 2, LONGEST_WAIT_MS);
      });
    };
    attempt();
  });
}
