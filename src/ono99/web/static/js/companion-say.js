// @ts-check
// What the companion says about the game's changes, on screen and aloud: the engine's
// announcements (the total first), what Undo, Redo or a fix did, a change not counted and
// why (said, at a noisy table nobody reads the screen), the error line over the top part.
import { drawAnnounce, drawError } from "./companion-render.js";
import { store } from "./companion-state.js";
import { voice } from "./companion-voice.js";
import { $ } from "./dom.js";
import { currentLanguage, presetList, t } from "./i18n.js";
import { formatNumber } from "./speech.js";
import { cardName } from "./words.js";

/** @typedef {import("./companion-state.js").Change} Change */

/** The engine's default preset: the first it lists. */
export function firstPreset() {
  const [first] = presetList();
  return first ? first.name : "";
}

/** Show `text` over the top part; `sticky`: a change not counted, which stays said until
 * the next change made here (a later change counted must not hide it).
 * @param {string} text @param {boolean} [sticky] */
export function showError(text, sticky = false) {
  store.dispatch({ type: "errorShown", sticky: sticky && Boolean(text) });
  drawError(text);
}

/** Hide the error shown, unless it names a change not counted. */
export function calmError() {
  if (!store.get().errorSticky) showError("");
}

/** Say plainly (on screen, and aloud) that changes were not counted, and why; beside any
 * said before that the page has not moved on from.
 * @param {string} reason @param {Change[]} items */
export function notCounted(reason, items) {
  const text = `${reason} · ${/* TRANSLATORS: {taps}: the taps (card names, Undo...) the server did not count */ t("Not counted: {taps}", { taps: items.map(itemLabel).join(", ") })}`;
  showError(store.get().errorSticky ? `${$("#error").textContent} · ${text}` : text, true);
  refused(reason);
}

/** A change's name: the card tapped, or the button's word. @param {Change} item */
function itemLabel(item) {
  const s = store.get().state;
  if (item.path === "tap") {
    const code = item.body.tap;
    // TRANSLATORS: button: the player to move has no card they may play (they
    // bust)
    return code === "bust" ? t("No safe card") : cardName(code, s ? s.rules : firstPreset());
  }
  if (item.path === "insert") return `${/* TRANSLATORS: button and panel: correct a forgotten card or a wrong total */ t("Fix")}: ${cardName(item.body.tap, s ? s.rules : firstPreset())}`;
  /** @type {Record<string, string>} */
  const words = { undo: t("Undo"), redo: t("Redo"), hands: t("Save the hands"), points: t("Save the points"),
    laid: t("Save the cards") };
  return words[item.path] || item.path;
}

/** Show and say what a change did (Undo, Redo, a fix: the word, then the total).
 * @param {Change} item @param {{state: {total: number}, announce?: string[], say?: string[]}} data */
export function told(item, data) {
  if (item.path === "undo" || item.path === "redo" || item.path === "insert") {
    const total = String(data.state.total);
    const word = { undo: t("Undo"), redo: t("Redo"), insert: t("Fix") }[item.path];
    // shown as said: the word, the total it leaves, then what the engine told
    const shown = [word, t("Total {total}", { total: formatNumber(data.state.total, currentLanguage()) })];
    announce([...shown, ...(data.announce || [])], [word, total, ...(data.say || []).slice(1)]);
  } else {
    announce(data.announce || [], data.say || null);
  }
}

/** Show the announcements; speak `say` (the total first, short, then what changed the
 * game), or the announcements where the server sent no short form.
 * @param {string[]} lines @param {string[] | null} [say] */
export function announce(lines, say = null) {
  showAnnounce(lines);
  const lang = currentLanguage();
  const spoken = say || lines; // digits stay digits: a voice of the language reads them best
  if (spoken.length) voice(spoken.join(". "), lang);
}

/** Show announcement lines (not spoken). @param {string[]} lines */
export function showAnnounce(lines) {
  store.dispatch({ type: "announced", lines });
  drawAnnounce(lines);
}

/** The game was replaced (another screen's, a merge, a refusal): the announcement shown
 * is the total as it now stands, never an older one beside it. */
export function retold() {
  const s = store.get().state;
  if (s) showAnnounce([t("Total {total}", { total: formatNumber(s.total, currentLanguage()) })]);
}

/** A refusal is spoken too: at a noisy table nobody reads the screen. @param {string} text */
function refused(text) {
  voice(text, currentLanguage());
}
