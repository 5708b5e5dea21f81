// @ts-check
// Words for what the server sent. The rule-bound words (card names, preset titles, why a
// card cannot be played, whose turn it is, the rules help) are the server's: the presets
// come with the catalog (i18n.js presetWords, ono99/texts.py preset_words) and every
// `state` message carries its `texts` (view_words). Announcements are the server's own
// narration (each event's `text`): the page never words an event itself.
import { presetWords, t, tn } from "./i18n.js";

/** A preset's title as the server words it.
 * @param {string} preset @returns {string} */
export function presetTitle(preset) {
  const p = presetWords(preset);
  return p ? p.title : String(preset);
}

/** The name of a card code (or 99x4, draw) as the server words it for the preset; the
 * code itself when the server sent no name for it.
 * @param {string | number} code @param {string} preset @returns {string} */
export function cardName(code, preset) {
  const p = presetWords(preset);
  const name = p && p.cards ? p.cards[String(code)] : undefined;
  return name === undefined ? String(code) : name;
}

/** @param {number} d 1 clockwise, -1 counterclockwise @returns {string} */
export function directionText(d) {
  return d === 1 ? t("clockwise") : t("counterclockwise");
}

/** Who won, in words.
 * @param {number | number[] | null | undefined} winner @param {string[]} names
 * @param {number | null} [you] this page's seat @returns {string} */
export function winnerText(winner, names, you) {
  if (winner === null || winner === undefined) return t("No winner yet");
  if (Array.isArray(winner)) return t("{names} share the win", { names: winner.map((s) => names[s]).join(", ") });
  if (winner === you) return t("You win the game!");
  return t("{name} wins the game!", { name: names[winner] });
}

/** A seat's tokens and points, in words.
 * @param {Standing} view @param {number} seat @returns {string} */
export function scoreText(view, seat) {
  const parts = [];
  if (view.tokens) parts.push(tn("{count} token", "{count} tokens", view.tokens[seat]));
  if (view.scores) parts.push(tn("{count} point", "{count} points", view.scores[seat]));
  return parts.join(", ");
}

/** Whether `seat` won the game (or shares the win): `winner` of a view or a state.
 * @param {Standing} view @param {number} seat @returns {boolean} */
export function isWinner(view, seat) {
  const w = view.winner;
  return w === seat || (Array.isArray(w) && w.includes(seat));
}

/** Whether `seat` is out (of the game or of this round) and has not won.
 * @param {Standing} view @param {number} seat @returns {boolean} */
export function isOut(view, seat) {
  return !isWinner(view, seat) && ((view.out || []).includes(seat) || (view.round_out || []).includes(seat));
}

/** A seat's standing word, the same in every list of players: the winner first (in a
 * points game where every score passed the target the winner is among those out,
 * R-END-3), then out of the game, out of this round. As ono99/texts.py standing_text.
 * @param {Standing} view @param {number} seat @returns {string} */
export function statusText(view, seat) {
  if (isWinner(view, seat)) return t("winner");
  if ((view.out || []).includes(seat)) return t("out of the game");
  if ((view.round_out || []).includes(seat)) return t("out of this round");
  return "";
}
