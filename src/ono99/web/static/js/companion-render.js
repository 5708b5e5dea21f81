// @ts-check
// The companion's game drawn from its state (companion-state.js): the total and the turn,
// the seats, the card pad and what a tap on it means now, the round's hands (R-END-3), a
// hand laid face up (R-END-1), the quick fix, the table view, the busy and waiting marks.
// It reads the state it is given and changes nothing else: what a tap does is the
// handlers' (bindPad), given by companion.js.
// Hooks (CONTRACTS.md "Companion"): [data-card], <main data-state>.
import { cardFace, cardSpec } from "./cards.js";
import { keepTableView, tableViewOn } from "./companion-store.js";
import { $, fill, h, show } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { formatNumber, speechEnabled } from "./speech.js";
import { isBusy, padMode, publicState, unsent, waiting } from "./companion-state.js";
import { cardName, directionText, isOut, statusText, winnerText } from "./words.js";

/** @typedef {import("./companion-state.js").CompanionState} CompanionState */
/** @typedef {import("./companion-state.js").GameState} GameState */

/** What the drawn controls do (companion.js).
 * @typedef {{pad: (code: string) => void, draw: () => void, handSeat: (seat: number) => void,
 *   points: (seat: number, value: string) => void, fixAt: (at: number) => void}} PadHandlers */

/** @type {PadHandlers} */
let on = { pad: () => {}, draw: () => {}, handSeat: () => {}, points: () => {}, fixAt: () => {} };

/** What the pad's buttons, the hands' rows and the fix's gaps do. @param {PadHandlers} handlers */
export function bindPad(handlers) {
  on = handlers;
}

/** @returns {HTMLElement} */
export const main = () => $("#main");

/** The error line over the top part (empty: hidden). @param {string} text */
export function drawError(text) {
  const el = $("#error");
  el.textContent = text || "";
  show(el, Boolean(text));
}

/** data-busy: a request is in flight or taps wait to be sent. The pad stays live: a tap
 * made meanwhile joins the queue, it is never lost. @param {CompanionState} st */
export function markBusy(st) {
  const busy = isBusy(st);
  main().dataset.busy = busy ? "1" : "0";
  main().setAttribute("aria-busy", busy ? "true" : "false");
  main().dataset.engine = st.local ? "local" : "server";
  // a game followed here: its changes the server has not stored yet (none without a server)
  main().dataset.sync = unsent(st) || st.syncing ? "1" : "0";
  // every change not yet counted by the server: queued here, or made on the game
  // followed here; said while the server is away (or the queue is not empty)
  const away = st.away || navigator.onLine === false;
  const count = waiting(st);
  const note = $("#queue-note");
  // TRANSLATORS: taps made while the server was away, still to be sent
  note.textContent = count && (away || st.queue.length) ? t("Waiting to send: {count}", { count: formatNumber(count, currentLanguage()) }) : "";
  note.classList.toggle("away", away && count > 0);
  updateButtons(st);
}

/** Show announcement lines (not spoken). @param {string[]} lines */
export function drawAnnounce(lines) {
  $("#announce").textContent = lines.join(" · ");
  if (tableViewOn()) $("#tv-announce").textContent = lines.join(" · ");
}

/** The speech switch and the mute button as speech now is. */
export function updateMute() {
  const speaking = speechEnabled();
  const b = $("#mute");
  b.textContent = speaking ? "🔊" : "🔇";
  b.setAttribute("aria-pressed", speaking ? "true" : "false");
  $("#speech-on").checked = speaking;
}

/** @param {GameState} s @param {number | null | undefined} seat */
function seatName(s, seat) {
  return seat === null || seat === undefined ? "" : s.names[seat];
}

/** The game as it stands (nothing before a game is open). @param {CompanionState} st */
export function render(st) {
  const s = st.state;
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
  /** @type {Standing} what words.js reads of the state (its scores may wait for hands) */
  const standing = { out: s.out, round_out: s.round_out, winner: s.winner };
  fill($("#seats"), s.names.map((name, seat) => {
    const meta = [];
    if (s.tokens) meta.push(`● ${formatNumber(s.tokens[seat], lang)}`);
    if (s.scores) {
      // R-END-3: a score waiting for the round's hands is not known: shown as "known + ?"
      const score = s.scores[seat];
      meta.push(score === null ? `${formatNumber(s.scores_known[seat], lang)} + ?` : formatNumber(score, lang));
    }
    const out = isOut(standing, seat);
    const cls = [seat === s.to_move ? "now" : "", out && (s.out || []).includes(seat) ? "out" : "",
      out && (s.round_out || []).includes(seat) ? "round-out" : ""].join(" ").trim();
    const title = statusText(standing, seat);
    return h("li", { class: cls || null, title: title || null, dataset: { seat: String(seat) } },
      h("span", { class: "name", text: name }),
      meta.length ? h("span", { class: "meta", text: meta.join(" ") }) : null);
  }));
  renderPad(s);
  renderHands(st, s);
  renderLaid(st, s);
  renderMode(st, s);
  renderFix(st, s);
  renderTableView(st);
  $("#record-link").href = st.local && st.kept ? recordUrl(st.kept.record) : `/api/companion/${st.id}/record`;
  updateButtons(st);
  fitLabels();
}

/** The record of a game followed here, to download (its redo list is not part of it).
 * @param {unknown} record */
function recordUrl(record) {
  const { redo: _redo, ...rec } = /** @type {Record<string, unknown>} */ (record);
  return `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(rec))}`;
}

/** The pad's cards (drawn again only when the preset or the language changes) and the
 * draw button of the draw penalty. @param {GameState} s */
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
        dataset: { card: code }, "aria-label": cardName(code, s.rules), onclick: () => on.pad(code),
      }, code === "99x4" ? cardFace(code) : null, h("span", { class: "label", text: label }));
    }));
  }
  // R-DRAW-1: the draw button has its place for the whole game (off while no draw is due)
  let draw = $("#draw-button");
  if (s.options && s.options.draw_penalty === true) {
    if (!draw) {
      draw = h("button", { type: "button", id: "draw-button", class: "special wide", dataset: { card: "draw" },
        onclick: () => on.draw() });
      pad.append(draw);
    }
    // TRANSLATORS: button of the draw penalty option: the player drew their card
    draw.textContent = s.pending_draw === null ? t("Draw") : t("{name} drew their card", { name: seatName(s, s.pending_draw) });
  } else if (draw) {
    draw.remove();
  }
}

/** Which controls can be used now. @param {CompanionState} st */
export function updateButtons(st) {
  const s = st.state;
  const busy = st.busy > 0; // only creating a game; taps meanwhile are queued
  const over = !s || s.to_move === null;
  const mode = padMode(st);
  const giveUp = new Set((s && s.give_up) || []);
  const queued = st.queue.length > 0;
  for (const b of document.querySelectorAll("#pad [data-card]")) {
    const button = /** @type {HTMLButtonElement} */ (b);
    const code = button.dataset.card || "";
    if (mode === "hands" || mode === "laid") button.disabled = busy || code === "draw" || code === "99x4";
    else if (mode === "fix") button.disabled = busy || code === "draw";
    else if (mode === "giveup") button.disabled = busy || !giveUp.has(code);
    else if (code === "draw") button.disabled = busy || !s || (s.pending_draw === null && !queued);
    else button.disabled = busy || (over && !queued);
  }
  const bust = $("#bust");
  if (bust) bust.disabled = busy || (over && !queued);
  const undo = $("#undo");
  if (undo) undo.disabled = busy || !s || (!s.can_undo && !st.mode && !queued);
  const redo = $("#redo");
  if (redo) redo.disabled = busy || !s || !s.can_redo;
}

// ------------------------------------------------------------------ hands (R-END-3)

/** A hand as typed so far, with a box for each card still to come.
 * @param {string[]} cards @param {number} size @param {string} rules */
function handText(cards, size, rules) {
  return `${cards.map((c) => cardName(c, rules)).join(" ")} ${"▢ ".repeat(Math.max(0, size - cards.length))}`;
}

/** @param {CompanionState} st @param {GameState} s */
function renderHands(st, s) {
  const need = s.hands_needed;
  show($("#hands-entry"), Boolean(need));
  const draft = st.handsDraft;
  if (!need || !draft) return;
  $("#hands-title").textContent = t("Round {round} is over: enter the cards left in each hand for the scores", { round: formatNumber(need.round, currentLanguage()) });
  const rows = need.sizes.map((k, seat) => {
    if (k === null) return null;
    const cards = draft.hands[seat] || [];
    return h("li", { class: seat === st.handsSeat ? "current" : null },
      h("button", { type: "button", onclick: () => on.handSeat(seat) },
        `${s.names[seat]}: ${handText(cards, k, s.rules)}`),
      h("input", { type: "number", min: "0", inputmode: "numeric", value: draft.points[seat],
        // TRANSLATORS: {name}: a player; label of the box for the points of their
        // cards in hand
        dataset: { pointsSeat: String(seat) }, "aria-label": t("{name}: points of the cards in hand", { name: s.names[seat] }),
        oninput: (/** @type {Event} */ e) => on.points(seat, /** @type {HTMLInputElement} */ (e.target).value) }));
  });
  fill($("#hands-rows"), rows);
  updateHandsButtons(st);
}

/** The hands' and the points' save buttons: on once every hand or every seat's points are
 * typed. @param {CompanionState} st */
export function updateHandsButtons(st) {
  const need = st.state && st.state.hands_needed;
  const draft = st.handsDraft;
  if (!need || !draft) return;
  const full = need.sizes.every((k, seat) => k === null || (draft.hands[seat] || []).length === k);
  $("#hands-save").disabled = !full;
  const typed = need.sizes.every((k, seat) => k === null || /^\d+$/.test(String(draft.points[seat]).trim()));
  $("#points-save").disabled = !typed;
}

// ------------------------------------------------------------------ a hand laid face up (R-END-1)

/** @param {CompanionState} st @param {GameState} s */
function renderLaid(st, s) {
  const open = s.laid_open;
  show($("#laid-entry"), Boolean(open));
  if (!open || !st.laidDraft) return;
  const name = s.names[open.seat];
  $("#laid-title").textContent = t("{name} is out: the cards {name} laid face up", { name });
  const cards = st.laidDraft.cards;
  const typing = st.mode === "laid";
  $("#laid-row").textContent = handText(cards, open.size, s.rules);
  show($("#laid-row"), typing);
  show($("#laid-type"), !typing);
  show($("#laid-clear"), typing);
  show($("#laid-save"), typing);
  $("#laid-save").disabled = cards.length !== open.size;
}

/** What a tap on the pad means now, said over it. @param {CompanionState} st @param {GameState} s */
function renderMode(st, s) {
  const mode = padMode(st);
  let text = "";
  if (mode === "hands" && st.handsSeat !== null && st.handsSeat >= 0) {
    // TRANSLATORS: the card pad now types the cards left in {name}'s hand
    text = t("{name}: tap the cards left in hand", { name: s.names[st.handsSeat] });
  } else if (mode === "laid" && s.laid_open) {
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
export function fitLabels() {
  for (const el of document.querySelectorAll("#pad button, .actions button")) {
    const b = /** @type {HTMLElement} */ (el);
    b.style.fontSize = "";
    let size = Number.parseFloat(getComputedStyle(b).fontSize);
    while ((b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight) && size > 9) {
      size -= 1;
      b.style.fontSize = `${size}px`;
    }
  }
}

// ------------------------------------------------------------------ a quick fix

/** The last taps, each with who played it and the total after it; a gap before each
 * (and one for "now") is where a forgotten card goes in (the server re-tells the rest).
 * @param {CompanionState} st @param {GameState} s */
function renderFix(st, s) {
  const shown = st.mode === "fix";
  show($("#fix"), shown);
  if (!shown) return;
  const lang = currentLanguage();
  const gap = (/** @type {number} */ at) => h("button", { type: "button", class: "gap", dataset: { fixAt: String(at) },
    "aria-pressed": (st.fixAt === null ? s.steps : st.fixAt) === at ? "true" : "false",
    onclick: () => on.fixAt(at) }, "+");
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

/** @type {WakeLockSentinel | null} */
let wakeLock = null;

/** Wake Lock: the screen stays on while the table view is up (where the browser has it).
 * @param {boolean} keep */
export async function keepAwake(keep) {
  try {
    if (keep && !wakeLock && "wakeLock" in navigator && !document.hidden) {
      const lock = await navigator.wakeLock.request("screen");
      wakeLock = lock;
      lock.addEventListener("release", () => { wakeLock = null; });
    } else if (!keep && wakeLock) {
      await wakeLock.release();
      wakeLock = null;
    }
  } catch (_e) { wakeLock = null; /* refused (battery saver...): the view works all the same */ }
}

/** Turn the table view on or off (kept in the browser). @param {CompanionState} st @param {boolean} shown */
export function setTableView(st, shown) {
  keepTableView(shown);
  renderTableView(st);
}

/** The table view: the total in big figures, who plays next, the last card and what was
 * said. @param {CompanionState} st */
export function renderTableView(st) {
  const s = st.state;
  const shown = Boolean(s) && tableViewOn() && main().dataset.view === "play";
  show($("#tableview"), shown);
  main().dataset.tableview = shown ? "1" : "0";
  keepAwake(shown);
  if (!shown || !s) return;
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
  $("#tv-announce").textContent = st.lastAnnounce.join(" · ");
}
