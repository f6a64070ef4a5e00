// The die of a game at your own table: crypto.getRandomValues by rejection sampling (a
// byte >= 252 is thrown away on six faces, 255 on five), so each face is equally likely.
// No one at the table is an adversary: no commitment, only fairness (the χ² test in
// tests/browser/test_local_dice.py throws a million).

const buffer = new Uint8Array(256);
let next = buffer.length;
const scripted = [];

function byte() {
  if (next >= buffer.length) {
    crypto.getRandomValues(buffer);
    next = 0;
  }
  return buffer[next++];
}

/** One roll of a die with `faces` faces (5 or 6): 1..faces, each equally likely. */
export function rollDie(faces = 6) {
  if (scripted.length) return Math.min(scripted.shift(), faces);
  const limit = 256 - (256 % faces);
  for (;;) {
    const b = byte();
    if (b < limit) return (b % faces) + 1;
  }
}

/** Queue the next values (tests script games so, as --test-hooks do on a server). */
export function scriptDice(...values) {
  scripted.push(...values.filter((v) => Number.isInteger(v) && v >= 1 && v <= 6));
}
