// How long each motion of a move takes at normal speed (ms, before the speed setting):
// the die, the tokens and the game screen's pauses read them here, and the game screen
// adds them up to fit a move into the time the server gives for showing it.

import { reducedMotion } from "./settings.js";

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
