// The table companion (/companion): people play with a real deck and tap each card as it
// is played; the rules engine (ono99.tracking) follows the game, on the server or, once
// Pyodide has loaded, here in the browser (local.js: the same Python), and this page only
// shows its state, passes the taps on and speaks the announcements. No rules here.
// Hooks (CONTRACTS.md "Companion"): [data-card], [data-action=bust|undo|redo], and
// <main data-state> holding the public state after every tap.
import { answered, call, setLanguageSource } from "./api.js";
import { cardFace, cardSpec } from "./cards.js";
import { keepSeen, keepTableView, keptState, lastGame, recentGames, remember, tableViewOn } from "./companion-store.js";
import { loadServerVoices, updateSpeechNote, voice } from "./companion-voice.js";
import { loadQueue, requestId, saveQueue as storeQueue, splitRefused } from "./tap-queue.js";
import { $, fill, h, show } from "./dom.js";
import { LANGUAGES, currentLanguage, initialLanguage, onLanguageChange, presetList, presetWords, setCatalogUrl, setLanguage, t } from "./i18n.js";
import { follow } from "./companion-live.js";
import { keepGame, keptGame, loadEngine, newGameId, siteConfig } from "./local.js";
import { collectOptions, fillOptions, setOptions } from "./options.js";
import { formatNumber, onVoices, setSpeechEnabled, speechEnabled } from "./speech.js";
import { cardName, directionText, isOut, presetTitle, statusText, winnerText } from "./words.js";

/** The engine's default preset: the first it lists. */
function firstPreset() {
  const [first] = presetList();
  return first ? first.name : "";
}

/** [fewest, most] players of a preset, as the engine says (PresetOut.players, R-SET-5). */
function playerRange(preset) {
  const p = presetWords(preset);
  return p ? p.players : [2, 2];
}
const RESERVED = new Set(["rules", "players", "first", "lang"]);
const STATE_KEYS = ["total", "direction", "to_move", "owes_two", "out", "tokens", "scores", "round",
  "winner", "plays_left", "pending_draw", "round_out", "steps", "busted", "hands_needed", "laid", "laid_open",
  "can_undo", "can_redo", "scores_known", "give_up"];

// mode: what a tap on the pad means besides a play: "laid" (typing a hand laid face up,
// R-END-1) or "giveup" (points: which card the player out of safe cards gave up, R-END-3);
// while a round waits for its hands the pad types them (R-END-3). The pad never moves.
// local: the game is followed here (engine: Pyodide's, once loaded) and `kept` (local.js)
// is sent to the server when there is one; otherwise the server follows it.
const app = { id: null, version: 0, state: null, busy: 0, handsDraft: null, handsSeat: null, laidDraft: null,
  lastAnnounce: [], mode: null, queue: [], sending: false, away: false, fixAt: null,
  cfg: { server: true, pyodide: null }, engine: null, engineLoading: null, local: false, kept: null,
  syncing: false, engineDone: false };
const main = () => $("#main");

// ------------------------------------------------------------------ server

/** One request to the companion API; a read that hangs is the server away (the page then
 * shows the game as kept here).
 * @param {string} method @param {string} url @param {unknown} [body] */
const request = (method, url, body) => call(method, url, body, method === "GET" ? 10_000 : undefined);
setLanguageSource(currentLanguage); // the server words its refusals in the page's language

function setBusy(delta) {
  app.busy += delta;
  markBusy();
}

/** data-busy: a request is in flight or taps wait to be sent. The pad stays live: a tap
 * made meanwhile joins the queue, it is never lost. */
function markBusy() {
  const busy = app.busy > 0 || app.sending || app.queue.length > 0;
  main().dataset.busy = busy ? "1" : "0";
  main().setAttribute("aria-busy", busy ? "true" : "false");
  main().dataset.engine = app.local ? "local" : "server";
  // a game followed here: its changes the server has not stored yet (none without a server)
  const unsent = app.local && app.cfg.server && app.kept ? app.kept.pending.length + (app.kept.base === null ? 1 : 0) : 0;
  main().dataset.sync = unsent || app.syncing ? "1" : "0";
  // every change not yet counted by the server: queued here, or made on the game
  // followed here; said while the server is away (or the queue is not empty)
  const away = app.away || navigator.onLine === false;
  const mine = app.local && app.cfg.server && app.kept ? app.kept.pending.length : 0;
  const count = app.queue.length + mine;
  const note = $("#queue-note");
  // TRANSLATORS: taps made while the server was away, still to be sent
  note.textContent = count && (away || app.queue.length) ? t("Waiting to send: {count}", { count: formatNumber(count, currentLanguage()) }) : "";
  note.classList.toggle("away", away && count > 0);
  updateButtons();
}

/** Show `text` over the top part; `sticky`: a change not counted, which stays said until
 * the next change made here (a later change counted must not hide it). */
function showError(text, sticky = false) {
  app.errorSticky = sticky && Boolean(text);
  const el = $("#error");
  el.textContent = text || "";
  show(el, Boolean(text));
}

// ------------------------------------------------------------------ the queue of taps
// Every change (tap, undo, redo, hands, points, cards laid face up) is queued and sent in
// order, one at a time; the queue is kept in the browser (a reload keeps it) until the
// server has counted each. A refused one is said plainly, with the ones after it, which
// were made on a game that did not happen and are not sent. Each carries an id (req): a
// change sent again after a lost answer is not counted twice.
function saveQueue() {
  if (app.id) storeQueue(app.id, app.queue);
}

/** Say plainly (on screen, and aloud) that changes were not counted, and why; beside any
 * said before that the page has not moved on from. */
function notCounted(reason, items) {
  const text = `${reason} · ${/* TRANSLATORS: {taps}: the taps (card names, Undo...) the server did not count */ t("Not counted: {taps}", { taps: items.map(itemLabel).join(", ") })}`;
  showError(app.errorSticky ? `${$("#error").textContent} · ${text}` : text, true);
  refused(reason);
}

/** Hide the error shown, unless it names a change not counted. */
function calmError() {
  if (!app.errorSticky) showError("");
}

function send(path, body = {}) {
  if (!app.id) return;
  showError(""); // a new change: the one said before has been seen
  if (app.local && !app.queue.length) {
    applyLocal({ path, body });
    return;
  }
  app.queue.push({ path, body, req: requestId() });
  saveQueue();
  markBusy();
  pump();
}

function itemLabel(item) {
  if (item.path === "tap") {
    const code = item.body.tap;
    // TRANSLATORS: button: the player to move has no card they may play (they
    // bust)
    return code === "bust" ? t("No safe card") : cardName(code, app.state ? app.state.rules : firstPreset());
  }
  if (item.path === "insert") return `${/* TRANSLATORS: button and panel: correct a forgotten card or a wrong total */ t("Fix")}: ${cardName(item.body.tap, app.state ? app.state.rules : firstPreset())}`;
  return { undo: t("Undo"), redo: t("Redo"), hands: t("Save the hands"), points: t("Save the points"),
    laid: t("Save the cards") }[item.path] || item.path;
}

/** Show and say what a change did (Undo, Redo, a fix: the word, then the total). */
function told(item, data) {
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

async function pump() {
  // a game kept here waits for the engine (it is followed here, not sent)
  if (app.local || (app.kept && app.engineLoading && !app.engineDone)) return;
  if (app.sending || !app.queue.length || !app.id || retryTimer) return;
  app.sending = true;
  markBusy();
  const item = app.queue[0];
  let again = true;
  try {
    const data = await request("POST", `/api/companion/${app.id}/${item.path}`, { ...item.body, version: app.version, req: item.req });
    app.queue.shift();
    saveQueue();
    app.away = false;
    calmError();
    accept(data);
    told(item, data);
  } catch (e) {
    if (answered(e) && e.status < 500) {
      // refused (a move the rules do not allow on the game as it stands, or an undo of
      // another screen's tap): not counted, said plainly; the ones after it go on
      const dropped = app.queue.splice(0, 1);
      saveQueue();
      app.away = false;
      if (e.data && e.data.state) { accept(e.data); retold(); }
      notCounted(e.message, dropped);
    } else {
      // the server is away: everything stays queued, in order; try again soon
      app.away = true;
      again = false;
      showError(t("Connection lost. Reconnecting…"));
      retrySoon();
    }
  } finally {
    app.sending = false;
    markBusy();
  }
  if (again && app.queue.length) pump();
  else if (again) { catchUp(); goLocal(); }
}

// ------------------------------------------------------------------ followed here

/** Apply one change here (the engine in the page); refused: said plainly, nothing changed. */
function applyLocal(item) {
  const data = app.engine.change(app.id, item.path, item.body, currentLanguage());
  if (data.error) {
    if (data.state) { app.state = data.state; render(); }
    notCounted(data.error, [item]);
    return false;
  }
  calmError();
  app.kept.record = data.record;
  app.kept.pending.push({ path: item.path, body: item.body });
  keepGame(app.id, app.kept);
  accept({ id: app.id, version: app.version, state: data.state });
  told(item, data);
  syncSoon();
  markBusy(); // "Waiting to send" counts this one too while the server is away
  return true;
}

/** Follow game `id` here from `record`, the server's `base` version of it (null: none). */
function openLocal(id, record, base, pending = []) {
  const data = app.engine.open(id, record, currentLanguage());
  if (data.error) throw new Error(data.error);
  app.id = id;
  app.local = true;
  app.kept = { record: data.record, base, pending };
  keepGame(id, app.kept);
  accept({ id, version: base === null ? 0 : base, state: data.state });
}

/** The taps made while the engine loaded, applied in order (each where it applies). */
function drainLocal() {
  const items = app.queue.splice(0);
  saveQueue();
  for (const item of items) applyLocal(item); // a refused one is said; the others go on
  markBusy();
}

/** Once the engine is here, the open game is followed here too: a game kept in this
 * browser from its record, a game of the server from the server's (when nothing waits). */
async function goLocal() {
  if (!app.engine || app.local || !app.id) return;
  const kept = keptGame(app.id);
  if (kept) {
    openLocal(app.id, kept.record, kept.base, kept.pending);
    drainLocal();
    syncSoon();
    return;
  }
  if (!app.cfg.server || app.queue.length || app.sending) return;
  const id = app.id;
  try {
    const data = await request("GET", `/api/companion/${encodeURIComponent(id)}`);
    if (app.id === id && !app.local && !app.queue.length && !app.sending && data.record) openLocal(id, data.record, data.version);
  } catch (_e) { /* the server is away: it follows the game until it is back */ }
  markBusy();
}

let syncTimer = null;
/** Send the game followed here to the server, when there is one, soon. */
function syncSoon(delay = 0) {
  if (!app.cfg.server || !app.local || !app.kept) return;
  if (syncTimer && delay === 0 && !app.away) { clearTimeout(syncTimer); syncTimer = null; }
  if (syncTimer) return;
  syncTimer = setTimeout(syncNow, delay);
  markBusy();
}

async function syncNow() {
  syncTimer = null;
  const id = app.id;
  const kept = app.kept;
  if (app.syncing || !app.local || !kept || (!kept.pending.length && kept.base !== null)) return;
  app.syncing = true;
  markBusy();
  const sent = kept.pending.length;
  let later = 0;
  try {
    const data = await request("PUT", `/api/companion/${encodeURIComponent(id)}`, { record: kept.record, base: kept.base, req: requestId() });
    if (app.id !== id || app.kept !== kept) return;
    const created = kept.base === null;
    kept.base = data.version;
    kept.pending = kept.pending.slice(sent);
    app.version = data.version;
    keepGame(id, kept);
    app.away = false;
    if (created) followGame(); // the server has it now: followed live at once
  } catch (e) {
    if (app.id !== id || app.kept !== kept) return;
    if (answered(e) && e.status === 409 && e.data && e.data.record) {
      // the server's game moved on (another screen): this screen's changes go on top of
      // it where they still apply, the others are said plainly; the result is sent next
      rebase(id, e.data.record, e.data.version, kept.pending.splice(0));
    } else if (answered(e) && e.status < 500) {
      showError(e.message); // the server refuses this game: it stays here as it is
      later = -1;
    } else {
      app.away = true; // the server is away: the game goes on here and is sent when it is back
      later = 3000;
    }
  } finally {
    app.syncing = false;
    markBusy();
  }
  if (later >= 0 && app.kept && (app.kept.pending.length || later)) syncSoon(later);
  else catchUp();
}

/** This screen's changes `items` merged on top of the server's game (`record`, `version`):
 * each that still applies is kept (to send), the others are named "Not counted". */
function rebase(id, record, version, items) {
  const data = app.engine.rebase(id, record, items, currentLanguage());
  if (data.error) throw new Error(data.error);
  const { kept: pending, gone } = splitRefused(items, data.refused);
  app.kept = { record: data.record, base: version, pending };
  keepGame(id, app.kept);
  accept({ id, version, state: data.state });
  retold();
  if (gone.length) notCounted(data.refused[0].error, gone);
  if (pending.length) syncSoon();
}

// ------------------------------------------------------------------ other screens

let unfollow = null;
let latest = null; // the last game the socket sent while this page was busy with its own

/** Follow the open game live (a server only): every screen on it sees every change. */
function followGame() {
  if (unfollow) unfollow();
  unfollow = null;
  latest = null;
  if (!app.cfg.server || !app.id || typeof WebSocket !== "function") return;
  unfollow = follow(app.id, currentLanguage(), heard);
}

/** Another screen's change (or the game as it stands, on connecting). */
function heard(msg) {
  if (msg.id !== app.id) return;
  latest = msg;
  catchUp();
}

/** Take the game the socket last sent, where it is newer and nothing of this page's own
 * is on its way (those are answered with the game as it stands, or merged). */
function catchUp() {
  const msg = latest;
  if (!msg || msg.id !== app.id) return;
  if (app.local && app.kept) {
    if (app.syncing || app.kept.pending.length || (app.kept.base !== null && msg.version <= app.kept.base)) {
      if (app.kept.pending.length && msg.version !== app.kept.base) syncSoon();
      return;
    }
    latest = null;
    openLocal(app.id, msg.record, msg.version);
  } else {
    if (app.queue.length || app.sending || msg.version <= app.version) return;
    latest = null;
    app.away = false;
    accept(msg);
  }
  // shown, not spoken: the screen that made the change speaks it
  if (msg.announce && msg.announce.length) showAnnounce(msg.announce); else retold();
  markBusy();
}

let retryTimer = null;
function retrySoon() {
  if (retryTimer) return;
  retryTimer = setTimeout(async () => {
    retryTimer = null;
    try {
      if (!app.state || app.queue.length === 0) await load(app.id);
      pump();
    } catch (_e) {
      retrySoon();
    }
  }, 1500);
}

function resyncSoon() {
  if (app.queue.length) {
    if (!retryTimer) pump();
    return;
  }
  retrySoon();
}

async function load(id) {
  if (id !== app.id) { // another game: followed from scratch
    app.local = false;
    app.kept = null;
  }
  // the server's game whenever the server answers: another screen may have changed it
  let server = null;
  if (app.cfg.server) {
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
  if (keptGame(id) && (app.engine || app.engineLoading)) {
    // followed here: drawn at once as last seen, taps wait for the engine
    app.id = id;
    app.kept = keptGame(id);
    app.queue = loadQueue(id);
    const seen = keptState(id);
    if (seen) accept({ ...seen, id });
    followGame();
    if (!app.engine) await app.engineLoading;
    if (app.engine) {
      app.id = id;
      await goLocal();
      return { id };
    }
    app.kept = null;
  }
  if (!app.cfg.server) throw new Error(t("there is no such game"));
  if (!server) throw new Error(t("Connection lost. Reconnecting…"));
  const data = server;
  if (app.id !== data.id) app.queue = loadQueue(data.id);
  app.id = data.id;
  app.away = false;
  accept(data);
  followGame();
  pump();
  goLocal();
  return data;
}

function accept(data) {
  app.version = data.version;
  app.state = data.state;
  if (app.id) {
    // the last state the server sent: the page opens on it with no server reachable
    keepSeen(app.id, data);
    remember(app.id, app.state);
  }
  render();
}

/** The game as the server last sent it, kept in this browser (or null). */
async function openGame(id) {
  try {
    await load(id);
    history.replaceState(null, "", `${location.pathname}#g=${id}`);
  } catch (e) { showError(e.message); }
}

// ------------------------------------------------------------------ a quick fix

/** The last taps, each with who played it and the total after it; a gap before each
 * (and one for "now") is where a forgotten card goes in (the server re-tells the rest). */
function renderFix(s) {
  const on = app.mode === "fix";
  show($("#fix"), on);
  if (!on) return;
  const lang = currentLanguage();
  const gap = (at) => h("button", { type: "button", class: "gap", dataset: { fixAt: String(at) },
    "aria-pressed": (app.fixAt === null ? s.steps : app.fixAt) === at ? "true" : "false",
    onclick: () => { app.fixAt = at; render(); } }, "+");
  const rows = [];
  for (const r of s.recent || []) {
    rows.push(h("li", {}, gap(r.at), h("span", {
      text: `${seatName(s, r.seat)}: ${cardName(r.tap, s.rules)} → ${formatNumber(r.total, lang)}`,
    })));
  }
  // TRANSLATORS: the quick fix: the place after the last tap
  rows.push(h("li", {}, gap(s.steps), h("span", { text: t("now") })));
  fill($("#fix-rows"), rows);
}

// ------------------------------------------------------------------ the table view

let wakeLock = null;

async function keepAwake(on) {
  // Wake Lock: the screen stays on while the table view is up (where the browser has it)
  try {
    if (on && !wakeLock && "wakeLock" in navigator && !document.hidden) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } else if (!on && wakeLock) {
      await wakeLock.release();
      wakeLock = null;
    }
  } catch (_e) { wakeLock = null; /* refused (battery saver...): the view works all the same */ }
}

function setTableView(on) {
  keepTableView(on);
  renderTableView(app.state);
}

function renderTableView(s) {
  const on = Boolean(s) && tableViewOn() && main().dataset.view === "play";
  show($("#tableview"), on);
  main().dataset.tableview = on ? "1" : "0";
  keepAwake(on);
  if (!on) return;
  const lang = currentLanguage();
  const total = $("#tv-total");
  total.textContent = formatNumber(s.total, lang);
  total.classList.toggle("hot", s.total >= 90);
  const arrow = s.direction === 1 ? "↻" : "↺";
  $("#tv-next").textContent = s.to_move === null
    ? (s.hands_needed ? t("Scores wait for the cards left in each hand") : winnerText(s.winner, s.names, null))
    : `${arrow} ${/* TRANSLATORS: the table view: who plays next */ t("next: {name}", { name: s.names[s.to_move] })}`;
  // TRANSLATORS: the table view: the card played last
  $("#tv-last").textContent = s.last_card ? t("Last card: {card}", { card: cardName(s.last_card, s.rules) }) : "";
  $("#tv-announce").textContent = app.lastAnnounce.join(" · ");
}

// ------------------------------------------------------------------ speaking

/** Show the announcements; speak `say` (the total first, short, then what changed the
 * game), or the announcements where the server sent no short form. */
function announce(lines, say = null) {
  showAnnounce(lines);
  const lang = currentLanguage();
  const spoken = say || lines; // digits stay digits: a voice of the language reads them best
  if (spoken.length) voice(spoken.join(". "), lang);
}

/** Show announcement lines (not spoken). */
function showAnnounce(lines) {
  app.lastAnnounce = lines;
  $("#announce").textContent = lines.join(" · ");
  if (tableViewOn()) $("#tv-announce").textContent = lines.join(" · ");
}

/** The game was replaced (another screen's, a merge, a refusal): the announcement shown
 * is the total as it now stands, never an older one beside it. */
function retold() {
  if (app.state) showAnnounce([t("Total {total}", { total: formatNumber(app.state.total, currentLanguage()) })]);
}

/** A refusal is spoken too: at a noisy table nobody reads the screen. */
function refused(text) {
  voice(text, currentLanguage());
}

function updateMute() {
  const on = speechEnabled();
  const b = $("#mute");
  b.textContent = on ? "🔊" : "🔇";
  b.setAttribute("aria-pressed", on ? "true" : "false");
  $("#speech-on").checked = on;
}

// ------------------------------------------------------------------ drawing

function publicState(s) {
  const out = {};
  for (const k of STATE_KEYS) out[k] = s[k] === undefined ? null : s[k];
  return out;
}

function seatName(s, seat) {
  return seat === null || seat === undefined ? "" : s.names[seat];
}

function render() {
  const s = app.state;
  if (!s) return;
  main().dataset.state = JSON.stringify(publicState(s));
  main().dataset.view = "play";
  show($("#setup"), false);
  show($("#play"), true);
  const lang = currentLanguage();
  const total = $("#total");
  total.textContent = formatNumber(s.total, lang);
  total.classList.toggle("hot", s.total >= 90);
  const turn = $("#turn");
  if (s.hands_needed) {
    fill(turn, t("Round {round} is over: enter the cards left in each hand for the scores", { round: formatNumber(s.hands_needed.round, lang) }));
  } else if (s.to_move === null) {
    fill(turn, winnerText(s.winner, s.names, null));
  } else {
    const who = seatName(s, s.to_move);
    // TRANSLATORS: whose turn it is
    const parts = [t("{name} to play", { name: who })];
    let owes = null;
    if (s.owes_two === s.to_move) {
      owes = s.plays_left === 2 ? t("{name} must play two cards", { name: who })
        : /* TRANSLATORS: the player owes two cards and has played the first */ t("{name}: second card", { name: who });
    }
    fill(turn, parts[0], owes ? h("span", { class: "owes", text: owes }) : null);
  }
  $("#direction").textContent = `${s.direction === 1 ? "↻" : "↺"} ${directionText(s.direction)} · ${t("Round {round}", { round: formatNumber(s.round, lang) })}`;
  fill($("#seats"), s.names.map((name, seat) => {
    const meta = [];
    if (s.tokens) meta.push(`● ${formatNumber(s.tokens[seat], lang)}`);
    if (s.scores) {
      // R-END-3: a score waiting for the round's hands is not known: shown as "known + ?"
      meta.push(s.scores[seat] === null ? `${formatNumber(s.scores_known[seat], lang)} + ?` : formatNumber(s.scores[seat], lang));
    }
    const out = isOut(s, seat);
    const cls = [seat === s.to_move ? "now" : "", out && (s.out || []).includes(seat) ? "out" : "",
      out && (s.round_out || []).includes(seat) ? "round-out" : ""].join(" ").trim();
    const title = statusText(s, seat);
    return h("li", { class: cls || null, title: title || null, dataset: { seat: String(seat) } },
      h("span", { class: "name", text: name }),
      meta.length ? h("span", { class: "meta", text: meta.join(" ") }) : null);
  }));
  renderPad(s);
  renderHands(s);
  renderLaid(s);
  renderMode(s);
  renderFix(s);
  renderTableView(s);
  $("#record-link").href = app.local && app.kept ? recordUrl(app.kept.record) : `/api/companion/${app.id}/record`;
  updateButtons();
  fitLabels();
}

/** The record of a game followed here, to download (its redo list is not part of it). */
function recordUrl(record) {
  const { redo: _redo, ...rec } = record;
  return `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(rec))}`;
}

/** What a pad tap means now: "hands", "laid", "giveup", "fix" or "play". */
function padMode(s) {
  if (!s) return "play";
  if (s.hands_needed) return "hands";
  if (app.mode === "fix") return "fix";
  if (app.mode === "laid" && s.laid_open) return "laid";
  if (app.mode === "giveup" && s.to_move !== null && (s.give_up || []).length) return "giveup";
  app.mode = null;
  return "play";
}

function renderMode(s) {
  const mode = padMode(s);
  let text = "";
  if (mode === "hands" && app.handsSeat !== null && app.handsSeat >= 0) {
    // TRANSLATORS: the card pad now types the cards left in {name}'s hand
    text = t("{name}: tap the cards left in hand", { name: s.names[app.handsSeat] });
  } else if (mode === "laid") {
    // TRANSLATORS: a mattel2022 player out of the game lays their hand face up;
    // the page offers to type those cards in
    text = t("{name} is out: the cards {name} laid face up", { name: s.names[s.laid_open.seat] });
  } else if (mode === "giveup") {
    // TRANSLATORS: points mode: the player had no safe card and gave up one unsafe
    // card
    text = t("Which card did {name} give up?", { name: seatName(s, s.to_move) });
  } else if (mode === "fix") {
    text = t("A card nobody tapped: choose where it was played, then tap it on the pad. A wrong total: find the tap where it went wrong.");
  }
  $("#mode").textContent = text;
  $("#pad").classList.toggle("entering", mode !== "play");
  // TRANSLATORS: button: the player out of safe cards had no card they could
  // give up
  $("#bust-label").textContent = mode === "giveup" ? t("No card to give up") : t("No safe card");
}

/** Shrink a label's font until it fits its button (words never broken). */
function fitLabels() {
  for (const b of document.querySelectorAll("#pad button, .actions button")) {
    b.style.fontSize = "";
    let size = Number.parseFloat(getComputedStyle(b).fontSize);
    while ((b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight) && size > 9) {
      size -= 1;
      b.style.fontSize = `${size}px`;
    }
  }
}

function padTap(code) {
  const mode = padMode(app.state);
  if (mode === "hands") addHandCard(code);
  else if (mode === "laid") addLaidCard(code);
  else if (mode === "fix") {
    const at = app.fixAt === null ? app.state.steps : app.fixAt;
    app.mode = null;
    app.fixAt = null;
    send("insert", { at, tap: code });
  }
  else {
    app.mode = null;
    send("tap", { tap: code });
  }
}

function bustTap() {
  const s = app.state;
  const mode = padMode(s);
  if (mode === "giveup") {
    app.mode = null;
    send("tap", { tap: "bust" }); // R-END-3: nothing they could give up (only ONO 99s)
  } else if (s && s.scores && (s.give_up || []).length) {
    app.mode = "giveup"; // R-END-3: ask which card was given up
    render();
  } else {
    send("tap", { tap: "bust" });
  }
}

function undoTap() {
  if (app.mode) { // a question in progress is taken back first
    app.mode = null;
    render();
    return;
  }
  send("undo");
}

function renderPad(s) {
  const pad = $("#pad");
  const codes = s.cards.slice();
  const key = codes.join(",") + `|${s.rules}|${currentLanguage()}`;
  if (pad.dataset.key !== key) {
    pad.dataset.key = key;
    fill(pad, codes.map((code) => {
      const number = /^\d+$/.test(code);
      const label = number ? formatNumber(Number(code), currentLanguage()) : cardName(code, s.rules);
      // the table's card faces (cards.js): the colour of the card's kind (the names of the
      // specials need the button's whole width in Tamil or Kannada; 99x4's has room for
      // the drawn face beside it)
      const kind = cardSpec(code).kind;
      return h("button", {
        type: "button", class: `pad-card cf-${kind}${number ? "" : (code === "99x4" ? " special wide" : " special")}`,
        dataset: { card: code }, "aria-label": cardName(code, s.rules), onclick: () => padTap(code),
      }, code === "99x4" ? cardFace(code) : null, h("span", { class: "label", text: label }));
    }));
  }
  // R-DRAW-1: the draw button has its place for the whole game (off while no draw is due)
  let draw = $("#draw-button");
  if (s.options && s.options.draw_penalty === true) {
    if (!draw) {
      draw = h("button", { type: "button", id: "draw-button", class: "special wide", dataset: { card: "draw" },
        onclick: () => send("tap", { tap: "draw" }) });
      pad.append(draw);
    }
    // TRANSLATORS: button of the draw penalty option: the player drew their card
    draw.textContent = s.pending_draw === null ? t("Draw") : t("{name} drew their card", { name: seatName(s, s.pending_draw) });
  } else if (draw) {
    draw.remove();
  }
}

function updateButtons() {
  const s = app.state;
  const busy = app.busy > 0; // only creating a game; taps meanwhile are queued
  const over = !s || s.to_move === null;
  const mode = padMode(s);
  const giveUp = new Set((s && s.give_up) || []);
  for (const b of document.querySelectorAll("#pad [data-card]")) {
    const code = b.dataset.card;
    if (mode === "hands" || mode === "laid") b.disabled = busy || code === "draw" || code === "99x4";
    else if (mode === "fix") b.disabled = busy || code === "draw";
    else if (mode === "giveup") b.disabled = busy || !giveUp.has(code);
    else if (code === "draw") b.disabled = busy || !s || (s.pending_draw === null && !app.queue.length);
    else b.disabled = busy || (over && !app.queue.length);
  }
  const bust = $("#bust");
  if (bust) bust.disabled = busy || (over && !app.queue.length);
  const undo = $("#undo");
  if (undo) undo.disabled = busy || !s || (!s.can_undo && !app.mode && !app.queue.length);
  const redo = $("#redo");
  if (redo) redo.disabled = busy || !s || !s.can_redo;
}

// ------------------------------------------------------------------ hands (R-END-3)

/** A hand as typed so far, with a box for each card still to come. */
function handText(cards, size, rules) {
  return `${cards.map((c) => cardName(c, rules)).join(" ")} ${"▢ ".repeat(Math.max(0, size - cards.length))}`;
}

function renderHands(s) {
  const need = s.hands_needed;
  show($("#hands-entry"), Boolean(need));
  if (!need) {
    app.handsDraft = null;
    return;
  }
  if (!app.handsDraft || app.handsDraft.tap !== need.tap) {
    app.handsDraft = { tap: need.tap, round: need.round, hands: need.sizes.map((k) => (k === null ? null : [])),
      points: need.sizes.map(() => "") };
    app.handsSeat = need.sizes.findIndex((k) => k);
  }
  $("#hands-title").textContent = t("Round {round} is over: enter the cards left in each hand for the scores", { round: formatNumber(need.round, currentLanguage()) });
  const rows = need.sizes.map((k, seat) => {
    if (k === null) return null;
    const cards = app.handsDraft.hands[seat];
    return h("li", { class: seat === app.handsSeat ? "current" : null },
      h("button", { type: "button", onclick: () => { app.handsSeat = seat; render(); } },
        `${s.names[seat]}: ${handText(cards, k, s.rules)}`),
      h("input", { type: "number", min: "0", inputmode: "numeric", value: app.handsDraft.points[seat],
        // TRANSLATORS: {name}: a player; label of the box for the points of their
        // cards in hand
        dataset: { pointsSeat: String(seat) }, "aria-label": t("{name}: points of the cards in hand", { name: s.names[seat] }),
        oninput: (e) => { app.handsDraft.points[seat] = e.target.value; updateHandsButtons(); } }));
  });
  fill($("#hands-rows"), rows);
  updateHandsButtons();
}

function updateHandsButtons() {
  const need = app.state && app.state.hands_needed;
  if (!need || !app.handsDraft) return;
  const full = need.sizes.every((k, seat) => k === null || app.handsDraft.hands[seat].length === k);
  $("#hands-save").disabled = !full;
  const typed = need.sizes.every((k, seat) => k === null || /^\d+$/.test(String(app.handsDraft.points[seat]).trim()));
  $("#points-save").disabled = !typed;
}

function addHandCard(code) {
  const need = app.state && app.state.hands_needed;
  if (!need || app.handsSeat === null || app.handsSeat < 0) return;
  const hand = app.handsDraft.hands[app.handsSeat];
  if (hand.length < need.sizes[app.handsSeat]) hand.push(code);
  if (hand.length >= need.sizes[app.handsSeat]) {
    const next = need.sizes.findIndex((k, seat) => k && app.handsDraft.hands[seat].length < k);
    if (next >= 0) app.handsSeat = next;
  }
  render();
}

// ------------------------------------------------------------------ a hand laid face up (R-END-1)

function renderLaid(s) {
  const open = s.laid_open;
  show($("#laid-entry"), Boolean(open));
  if (!open) {
    app.laidDraft = null;
    if (app.mode === "laid") app.mode = null;
    return;
  }
  if (!app.laidDraft || app.laidDraft.seat !== open.seat) app.laidDraft = { seat: open.seat, cards: [] };
  const name = s.names[open.seat];
  $("#laid-title").textContent = t("{name} is out: the cards {name} laid face up", { name });
  const cards = app.laidDraft.cards;
  const typing = app.mode === "laid";
  $("#laid-row").textContent = handText(cards, open.size, s.rules);
  show($("#laid-row"), typing);
  show($("#laid-type"), !typing);
  show($("#laid-clear"), typing);
  show($("#laid-save"), typing);
  $("#laid-save").disabled = cards.length !== open.size;
}

function addLaidCard(code) {
  const open = app.state && app.state.laid_open;
  if (!open || !app.laidDraft) return;
  if (app.laidDraft.cards.length < open.size) app.laidDraft.cards.push(code);
  render();
}

// ------------------------------------------------------------------ setup


function nameInputs() {
  return Array.from(document.querySelectorAll("#setup-names input"));
}

function setNames(names) {
  fill($("#setup-names"), names.map((n, i) => h("li", {}, h("input", {
    value: n, maxlength: "40", autocomplete: "off", "aria-label": `${t("Player")} ${i + 1}`,
    oninput: refreshFirst,
  }))));
  refreshFirst();
}

function refreshFirst() {
  const sel = $("#setup-first");
  const keep = sel.value;
  fill(sel, nameInputs().map((inp, i) => h("option", { value: String(i), text: inp.value || `${t("Player")} ${i + 1}` })));
  if (keep && Number(keep) < nameInputs().length) sel.value = keep;
  const [lo, hi] = playerRange($("#setup-rules").value);
  $("#add-player").disabled = nameInputs().length >= hi;
  $("#remove-player").disabled = nameInputs().length <= lo;
}

function showSetup() {
  main().dataset.view = "setup";
  main().dataset.state = "{}";
  show($("#play"), false);
  show($("#setup"), true);
  const rules = $("#setup-rules");
  if (!rules.childElementCount) {
    fill(rules, presetList().map((p) => h("option", { value: p.name, text: p.title })));
    rules.addEventListener("change", () => { fillOptions($("#setup-options"), rules.value, "hint"); trimNames(); });
    setNames([1, 2, 3].map((i) => `${t("Player")} ${i}`));
  }
  fillOptions($("#setup-options"), rules.value, "hint");
  show($("#continue-last"), Boolean(lastGame()));
  const recent = recentGames();
  show($("#recent"), recent.length > 0);
  fill($("#recent-games"), recent.map((g) => h("li", {}, h("button", {
    type: "button", dataset: { game: g.id }, onclick: () => openGame(g.id),
  }, `${(g.names || []).join(", ")} · ${presetTitle(g.rules)}`))));
  show($("#tableview"), false);
  keepAwake(false);
}

/** The setup form filled in as ``s`` was set up: a new game keeps the names. */
function setupLike(s) {
  showSetup();
  const rules = $("#setup-rules");
  rules.value = s.rules;
  fillOptions($("#setup-options"), s.rules, "hint");
  setOptions($("#setup-options"), s.rules, s.options);
  setNames(s.names);
  $("#setup-first").value = String(s.first || 0);
}

function trimNames() {
  const [, hi] = playerRange($("#setup-rules").value);
  const names = nameInputs().map((i) => i.value).slice(0, hi);
  setNames(names);
}

/** A new game followed here (Pyodide): no server needed; sent to one when there is one. */
function createLocal(body) {
  const id = newGameId();
  const data = app.engine.create(id, body, currentLanguage());
  if (data.error) throw new Error(data.error);
  app.queue = [];
  app.local = true;
  app.kept = { record: data.record, base: null, pending: [] };
  app.id = id;
  keepGame(id, app.kept);
  history.replaceState(null, "", `${location.pathname}${location.search}#g=${id}`);
  showError("");
  accept({ id, version: 0, state: data.state });
  announce(data.announce || []);
  syncSoon();
  followGame();
}

async function create(rules, players, first, options) {
  setBusy(1);
  try {
    if (!app.engine && !app.cfg.server) await app.engineLoading;
    if (app.engine) {
      createLocal({ rules, players, first, options });
      return;
    }
    let data;
    try {
      data = await request("POST", "/api/companion", { rules, players, first, options });
    } catch (e) {
      // no server: the game is followed here as soon as the engine is
      if (answered(e) || !app.engineLoading || !(await app.engineLoading)) throw e;
      createLocal({ rules, players, first, options });
      return;
    }
    app.local = false;
    app.kept = null;
    app.id = data.id;
    history.replaceState(null, "", `${location.pathname}${location.search}#g=${data.id}`);
    showError("");
    accept(data);
    announce(data.announce || []);
    followGame();
  } catch (e) {
    showError(e.message);
    if (!app.state) showSetup();
  } finally {
    setBusy(-1);
  }
}

function deepLink() {
  const q = new URLSearchParams(location.search);
  if (!q.has("players")) return null;
  const options = {};
  for (const [k, v] of q.entries()) {
    if (RESERVED.has(k)) continue;
    try { options[k] = JSON.parse(v); } catch (_e) { options[k] = v; }
  }
  const players = q.get("players").split(",").map((s) => s.trim());
  const first = Number.parseInt(q.get("first") || "0", 10);
  return { rules: q.get("rules") || firstPreset(), players, first: Number.isNaN(first) ? 0 : first, options };
}

function hashId() {
  const m = /(?:^#|&)g=([\w-]+)/.exec(location.hash);
  return m ? m[1] : null;
}

// ------------------------------------------------------------------ start

async function start() {
  app.cfg = await siteConfig();
  setCatalogUrl(app.cfg.i18n || "api/i18n/{lang}");
  if (!app.cfg.server) $("#home-link").href = "./";
  registerWorker();
  app.engineLoading = loadEngine(app.cfg).then((engine) => {
    app.engine = engine;
    app.engineDone = true;
    main().dataset.engineReady = engine ? "1" : "0";
    if (engine) goLocal();
    return engine;
  });
  const sel = $("#lang-select");
  fill(sel, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, text: name })));
  await setLanguage(initialLanguage());
  sel.value = currentLanguage();
  sel.addEventListener("change", () => setLanguage(sel.value));
  onLanguageChange(() => {
    sel.value = currentLanguage();
    if (app.id) followGame(); // the words of other screens' changes in the new language
    if (app.state) render(); else if (main().dataset.view === "setup") { $("#setup-rules").replaceChildren(); showSetup(); }
    updateSpeechNote();
  });

  updateMute();
  $("#speech-on").addEventListener("change", (e) => { setSpeechEnabled(e.target.checked); updateMute(); });
  $("#mute").addEventListener("click", () => { setSpeechEnabled(!speechEnabled()); updateMute(); });
  $("#speech-test").addEventListener("click", () => {
    const total = app.state ? app.state.total : 42;
    voice(t("Total {total}", { total }), currentLanguage(), true);
  });
  onVoices(updateSpeechNote);
  updateSpeechNote();
  if (app.cfg.server) loadServerVoices();

  $("#bust").addEventListener("click", bustTap);
  $("#undo").addEventListener("click", undoTap);
  window.addEventListener("resize", fitLabels);
  $("#redo").addEventListener("click", () => send("redo"));
  $("#hands-clear").addEventListener("click", () => {
    if (app.handsDraft && app.handsSeat !== null && app.handsSeat >= 0) app.handsDraft.hands[app.handsSeat] = [];
    render();
  });
  $("#hands-save").addEventListener("click", () => {
    if (app.handsDraft) send("hands", { hands: app.handsDraft.hands, tap: app.handsDraft.tap });
  });
  $("#points-save").addEventListener("click", () => {
    const d = app.handsDraft;
    if (!d) return;
    const points = app.state.hands_needed.sizes.map((k, seat) => (k === null ? null : Number.parseInt(d.points[seat], 10)));
    send("points", { points, round: d.round });
  });
  $("#laid-type").addEventListener("click", () => { app.mode = "laid"; render(); });
  $("#laid-clear").addEventListener("click", () => {
    if (app.laidDraft) app.laidDraft.cards = [];
    render();
  });
  $("#laid-save").addEventListener("click", () => {
    if (app.laidDraft) send("laid", { seat: app.laidDraft.seat, cards: app.laidDraft.cards });
  });
  $("#laid-skip").addEventListener("click", () => {
    if (app.laidDraft) send("laid", { seat: app.laidDraft.seat, cards: null });
  });
  $("#new-game").addEventListener("click", () => show($("#new-confirm"), true)); // ask first
  $("#new-game-no").addEventListener("click", () => show($("#new-confirm"), false));
  $("#new-game-yes").addEventListener("click", () => {
    const s = app.state;
    show($("#new-confirm"), false);
    app.id = null;
    app.state = null;
    app.queue = [];
    app.local = false;
    app.kept = null;
    followGame(); // none: no game
    history.replaceState(null, "", location.pathname);
    if (s) setupLike(s); else showSetup();
  });
  $("#table-view-on").addEventListener("click", () => setTableView(true));
  $("#fix-on").addEventListener("click", () => { app.mode = app.mode === "fix" ? null : "fix"; app.fixAt = null; render(); });
  $("#fix-off").addEventListener("click", () => { app.mode = null; app.fixAt = null; render(); });
  $("#table-view-off").addEventListener("click", () => setTableView(false));
  document.addEventListener("visibilitychange", () => { if (!document.hidden && app.state) renderTableView(app.state); });
  $("#continue-last").addEventListener("click", async () => {
    const last = lastGame();
    if (last) await openGame(last);
  });
  $("#add-player").addEventListener("click", () => {
    const names = nameInputs().map((i) => i.value);
    names.push(`${t("Player")} ${names.length + 1}`);
    setNames(names);
  });
  $("#remove-player").addEventListener("click", () => setNames(nameInputs().map((i) => i.value).slice(0, -1)));
  $("#setup-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const rules = $("#setup-rules").value;
    const players = nameInputs().map((i, k) => i.value.trim() || `${t("Player")} ${k + 1}`);
    create(rules, players, Number($("#setup-first").value) || 0, collectOptions($("#setup-options"), rules));
  });
  window.addEventListener("online", () => {
    app.away = false;
    if (app.cfg.server) loadServerVoices();
    if (app.id) followGame(); // at once, not at the socket's next retry
    if (app.local) syncSoon(); else if (app.id) resyncSoon();
  });
  window.addEventListener("offline", () => { app.away = true; markBusy(); updateSpeechNote(); });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden || !app.id) return;
    if (app.local) syncSoon(); else resyncSoon();
  });

  const id = hashId();
  if (id) {
    try {
      await load(id);
      return;
    } catch (e) {
      if (!answered(e)) {
        // no server: the game as last seen here; taps queue until the server is back
        app.id = id;
        app.queue = loadQueue(id);
        app.away = true;
        const kept = keptState(id);
        if (kept) accept(kept);
        showError(t("Connection lost. Reconnecting…"));
        retrySoon();
        return;
      }
      showError(e.message);
    }
  }
  const link = deepLink();
  if (link) {
    await create(link.rules, link.players, link.first, link.options);
    return;
  }
  showSetup();
}

// installable, and after the first visit the page opens and follows games with no server
// (companion-sw.js, beside the page: its scope is the page, or the whole static site)
function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("companion-sw.js", { scope: app.cfg.server ? "companion" : "./" })
    .catch(() => { /* not offered (a plain http address that is not this machine's) */ });
}

start();
