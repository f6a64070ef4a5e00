// Turns the room's events into words in the player's language: one sentence per roll
// ("Ana rolled 6 and climbed the ladder from 28 to 84 — bonus roll!"), for the announcer.
// Loaded with the first move to tell (js/moment-moves.js) and with the replay.

import { t, ordinal } from "./i18n.js";

const FINISH = 100;

/**
 * Split an update's events into sentences. Returns [{after, text, seat}] where `after`
 * is the index of the event after whose animation the sentence should appear.
 * ctx: {names: string[], classic: boolean, mine: (seat) => boolean, single: boolean}
 */
export function describeEvents(events, ctx) {
  const out = [];
  const name = (seat) => (ctx.names[seat] !== undefined ? ctx.names[seat] : t("announce.seat", { n: seat + 1 }));
  let i = 0;
  while (i < events.length) {
    const ev = events[i];
    if (ev.type === "rolled") {
      let j = i + 1;
      const parts = { rolled: ev };
      while (j < events.length && ["moved", "climbed", "slid", "overshot", "bonus_roll", "finished"].includes(events[j].type) && events[j].seat === ev.seat) {
        parts[events[j].type] = events[j];
        j++;
      }
      out.push({ after: j - 1, text: rollSentence(parts, name(ev.seat), ctx), seat: ev.seat });
      i = j;
      continue;
    }
    const text = otherSentence(ev, name, ctx);
    // Whose turn it is already shows on the banner and seat card: spoken, not logged.
    if (text) out.push({ after: i, text, seat: ev.seat, quiet: ev.type === "turn_passed" });
    i++;
  }
  return out;
}

// A roll's sentence is built from clauses, each a whole phrase in the catalogue: the roll,
// what the token did, then how the turn ends.
function rollSentence(p, who, ctx) {
  const value = p.rolled.value;
  const roll = t(p.rolled.bonus ? "announce.rolledBonus" : "announce.rolled", { name: who, value });
  if (p.overshot) return t("announce.overshot", { roll, needed: p.overshot.needed, square: p.overshot.square });
  let text = roll;
  if (p.climbed) text = t("announce.climbed", { roll, start: p.climbed.start, end: p.climbed.end });
  else if (p.slid) text = t("announce.slid", { roll, start: p.slid.start, end: p.slid.end });
  else if (p.moved && p.moved.start === 0) text = t("announce.entered", { roll, end: p.moved.end });
  else if (p.moved) text = t("announce.moved", { roll, start: p.moved.start, end: p.moved.end });
  if (p.finished) {
    if (ctx.classic) return t("announce.endWins", { text, finish: FINISH });
    return t("announce.endPlace", { text, finish: FINISH, place: ordinal(p.finished.place) });
  }
  if (p.bonus_roll) return t("announce.endBonus", { text });
  return t("announce.end", { text });
}

function otherSentence(ev, name, ctx) {
  switch (ev.type) {
    case "turn_passed":
      return ctx.mine(ev.seat) && !ctx.isAi(ev.seat) ? t("announce.yourTurn", { name: name(ev.seat) }) : t("announce.turn", { name: name(ev.seat) });
    case "skipped":
      return t(ev.bonus_lost ? "announce.bonusLost" : "announce.skipped", { name: name(ev.seat) });
    case "left":
      return t(ev.removed ? "announce.removed" : "announce.left", { name: name(ev.seat) });
    case "game_ended":
      if (ev.winner !== null && ev.winner !== undefined) return t("announce.gameWinner", { name: name(ev.winner) });
      if (ev.reason === "abandoned") return t("announce.gameAbandoned");
      if (ev.reason === "everyone-left") return t("announce.gameEveryoneLeft");
      return t("announce.gameAllFinished", { finish: FINISH });
    case "joined":
      return t("announce.joined", { name: name(ev.seat) });
    case "started":
      return t("announce.started");
    case "rematch":
      return t("announce.rematch");
    case "finished":
      return t("announce.takesPlace", { name: name(ev.seat), place: ordinal(ev.place) });
    default:
      return "";
  }
}
