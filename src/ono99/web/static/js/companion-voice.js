// @ts-check
// The companion's voice: every line the page says is spoken by the browser's voice for the
// language, else by the server's (espeak-ng, GET /api/companion-voice: a sound), else, with
// the server away, by a clip of it kept before (the service worker keeps each one heard) or
// whatever voice the browser has. <main data-voice> tells which spoke last; #speech-note
// shows when no voice of the language can be had.
import { $, show } from "./dom.js";
import { currentLanguage } from "./i18n.js";
import { speak, speakAny, speechEnabled, speechSupported, voiceFor } from "./speech.js";

// `reached`: its last clip came (false while the network or the server is away: the
// no-voice note shows, and a clip kept by the service worker or the browser's own voice
// speaks instead).
/** @type {{languages: string[], audio: HTMLAudioElement | null, reached: boolean,
 *   retry: ReturnType<typeof setTimeout> | null}} */
const serverVoice = { languages: [], audio: null, reached: true, retry: null };

/** Ask the server which languages it speaks (asked again soon while it is away). */
export async function loadServerVoices() {
  try {
    const r = await fetch("/api/companion-voice");
    const data = await r.json();
    serverVoice.languages = Array.isArray(data.languages) ? data.languages : [];
    serverVoice.reached = true;
  } catch (_e) {
    serverVoice.reached = false; // the languages it spoke stay known; asked again soon
    if (!serverVoice.retry) serverVoice.retry = setTimeout(() => { serverVoice.retry = null; loadServerVoices(); }, 3000);
  }
  updateSpeechNote();
}

/** Which voice spoke last (`<main data-voice>`): browser, server, kept (a clip kept
 * while the server is away), fallback (the browser's default voice) or none.
 * @param {"browser" | "server" | "kept" | "fallback" | "none"} how */
function spokeWith(how) {
  $("#main").dataset.voice = how;
}

/** Speak `text`: the browser's voice for the language, else the server's (a sound); with
 * the server away, its clip kept from before, else whatever voice the browser has.
 * `force`: spoken even with speech turned off (the voice test).
 * @param {string} text @param {string} lang @param {boolean} [force] */
export function voice(text, lang, force = false) {
  if (!text || (!force && !speechEnabled())) return;
  if (speak(text, lang, { force })) { spokeWith("browser"); return; }
  if (!serverVoice.languages.includes(lang)) { spokeWith(speakAny(text, lang) ? "fallback" : "none"); return; }
  if (serverVoice.audio) serverVoice.audio.pause(); // a new line interrupts the last one
  const q = new URLSearchParams({ lang, text: text.slice(0, 600) });
  const audio = new Audio(`/api/companion-voice?${q}`);
  serverVoice.audio = audio;
  const away = !serverVoice.reached || navigator.onLine === false;
  audio.addEventListener("loadeddata", () => {
    if (!away) serverVoice.reached = true;
    spokeWith(away ? "kept" : "server");
    updateSpeechNote();
  }, { once: true });
  audio.addEventListener("error", () => {
    // the network or the server is away and no clip of this text was kept: say so, and
    // speak with what is left
    serverVoice.reached = false;
    updateSpeechNote();
    if (serverVoice.audio === audio) spokeWith(speakAny(text, lang) ? "fallback" : "none");
  }, { once: true });
  audio.play().catch(() => { /* the browser wants a tap first, or no clip: see "error" */ });
}

/** Show the no-voice note where no voice can speak the page's language; the voice test
 * stays usable while any voice (a kept clip, the browser's default) can. */
export function updateSpeechNote() {
  const lang = currentLanguage();
  const browser = speechSupported() && Boolean(voiceFor(lang));
  const server = serverVoice.languages.includes(lang) && serverVoice.reached && navigator.onLine !== false;
  show($("#speech-note"), !browser && !server);
  // the test still speaks while the server is away: a kept clip or the browser's voice
  $("#speech-test").disabled = !browser && !serverVoice.languages.includes(lang) && !(speechSupported() && speechSynthesis.getVoices().length);
}
