// @ts-check
// Totals spoken aloud with the browser's speech synthesis, in the page's language.
// Shared by the table companion and the web table. Numbers stay digits inside the
// translated sentence: a voice of the language reads them as that language's number
// words (its own text normalisation), which is what speech engines read best; a voice
// of another language would read them wrongly, so without a voice for the language
// nothing is spoken (voiceFor() returns null and the page says so).

/** @type {Record<string, string>} */
const BCP47 = { en: "en-US", ta: "ta-IN", gu: "gu-IN", uz: "uz-UZ", my: "my-MM", kn: "kn-IN" };
const KEY = "ono99.speech";

export function speechSupported() {
  return typeof window !== "undefined" && "speechSynthesis" in window && "SpeechSynthesisUtterance" in window;
}

/** The best voice for `lang` (a page language code), or null.
 * @param {string} lang @returns {SpeechSynthesisVoice | null} */
export function voiceFor(lang) {
  if (!speechSupported()) return null;
  const voices = window.speechSynthesis.getVoices() || [];
  const want = (BCP47[lang] || lang).toLowerCase();
  const base = lang.toLowerCase();
  return voices.find((v) => v.lang.toLowerCase().replace("_", "-") === want)
    || voices.find((v) => v.lang.toLowerCase().split(/[-_]/)[0] === base) || null;
}

/** Call fn once the browser has listed its voices (they load late in Chromium).
 * @param {() => void} fn */
export function onVoices(fn) {
  if (!speechSupported()) return;
  window.speechSynthesis.addEventListener("voiceschanged", fn);
}

export function speechEnabled() {
  try { return localStorage.getItem(KEY) !== "off"; } catch (_e) { return true; }
}

/** @param {boolean} on */
export function setSpeechEnabled(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (_e) { /* storage off */ }
  if (!on && speechSupported()) window.speechSynthesis.cancel();
}

/** Speak `text` in `lang` (interrupting what is being said); false when it cannot.
 * @param {string} text @param {string} lang @param {{force?: boolean}} [how] @returns {boolean} */
export function speak(text, lang, { force = false } = {}) {
  if (!text || !speechSupported() || (!force && !speechEnabled())) return false;
  const voice = voiceFor(lang);
  if (!voice) return false;
  const u = new SpeechSynthesisUtterance(text);
  u.voice = voice;
  u.lang = voice.lang;
  u.rate = 1;
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(u);
  return true;
}

/** Speak `text` with whatever voice the browser has (its default, told the language),
 * where it has none for `lang` and the server's voice cannot be reached: better heard
 * roughly than not at all (the page shows its no-voice note). False with no voice at all.
 * @param {string} text @param {string} lang @returns {boolean} */
export function speakAny(text, lang) {
  if (!text || !speechSupported() || !speechEnabled()) return false;
  if (!(window.speechSynthesis.getVoices() || []).length) return false;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = BCP47[lang] || lang;
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(u);
  return true;
}

/** A number in the language's own digits (Intl: Myanmar digits for my), for display.
 * @param {number} n @param {string} lang @returns {string} */
export function formatNumber(n, lang) {
  try { return new Intl.NumberFormat(BCP47[lang] || lang).format(n); } catch (_e) { return String(n); }
}
