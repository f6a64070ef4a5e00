// One tween helper shared by every animation. Durations come in already scaled by the
// speed setting; tiny ones (the "instant" speed) still call the same frame function,
// only in a single step, so rendering code always runs.

import { reducedMotion } from "./settings.js";

export const ease = {
  linear: (t) => t,
  inOut: (t) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2),
  out: (t) => 1 - (1 - t) ** 3,
  in: (t) => t * t * t,
};

// Set by endAll() until resumeAll(): every tween and pause ends at once.
let cut = false;
const pauses = new Set();

/**
 * End every tween and pause now running (each tween draws its last frame on its next
 * frame), and those that follow until resumeAll(): what they show is old news ("Skip to
 * results" has played the rest of the race already).
 */
export function endAll() {
  cut = true;
  for (const resolve of [...pauses]) resolve();
}

/** Tweens and pauses take their time again. */
export function resumeAll() {
  cut = false;
}

/** Run frame(progress) from 0 to 1 over ms milliseconds; resolves after frame(1). */
export function tween(ms, frame, easing = ease.inOut) {
  if (!(ms > 8) || document.hidden || cut) {
    frame(easing(1));
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const start = performance.now();
    const step = (now) => {
      const t = cut ? 1 : Math.min(1, (now - start) / ms);
      frame(easing(t));
      if (t < 1) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}

/** A pause that respects the speed setting (already scaled by the caller). */
export function pause(ms) {
  if (!(ms > 8) || cut) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pauses.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    pauses.add(done);
  });
}

/** Points along a polyline at fraction t (0..1) of its total length. */
export function pointAlong(points, t) {
  if (points.length === 1) return { ...points[0] };
  const lengths = [0];
  for (let i = 1; i < points.length; i++) {
    lengths.push(lengths[i - 1] + Math.hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y));
  }
  const total = lengths[lengths.length - 1] || 1;
  const target = Math.max(0, Math.min(1, t)) * total;
  let i = 1;
  while (i < lengths.length - 1 && lengths[i] < target) i++;
  const span = lengths[i] - lengths[i - 1] || 1;
  const local = (target - lengths[i - 1]) / span;
  return {
    x: points[i - 1].x + (points[i].x - points[i - 1].x) * local,
    y: points[i - 1].y + (points[i].y - points[i - 1].y) * local,
  };
}

// How long each motion of a move takes at normal speed (ms, before the speed setting):
// the die, the tokens and the game screen's pauses read them here, and the game screen
// adds them up to fit a move into the time the server gives for showing it.
export const GLIDE_MS = 180;
export const TURN_PAUSE_MS = 260;
export const BONUS_PAUSE_MS = 350;

export const rollMs = () => (reducedMotion() ? 200 : 720);
export const hopMs = () => (reducedMotion() ? 120 : 210);
export const climbMs = (span) => Math.min(1400, 380 + Math.abs(span) * 14);
export const slideMs = (span) => Math.min(1600, 450 + Math.abs(span) * 14);
export const bumpMs = () => 320;
export const joyMs = () => (reducedMotion() ? 0 : 360);
export const celebrateMs = () => 520;

/** The time an update's events take to show at normal speed, as the game screen plays them. */
export function plannedMs(events) {
  let ms = 0;
  for (const ev of events) {
    ms += GLIDE_MS; // every event ends with the tokens gliding into place
    switch (ev.type) {
      case "rolled": ms += rollMs(); break;
      case "moved": ms += Math.abs(ev.end - ev.start) * hopMs(); break;
      case "climbed": ms += climbMs(ev.end - ev.start) + joyMs(); break;
      case "slid": ms += slideMs(ev.start - ev.end); break;
      case "overshot": ms += bumpMs(); break;
      case "bonus_roll": ms += BONUS_PAUSE_MS; break;
      case "finished": ms += GLIDE_MS + celebrateMs(); break;
      case "turn_passed": ms += TURN_PAUSE_MS; break;
      default: break;
    }
  }
  return ms;
}
