// @ts-check
// The web table: lobby, waiting room, the game, summaries and the replay viewer.
// The page draws only what the server sends (view, texts) and sends intents (moves); it
// never decides what is legal and holds no rule fact: the presets (player ranges,
// options, card names, rules help) come from GET /api/i18n/{lang} and /api/presets, and
// every `state` names the cards, says whose turn it is and why a card cannot be played.
// This module starts the page and says what each message, key and button does; the state
// is table-state.js's, the drawing table-render.js's, the line to the server
// table-connection.js's, the lobby table-lobby.js's.
import * as api from "./api.js";
import { $, $$, fill, h, show } from "./dom.js";
import { LANGUAGES, currentLanguage, initialLanguage, onLanguageChange, presetWords, setLanguage, t } from "./i18n.js";
import { collectOptions } from "./options.js";
import { ReplayViewer } from "./replay.js";
import { percent } from "./review.js";
import { loadCreds, saveCreds } from "./seats.js";
import { eventSound, setSoundsOn, sound, soundsOn } from "./sounds.js";
import { tableFromLocation } from "./table-address.js";
import { connected, openSocket, pollWaiting, refreshInfo, resolveTable, sendMessage } from "./table-connection.js";
import { buildLobby, defaultPreset, goToTable, onCreate, onJoin, typedName } from "./table-lobby.js";
import {
  announce, bindHand, cardWord, drawPage, drawSummary, drawTimer, hideSummaryBox, log, renderHand, renderHint,
  renderLastEvent, renderTable, renderWaiting, showEffects, showError, whyNot,
} from "./table-render.js";
import { say, setUpSpeech } from "./table-speech.js";
import { seated, store } from "./table-state.js";

/** @typedef {import("./table-state.js").TableEvent} TableEvent */
/** @typedef {import("./table-state.js").Creds} Creds */

const WARN_SECONDS = 5; // the turn timer's warning, in the live region
const ROUND_LINES = ["bust", "token_lost", "eliminated", "out_of_round", "round_end"];

const st = store.get;
const dispatch = store.dispatch;

// ---------------------------------------------------------------- drawing the state

/** @param {string} name */
function setPage(name) {
  dispatch({ type: "page", page: name });
  drawPage(name);
}

function drawWaiting() {
  setPage("waiting");
  renderWaiting(st());
}

/** The table, its pile's new card travelling from its seat once, and the timer. */
function drawTable() {
  setPage("table");
  renderTable(st());
  dispatch({ type: "pileDrawn" });
  tick();
}

/** The turn timer drawn; on this seat's turn its warning and its time-out said once. */
function tick() {
  const s = st();
  const left = drawTimer(s);
  const v = s.view;
  if (left === null || s.deadline === null || !v || !seated(v) || v.to_move !== v.seat) return;
  const text = $("#timer").textContent;
  if (left <= WARN_SECONDS && left > 0 && s.warned !== s.deadline) {
    dispatch({ type: "warned", deadline: s.deadline });
    announce(text);
  } else if (left === 0 && s.timedOut !== s.deadline) {
    dispatch({ type: "timedOut", deadline: s.deadline });
    const takeover = !(s.info && s.info.takeover === false);
    // TRANSLATORS: said to a player (screen reader) when their turn timer ran out
    announce(takeover ? t("Time is up: a bot plays for you") : text);
  }
}
setInterval(() => {
  if (st().page === "table" && st().deadline !== null) tick();
}, 1000);

/** @param {"game" | "round"} kind @param {string[]} lines @param {boolean} [toldWinner] */
function showSummary(kind, lines, toldWinner = false) {
  drawSummary(st(), kind, lines, toldWinner);
  dispatch({ type: "summary", over: kind === "game" });
}

function hideSummary() {
  hideSummaryBox();
  dispatch({ type: "summaryHidden" });
}

/** An event's words: the server's narration (`text`). A card a bot played for this seat
 * while its player was away or out of time comes worded as the bot's ("A bot plays 10 for
 * you"), live and in a catch-up (`info.by_bot`). @param {TableEvent} e */
function eventText(e) {
  return e.text || null;
}

// ---------------------------------------------------------------- the server's messages

/** A `state` message: taken in (table-state.js), then logged, said, heard and drawn.
 * @param {any} msg */
function onState(msg) {
  const before = st();
  const prev = before.view;
  const s = dispatch({ type: "state", msg, now: Date.now() / 1000 });
  const v = s.view;
  if (!v) {
    // not started yet
    if (msg.table) drawWaiting();
    else {
      refreshInfo().then(() => {
        if (!st().view) {
          drawWaiting();
          pollWaiting(drawWaiting);
        }
      });
    }
    return;
  }
  /** @type {TableEvent[]} */
  const events = Array.isArray(msg.events) ? msg.events : [];
  const catchup = Boolean(msg.catchup) || !prev;
  const lines = /** @type {string[]} */ (events.map(eventText).filter(Boolean));
  if (s.timedOut !== before.timedOut) announce(t("Time is up: a bot plays for you")); // a bot moved for this seat
  // a fresh connection's events are the catch-up: they replace the log, never add to it
  log(lines, catchup);
  if (!catchup) {
    say(lines);
    const heard = events.map((e) => eventSound(e.kind)).filter(Boolean);
    // the most telling sound of the change: a bust over a Reverse over a Play 2 over a card
    for (const k of /** @type {const} */ (["bust", "reverse", "play2", "play"])) if (heard.includes(k)) { sound(k); break; }
  }
  const moved = prev && v.moves !== prev.moves;
  const shownAt = st().summaryMoves;
  if (moved && shownAt !== null && shownAt !== undefined && v.moves !== undefined && v.moves > shownAt) hideSummary();
  drawTable();
  renderLastEvent(st());
  showEffects(st(), prev);
  dispatch({ type: "effectsShown" });
  // said once a turn: not again for a reconnect's catch-up while the turn is the same one
  if (s.myTurn && (!before.myTurn || moved || !prev)) {
    announce(st().texts.turn);
    if (prev) sound("turn");
  }
  const gameOver = v.winner !== null && v.winner !== undefined;
  if (gameOver && st().summaryFor !== "game") {
    const over = events.filter((e) => e.kind === "game_over" || ROUND_LINES.includes(e.kind));
    const told = over.some((e) => e.kind === "game_over" && e.text);
    showSummary("game", /** @type {string[]} */ (over.map(eventText).filter(Boolean)), told);
  }
  if (gameOver && msg.table && msg.table.next_table && !$("#rematch-link")) {
    onRematchOffered(msg.table.next_table);
  } else if (!gameOver && prev && v.round > prev.round) {
    const roundLines = events.filter((e) => ROUND_LINES.includes(e.kind)).map(eventText);
    showSummary("round", /** @type {string[]} */ (roundLines.filter(Boolean)));
  } else if (!gameOver && st().summaryFor === "game") {
    hideSummary();
    dispatch({ type: "summaryCleared" });
  }
}

/** @param {any} msg */
function onMessage(msg) {
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "state") onState(msg);
  else if (msg.type === "pong") return; // the heartbeat (api.TableSocket)
  else if (msg.type === "hint") onHint(msg);
  else if (msg.type === "error") {
    dispatch({ type: "refused" });
    $("#move-note").textContent = typeof msg.error === "string" ? msg.error : "";
    if (st().view) renderHand(st());
  }
  // the server sends nothing else: presence, seats and a rematch come in `state`
}

/** The connection's state, shown while it is not open. @param {string} status */
function onStatus(status) {
  const el = $("#conn");
  if (status === "open") {
    show(el, false);
  } else if (status === "closed") {
    el.textContent = t("Connection lost. Reconnecting…");
    show(el, true);
  } else if (!st().view) {
    el.textContent = t("Connecting…");
    show(el, true);
  }
}

function connect() {
  openSocket({ onMessage, onStatus, onMissing: () => showError(t("There is no such table.")) });
}

// ---------------------------------------------------------------- moves and hints

/** Play `code` (a card of the hand, 99x4, draw): sent when legal, else its reason said.
 * @param {string} code @param {number} [index] */
function playCard(code, index) {
  const s = st();
  const v = s.view;
  if (!v) return;
  if (!(v.legal || []).includes(code)) {
    $("#move-note").textContent = whyNot(s, code);
    return;
  }
  if (s.sent) return;
  const next = dispatch({ type: "moving" });
  if (sendMessage({ type: "move", move: code, version: next.version, id: next.moveId })) {
    dispatch({ type: "sent" });
    $("#move-note").textContent = "";
    renderHand(st());
    const b = index !== undefined ? $$("#hand button")[index] : null;
    if (b) b.focus();
  }
}
bindHand(playCard);

/** Ask for a hint (a table whose creator allows them, on your turn with a choice). */
function askHint() {
  const s = st();
  if (!s.view || !connected() || s.hint.asked === s.version) return;
  dispatch({ type: "hintAsked" });
  $("#move-note").textContent = t("Working out each card's chance…");
  sendMessage({ type: "hint", version: s.version });
  renderHint(st());
}

/** The server's hint: each legal card's chance to win, shown on the cards while the table
 * is still at the version it was valued for. @param {any} msg */
function onHint(msg) {
  if (msg.version !== st().version) return; // the table moved on meanwhile
  const s = dispatch({ type: "hint", version: msg.version, options: msg.options });
  /** @type {{move: string, win: number} | null} */
  const best = s.hint.options.reduce((/** @type {{move: string, win: number} | null} */ a, b) => (!a || b.win > a.win ? b : a), null);
  // TRANSLATORS: {win} is a percentage ("41 %")
  $("#move-note").textContent = best ? t("Best chance: {card}, {win} to win", { card: cardWord(s, best.move), win: percent(best.win) }) : "";
  renderHand(s);
}

// ---------------------------------------------------------------- waiting room and rematch

/** @param {Event} e */
async function onWaitJoin(e) {
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

async function onStart() {
  showError("");
  try {
    const { tableId, creds } = st(); // the start button is shown only with a seat
    await api.startTable(/** @type {string} */ (tableId), /** @type {Creds} */ (creds).token);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
  }
}

/** The rematch table `id` offered at the game's end: a button to join it. @param {string} id */
function onRematchOffered(id) {
  const button = h("button", {
    type: "button", id: "rematch-link", class: "primary", text: t("Join the rematch"),
    onclick: async () => {
      showError("");
      try {
        let creds = loadCreds(id);
        const mine = st().creds;
        if (!creds && mine) {
          const joined = await api.joinTable(id, /** @type {string} */ (mine.name));
          creds = { seat: joined.seat, token: joined.token, name: mine.name };
          saveCreds(id, creds);
        }
        let url = null;
        try {
          const info = await api.tableInfo(id);
          url = info.url;
          if (creds && info.code) saveCreds(info.code, creds);
        } catch (_e) { /* go by id */ }
        goToTable(url, id);
      } catch (err) {
        showError(/** @type {Error} */ (err).message);
      }
    },
  });
  $("#summary-actions").append(button);
}

async function onRematch() {
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
async function openTable(x) {
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

// ---------------------------------------------------------------- keys

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = /** @type {HTMLElement | null} */ (e.target);
  const tag = (target && target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  if ($("#help").open) return;
  const s = st();
  if (e.key === "Escape" && !$("#summary").hidden && s.summaryFor !== "game") {
    hideSummary();
    e.preventDefault();
    return;
  }
  if (e.key === "?") {
    openHelp();
    e.preventDefault();
    return;
  }
  if (s.page === "replay") {
    replay.onKey(e);
    return;
  }
  if (s.page !== "table" || !s.view) return;
  if (/^[1-9]$/.test(e.key)) {
    const b = $$("#hand button.card")[Number(e.key) - 1];
    if (b) {
      b.focus();
      playCard(b.dataset.card, Number(e.key) - 1);
      e.preventDefault();
    }
  } else if ((e.key === "h" || e.key === "H") && !$("#hint-button").hidden) {
    askHint();
    e.preventDefault();
  } else if (e.key === "d" || e.key === "D") {
    playCard("draw");
    e.preventDefault();
  } else if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && target && target.closest && target.closest("#hand")) {
    const cards = $$("#hand button");
    const i = cards.indexOf(target);
    const rtl = document.documentElement.dir === "rtl";
    const step = (e.key === "ArrowRight") !== rtl ? 1 : -1;
    const next = cards[(i + step + cards.length) % cards.length];
    if (next) next.focus();
    e.preventDefault();
  }
}

// ---------------------------------------------------------------- help

/** The rules help for the preset and options in play (or chosen in the lobby), worded
 * by the server (GET /api/presets/{P}?options=...). */
async function openHelp() {
  const s = st();
  const [chosen, options] = s.view ? [s.view.rules, s.view.options || {}]
    : s.page === "lobby" ? [$("#create-rules").value, collectOptions($("#create-options"), $("#create-rules").value)] : s.helpRules;
  const preset = chosen || defaultPreset();
  /** @type {string[]} */
  let lines;
  try {
    lines = (await api.presetWords(preset, options)).help;
  } catch (_e) {
    const known = presetWords(preset); // the catalog's copy: the preset's default options
    lines = known ? known.help : [];
  }
  const [title, ...rest] = lines;
  fill($("#help-text"), h("p", {}, h("strong", { text: title || "" })), rest.map((l) => h("p", { text: l })));
  if (!$("#help").open) $("#help").showModal();
}

// ---------------------------------------------------------------- replay

const replay = new ReplayViewer({
  onClose: () => {
    if (st().view) drawTable();
    else setPage("lobby");
  },
  show: () => setPage("replay"),
  error: showError,
});

async function openReplayOfTable() {
  showError("");
  try {
    const record = await api.getRecord(/** @type {string} */ (st().tableId));
    await replay.open(record);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
  }
}

/** @param {File} file */
async function openReplayFile(file) {
  showError("");
  try {
    // a byte order mark (a file saved by Notepad) is not part of the record
    const text = (await file.text()).replace(/^\uFEFF/, "");
    let record;
    try {
      record = api.parseJSON(text); // every digit of the seed kept
    } catch (_e) {
      // not JSON to the browser: the text goes as it is, and the server says what is
      // wrong with it in the page's language (as `ono99 replay` says it), never the
      // browser's own English
      record = text;
    }
    await replay.open(record);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
  }
}

// ---------------------------------------------------------------- start

function buildLanguagePicker() {
  const sel = $("#lang-select");
  fill(sel, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, text: name })));
  sel.value = currentLanguage();
  sel.addEventListener("change", () => setLanguage(sel.value));
}

function retranslate() {
  $("#lang-select").value = currentLanguage();
  sendMessage({ type: "hello", lang: currentLanguage() });
  if (st().page === "lobby") buildLobby();
  if (st().page === "waiting") drawWaiting();
  if (st().view) {
    drawTable();
    renderLastEvent(st());
    if (!$("#summary").hidden && st().summaryFor === "game") showSummary("game", []);
  }
  if (st().page === "replay") replay.relang().catch((/** @type {Error} */ err) => showError(err.message));
}

async function main() {
  api.setLanguageSource(currentLanguage);
  buildLanguagePicker();
  setUpSpeech(() => { const v = st().view; return v ? v.total : 0; });
  onLanguageChange(retranslate);
  await setLanguage(initialLanguage());
  $("#create-form").addEventListener("submit", onCreate);
  $("#join-form").addEventListener("submit", (/** @type {Event} */ e) => onJoin(e, false));
  $("#watch-button").addEventListener("click", () => onJoin(null, true));
  $("#record-file").addEventListener("change", (/** @type {Event} */ e) => {
    const files = /** @type {HTMLInputElement} */ (e.target).files;
    if (files && files[0]) openReplayFile(files[0]);
  });
  $("#wait-join").addEventListener("submit", onWaitJoin);
  $("#start-button").addEventListener("click", onStart);
  $("#copy-link").addEventListener("click", async () => {
    const input = $("#wait-link");
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (_e) {
      input.select();
      document.execCommand && document.execCommand("copy");
    }
    $("#copy-link").textContent = t("Copied");
    setTimeout(() => ($("#copy-link").textContent = t("Copy link")), 2000);
  });
  $("#draw-button").addEventListener("click", () => playCard("draw"));
  $("#help-button").addEventListener("click", openHelp);
  $("#hint-button").addEventListener("click", askHint);
  const soundBox = $("#sounds-on");
  soundBox.checked = soundsOn();
  soundBox.addEventListener("change", () => { setSoundsOn(soundBox.checked); if (soundBox.checked) sound("play"); });
  $("#summary-close").addEventListener("click", () => {
    hideSummary();
    const first = $("#hand button.ok") || $("#hand button");
    if (first) first.focus();
  });
  $("#replay-button").addEventListener("click", openReplayOfTable);
  $("#rematch-button").addEventListener("click", onRematch);
  document.addEventListener("keydown", onKey);
  // a click outside the round summary puts it away (and does what it clicked)
  document.addEventListener("click", (e) => {
    const box = $("#summary");
    if (!box.hidden && st().summaryFor !== "game" && !box.contains(e.target)) hideSummary();
  }, true);
  const x = tableFromLocation();
  if (x) await openTable(x);
  else {
    setPage("lobby");
    buildLobby();
    show($("#conn"), false);
  }
}

main();
