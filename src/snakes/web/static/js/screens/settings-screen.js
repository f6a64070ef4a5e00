// Settings ("Snake settings"): animation speed, sound, reduced motion, the live odds panel,
// muting reactions, and the house-rule defaults new games start from. Saved as soon as
// they change.

import { h, uniqueId } from "../dom.js";
import { SPEEDS, getSettings, updateSettings, onSettingsChange, reducedMotion, systemReducedMotion } from "../settings.js";
import { toggle } from "./setup.js";
import { sound } from "../sound.js";
import { WORDS as REACTION_WORDS } from "../reactions.js";

export function mount(root, _route, ctx) {
  ctx.setTitle("Settings");
  const settings = getSettings();
  const saved = h("p", { class: "form-note", role: "status", dataset: { testid: "settings-saved" } });
  let savedTimer = null;
  const save = (patch, what) => {
    updateSettings(patch);
    saved.textContent = `Saved: ${what}.`;
    clearTimeout(savedTimer);
    savedTimer = setTimeout(() => {
      saved.textContent = "";
    }, 3000);
  };

  const speedName = uniqueId("speed");
  const speed = h("fieldset", { class: "radio-cards speed-cards" },
    h("legend", { class: "field-label" }, "Animation speed"),
    Object.entries(SPEEDS).map(([id, { label }]) => {
      const inputId = uniqueId("speed-opt");
      return h("label", { class: "radio-card compact", for: inputId },
        h("input", { type: "radio", name: speedName, id: inputId, value: id, checked: settings.speed === id, dataset: { testid: `speed-${id}` }, on: { change: () => save({ speed: id }, `animation speed ${label.toLowerCase()}`) } }),
        h("span", { class: "radio-card-body" }, h("span", { class: "radio-card-title" }, label)));
    }));

  const screen = h("section", { class: "screen settings", dataset: { screen: "settings" } },
    h("h1", {}, "Settings"),
    h("section", { class: "panel-card", "aria-labelledby": "look-heading" },
      h("h2", { id: "look-heading" }, "Sound and motion"),
      speed,
      toggle("sound", "Sound", "Dice rattles, ladder climbs and snake slides.", settings.sound, (v) => {
        save({ sound: v }, v ? "sound on" : "sound off");
        if (v) sound.climb();
      }, "setting-sound"),
      toggle("motion", "Reduce motion", motionHint(), reducedMotion(), (v) => save({ reducedMotion: v }, v ? "reduced motion on" : "reduced motion off"), "setting-reduced-motion")),
    h("section", { class: "panel-card", "aria-labelledby": "game-heading" },
      h("h2", { id: "game-heading" }, "During a game"),
      toggle("odds", "Show live odds", "A panel beside the board with each player's chance to win (or expected place), updated after every roll.", settings.showOdds, (v) => save({ showOdds: v }, v ? "live odds shown" : "live odds hidden"), "setting-show-odds"),
      toggle("mute-reactions", REACTION_WORDS.muteTitle, REACTION_WORDS.muteHint, settings.muteReactions, (v) => save({ muteReactions: v }, REACTION_WORDS.muteSaved(v)), "setting-mute-reactions")),
    h("section", { class: "panel-card", "aria-labelledby": "house-heading" },
      h("h2", { id: "house-heading" }, "House rules for new games"),
      h("p", { class: "hint" }, "New games start with these; you can still change them on the setup screen."),
      toggle("exact", "Exact finish", "You need the exact count to land on 100.", settings.exactFinish, (v) => save({ exactFinish: v }, v ? "exact finish on" : "exact finish off"), "setting-exact-finish"),
      toggle("six", "Sixes roll again", "A six earns a bonus roll (never more than two sixes in a row).", settings.sixAgain, (v) => save({ sixAgain: v }, v ? "sixes roll again on" : "sixes roll again off"), "setting-six-again")),
    saved,
    h("div", { class: "form-actions" }, h("a", { class: "button button-primary", href: "#/", dataset: { testid: "settings-done" } }, "Done")));
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
  const base = "No tumbling, hopping or confetti; tokens move simply.";
  return systemReducedMotion() ? `${base} Your device asks for less motion; switch it off here to see the animations.` : base;
}
