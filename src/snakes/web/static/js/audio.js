// The page's one audio context. Browsers start audio only after a gesture, so it is
// made (or resumed) on the first click or key; the sounds themselves (js/sound.js) load
// with the first move to show.

import { getSettings } from "./settings.js";

let ctx = null;
let master = null;

/** The running context and its master gain ({ac, master}), or null (sound off, none). */
export function audio() {
  if (!getSettings().sound) return null;
  const AudioCtx = window.AudioContext || window.webkitAudioContext;
  if (!AudioCtx) return null;
  if (!ctx) {
    try {
      ctx = new AudioCtx();
      master = ctx.createGain();
      master.gain.value = 0.5;
      master.connect(ctx.destination);
    } catch {
      return null;
    }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx.state === "running" ? { ac: ctx, master } : null;
}

/** Browsers only start audio after a gesture: call on the first click or key. */
export function unlockAudio() {
  const once = () => {
    audio();
    window.removeEventListener("pointerdown", once);
    window.removeEventListener("keydown", once);
  };
  window.addEventListener("pointerdown", once);
  window.addEventListener("keydown", once);
}

