// Short synthesized sounds (WebAudio, no audio files): roll, step, climb, slide, bump,
// bonus, finish, win and a "your turn" chime. Silent when sound is off. Loaded with the
// first move to show; the context they play on is js/audio.js's.

import { audio } from "./audio.js";

const lastPlayed = new Map();
let master = null;

function tone(ac, { freq, to = null, start = 0, length = 0.12, type = "sine", gain = 0.3, filter = null }) {
  const t0 = ac.currentTime + start;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, t0 + length);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  let node = osc;
  if (filter) {
    const f = ac.createBiquadFilter();
    f.type = "lowpass";
    f.frequency.value = filter;
    osc.connect(f);
    node = f;
  }
  node.connect(amp);
  amp.connect(master);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

function noise(ac, { start = 0, length = 0.05, gain = 0.25, freq = 2500 }) {
  const t0 = ac.currentTime + start;
  const frames = Math.max(1, Math.floor(ac.sampleRate * length));
  const buffer = ac.createBuffer(1, frames, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const band = ac.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = freq;
  band.Q.value = 1.2;
  const amp = ac.createGain();
  amp.gain.value = gain;
  src.connect(band);
  band.connect(amp);
  amp.connect(master);
  src.start(t0);
}

function play(name, fn, minGap = 40) {
  const now = performance.now();
  if (now - (lastPlayed.get(name) || 0) < minGap) return;
  lastPlayed.set(name, now);
  const running = audio();
  if (!running) return;
  const ac = running.ac;
  master = running.master;
  try {
    fn(ac);
  } catch {
    // A sound failing must never break the game.
  }
}

const NOTE = (semitones) => 523.25 * 2 ** (semitones / 12); // from C5

export const sound = {
  roll: () => play("roll", (ac) => {
    for (let i = 0; i < 7; i++) noise(ac, { start: i * 0.055 + Math.random() * 0.02, length: 0.04, gain: 0.35 - i * 0.035, freq: 1800 + Math.random() * 1800 });
  }),
  step: () => play("step", (ac) => tone(ac, { freq: 700 + Math.random() * 120, length: 0.06, type: "triangle", gain: 0.12 }), 30),
  climb: () => play("climb", (ac) => {
    [0, 4, 7, 12, 16].forEach((n, i) => tone(ac, { freq: NOTE(n), start: i * 0.08, length: 0.14, type: "triangle", gain: 0.22 }));
  }),
  slide: () => play("slide", (ac) => {
    tone(ac, { freq: 900, to: 140, length: 0.7, type: "sawtooth", gain: 0.16, filter: 1400 });
    tone(ac, { freq: 600, to: 90, start: 0.05, length: 0.7, type: "sine", gain: 0.18 });
  }),
  // A snake's hiss: breathy noise, high and falling away.
  hiss: () => play("hiss", (ac) => {
    for (let i = 0; i < 6; i++) noise(ac, { start: i * 0.07, length: 0.09, gain: 0.22 - i * 0.03, freq: 5200 - i * 300 });
  }),
  six: () => play("six", (ac) => {
    [0, 7, 12, 19].forEach((n, i) => tone(ac, { freq: NOTE(n), start: i * 0.06, length: 0.16, type: "square", gain: 0.1, filter: 3200 }));
  }),
  bump: () => play("bump", (ac) => tone(ac, { freq: 140, to: 90, length: 0.18, type: "square", gain: 0.12, filter: 600 })),
  bonus: () => play("bonus", (ac) => {
    tone(ac, { freq: NOTE(12), length: 0.1, type: "square", gain: 0.1, filter: 3000 });
    tone(ac, { freq: NOTE(19), start: 0.1, length: 0.16, type: "square", gain: 0.1, filter: 3000 });
  }),
  finish: () => play("finish", (ac) => {
    [0, 7, 12].forEach((n, i) => tone(ac, { freq: NOTE(n), start: i * 0.1, length: 0.2, type: "triangle", gain: 0.22 }));
  }),
  win: () => play("win", (ac) => {
    const tune = [[0, 0.12], [4, 0.12], [7, 0.12], [12, 0.28], [7, 0.12], [12, 0.5]];
    let t = 0;
    for (const [n, len] of tune) {
      tone(ac, { freq: NOTE(n), start: t, length: len + 0.05, type: "square", gain: 0.12, filter: 2600 });
      tone(ac, { freq: NOTE(n - 12), start: t, length: len + 0.05, type: "triangle", gain: 0.14 });
      t += len;
    }
  }, 1000),
  turn: () => play("turn", (ac) => {
    tone(ac, { freq: NOTE(7), length: 0.18, gain: 0.16 });
    tone(ac, { freq: NOTE(12), start: 0.12, length: 0.3, gain: 0.16 });
  }, 300),
};
