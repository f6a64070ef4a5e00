// Exact win chances and places from any moment of a game, in the page: a port of
// snakes.analysis.odds over js/turn-chain.js. Tokens never interact, so each seat's turns
// to finish are independent; turn order does the rest. In play order o0, o1, ... (o0
// rolls first), o_j finishing at its turn k beats every o_l before it that finishes at
// k + 1 or later, and every o_l after it that finishes at k or later.
// tests/js/test_odds_differential.py holds it to snakes.analysis to 1e-12.

import { FINISH, placings, racing, winner } from "./rules.js";
import { turnChain } from "./turn-chain.js";

const shifted = (row) => {
  const out = new Float64Array(row.length);
  out.set(row.subarray(0, row.length - 1), 1);
  return out;
};

/** [j][k]: the chance that the seat j-th in play order wins at its turn k. */
export function winByTurn(cdfs) {
  const count = cdfs.length;
  const before = cdfs.map(shifted);
  const result = cdfs.map((row, j) => row.map((f, k) => f - before[j][k]));
  if (count > 1) {
    const prefix = cdfs[0].map((f) => 1 - f);
    for (let j = 1; j < count; j++) {
      for (let k = 0; k < prefix.length; k++) {
        result[j][k] *= prefix[k];
        prefix[k] *= 1 - cdfs[j][k];
      }
    }
    const suffix = before[count - 1].map((f) => 1 - f);
    for (let j = count - 2; j >= 0; j--) {
      for (let k = 0; k < suffix.length; k++) {
        result[j][k] *= suffix[k];
        suffix[k] *= 1 - before[j][k];
      }
    }
  }
  return result;
}

/** [j][p]: the chance that the seat j-th in play order takes place p + 1 (by finish turn). */
export function placeChances(cdfs) {
  const count = cdfs.length;
  const width = cdfs[0].length;
  const before = cdfs.map(shifted);
  return cdfs.map((row, j) => {
    // dist[c][k]: given seat j finishes at turn k, the chance c others beat it.
    const dist = Array.from({ length: count }, (_, c) => new Float64Array(width).fill(c === 0 ? 1 : 0));
    for (let other = 0; other < count; other++) {
      if (other === j) continue;
      const beats = other < j ? cdfs[other] : before[other];
      for (let c = count - 1; c >= 0; c--) { // in place: dist[c - 1] is still the old one
        const line = dist[c];
        const below = c > 0 ? dist[c - 1] : null;
        for (let k = 0; k < width; k++) line[k] = line[k] * (1 - beats[k]) + (below ? below[k] * beats[k] : 0);
      }
    }
    return dist.map((line) => {
      let sum = 0;
      for (let k = 0; k < width; k++) sum += line[k] * (row[k] - before[j][k]);
      return sum;
    });
  });
}

/** How many others finish ahead of the seat j-th in play order, on average. */
export function expectedBeatenBy(cdfs) {
  const before = cdfs.map(shifted);
  const dot = (a, b) => {
    let sum = 0;
    for (let k = 0; k < a.length; k++) sum += a[k] * b[k];
    return sum;
  };
  return cdfs.map((row, j) => {
    const pmf = row.map((f, k) => f - before[j][k]);
    let ahead = 0;
    for (let l = 0; l < cdfs.length; l++) {
      if (l < j) ahead += dot(pmf, cdfs[l]); // finished by the same turn: rolled first
      else if (l > j) ahead += dot(pmf, before[l]);
    }
    return ahead;
  });
}

/** The racing seats in the order they roll from now: the seat to roll first. */
export function playOrder(state) {
  if (state.turn === null || state.turn === undefined) return [];
  const still = new Set(racing(state));
  const n = state.positions.length;
  const order = [];
  for (let step = 0; step < n; step++) {
    const seat = (state.turn + step) % n;
    if (still.has(seat)) order.push(seat);
  }
  return order;
}

function liveCdfs(state, table, order) {
  const chain = turnChain(table);
  return order.map((seat, i) => {
    const sixes = i === 0 && table.rules.six_again ? Math.min(state.sixes, chain.layers - 1) : 0;
    return chain.cdf(sixes, Math.min(state.positions[seat], FINISH));
  });
}

const total = (values) => values.reduce((a, b) => a + b, 0);

/**
 * Each seat's odds from this moment, by seat (table: {rules, jumps}). Classic: its chance
 * to win; Last One Standing: its expected place (a finished seat's is fixed; leavers
 * rank after every finisher, a later leaver above an earlier one).
 */
export function liveOdds(state, table) {
  const n = state.positions.length;
  const order = playOrder(state);
  if (table.rules.finish === "classic") {
    const chances = new Array(n).fill(0);
    if (state.over || !order.length) {
      const won = winner(state, table.rules);
      if (won !== null && won !== undefined) chances[won] = 1;
      return chances;
    }
    if (order.length === 1) {
      chances[order[0]] = 1;
      return chances;
    }
    const wins = winByTurn(liveCdfs(state, table, order)).map(total);
    const sum = total(wins);
    order.forEach((seat, i) => (chances[seat] = wins[i] / sum));
    return chances;
  }
  const places = new Array(n).fill(0);
  state.standings.forEach((seat, i) => (places[seat] = i + 1));
  state.leavers.forEach((seat, i) => (places[seat] = n - i));
  if (order.length) {
    const beaten = expectedBeatenBy(liveCdfs(state, table, order));
    order.forEach((seat, i) => (places[seat] = state.standings.length + 1 + beaten[i]));
  }
  return places;
}

/** [seat][place - 1]: each seat's chance of each place from this moment (Last One Standing's places). */
export function livePlaceChances(state, table) {
  const n = state.positions.length;
  const result = Array.from({ length: n }, () => new Array(n).fill(0));
  state.standings.forEach((seat, place) => (result[seat][place] = 1));
  state.leavers.forEach((seat, i) => (result[seat][n - 1 - i] = 1));
  const order = playOrder(state);
  if (order.length) {
    const offset = state.standings.length;
    placeChances(liveCdfs(state, table, order)).forEach((row, i) => {
      const sum = total(row);
      row.forEach((chance, place) => (result[order[i]][offset + place] = chance / sum));
    });
  }
  return result;
}

/** Each seat's odds in a story (story.py's story_odds): at the end of a Last One Standing game, its place. */
export function storyOdds(state, table) {
  if (state.over && table.rules.finish !== "classic") {
    const places = new Array(state.positions.length).fill(0);
    for (const placing of placings(state, table.rules)) places[placing.seat] = placing.place;
    return places;
  }
  return liveOdds(state, table);
}

const rounded = (value, digits) => Number(value.toFixed(digits));

/** The room view's `odds` (server/rooms/views.py odds_of): null once over or not worked out. */
export function oddsOf(state, table) {
  if (!state || state.over) return null;
  try {
    if (table.rules.finish === "classic") return { kind: "win", values: liveOdds(state, table).map((p) => rounded(p, 4)) };
    const expected = livePlaceChances(state, table).map((row) => row.reduce((sum, p, place) => sum + (place + 1) * p, 0));
    return { kind: "place", values: expected.map((e) => rounded(e, 3)) };
  } catch (err) {
    console.error("live odds:", err); // an odd board must never break the game itself
    return null;
  }
}
