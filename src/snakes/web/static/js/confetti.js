// Confetti over the result screen for a Classic winner (never with reduced motion).

import { h } from "./dom.js";

/** Throw confetti; returns what takes it away early. */
export function throwConfetti() {
  const layer = h("div", { class: "confetti", "aria-hidden": "true" });
  document.body.append(layer);
  const colours = ["#e0302b", "#1e6fd9", "#12a150", "#ffd21f", "#8e3ccb", "#ff8a00", "#ffffff"];
  const pieces = [];
  for (let i = 0; i < 90; i++) {
    const piece = h("span", { class: "confetti-piece" });
    piece.style.left = `${Math.random() * 100}%`;
    piece.style.background = colours[i % colours.length];
    piece.style.width = `${6 + Math.random() * 8}px`;
    piece.style.height = `${8 + Math.random() * 10}px`;
    layer.append(piece);
    if (typeof piece.animate === "function") {
      const drift = (Math.random() - 0.5) * 260;
      const spin = 360 + Math.random() * 720;
      pieces.push(piece.animate(
        [
          { transform: "translate(0, -10vh) rotate(0deg)", opacity: 1 },
          { transform: `translate(${drift}px, 105vh) rotate(${spin}deg)`, opacity: 0.9 },
        ],
        { duration: 2600 + Math.random() * 2200, delay: Math.random() * 900, easing: "cubic-bezier(.25,.6,.45,1)", fill: "both" },
      ));
    }
  }
  const done = setTimeout(() => layer.remove(), 6500);
  return () => {
    clearTimeout(done);
    layer.remove();
  };
}
