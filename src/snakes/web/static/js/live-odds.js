// Exact win chances and places from any moment of a game, in the page: a port of
// snakes.analysis.odds over js/turn-chain.js. Tokens never interact, so each seat's turns
// to finish are independent; turn order does the rest. In play order o0, o1, ... (o0
// rolls first), o_j finishing at its turn k beats every o_l before it that finishes at
// k + 1 or later, and every o_l after it that finishes at k or later.
// tests/js/test_odds_differential.py holds it to snakes.analysis to 1e-12.

import { FINISH, placings, racing, winner } from "./rules.js";
import { turnChain } from "./turn-chain.js";

// A move's odds are a few passes over the seats' rows (up to 3,000 turns each), so these
// work in place on them: a seat's chance to have finished *before* turn k is its row at
// k - 1 (0 at k = 0), read there rather than copied into a shifted row, and nothing of a
// row's length is made per seat or per pass. Each sum takes the same terms in the same
// order as the formula in its comment, written out with shifted copies, would.

/**
 * [j]: the chance that the seat j-th in play order wins: the sum over its turns k of
 * pmf_j[k] * prod_{l<j} (1 - cdf_l[k]) * prod_{l>j} (1 - cdf_l[k - 1]).
 */
export function winChances(cdfs) {
  const count = cdfs.length;
  const width = cdfs[0].length;
  const wins = new Array(count).fill(0);
  const prefix = new Float64Array(count); // prod_{l<j} (1 - cdf_l[k]), this k
  const suffix = new Float64Array(count); // prod_{l>j} (1 - cdf_l[k - 1]), this k
  for (let k = 0; k < width; k++) {
    let product = 1 - cdfs[0][k];
    for (let j = 1; j < count; j++) {
      prefix[j] = product;
      product *= 1 - cdfs[j][k];
    }
    product = 1 - (k ? cdfs[count - 1][k - 1] : 0);
    for (let j = count - 2; j >= 0; j--) {
      suffix[j] = product;
      product *= 1 - (k ? cdfs[j][k - 1] : 0);
    }
    for (let j = 0; j < count; j++) {
      let win = cdfs[j][k] - (k ? cdfs[j][k - 1] : 0);
      if (j > 0) win *= prefix[j];
      if (j < count - 1) win *= suffix[j];
      wins[j] += win;
    }
  }
  return wins;
}

/** [j][p]: the chance that the seat j-th in play order takes place p + 1 (by finish turn). */
export function placeChances(cdfs) {
  const count = cdfs.length;
  const width = cdfs[0].length;
  // dist[c][k]: given seat j finishes at turn k, the chance c others beat it.
  const dist = Array.from({ length: count }, () => new Float64Array(width));
  return cdfs.map((row, j) => {
    dist[0].fill(1);
    for (let c = 1; c < count; c++) dist[c].fill(0);
    let seen = 0; // others folded in so far: dist[c] is 0 for every c above
    for (let other = 0; other < count; other++) {
      if (other === j) continue;
      const beats = cdfs[other]; // finished by turn k if it rolls first, else by k - 1
      const lag = other < j ? 0 : 1;
      seen += 1;
      for (let c = seen; c >= 0; c--) { // in place: dist[c - 1] is still the old one
        const line = dist[c];
        const below = c > 0 ? dist[c - 1] : null;
        for (let k = 0; k < width; k++) {
          const b = k >= lag ? beats[k - lag] : 0;
          line[k] = line[k] * (1 - b) + (below ? below[k] * b : 0);
        }
      }
    }
    return dist.map((line) => {
      let sum = 0;
      for (let k = 0; k < width; k++) sum += line[k] * (row[k] - (k ? row[k - 1] : 0));
      return sum;
    });
  });
}

/**
 * How many others finish ahead of the seat j-th in play order, on average: the sum over
 * the others of sum_k pmf_j[k] * (cdf_l[k] if l rolls first, else cdf_l[k - 1]).
 * `given`: given that seat j finishes within the horizon (divided by sum_k pmf_j[k]).
 */
export function expectedBeatenBy(cdfs, given = false) {
  const count = cdfs.length;
  const width = cdfs[0].length;
  return cdfs.map((row, j) => {
    let ahead = 0;
    for (let l = 0; l < count; l++) {
      if (l === j) continue;
      const other = cdfs[l];
      let sum = 0;
      if (l < j) { // finished by the same turn: rolled first
        sum += row[0] * other[0];
        for (let k = 1; k < width; k++) sum += (row[k] - row[k - 1]) * other[k];
      } else {
        for (let k = 1; k < width; k++) sum += (row[k] - row[k - 1]) * other[k - 1];
      }
      ahead += sum;
    }
    if (!given) return ahead;
    let mass = row[0];
    for (let k = 1; k < width; k++) mass += row[k] - row[k - 1];
    return ahead / mass;
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
    const wins = winChances(liveCdfs(state, table, order));
    const sum = total(wins);
    order.forEach((seat, i) => (chances[seat] = wins[i] / sum));
    return chances;
  }
  return expectedPlaces(state, table, order);
}

/** Last One Standing's expected places; `given`: each racing seat's given it finishes within the horizon. */
function expectedPlaces(state, table, order, given = false) {
  const n = state.positions.length;
  const places = new Array(n).fill(0);
  state.standings.forEach((seat, i) => (places[seat] = i + 1));
  state.leavers.forEach((seat, i) => (places[seat] = n - i));
  if (order.length) {
    const beaten = expectedBeatenBy(liveCdfs(state, table, order), given);
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
    // The mean of each seat's livePlaceChances row (as odds_of takes it), without the
    // rows: the mean count of others ahead is, by linearity, the sum of each other's
    // chance to be ahead, a pass over the turns per pair of seats instead of the whole
    // law of that count (a pass per pair and count, for every seat): the same number to
    // about 1e-16, a fraction of the work.
    const expected = expectedPlaces(state, table, playOrder(state), true);
    return { kind: "place", values: expected.map((e) => rounded(e, 3)) };
  } catch (err) {
    console.error("live odds:", err); // an odd board must never break the game itself
    return null;
  }
}
