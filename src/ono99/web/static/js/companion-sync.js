// @ts-check
// The companion's game kept in step (docs/companion.md): every change is queued and sent to
// the server in order (HTTP, one at a time, kept in the browser until counted), or, once
// Pyodide's engine is here, applied in the page and the game sent to the server when
// there is one (merged on top of another screen's changes where it moved on); other
// screens' changes come by the live feed (companion-live.js, a websocket that reconnects
// and pings); a server away is tried again soon. The state changes only through the store
// (companion-state.js); drawing is companion-render.js's, the words companion-say.js's.
import { answered, call } from "./api.js";
import { keepSeen, keptState, remember } from "./companion-store.js";
import { markBusy, render, main } from "./companion-render.js";
import { announce, calmError, notCounted, retold, showAnnounce, showError, told } from "./companion-say.js";
import { store } from "./companion-state.js";
import { follow } from "./companion-live.js";
import { currentLanguage, t } from "./i18n.js";
import { keepGame, keptGame, loadEngine, newGameId } from "./local.js";
import { loadQueue, requestId, saveQueue as storeQueue, splitRefused } from "./tap-queue.js";

/** @typedef {import("./companion-state.js").Change} Change */
/** @typedef {import("./companion-state.js").GameState} GameState */
/** @typedef {import("./local.js").Engine} Engine */
/** @typedef {import("./local.js").SiteConfig} SiteConfig */
/** A game as the server (or the live feed) sends it.
 * @typedef {{id: string, version: number, state: GameState, record?: unknown, announce?: string[],
 *   say?: string[]}} GameAnswer */

const st = store.get;
const dispatch = store.dispatch;
const busyMarked = () => markBusy(st());

/** The engine in the page, once loaded (null: none, or not yet). @type {Engine | null} */
let engine = null;
/** Its loading (null: not started). @type {Promise<Engine | null> | null} */
let engineLoading = null;
/** @type {ReturnType<typeof setTimeout> | null} */
let syncTimer = null;
/** @type {ReturnType<typeof setTimeout> | null} */
let retryTimer = null;
/** @type {(() => void) | null} */
let unfollow = null;
/** The last game the socket sent while this page was busy with its own. @type {any} */
let latest = null;
/** What the page shows when a game cannot be created and none is open (companion.js). */
let onNoGame = () => {};

/** @param {() => void} fn */
export function whenNoGame(fn) {
  onNoGame = fn;
}

/** One request to the companion API; a read that hangs is the server away (the page then
 * shows the game as kept here).
 * @param {string} method @param {string} url @param {unknown} [body] @returns {Promise<any>} */
const request = (method, url, body) => call(method, url, body, method === "GET" ? 10_000 : undefined);

/** The site's configuration (a server behind the page or not), and Pyodide's engine loading
 * in the background: the open game is followed here as soon as it is.
 * @param {SiteConfig} cfg */
export function configure(cfg) {
  dispatch({ type: "configured", server: cfg.server });
  engineLoading = loadEngine(cfg).then((loaded) => {
    engine = loaded;
    dispatch({ type: "engineDone" });
    main().dataset.engineReady = loaded ? "1" : "0";
    if (loaded) goLocal();
    return loaded;
  });
}

/** @param {number} delta */
function setBusy(delta) {
  dispatch({ type: "busy", delta });
  busyMarked();
}

/** The game as the server (or the engine) sent it, drawn and kept in the browser.
 * @param {{version: number, state: GameState}} data */
function accept(data) {
  dispatch({ type: "accepted", version: data.version, state: data.state });
  const s = st();
  if (s.id && s.state) {
    // the last state the server sent: the page opens on it with no server reachable
    keepSeen(s.id, data);
    remember(s.id, s.state);
  }
  render(s);
}

// ------------------------------------------------------------------ the queue of taps
// Every change (tap, undo, redo, hands, points, cards laid face up) is queued and sent in
// order, one at a time; the queue is kept in the browser (a reload keeps it) until the
// server has counted each. A refused one is said plainly, with the ones after it, which
// were made on a game that did not happen and are not sent. Each carries an id (req): a
// change sent again after a lost answer is not counted twice.
function saveQueue() {
  const s = st();
  if (s.id) storeQueue(s.id, s.queue);
}

/** Make a change to the open game: applied here when the game is followed here and nothing
 * waits, else queued and sent. @param {string} path @param {any} [body] */
export function send(path, body = {}) {
  if (!st().id) return;
  showError(""); // a new change: the one said before has been seen
  if (st().local && !st().queue.length) {
    applyLocal({ path, body });
    return;
  }
  dispatch({ type: "queued", change: { path, body, req: requestId() } });
  saveQueue();
  busyMarked();
  pump();
}

/** Send the first change queued, then the next. */
async function pump() {
  const s = st();
  // a game kept here waits for the engine (it is followed here, not sent)
  if (s.local || (s.kept && engineLoading && !s.engineDone)) return;
  if (s.sending || !s.queue.length || !s.id || retryTimer) return;
  dispatch({ type: "sending", on: true });
  busyMarked();
  const item = s.queue[0];
  let again = true;
  try {
    const data = await request("POST", `/api/companion/${s.id}/${item.path}`, { ...item.body, version: s.version, req: item.req });
    dispatch({ type: "dequeued" });
    saveQueue();
    calmError();
    accept(data);
    told(item, data);
  } catch (e) {
    if (answered(e) && e.status < 500) {
      // refused (a move the rules do not allow on the game as it stands, or an undo of
      // another screen's tap): not counted, said plainly; the ones after it go on
      const dropped = st().queue.slice(0, 1);
      dispatch({ type: "dequeued" });
      saveQueue();
      if (e.data && e.data.state) { accept(e.data); retold(); }
      notCounted(e.message, dropped);
    } else {
      // the server is away: everything stays queued, in order; try again soon
      dispatch({ type: "away", away: true });
      again = false;
      showError(t("Connection lost. Reconnecting…"));
      retrySoon();
    }
  } finally {
    dispatch({ type: "sending", on: false });
    busyMarked();
  }
  if (again && st().queue.length) pump();
  else if (again) { catchUp(); goLocal(); }
}

// ------------------------------------------------------------------ followed here

/** The engine, once loaded (the callers check first). @returns {Engine} */
function loaded() {
  if (!engine) throw new Error("no engine");
  return engine;
}

/** Apply one change here (the engine in the page); refused: said plainly, nothing changed.
 * @param {Change} item */
function applyLocal(item) {
  const id = /** @type {string} */ (st().id);
  const data = loaded().change(id, item.path, item.body, currentLanguage());
  if (data.error) {
    if (data.state) { dispatch({ type: "shown", state: data.state }); render(st()); }
    notCounted(data.error, [item]);
    return false;
  }
  calmError();
  dispatch({ type: "applied", record: data.record, change: item });
  const kept = st().kept;
  if (kept) keepGame(id, kept);
  accept({ version: st().version, state: data.state });
  told(item, /** @type {any} */ (data));
  syncSoon();
  busyMarked(); // "Waiting to send" counts this one too while the server is away
  return true;
}

/** Follow game `id` here from `record`, the server's `base` version of it (null: none).
 * @param {string} id @param {unknown} record @param {number | null} base @param {{path: string, body: any}[]} [pending] */
function openLocal(id, record, base, pending = []) {
  const data = loaded().open(id, record, currentLanguage());
  if (data.error) throw new Error(data.error);
  const kept = { record: data.record, base, pending };
  dispatch({ type: "local", id, kept });
  keepGame(id, kept);
  accept({ version: base === null ? 0 : base, state: data.state });
}

/** The taps made while the engine loaded, applied in order (each where it applies). */
function drainLocal() {
  const items = st().queue;
  dispatch({ type: "drained" });
  saveQueue();
  for (const item of items) applyLocal(item); // a refused one is said; the others go on
  busyMarked();
}

/** Once the engine is here, the open game is followed here too: a game kept in this
 * browser from its record, a game of the server from the server's (when nothing waits). */
async function goLocal() {
  const s = st();
  if (!engine || s.local || !s.id) return;
  const kept = keptGame(s.id);
  if (kept) {
    openLocal(s.id, kept.record, kept.base, kept.pending);
    drainLocal();
    syncSoon();
    return;
  }
  if (!s.server || s.queue.length || s.sending) return;
  const id = s.id;
  try {
    const data = await request("GET", `/api/companion/${encodeURIComponent(id)}`);
    const now = st();
    if (now.id === id && !now.local && !now.queue.length && !now.sending && data.record) openLocal(id, data.record, data.version);
  } catch (_e) { /* the server is away: it follows the game until it is back */ }
  busyMarked();
}

/** Send the game followed here to the server, when there is one, soon. @param {number} [delay] */
export function syncSoon(delay = 0) {
  const s = st();
  if (!s.server || !s.local || !s.kept) return;
  if (syncTimer && delay === 0 && !s.away) { clearTimeout(syncTimer); syncTimer = null; }
  if (syncTimer) return;
  syncTimer = setTimeout(syncNow, delay);
  busyMarked();
}

async function syncNow() {
  syncTimer = null;
  const s = st();
  const { id, kept, keptEpoch } = s;
  if (s.syncing || !s.local || !id || !kept || (!kept.pending.length && kept.base !== null)) return;
  dispatch({ type: "syncing", on: true });
  busyMarked();
  const sent = kept.pending.length;
  const same = () => st().id === id && st().keptEpoch === keptEpoch; // not another game meanwhile
  let later = 0;
  try {
    const data = await request("PUT", `/api/companion/${encodeURIComponent(id)}`, { record: kept.record, base: kept.base, req: requestId() });
    if (!same()) return;
    const created = kept.base === null;
    dispatch({ type: "synced", version: data.version, sent });
    const now = st().kept;
    if (now) keepGame(id, now);
    if (created) followGame(); // the server has it now: followed live at once
  } catch (e) {
    if (!same()) return;
    if (answered(e) && e.status === 409 && e.data && e.data.record) {
      // the server's game moved on (another screen): this screen's changes go on top of
      // it where they still apply, the others are said plainly; the result is sent next
      const items = st().kept ? /** @type {import("./local.js").KeptGame} */ (st().kept).pending : [];
      dispatch({ type: "pendingTaken" });
      rebase(id, e.data.record, e.data.version, items);
    } else if (answered(e) && e.status < 500) {
      showError(e.message); // the server refuses this game: it stays here as it is
      later = -1;
    } else {
      dispatch({ type: "away", away: true }); // the game goes on here and is sent when the server is back
      later = 3000;
    }
  } finally {
    dispatch({ type: "syncing", on: false });
    busyMarked();
  }
  const after = st().kept;
  if (later >= 0 && after && (after.pending.length || later)) syncSoon(later);
  else catchUp();
}

/** This screen's changes `items` merged on top of the server's game (`record`, `version`):
 * each that still applies is kept (to send), the others are named "Not counted".
 * @param {string} id @param {unknown} record @param {number} version @param {Change[]} items */
function rebase(id, record, version, items) {
  const data = loaded().rebase(id, record, items, currentLanguage());
  if (data.error) throw new Error(data.error);
  const { kept: pending, gone } = splitRefused(items, data.refused || []);
  const kept = { record: data.record, base: version, pending };
  dispatch({ type: "kept", kept });
  keepGame(id, kept);
  accept({ version, state: data.state });
  retold();
  if (gone.length && data.refused) notCounted(data.refused[0].error, gone);
  if (pending.length) syncSoon();
}

// ------------------------------------------------------------------ other screens

/** Follow the open game live (a server only): every screen on it sees every change. */
export function followGame() {
  if (unfollow) unfollow();
  unfollow = null;
  latest = null;
  const s = st();
  if (!s.server || !s.id || typeof WebSocket !== "function") return;
  unfollow = follow(s.id, currentLanguage(), heard);
}

/** Another screen's change (or the game as it stands, on connecting). @param {any} msg */
function heard(msg) {
  if (msg.id !== st().id) return;
  latest = msg;
  catchUp();
}

/** Take the game the socket last sent, where it is newer and nothing of this page's own
 * is on its way (those are answered with the game as it stands, or merged). */
function catchUp() {
  const msg = latest;
  const s = st();
  if (!msg || !s.id || msg.id !== s.id) return;
  if (s.local && s.kept) {
    if (s.syncing || s.kept.pending.length || (s.kept.base !== null && msg.version <= s.kept.base)) {
      if (s.kept.pending.length && msg.version !== s.kept.base) syncSoon();
      return;
    }
    latest = null;
    openLocal(s.id, msg.record, msg.version);
  } else {
    if (s.queue.length || s.sending || msg.version <= s.version) return;
    latest = null;
    dispatch({ type: "away", away: false });
    accept(msg);
  }
  // shown, not spoken: the screen that made the change speaks it
  if (msg.announce && msg.announce.length) showAnnounce(msg.announce); else retold();
  busyMarked();
}

/** The server away: the open game asked for again soon, and the queue sent. */
function retrySoon() {
  if (retryTimer) return;
  retryTimer = setTimeout(async () => {
    retryTimer = null;
    try {
      const s = st();
      if (!s.state || s.queue.length === 0) await load(/** @type {string} */ (s.id));
      pump();
    } catch (_e) {
      retrySoon();
    }
  }, 1500);
}

/** Catch up with the server (back online, the page shown again): send what waits, else ask
 * for the game. */
function resyncSoon() {
  if (st().queue.length) {
    if (!retryTimer) pump();
    return;
  }
  retrySoon();
}

/** Open game `id`: the server's whenever the server answers (another screen may have
 * changed it), followed here where it is kept here and the engine is (or will be) here.
 * @param {string} id @returns {Promise<{id: string}>} */
export async function load(id) {
  if (id !== st().id) dispatch({ type: "unkept" }); // another game: followed from scratch
  /** @type {any} */
  let server = null;
  if (st().server) {
    try {
      server = await request("GET", `/api/companion/${encodeURIComponent(id)}`);
    } catch (e) {
      if (answered(e) && e.status !== 404) throw e;
      if (answered(e) && !keptGame(id)) throw e;
    }
  }
  const mine = keptGame(id);
  if (mine && server && server.record && !mine.pending.length && mine.base !== null) {
    keepGame(id, { record: server.record, base: server.version, pending: [] }); // nothing here to merge
  }
  const kept = keptGame(id);
  if (kept && (engine || engineLoading)) {
    // followed here: drawn at once as last seen, taps wait for the engine
    dispatch({ type: "opened", id, queue: loadQueue(id) });
    dispatch({ type: "kept", kept });
    const seen = keptState(id);
    if (seen) accept(seen);
    followGame();
    if (!engine) await engineLoading;
    if (engine) {
      dispatch({ type: "opened", id });
      await goLocal();
      return { id };
    }
    dispatch({ type: "kept", kept: null });
  }
  if (!st().server) throw new Error(t("there is no such game"));
  if (!server) throw new Error(t("Connection lost. Reconnecting…"));
  const data = server;
  dispatch({ type: "opened", id: data.id, queue: st().id !== data.id ? loadQueue(data.id) : undefined });
  dispatch({ type: "away", away: false });
  accept(data);
  followGame();
  pump();
  goLocal();
  return data;
}

/** Open game `id` (an earlier game, the last one) and put it in the address.
 * @param {string} id */
export async function openGame(id) {
  try {
    await load(id);
    history.replaceState(null, "", `${location.pathname}#g=${id}`);
  } catch (e) { showError(/** @type {Error} */ (e).message); }
}

/** Game `id` as last seen here, the server being away: taps queue until it is back.
 * @param {string} id */
export function openAway(id) {
  dispatch({ type: "opened", id, queue: loadQueue(id) });
  dispatch({ type: "away", away: true });
  const kept = keptState(id);
  if (kept) accept(kept);
  showError(t("Connection lost. Reconnecting…"));
  retrySoon();
}

/** No game open any more (a new game is being set up). */
export function close() {
  dispatch({ type: "closed" });
  followGame(); // none: no game
}

// ------------------------------------------------------------------ new games

/** The body of a new game: its preset, players, first player and options.
 * @typedef {{rules: string, players: string[], first: number, options: Record<string, unknown>}} NewGame */

/** A new game followed here (Pyodide): no server needed; sent to one when there is one.
 * @param {NewGame} body */
function createLocal(body) {
  const id = newGameId();
  const data = loaded().create(id, body, currentLanguage());
  if (data.error) throw new Error(data.error);
  const kept = { record: data.record, base: null, pending: [] };
  dispatch({ type: "local", id, kept, queue: [] });
  keepGame(id, kept);
  history.replaceState(null, "", `${location.pathname}${location.search}#g=${id}`);
  showError("");
  accept({ version: 0, state: data.state });
  announce(data.announce || []);
  syncSoon();
  followGame();
}

/** Start a new game: here when the engine is, else on the server (here after all when
 * there is no server and the engine loads). @param {NewGame} body */
export async function create(body) {
  setBusy(1);
  try {
    if (!engine && !st().server) await engineLoading;
    if (engine) {
      createLocal(body);
      return;
    }
    /** @type {GameAnswer} */
    let data;
    try {
      data = await request("POST", "/api/companion", body);
    } catch (e) {
      // no server: the game is followed here as soon as the engine is
      if (answered(e) || !engineLoading || !(await engineLoading)) throw e;
      createLocal(body);
      return;
    }
    dispatch({ type: "server", id: data.id });
    history.replaceState(null, "", `${location.pathname}${location.search}#g=${data.id}`);
    showError("");
    accept(data);
    announce(data.announce || []);
    followGame();
  } catch (e) {
    showError(/** @type {Error} */ (e).message);
    if (!st().state) onNoGame();
  } finally {
    setBusy(-1);
  }
}

// ------------------------------------------------------------------ the network comes and goes

/** Back online: followed again at once (not at the socket's next retry), and what waits sent. */
export function online() {
  dispatch({ type: "away", away: false });
  const s = st();
  if (s.id) followGame();
  if (s.local) syncSoon(); else if (s.id) resyncSoon();
}

/** Offline: said at once (the queue note). */
export function offline() {
  dispatch({ type: "away", away: true });
  busyMarked();
}

/** The page shown again: catch up with the server. */
export function shownAgain() {
  const s = st();
  if (!s.id) return;
  if (s.local) syncSoon(); else resyncSoon();
}
