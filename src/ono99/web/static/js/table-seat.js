// @ts-check
// This page's seat at a web table: the table an address names opened (as its seat, or
// watching), a seat taken from the waiting room, the game started, a rematch asked for.
import * as api from "./api.js";
import { $, show } from "./dom.js";
import { t } from "./i18n.js";
import { loadCreds, saveCreds } from "./seats.js";
import { refreshInfo, resolveTable } from "./table-connection.js";
import { goToTable, typedName } from "./table-lobby.js";
import { drawWaiting, setPage } from "./table-page.js";
import { connect } from "./table-play.js";
import { showError } from "./table-render.js";
import { store } from "./table-state.js";

/** @typedef {import("./table-state.js").Creds} Creds */

const st = store.get;
const dispatch = store.dispatch;

/** @param {Event} e */
export async function onWaitJoin(e) {
  e.preventDefault();
  showError("");
  const name = typedName("#wait-name");
  if (!name) return;
  try {
    const { tableId, code } = st();
    const id = /** @type {string} */ (tableId);
    const joined = await api.joinTable(id, name);
    const creds = { seat: joined.seat, token: joined.token, name };
    dispatch({ type: "creds", creds });
    saveCreds(id, creds);
    if (code && code !== id) saveCreds(code, creds);
    connect();
    await refreshInfo();
    drawWaiting();
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
  }
}

export async function onStart() {
  showError("");
  try {
    const { tableId, creds } = st(); // the start button is shown only with a seat
    await api.startTable(/** @type {string} */ (tableId), /** @type {Creds} */ (creds).token);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
  }
}

/** Ask for a rematch, take its seat and go to it. */
export async function onRematch() {
  showError("");
  try {
    const { tableId } = st();
    const creds = /** @type {Creds} */ (st().creds); // the rematch button is shown only with a seat
    const name = /** @type {string} */ (creds.name);
    const r = await api.rematch(/** @type {string} */ (tableId), creds.token);
    const id = r.table;
    if (r.token) saveCreds(id, { seat: r.seat, token: r.token, name });
    else {
      const joined = await api.joinTable(id, name);
      saveCreds(id, { seat: joined.seat, token: joined.token, name });
    }
    if (r.code) {
      const c = loadCreds(id);
      if (c) saveCreds(r.code, c);
    }
    goToTable(r.url, id);
  } catch (err) {
    const e = /** @type {api.ApiError} */ (err);
    showError(e.status === 404 ? t("A rematch is not available on this server.") : e.message);
  }
}

/** Open the table an address names (its id or its code), as this page's seat or watching.
 * @param {string} x */
export async function openTable(x) {
  setPage("loading");
  $("#conn").textContent = t("Connecting…");
  show($("#conn"), true);
  let resolved;
  try {
    resolved = await resolveTable(x);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
    return;
  }
  const { id, info } = resolved;
  let url = null;
  try { url = sessionStorage.getItem(`ono99.url.${id}`) || null; } catch (_e) { /* ignore */ }
  if (info && info.url) url = info.url;
  const creds = loadCreds(id) || loadCreds(x);
  dispatch({ type: "table", id, info, code: (info && info.code) || (x !== id ? x : null), url, creds });
  if (creds) saveCreds(id, creds);
  connect();
}
