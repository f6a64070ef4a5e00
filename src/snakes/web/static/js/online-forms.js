// The online screens' form parts: a name field checked as the server checks names, a
// colour picker that knows which colours are taken, and the name this device last used.

import { h, uniqueId } from "./dom.js";
import { colourList, colour } from "./colours.js";
import { validName } from "./screens/setup.js";
import { t } from "./i18n.js";

export function nameField(label, testid, initial) {
  const id = uniqueId("name");
  const errId = uniqueId("err");
  const err = h("span", { class: "field-error", id: errId });
  const input = h("input", { id, class: "text-input", type: "text", value: initial, autocomplete: "nickname", spellcheck: "false", "aria-describedby": errId, dataset: { testid } });
  const check = () => {
    const problem = validName(input.value);
    err.textContent = problem;
    if (problem) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    } else input.removeAttribute("aria-invalid");
    return !problem;
  };
  return {
    el: h("div", { class: "field" }, h("label", { class: "field-label", for: id }, label), input, err),
    value: () => input.value.trim(),
    check,
  };
}

export function colourChoice(testid, initial, taken) {
  const name = uniqueId("colour");
  let current = initial;
  const fieldset = h("fieldset", { class: "colour-picker", dataset: { testid } }, h("legend", { class: "field-label" }, t("colour.legend")));
  const inputs = new Map();
  for (const c of colourList()) {
    const id = uniqueId("colour-opt");
    const input = h("input", { type: "radio", id, name, value: c.id, checked: c.id === initial, dataset: { testid: `colour-${c.id}` }, on: { change: () => { current = c.id; } } });
    const label = h("label", { class: `swatch colour-${c.id}`, for: id, title: c.label }, input, h("span", { class: "swatch-dot", "aria-hidden": "true" }), h("span", { class: "visually-hidden" }, c.label));
    inputs.set(c.id, { input, label });
    fieldset.append(label);
  }
  const setTaken = (set) => {
    for (const [id, { input, label }] of inputs) {
      const isTaken = set.has(id);
      input.disabled = isTaken;
      label.classList.toggle("taken", isTaken);
      label.title = isTaken ? t("colour.taken", { colour: colour(id).label }) : colour(id).label;
      label.lastChild.textContent = isTaken ? t("colour.takenShort", { colour: colour(id).label }) : colour(id).label;
    }
    if (set.has(current)) {
      const free = colourList().find((c) => !set.has(c.id));
      if (free) {
        current = free.id;
        inputs.get(free.id).input.checked = true;
      }
    }
  };
  setTaken(taken);
  return { el: fieldset, value: () => current, setTaken };
}

export function lastName() {
  try {
    return localStorage.getItem("snakes.name") || "";
  } catch {
    return "";
  }
}

export function rememberName(name) {
  try {
    localStorage.setItem("snakes.name", name);
  } catch {
    // optional
  }
}
