// @ts-check
// The web table's seat credentials kept in the browser: the seat and token a player got on
// joining table ID (ono99.seat.ID), so that a reload or a link opened again sits them back
// down, and the last name they typed (ono99.name). Storage off: this tab still has them.

/** A seat held at a table: its number, the token that proves it, the name it joined as.
 * @typedef {{seat: number, token: string, name?: string}} SeatCreds */

/** @param {string} id */
const credsKey = (id) => `ono99.seat.${id}`;
const NAME = "ono99.name";

/** The seat kept for table `id`, or null.
 * @param {string} id @returns {SeatCreds | null} */
export function loadCreds(id) {
  try {
    const raw = localStorage.getItem(credsKey(id));
    return raw ? JSON.parse(raw) : null;
  } catch (_e) {
    return null;
  }
}

/** Keep the seat got at table `id`, and its name as the one to offer next time.
 * @param {string} id @param {SeatCreds} creds */
export function saveCreds(id, creds) {
  try {
    localStorage.setItem(credsKey(id), JSON.stringify(creds));
    localStorage.setItem(NAME, creds.name || "");
  } catch (_e) { /* storage off: this tab still has them */ }
}

/** Forget the seat kept for table `id` (the server no longer knows its token).
 * @param {string} id */
export function forgetCreds(id) {
  try { localStorage.removeItem(credsKey(id)); } catch (_e) { /* storage off */ }
}

/** The name last joined with ("" when none). @returns {string} */
export function savedName() {
  try {
    return localStorage.getItem(NAME) || "";
  } catch (_e) {
    return "";
  }
}
