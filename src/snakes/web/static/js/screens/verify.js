// Verify: recompute every roll of a game from its record, in this browser (js/verify.js
// does the work). #/verify/CODE[/GAME] loads that room's record from the server; anyone
// can also paste a record or open a downloaded file, so the check needs no trust in the
// server that rolled the dice.

import { h, uniqueId } from "../dom.js";
import { getRecord } from "../api.js";
import { verifyRecord } from "../verify.js";
import { sentSeeds } from "../session.js";
import { announcer } from "../announcer.js";

const MAX_BYTES = 2 * 1024 * 1024;

export function mount(root, route, ctx) {
  ctx.setTitle("Verify a game");
  const code = String(route.params[0] || "").toUpperCase();
  const game = Number.parseInt(route.params[1] || "", 10);
  const inputId = uniqueId("record");
  const fileId = uniqueId("record-file");
  const input = h("textarea", {
    id: inputId, class: "text-input record-input", rows: 8, spellcheck: "false", autocomplete: "off",
    placeholder: "{\"engine_version\": …, \"actions\": […], \"fair\": {…}}", dataset: { testid: "verify-input" },
  });
  const file = h("input", { id: fileId, class: "file-input", type: "file", accept: ".json,application/json", dataset: { testid: "verify-file" }, on: { change: () => readFile() } });
  const checkButton = h("button", { class: "button button-primary button-huge", type: "submit", dataset: { testid: "verify-check" } }, "Check the dice");
  const result = h("div", { class: "verify-result", dataset: { testid: "verify-result", status: "" } });
  const loading = h("p", { class: "form-note", dataset: { testid: "verify-loading" } });

  const form = h("form", { class: "panel-card", novalidate: true, "aria-labelledby": "verify-input-heading", on: { submit: (e) => { e.preventDefault(); check(); } } },
    h("h2", { id: "verify-input-heading" }, "The game record"),
    h("p", { class: "hint" }, "Paste a game record (the JSON file from “Download game record”), or open the file."),
    h("div", { class: "field" }, h("label", { class: "field-label", for: inputId }, "Game record (JSON)"), input),
    h("div", { class: "field file-field" }, h("label", { class: "field-label", for: fileId }, "…or open a downloaded record"), file),
    loading,
    h("div", { class: "form-actions" }, checkButton));

  const screen = h("section", { class: "screen verify", dataset: { screen: "verify", code } },
    h("h1", {}, "Verify a game"),
    h("p", { class: "screen-intro" },
      "With fair dice the server commits to a secret seed before the game, every player's device adds a seed of its own, and after the game the server reveals its seed. ",
      "This page recomputes every roll from those seeds right here in your browser, so you need not trust the server."),
    result,
    form,
    h("div", { class: "form-actions" },
      h("a", { class: "button button-secondary", href: "#/", dataset: { testid: "verify-home" } }, "Home")));
  root.append(screen);

  let alive = true;
  if (code) loadRoom();

  async function loadRoom() {
    loading.textContent = `Loading the record of room ${code}…`;
    try {
      const record = await getRecord(code, Number.isInteger(game) ? game : null);
      if (!alive) return;
      input.value = JSON.stringify(record, null, 2);
      loading.textContent = `Loaded the record of room ${code}${Number.isInteger(game) ? `, game ${game}` : ""}.`;
      await check();
    } catch (err) {
      if (!alive) return;
      loading.textContent = err.status === 404
        ? `No finished game of room ${code} is on record (records are kept for a while after a game ends). You can still paste a record you downloaded.`
        : err.message;
    }
  }

  async function readFile() {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    if (chosen.size > MAX_BYTES) {
      show("unverifiable", [h("p", {}, "That file is too big to be a game record.")]);
      return;
    }
    input.value = await chosen.text();
    await check();
  }

  async function check() {
    const text = input.value.trim();
    if (!text) {
      show("unverifiable", [h("p", {}, "Paste a game record first, or open a record file.")]);
      input.focus();
      return;
    }
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      show("unverifiable", [h("h2", {}, "This record cannot be checked"), h("p", {}, "It is not valid JSON: paste the whole file, from the first { to the last }.")]);
      return;
    }
    checkButton.disabled = true;
    show("checking", [h("p", {}, "Recomputing every roll…")]);
    let report;
    try {
      report = await verifyRecord(data);
    } catch (err) {
      report = { status: "unverifiable", reason: `The check failed: ${err && err.message ? err.message : err}` };
    } finally {
      checkButton.disabled = false;
    }
    if (!alive) return;
    render(report);
  }

  function render(report) {
    if (report.status === "unverifiable") {
      show("unverifiable", [
        h("h2", { dataset: { testid: "verify-headline" } }, "This record cannot be checked"),
        h("p", {}, report.reason)]);
      return;
    }
    const seats = report.table.seats;
    const details = h("dl", { class: "verify-facts" },
      h("dt", {}, "Commitment"), h("dd", { class: "mono" }, report.fair.commitment),
      h("dt", {}, "Server seed (revealed)"), h("dd", { class: "mono" }, report.fair.serverSeed),
      h("dt", {}, "Players’ seeds"),
      h("dd", {}, h("ul", { class: "seed-list" }, seats.map((seat, i) => h("li", {},
        h("span", { class: "seed-name" }, `${seat.name}: `),
        report.fair.clientSeeds[i] ? h("span", { class: "mono" }, report.fair.clientSeeds[i]) : h("em", {}, "none (no device of its own)"))))));
    const mine = sentSeeds().find((entry) => entry.commitment === report.fair.commitment);
    const own = mine
      ? h("p", { class: "verify-own", dataset: { testid: "verify-own-seed" } },
        report.fair.clientSeeds.includes(mine.seed)
          ? "Your device’s own random seed is in this record, so the server could not have known the rolls in advance."
          : "Careful: the seed your device sent for this game is not in this record.")
      : null;
    if (report.status === "ok") {
      show("ok", [
        h("h2", { dataset: { testid: "verify-headline" } }, report.rollsChecked === 1 ? "The one roll matches" : report.rollsChecked === 0 ? "No rolls yet — the seeds check out" : `All ${report.rollsChecked} rolls match`),
        h("p", {}, `The server’s seed matches the commitment it published before the game, and every roll is the one the seeds give${report.table.boardName ? ` (board: ${report.table.boardName})` : ""}.`),
        own, details]);
      return;
    }
    const rows = report.mismatches.map((m) => h("li", { dataset: { testid: "verify-mismatch", index: String(m.index), expected: String(m.expected), recorded: String(m.recorded) } },
      `Roll #${m.index} (action ${m.action}, ${m.name}): the seeds give ${m.expected}, but the record says ${m.recorded}.`));
    const other = report.problems.filter((p) => !p.startsWith("Roll #")).map((p) => h("li", {}, p));
    show("tampered", [
      h("h2", { dataset: { testid: "verify-headline" } }, report.mismatches.length
        ? `${report.mismatches.length} of the ${report.rollsChecked} rolls checked ${report.mismatches.length === 1 ? "does" : "do"} not match`
        : "This record does not check out"),
      h("p", {}, "This record was changed after the game, or the dice were not the fair ones:"),
      h("ul", { class: "verify-problems" }, rows, other),
      own, details]);
  }

  function show(status, children) {
    result.dataset.status = status;
    result.className = `verify-result verify-${status}`;
    result.replaceChildren(...children.filter(Boolean));
    const headline = result.querySelector("h2");
    if (headline && status !== "checking") announcer.speak(headline.textContent);
  }

  return () => {
    alive = false;
  };
}
