// @ts-check
// The companion's queue of changes (taps, undo, redo, hands, points, cards laid face up):
// kept in the browser under the game's id until the server has counted each (a reload
// keeps it), each with a request id so that one sent again after a lost answer is not
// counted twice; and the merge of this screen's changes on another screen's game, which
// keeps those that still apply and names the others (companion_core.merge decides which).

/** One change waiting to be sent: its API path (tap, undo, ...), its body, its request id.
 * @typedef {{path: string, body: Record<string, any>, req: string}} QueuedChange */

const QUEUE = "ono99.companion.queue.";

/** Keep `queue` for game `id` (storage off: it lives as long as the page).
 * @param {string} id @param {QueuedChange[]} queue */
export function saveQueue(id, queue) {
  try {
    localStorage.setItem(QUEUE + id, JSON.stringify(queue));
  } catch (_e) { /* storage off */ }
}

/** The queue kept for game `id`; empty when none, or when what is kept is not a list.
 * @param {string} id @returns {QueuedChange[]} */
export function loadQueue(id) {
  try {
    const q = JSON.parse(localStorage.getItem(QUEUE + id) || "[]");
    return Array.isArray(q) ? q : [];
  } catch (_e) { return []; }
}

/** A change's request id: 24 hex digits from the browser's cryptographic random source.
 * @returns {string} */
export function requestId() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** This screen's changes `items` after a merge that refused those at the indices of
 * `refused`: `kept` (still to send, in order) and `gone` (not counted, in order).
 * @template T
 * @param {T[]} items @param {{index: number}[] | undefined} refused
 * @returns {{kept: T[], gone: T[]}} */
export function splitRefused(items, refused) {
  const out = new Set((refused || []).map((r) => r.index));
  return { kept: items.filter((_item, i) => !out.has(i)), gone: items.filter((_item, i) => out.has(i)) };
}
