// The server's clock as seen from this device, NTP-style: each pong echoes the time we
// sent its ping with the server's time, so offset = server - (sent + received) / 2,
// trusting the sample with the shortest round trip. Room views carry the server's time
// too; those give a bound (the message's delay is unknown) used until a ping returns.

const KEEP = 8;

const samples = []; // {offset, rtt}
let hint = null; // the largest (closest) offset bound from room views

/** A pong: `sent` is our Date.now() in the ping, `server` the server's epoch ms. */
export function pongSample(sent, server, received = Date.now()) {
  if (!Number.isFinite(sent) || !Number.isFinite(server)) return;
  const rtt = Math.max(0, received - sent);
  samples.push({ offset: server - (sent + received) / 2, rtt });
  if (samples.length > KEEP) samples.shift();
}

/** A room view arrived at `received` carrying the server's time `server`. */
export function viewSample(server, received = Date.now()) {
  if (!Number.isFinite(server)) return;
  // The message took some time to arrive: server - received is at most the true offset.
  const bound = server - received;
  hint = hint === null ? bound : Math.max(hint, bound);
}

function best() {
  let pick = null;
  for (const s of samples) if (!pick || s.rtt < pick.rtt) pick = s;
  return pick;
}

/** Server time minus this device's time, in ms (0 before anything was heard). */
export function serverOffset() {
  const pick = best();
  if (pick) return pick.offset;
  return hint === null ? 0 : hint;
}

/** Half the best round trip: how long an intent takes to reach the server. */
export function oneWayDelay() {
  const pick = best();
  return pick ? pick.rtt / 2 : 100;
}

/** A server epoch time on this device's Date.now() scale. */
export function toLocal(serverMs) {
  return serverMs - serverOffset();
}
