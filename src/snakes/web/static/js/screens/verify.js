// Verify: recompute every roll of a game from its record, in this browser (js/verify.js
// does the work). #/verify/CODE[/GAME] loads that room's record from the server; anyone
// can also paste a record or open a downloaded file, so the check needs no trust in the
// server that rolled the dice.

import { h, uniqueId } from "../dom.js";
import { getRecord } from "../api.js";
import { verifyRecord } from "../verify.js";
import { sentSeeds } from "../fair-seeds.js";
import { announcer } from "../announcer.js";
import { t, errorText } from "../i18n.js";

const MAX_BYTES = 2 * 1024 * 1024;

/** A reason from js/verify.js ({key, params}, a param perhaps another one) in words. */
export function say(message) {
  if (typeof message === "string") return message;
  const params = {};
  for (const [name, value] of Object.entries(message.params || {})) {
    params[name] = value && typeof value === "object" && value.key ? say(value) : value;
  }
  return t(message.key, params);
}

export function mount(root, route, ctx) {
  ctx.setTitle(t("verify.title"));
  const code = String(route.params[0] || "").toUpperCase();
  const game = Number.parseInt(route.params[1] || "", 10);
  const { screen, input, file, checkButton, result, loading } = verifyLayout(code, { check: () => check(), readFile: () => readFile() });
  root.append(screen);

  let alive = true;
  if (code) loadRoom();

  async function loadRoom() {
    loading.textContent = t("verify.loading", { code });
    try {
      const record = await getRecord(code, Number.isInteger(game) ? game : null);
      if (!alive) return;
      input.value = JSON.stringify(record, null, 2);
      loading.textContent = Number.isInteger(game) ? t("verify.loadedGame", { code, game }) : t("verify.loaded", { code });
      await check();
    } catch (err) {
      if (!alive) return;
      loading.textContent = err.status === 404 ? t("verify.none", { code }) : errorText(err.code, err.message);
    }
  }

  async function readFile() {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    if (chosen.size > MAX_BYTES) {
      show("unverifiable", [h("p", {}, t("verify.tooBig"))]);
      return;
    }
    input.value = await chosen.text();
    await check();
  }

  async function check() {
    const text = input.value.trim();
    if (!text) {
      show("unverifiable", [h("p", {}, t("verify.empty"))]);
      input.focus();
      return;
    }
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      show("unverifiable", [h("h2", {}, t("verify.cannot")), h("p", {}, t("verify.notJson"))]);
      return;
    }
    checkButton.disabled = true;
    show("checking", [h("p", {}, t("verify.checking"))]);
    let report;
    try {
      report = await verifyRecord(data);
    } catch (err) {
      report = { status: "unverifiable", reason: t("verify.failed", { reason: err && err.message ? err.message : String(err) }) };
    } finally {
      checkButton.disabled = false;
    }
    if (!alive) return;
    show(...reportParts(report));
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

/** What a report shows: [its status, the parts that say it]. */
function reportParts(report) {
  if (report.status === "unverifiable") {
    return ["unverifiable", [
      h("h2", { dataset: { testid: "verify-headline" } }, t("verify.cannot")),
      h("p", {}, say(report.reason))]];
  }
  const seats = report.table.seats;
  const details = h("dl", { class: "verify-facts" },
    h("dt", {}, t("verify.commitment")), h("dd", { class: "mono" }, report.fair.commitment),
    h("dt", {}, t("verify.serverSeed")), h("dd", { class: "mono" }, report.fair.serverSeed),
    h("dt", {}, t("verify.playerSeeds")),
    h("dd", {}, h("ul", { class: "seed-list" }, seats.map((seat, i) => h("li", {},
      h("span", { class: "seed-name" }, t("verify.seedOf", { name: seat.name })),
      report.fair.clientSeeds[i] ? h("span", { class: "mono" }, report.fair.clientSeeds[i]) : h("em", {}, t("verify.noSeed")))))));
  const mine = sentSeeds().find((entry) => entry.commitment === report.fair.commitment);
  const own = mine
    ? h("p", { class: "verify-own", dataset: { testid: "verify-own-seed" } },
      report.fair.clientSeeds.includes(mine.seed)
        ? t("verify.ownSeed")
        : t("verify.ownSeedMissing"))
    : null;
  if (report.status === "ok") {
    return ["ok", [
      h("h2", { dataset: { testid: "verify-headline" } }, report.rollsChecked === 0 ? t("verify.noRolls") : t("verify.allMatch", { count: report.rollsChecked })),
      h("p", {}, report.table.boardName ? t("verify.okBoard", { board: report.table.boardName }) : t("verify.ok")),
      own, details]];
  }
  const rows = report.mismatches.map((m) => h("li", { dataset: { testid: "verify-mismatch", index: String(m.index), expected: String(m.expected), recorded: String(m.recorded) } },
    t("verify.mismatch", { index: m.index, action: m.action, name: m.name ?? t("announce.seat", { n: m.seat + 1 }), expected: m.expected, recorded: m.recorded })));
  // The mismatches are the rows above; every other problem (a changed seed, an action
  // that no longer replays) follows them.
  const other = report.problems.filter((p) => p.key !== "verify.mismatch").map((p) => h("li", {}, say(p)));
  return ["tampered", [
    h("h2", { dataset: { testid: "verify-headline" } }, report.mismatches.length
      ? t("verify.mismatches", { count: report.mismatches.length, total: report.rollsChecked })
      : t("verify.doesNotCheck")),
    h("p", {}, t("verify.changed")),
    h("ul", { class: "verify-problems" }, rows, other),
    own, details]];
}

/** The screen's parts; `on`: what its form does ({check, readFile}). */
function verifyLayout(code, on) {
  const inputId = uniqueId("record");
  const fileId = uniqueId("record-file");
  const input = h("textarea", {
    id: inputId, class: "text-input record-input", rows: 8, spellcheck: "false", autocomplete: "off",
    placeholder: "{\"engine_version\": …, \"actions\": […], \"fair\": {…}}", dataset: { testid: "verify-input" },
  });
  const file = h("input", { id: fileId, class: "file-input", type: "file", accept: ".json,application/json", dataset: { testid: "verify-file" }, on: { change: on.readFile } });
  const checkButton = h("button", { class: "button button-primary button-huge", type: "submit", dataset: { testid: "verify-check" } }, t("verify.check"));
  const result = h("div", { class: "verify-result", dataset: { testid: "verify-result", status: "" } });
  const loading = h("p", { class: "form-note", dataset: { testid: "verify-loading" } });

  const form = h("form", { class: "panel-card", novalidate: true, "aria-labelledby": "verify-input-heading", on: { submit: (e) => { e.preventDefault(); on.check(); } } },
    h("h2", { id: "verify-input-heading" }, t("verify.record")),
    h("p", { class: "hint" }, t("verify.paste", { download: t("result.download") })),
    h("div", { class: "field" }, h("label", { class: "field-label", for: inputId }, t("verify.recordJson")), input),
    h("div", { class: "field file-field" }, h("label", { class: "field-label", for: fileId }, t("verify.open")), file),
    loading,
    h("div", { class: "form-actions" }, checkButton));

  const screen = h("section", { class: "screen verify", dataset: { screen: "verify", code } },
    h("h1", {}, t("verify.title")),
    h("p", { class: "screen-intro" }, t("verify.intro")),
    result,
    form,
    h("div", { class: "form-actions" },
      h("a", { class: "button button-secondary", href: "#/", dataset: { testid: "verify-home" } }, t("common.home"))));
  return { screen, input, file, checkButton, result, loading };
}
