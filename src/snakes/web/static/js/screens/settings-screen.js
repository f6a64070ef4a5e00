// Settings: language, animation speed, sound, reduced motion, the live
// odds panel, muting reactions, and the house-rule defaults new games start from. Saved
// as soon as they change.

import { h, uniqueId } from "../dom.js";
import { SPEEDS, getSettings, updateSettings, onSettingsChange, reducedMotion, systemReducedMotion } from "../settings.js";
import { toggle } from "./setup.js";
import { sound } from "../sound.js";
import { WORDS as REACTION_WORDS } from "../reactions.js";
import { t, languages, currentLanguage } from "../i18n.js";

export function mount(root, _route, ctx) {
  ctx.setTitle(t("nav.settings"));
  const settings = getSettings();
  const saved = h("p", { class: "form-note", role: "status", dataset: { testid: "settings-saved" } });
  let savedTimer = null;
  const save = (patch, what) => {
    updateSettings(patch);
    saved.textContent = t("settings.saved", { what });
    clearTimeout(savedTimer);
    savedTimer = setTimeout(() => {
      saved.textContent = "";
    }, 3000);
  };

  const speedName = uniqueId("speed");
  const speed = h("fieldset", { class: "radio-cards speed-cards" },
    h("legend", { class: "field-label" }, t("settings.speed")),
    Object.keys(SPEEDS).map((id) => {
      const label = t(`settings.speed.${id}`);
      const inputId = uniqueId("speed-opt");
      return h("label", { class: "radio-card compact", for: inputId },
        h("input", { type: "radio", name: speedName, id: inputId, value: id, checked: settings.speed === id, dataset: { testid: `speed-${id}` }, on: { change: () => save({ speed: id }, t("settings.savedSpeed", { speed: label })) } }),
        h("span", { class: "radio-card-body" }, h("span", { class: "radio-card-title" }, label)));
    }));

  const screen = h("section", { class: "screen settings", dataset: { screen: "settings" } },
    h("h1", {}, t("nav.settings")),
    languagePicker(settings),
    h("section", { class: "panel-card", "aria-labelledby": "look-heading" },
      h("h2", { id: "look-heading" }, t("settings.look")),
      speed,
      toggle("sound", t("page.sound"), t("settings.soundHint"), settings.sound, (v) => {
        save({ sound: v }, t(v ? "settings.savedSoundOn" : "settings.savedSoundOff"));
        if (v) sound.climb();
      }, "setting-sound"),
      toggle("motion", t("settings.motion"), motionHint(), reducedMotion(), (v) => save({ reducedMotion: v }, t(v ? "settings.savedMotionOn" : "settings.savedMotionOff")), "setting-reduced-motion")),
    h("section", { class: "panel-card", "aria-labelledby": "game-heading" },
      h("h2", { id: "game-heading" }, t("settings.during")),
      toggle("odds", t("settings.odds"), t("settings.oddsHint"), settings.showOdds, (v) => save({ showOdds: v }, t(v ? "settings.savedOddsOn" : "settings.savedOddsOff")), "setting-show-odds"),
      toggle("mute-reactions", REACTION_WORDS.muteTitle, REACTION_WORDS.muteHint, settings.muteReactions, (v) => save({ muteReactions: v }, REACTION_WORDS.muteSaved(v)), "setting-mute-reactions")),
    h("section", { class: "panel-card", "aria-labelledby": "house-heading" },
      h("h2", { id: "house-heading" }, t("settings.house")),
      h("p", { class: "hint" }, t("settings.houseHint")),
      toggle("exact", t("rules.exact"), t("rules.exactHint", { finish: 100 }), settings.exactFinish, (v) => save({ exactFinish: v }, t(v ? "settings.savedExactOn" : "settings.savedExactOff")), "setting-exact-finish"),
      toggle("six", t("rules.six"), t("rules.sixHint"), settings.sixAgain, (v) => save({ sixAgain: v }, t(v ? "settings.savedSixOn" : "settings.savedSixOff")), "setting-six-again")),
    saved,
    h("div", { class: "form-actions" }, h("a", { class: "button button-primary", href: "#/", dataset: { testid: "settings-done" } }, t("common.done"))));
  root.append(screen);
  // The top bar's sound button changes the same setting: keep the switch in step.
  const stop = onSettingsChange((now) => {
    const soundSwitch = screen.querySelector("[data-testid=setting-sound]");
    if (soundSwitch) soundSwitch.checked = now.sound;
    // The system's preference may change while this screen is open.
    const motionSwitch = screen.querySelector("[data-testid=setting-reduced-motion]");
    if (motionSwitch) motionSwitch.checked = reducedMotion();
  });
  return () => {
    clearTimeout(savedTimer);
    stop();
  };
}

function motionHint() {
  return systemReducedMotion() ? t("settings.motionHintSystem") : t("settings.motionHint");
}

/**
 * The language: "as the browser asks" or one of the shipped catalogues, each named in its
 * own language (and script), so anyone can find theirs. Choosing one redraws the page.
 */
function languagePicker(settings) {
  const id = uniqueId("language");
  const select = h("select", { id, class: "text-input language-select", dataset: { testid: "setting-language" }, on: { change: () => {
    updateSettings({ language: select.value || null });
  } } },
    h("option", { value: "", selected: !settings.language }, t("settings.languageAuto")),
    languages().map((lang) => h("option", { value: lang.code, lang: lang.code, selected: settings.language === lang.code }, lang.name)));
  return h("section", { class: "panel-card", "aria-labelledby": "language-heading" },
    h("h2", { id: "language-heading" }, t("settings.language")),
    h("div", { class: "field" },
      h("label", { class: "field-label", for: id }, t("settings.languageLabel")),
      select,
      h("p", { class: "hint", dataset: { testid: "language-now" } }, t("settings.languageNow", { name: (languages().find((x) => x.code === currentLanguage()) || { name: currentLanguage() }).name }))));
}
