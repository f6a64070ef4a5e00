// The "no connection" page the service worker shows when the server cannot be reached:
// it keeps asking the server, and goes back to the game as soon as it answers. It speaks
// the player's language: the catalogues are in the app shell the service worker keeps.

import { t, has, loadLanguage } from "./i18n.js";

const status = document.querySelector("[data-testid=offline-status]");
const retry = document.querySelector("[data-testid=offline-retry]");
// The page stands in for the address the player opened (a home screen, an invite link).
retry.setAttribute("href", location.pathname + location.hash);

async function reachable() {
  try {
    const response = await fetch("/healthz", { cache: "no-store" });
    return response.ok;
  } catch {
    return false;
  }
}

/** The player's choice, else the browser's languages (and their base), else English. */
async function speak() {
  let choice = null;
  try {
    choice = JSON.parse(localStorage.getItem("snakes.settings") || "{}").language || null;
  } catch {
    choice = null;
  }
  const wanted = [choice, ...(navigator.languages || [])].filter((x) => typeof x === "string");
  const codes = [...new Set(wanted.flatMap((tag) => [tag, tag.split("-")[0]]))];
  for (const code of [...codes, "en"]) {
    try {
      await loadLanguage(code);
      document.title = `${t("offline.title")} — ${t("app.name")}`;
      return;
    } catch {
      // Not a language we ship: the next one.
    }
  }
}

speak();

async function check() {
  if (await reachable()) {
    status.textContent = has("offline.back") ? t("offline.back") : "Connected again — opening the game…";
    location.reload();
    return;
  }
  setTimeout(check, 3000);
}

setTimeout(check, 3000);
