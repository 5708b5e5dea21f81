// @ts-check
// The game at the web table: the server's messages taken in (a `state` into the store,
// then logged, said, heard and drawn; a hint; a refusal), this seat's moves and hints sent,
// the rematch offered at the game's end.
import * as api from "./api.js";
import { $, $$, h, show } from "./dom.js";
import { t } from "./i18n.js";
import { percent } from "./review.js";
import { loadCreds, saveCreds } from "./seats.js";
import { eventSound, sound } from "./sounds.js";
import { connected, openSocket, pollWaiting, refreshInfo, sendMessage } from "./table-connection.js";
import { goToTable } from "./table-lobby.js";
import { drawTable, drawWaiting, hideSummary, showSummary } from "./table-page.js";
import {
  announce, bindHand, cardWord, log, renderHand, renderHint, renderLastEvent, showEffects, showError, whyNot,
} from "./table-render.js";
import { say } from "./table-speech.js";
import { store } from "./table-state.js";

/** @typedef {import("./table-state.js").TableEvent} TableEvent */

const ROUND_LINES = ["bust", "token_lost", "eliminated", "out_of_round", "round_end"];

const st = store.get;
const dispatch = store.dispatch;


/** An event's words: the server's narration (`text`). A card a bot played for this seat
 * while its player was away or out of time comes worded as the bot's ("A bot plays 10 for
 * you"), live and in a catch-up (`info.by_bot`). @param {TableEvent} e */
function eventText(e) {
  return e.text || null;
}


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
export function onMessage(msg) {
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

export function connect() {
  openSocket({ onMessage, onStatus, onMissing: () => showError(t("There is no such table.")) });
}

// ---------------------------------------------------------------- moves and hints

/** Play `code` (a card of the hand, 99x4, draw): sent when legal, else its reason said.
 * @param {string} code @param {number} [index] */
export function playCard(code, index) {
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

/** Ask for a hint (a table whose creator allows them, on your turn with a choice). */
export function askHint() {
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

bindHand(playCard);

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
