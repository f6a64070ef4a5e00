// Home: the three ways to play, How to play / FAQ / Settings, and "Resume game".

import { h } from "../dom.js";
import { loadGame, clearGame } from "../saved-game.js";
import { getRoom } from "../api.js";

const MODE_NAMES = { ai: "Play with AI", pass: "Pass & Play", online: "Online room" };

export function mount(root, _route, ctx) {
  ctx.setTitle("");
  const saved = loadGame();
  const resumeSlot = h("div", { class: "resume-slot" });

  const screen = h("section", { class: "screen home", dataset: { screen: "home" } },
    h("div", { class: "hero" },
      h("img", { class: "hero-logo", src: "/static/img/logo.svg", alt: "", width: 112, height: 112 }),
      h("h1", { class: "hero-title" }, "Snakes ", h("span", { class: "amp" }, "&"), " Ladders"),
      h("p", { class: "hero-tagline" }, "Race through the jungle! Climb the ladders, dodge the snakes, and be first to 100.")),
    resumeSlot,
    h("nav", { class: "mode-buttons", "aria-label": "Choose how to play" },
      modeButton("Play with AI", "Race 1–5 computer players", "ai", () => ctx.navigate("setup/ai"), "play-ai"),
      modeButton("Pass & Play", "2–6 friends share this device", "pass", () => ctx.navigate("setup/pass"), "play-pass"),
      modeButton("Play Online", "A private room for friends", "online", () => ctx.navigate("online"), "play-online")),
    h("nav", { class: "home-links", "aria-label": "More" },
      h("a", { class: "button button-secondary", href: "#/howto", dataset: { testid: "nav-howto" } }, "How to play"),
      h("a", { class: "button button-secondary", href: "#/faq", dataset: { testid: "nav-faq" } }, "FAQ"),
      h("a", { class: "button button-secondary", href: "#/settings", dataset: { testid: "nav-settings" } }, "Settings")));

  if (saved && !saved.over) {
    const card = h("div", { class: "resume-card", dataset: { testid: "resume-card" } },
      h("div", { class: "resume-text" },
        h("h2", { class: "resume-title" }, "Game in progress"),
        h("p", {}, `${MODE_NAMES[saved.mode] || "Game"} · room ${saved.code}`)),
      h("div", { class: "resume-actions" },
        h("button", { class: "button button-primary", type: "button", dataset: { testid: "resume" }, on: { click: () => ctx.navigate(`game/${saved.code}`) } }, "Resume game"),
        h("button", { class: "button button-ghost", type: "button", dataset: { testid: "forget-game" }, on: { click: () => { clearGame(); card.remove(); } } }, "Forget it")));
    resumeSlot.append(card);
    // If the server no longer knows the room (finished or expired), stop offering it.
    getRoom(saved.code)
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
}

function modeButton(title, subtitle, icon, onClick, testid) {
  return h("button", { class: `mode-button mode-${icon}`, type: "button", dataset: { testid }, on: { click: onClick } },
    h("span", { class: `mode-icon mode-icon-${icon}`, "aria-hidden": "true" }),
    h("span", { class: "mode-text" },
      h("span", { class: "mode-title" }, title),
      h("span", { class: "mode-subtitle" }, subtitle)));
}
