// @ts-check
// Short sounds for what happens at the table, made by the browser (Web Audio: no sound
// files to fetch): a card played, a bust, a Reverse, a Play 2, your turn. Off until the
// player turns them on (the switch in the bar, kept in localStorage), and never a sound
// the player did not ask for: the page only plays after that click.

const KEY = "ono99.sounds";

/** @typedef {"play" | "bust" | "reverse" | "play2" | "turn"} SoundKind */

/** Each sound: [frequency in Hz, seconds] steps, and the wave. */
/** @type {Record<SoundKind, {wave: OscillatorType, steps: [number, number][]}>} */
const SOUNDS = {
  play: { wave: "triangle", steps: [[660, 0.05]] },
  bust: { wave: "sawtooth", steps: [[196, 0.12], [147, 0.18]] },
  reverse: { wave: "sine", steps: [[523, 0.07], [392, 0.07], [523, 0.07]] },
  play2: { wave: "square", steps: [[587, 0.06], [0, 0.04], [587, 0.06]] },
  turn: { wave: "sine", steps: [[784, 0.08], [1047, 0.12]] },
};

/** @type {AudioContext | null} */
let audio = null;

/** Whether the player turned the sounds on. */
export function soundsOn() {
  try { return localStorage.getItem(KEY) === "on"; } catch (_e) { return false; }
}

/** @param {boolean} on */
export function setSoundsOn(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (_e) { /* storage off: this page only */ }
  if (on && !audio && typeof AudioContext === "function") audio = new AudioContext();
}

/** Play `kind` if the sounds are on (quietly: a table is a shared room). @param {SoundKind} kind */
export function sound(kind) {
  if (!soundsOn() || typeof AudioContext !== "function") return;
  if (!audio) audio = new AudioContext();
  const ctx = audio;
  let at = ctx.currentTime;
  const { wave, steps } = SOUNDS[kind];
  for (const [hz, seconds] of steps) {
    if (hz > 0) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + seconds);
    }
    at += seconds;
  }
}

/** The sound of a game event, if it has one. @param {string} kind an event kind */
export function eventSound(kind) {
  /** @type {Record<string, SoundKind>} */
  const of = { play: "play", four99: "play", bust: "bust", token_lost: "bust", eliminated: "bust", reverse: "reverse", owes_two: "play2" };
  return of[kind] || null;
}
