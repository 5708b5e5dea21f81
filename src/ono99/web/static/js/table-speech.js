// @ts-check
// The web table's announcements spoken aloud (speech.js, shared with the companion): off
// until the player turns it on (#speech-on, kept as ono99.speech.table), and offered only
// where the browser has a voice for the page's language.
import { $, show } from "./dom.js";
import { currentLanguage, onLanguageChange, t } from "./i18n.js";
import { onVoices, speak, speechSupported, voiceFor } from "./speech.js";

const SPEECH_KEY = "ono99.speech.table";

/** @returns {boolean} */
function speechOn() {
  try { return localStorage.getItem(SPEECH_KEY) === "on"; } catch (_e) { return false; }
}

/** Say the last three of `lines` (a change's announcements) when speech is on.
 * @param {string[]} lines */
export function say(lines) {
  if (lines.length && speechOn()) speak(lines.slice(-3).join(". "), currentLanguage(), { force: true });
}

function updateSpeechToggle() {
  show($("#speech-toggle"), speechSupported() && Boolean(voiceFor(currentLanguage())));
  $("#speech-on").checked = speechOn();
}

/** Wire the switch: kept on change, and turning it on says the running total (`total`).
 * @param {() => number} total */
export function setUpSpeech(total) {
  $("#speech-on").addEventListener("change", (/** @type {Event} */ e) => {
    const on = /** @type {HTMLInputElement} */ (e.target).checked;
    try { localStorage.setItem(SPEECH_KEY, on ? "on" : "off"); } catch (_e) { /* storage off */ }
    // TRANSLATORS: spoken by the voice test: the running total
    if (on) speak(t("Total {total}", { total: total() }), currentLanguage(), { force: true });
  });
  onVoices(updateSpeechToggle);
  onLanguageChange(updateSpeechToggle);
  updateSpeechToggle();
}
