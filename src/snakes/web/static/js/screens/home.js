// Home: the three ways to play, How to play / FAQ / Settings, and "Resume game".

import { h } from "../dom.js";
import { loadGame, clearGame } from "../saved-game.js";
import { getRoom, getContent, reach, onReach, checkReach } from "../api.js";
import { getGame } from "../local-store.js";
import { t, currentLanguage } from "../i18n.js";


export function mount(root, _route, ctx) {
  ctx.setTitle("");
  const saved = loadGame();
  const resumeSlot = h("div", { class: "resume-slot" });
  const online = modeButton(t("mode.online"), t("home.onlineHint"), "online", () => ctx.navigate("online"), "play-online");

  const screen = h("section", { class: "screen home", dataset: { screen: "home" } },
    h("div", { class: "hero" },
      h("img", { class: "hero-logo", src: "/static/img/logo.svg", alt: "", width: 112, height: 112 }),
      heroTitle(),
      h("p", { class: "hero-tagline" }, t("home.tagline", { finish: 100 }))),
    resumeSlot,
    h("nav", { class: "mode-buttons", "aria-label": t("home.chooseMode") },
      modeButton(t("mode.ai"), t("home.aiHint", { min: 1, max: 5 }), "ai", () => ctx.navigate("setup/ai"), "play-ai"),
      modeButton(t("mode.pass"), t("home.passHint", { min: 2, max: 6 }), "pass", () => ctx.navigate("setup/pass"), "play-pass"),
      online),
    h("nav", { class: "home-links", "aria-label": t("nav.more") },
      h("a", { class: "button button-secondary", href: "#/howto", dataset: { testid: "nav-howto" } }, t("nav.howto")),
      h("a", { class: "button button-secondary", href: "#/faq", dataset: { testid: "nav-faq" } }, t("nav.faq")),
      h("a", { class: "button button-secondary", href: "#/settings", dataset: { testid: "nav-settings" } }, t("nav.settings"))));

  if (saved && !saved.over) {
    const mode = t(`modeName.${saved.mode in { ai: 1, pass: 1, online: 1 } ? saved.mode : "game"}`);
    // A game at your own table has no room: it is told by what it is, from the device's
    // own copy (its players, and how many moves were made).
    const line = h("p", { dataset: { testid: "resume-line" } }, saved.local ? mode : t("home.resumeLine", { mode, code: saved.code }));
    if (saved.local) getGame(saved.code).then((game) => {
      if (!game) return;
      const moves = game.actions.filter((action) => action.type === "roll").length;
      line.textContent = t("home.resumeLocal", { mode, count: game.seats.length, move: moves });
    }, (err) => console.error(err));
    const card = h("div", { class: "resume-card", dataset: { testid: "resume-card" } },
      h("div", { class: "resume-text" },
        h("h2", { class: "resume-title" }, t("home.inProgress")),
        line),
      h("div", { class: "resume-actions" },
        h("button", { class: "button button-primary", type: "button", dataset: { testid: "resume" }, on: { click: () => ctx.navigate(`game/${saved.code}`) } }, t("home.resume")),
        h("button", { class: "button button-ghost", type: "button", dataset: { testid: "forget-game" }, on: { click: () => { clearGame(); card.remove(); } } }, t("home.forget"))));
    resumeSlot.append(card);
    // If the server no longer knows the room (finished or expired), stop offering it.
    // A game at your own table is on this device: no server is asked about it.
    if (!saved.local) getRoom(saved.code)
      .then((room) => {
        if (room && (room.over || room.phase === "over")) card.remove();
      })
      .catch((err) => {
        if (err && err.status === 404) {
          clearGame();
          card.remove();
        }
      });
  }
  root.append(screen);
  // Play Online says up front that it needs a connection, and which one is missing.
  const showReach = (now) => {
    online.dataset.reach = now;
    online.querySelector(".mode-subtitle").textContent = now === "ok" ? t("home.onlineHint") : t(`home.online.${now}`);
  };
  showReach(reach());
  const stopReach = onReach(showReach);
  // How to play's words, asked for once Home is drawn: the page then opens with them.
  // Whether the server answers is known from the page's start (its config) or asked.
  setTimeout(() => {
    if (navigator.onLine !== false) getContent(currentLanguage()).catch(() => {});
    checkReach(10_000);
  }, 0);
  return stopReach;
}

/** The title with its ampersand in the display style: "Snakes & Ladders", "साँप और सीढ़ी". */
function heroTitle() {
  const [before, after] = t("home.title").split("{and}");
  return h("h1", { class: "hero-title" }, before, after === undefined ? null : [h("span", { class: "amp" }, t("home.titleAnd")), after]);
}

function modeButton(title, subtitle, icon, onClick, testid) {
  return h("button", { class: `mode-button mode-${icon}`, type: "button", dataset: { testid }, on: { click: onClick } },
    h("span", { class: `mode-icon mode-icon-${icon}`, "aria-hidden": "true" }),
    h("span", { class: "mode-text" },
      h("span", { class: "mode-title" }, title),
      h("span", { class: "mode-subtitle" }, subtitle)));
}
