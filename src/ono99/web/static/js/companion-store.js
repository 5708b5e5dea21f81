// @ts-check
// What the companion keeps in this browser besides the queue of taps and the games followed
// here (tap-queue.js, local.js): the last game opened, the last state the server sent of
// each game (the page opens on it with no server reachable), the games of this browser
// most recent first ("Earlier games": opening a link that starts a game never loses the one
// before) and whether the table view is on. Storage off: all of it lasts as long as the page.

const LAST = "ono99.companion.last";
const RECENT = "ono99.companion.games";
const TABLE_VIEW = "ono99.companion.tableview";
const STATE = "ono99.companion.state.";
/** How many earlier games are listed. */
const RECENT_MAX = 8;

/** A game of this browser as "Earlier games" lists it.
 * @typedef {{id: string, names: string[], rules: string, over: boolean}} RecentGame */

/** The game state as the server last sent it, with its version.
 * @typedef {{version: number, state: any}} SeenState */

/** The game opened last, or null. @returns {string | null} */
export function lastGame() {
  try { return localStorage.getItem(LAST); } catch (_e) { return null; }
}

/** Keep `seen` as game `id`'s state and `id` as the game opened last.
 * @param {string} id @param {SeenState} seen */
export function keepSeen(id, seen) {
  try {
    localStorage.setItem(LAST, id);
    localStorage.setItem(STATE + id, JSON.stringify({ version: seen.version, state: seen.state }));
  } catch (_e) { /* storage off */ }
}

/** The state kept for game `id`, or null (none, or not a state with its version).
 * @param {string} id @returns {SeenState | null} */
export function keptState(id) {
  try {
    const kept = JSON.parse(localStorage.getItem(STATE + id) || "null");
    return kept && kept.state && typeof kept.version === "number" ? kept : null;
  } catch (_e) { return null; }
}

/** The games of this browser, most recent first. @returns {RecentGame[]} */
export function recentGames() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT) || "[]");
    return Array.isArray(list) ? list.filter((g) => g && typeof g.id === "string") : [];
  } catch (_e) { return []; }
}

/** Put game `id` (its state `s`) first among the games of this browser.
 * @param {string} id @param {{names: string[], rules: string, winner: unknown}} s */
export function remember(id, s) {
  const list = recentGames().filter((g) => g.id !== id);
  list.unshift({ id, names: s.names, rules: s.rules, over: s.winner !== null });
  try { localStorage.setItem(RECENT, JSON.stringify(list.slice(0, RECENT_MAX))); } catch (_e) { /* storage off */ }
}

/** Whether the table view is on. @returns {boolean} */
export function tableViewOn() {
  try { return localStorage.getItem(TABLE_VIEW) === "1"; } catch (_e) { return false; }
}

/** @param {boolean} on */
export function keepTableView(on) {
  try { localStorage.setItem(TABLE_VIEW, on ? "1" : "0"); } catch (_e) { /* storage off */ }
}
