// Tiny DOM helpers. User text is only ever inserted with textContent (never innerHTML).

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Create an HTML element.
 * h("button", {class: "x", type: "button", dataset: {testid: "roll"}, on: {click}}, "Roll")
 * Children may be strings (inserted as text), nodes, arrays, null or false.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  applyProps(el, props);
  append(el, children);
  return el;
}

/** Create an SVG element; attributes are set verbatim with setAttribute. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") el.textContent = String(value);
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function applyProps(el, props) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "on") {
      for (const [name, handler] of Object.entries(value)) el.addEventListener(name, handler);
    } else if (key === "style") {
      throw new Error("use CSS classes, or element.style from code, never a style attribute");
    } else if (key in el && typeof value !== "string" && key !== "list") el[key] = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Remove every child of an element. */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Is the event target a field where Space/Enter mean typing or pressing something else? */
export function isInteractive(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(target.closest("input, textarea, select, button, a[href], summary, dialog, [contenteditable], [role=radio], [role=switch]"));
}

export const wait = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** "1st", "2nd", "3rd", "4th" ... in the page's language (Intl's ordinal categories). */
export { ordinal } from "./i18n.js";

let uid = 0;
/** A unique id for label/aria wiring. */
export function uniqueId(prefix = "id") {
  uid += 1;
  return `${prefix}-${uid}`;
}
