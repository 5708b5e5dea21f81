// @ts-check
// The web table's line to the server: which table an address or a code names (HTTP), the
// table's description asked for again while the page waits for the game to start, and the
// seat's websocket (api.TableSocket: it reconnects, and its heartbeat notices a dead link)
// that carries moves, hints and the page's language. What comes back goes to the handlers
// given (app.js); the state changes only through the store (table-state.js).
import * as api from "./api.js";
import { currentLanguage } from "./i18n.js";
import { forgetCreds } from "./seats.js";
import { store } from "./table-state.js";

/** @typedef {import("./table-state.js").TableInfo} TableInfo */

/** The seat's socket (null: none yet). @type {api.TableSocket | null} */
let socket = null;

/** An invitation code (GET /api/codes/{CODE}) or a table id (GET /api/tables/{ID}): the
 * table's id, and its description where the server has it.
 * @param {string} x @returns {Promise<{id: string, info: TableInfo | null}>} */
export async function resolveTable(x) {
  const lookups = /^[A-Za-z0-9]{4,8}$/.test(x) ? [api.resolveCode, api.tableInfo] : [api.tableInfo, api.resolveCode];
  /** @type {unknown} */
  let missing = null;
  for (const look of lookups) {
    try {
      const info = await look(x);
      return { id: info.table || info.id || x, info };
    } catch (e) {
      const status = /** @type {api.ApiError} */ (e).status;
      if (status === 404) missing = e;
      else if (status !== 405) throw e;
    }
  }
  // no table has that code or id: the server's own line ("no such table"), without
  // asking it a third time by joining
  if (missing) throw missing;
  return { id: x, info: null };
}

/** The open table's description asked for again (kept as it was where the server has
 * none). */
export async function refreshInfo() {
  const id = store.get().tableId;
  if (!id) return;
  try {
    store.dispatch({ type: "info", info: await api.tableInfo(id) });
  } catch (_e) { /* the server may not have it */ }
}

/** @type {ReturnType<typeof setInterval> | undefined} */
let infoTimer;
/** While the waiting room is up, the table asked for every 2 s and `draw` called.
 * @param {() => void} draw */
export function pollWaiting(draw) {
  clearInterval(infoTimer);
  infoTimer = setInterval(async () => {
    if (store.get().page !== "waiting") return clearInterval(infoTimer);
    await refreshInfo();
    if (store.get().page === "waiting") draw();
  }, 2000);
}

/** What the socket's messages do (app.js).
 * @typedef {{onMessage: (msg: any) => void, onStatus: (status: string) => void, onMissing: () => void}} SocketHandlers */

/** Open (again) the socket of the open table, as this page's seat or watching. A token the
 * server does not know is forgotten and the table watched instead; an unknown table is
 * `onMissing`. @param {SocketHandlers} on */
export function openSocket(on) {
  if (socket) socket.close();
  const { tableId, creds } = store.get();
  const id = /** @type {string} */ (tableId);
  socket = new api.TableSocket(id, creds && creds.token, {
    lang: currentLanguage,
    onGone: () => {
      // an unknown table, or a token the server does not know: forget it, watch instead
      if (store.get().creds) {
        forgetCreds(id);
        store.dispatch({ type: "creds", creds: null });
        openSocket(on);
      } else {
        on.onMissing();
      }
    },
    onMessage: on.onMessage,
    onStatus: on.onStatus,
  });
}

/** Send a message on the socket; false where there is none or it is not open.
 * @param {Record<string, unknown>} msg @returns {boolean} */
export function sendMessage(msg) {
  return Boolean(socket && socket.send(msg));
}

/** Whether the page has a socket (a table is open). */
export function connected() {
  return socket !== null;
}
