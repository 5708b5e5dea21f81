// @ts-check
// The web table drawn from its state (table-state.js): the waiting room, the table (total,
// direction, pile, turn line, the seats around it, this seat's hand with each card's reason
// and hint chance, the draw button), the turn timer, the log and the live region, the round
// and game summaries, the effects of a change on the seats. It reads the state it is given
// and changes nothing else: what a card does is the handler's (bindHand), given by app.js.
import * as api from "./api.js";
import { cardFace, motionAllowed, renderPile } from "./cards.js";
import { $, $$, fill, h, show } from "./dom.js";
import { t, tn } from "./i18n.js";
import { percent } from "./review.js";
import { savedName } from "./seats.js";
import { tableLink } from "./table-address.js";
import { seatFlags, seated } from "./table-state.js";
import { directionText, isOut, presetTitle, scoreText, statusText, winnerText } from "./words.js";

/** @typedef {import("./table-state.js").TableState} TableState */
/** @typedef {import("./table-state.js").TableView} TableView */

const LOG_MAX = 150;

/** What a card of the hand does when chosen (app.js). @type {(code: string, index?: number) => void} */
let play = () => {};

/** @param {(code: string, index?: number) => void} fn */
export function bindHand(fn) {
  play = fn;
}

/** Show one part of the page: lobby, waiting, table or replay (loading: none).
 * @param {string} name */
export function drawPage(name) {
  $("#main").dataset.view = name;
  for (const id of ["lobby", "waiting", "table", "replay"]) show($(`#${id}`), id === name);
}

/** The error line (empty: hidden). @param {string} text */
export function showError(text) {
  const el = $("#error");
  el.textContent = text || "";
  show(el, Boolean(text));
}

/** Say `text` in the live region (screen readers read out what is added to it). Each
 * line stays a few seconds, so one said right after it ("Your turn") does not cut it off.
 * @param {string} text */
export function announce(text) {
  if (!text) return;
  const line = h("span", { text: `${text} ` });
  $("#live").append(line);
  setTimeout(() => line.remove(), 6000);
}

// ---------------------------------------------------------------- waiting room

/** The waiting room: the code and link, the seats taken, joining and starting.
 * @param {TableState} st */
export function renderWaiting(st) {
  const info = st.info || {};
  $("#wait-code").textContent = st.code || st.tableId;
  $("#wait-link").value = tableLink(/** @type {string} */ (st.tableId), st);
  const rules = info.rules || (st.view && st.view.rules);
  $("#wait-rules").textContent = rules ? presetTitle(rules) : "";
  const seats = info.seats || [];
  const n = Number(info.players) || seats.length;
  const items = [];
  for (let s = 0; s < n; s++) {
    const seat = seats[s] || {};
    const who = seat.name ? seat.name : t("empty seat");
    const bits = [h("span", { class: "name", text: who })];
    // TRANSLATORS: a tag after the reader's own name in the list of players
    if (st.creds && st.creds.seat === s) bits.push(h("span", { class: "tag", text: t("you") }));
    // TRANSLATORS: a tag after the name of a seat a bot plays
    if (seat.bot || seat.kind === "bot") bits.push(h("span", { class: "tag", text: t("bot") }));
    if (seat.kind === "human" && seat.connected === false) bits.push(h("span", { class: "tag", text: t("disconnected") }));
    items.push(h("li", {}, bits));
  }
  fill($("#wait-seats"), items);
  const open = seats.some((/** @type {any} */ x) => x && x.kind === "open");
  show($("#wait-join"), !st.creds && (open || !seats.length));
  show($("#start-button"), Boolean(st.creds));
  if (!$("#wait-name").value) $("#wait-name").value = savedName();
}

// ---------------------------------------------------------------- the table

/** Add `lines` to the announcements; `replace`: they are the whole log (a catch-up).
 * A catch-up goes into a new list that takes the old one's place: the log is a live
 * region, and lines put into the one in the page would be read out again (after a
 * reconnect, every line already heard); a screen reader reads nothing of a live region
 * that comes into the page with its lines.
 * @param {string[]} lines @param {boolean} [replace] */
export function log(lines, replace = false) {
  const shown = $("#log");
  // the live region holds a list (an <ol role="log"> would be a list no more, its items
  // outside any list for assistive technology)
  const box = replace ? shown.cloneNode(false) : shown;
  const ol = box.querySelector("ol") || box.appendChild(h("ol"));
  for (const line of lines) {
    if (!line) continue;
    ol.append(h("li", { text: line }));
  }
  if (replace) shown.replaceWith(box);
  while (ol.children.length > LOG_MAX) ol.firstElementChild.remove();
  box.scrollTop = box.scrollHeight;
}

/** The table as the last state has it (the pile's card comes from `st.playedBy`'s seat).
 * @param {TableState} st */
export function renderTable(st) {
  const v = /** @type {TableView} */ (st.view);
  const mine = seated(v);
  show($("#watching"), !mine);
  $("#main").dataset.state = JSON.stringify({
    version: st.version, seat: v.seat, total: v.total, direction: v.direction, to_move: v.to_move,
    owes_two: v.owes_two, out: v.out, tokens: v.tokens, scores: v.scores, round: v.round,
    winner: v.winner, legal: v.legal, hand: v.hand, pending_draw: v.pending_draw,
  });
  $("#total").textContent = String(v.total);
  $("#direction").textContent = `${v.direction === 1 ? "↻" : "↺"} ${directionText(v.direction)}`;
  $("#round-info").textContent = [
    t("Round {round}", { round: v.round }),
    // TRANSLATORS: how many cards are left in the draw pile
    t("draw pile {count}", { count: v.draw_pile }),
  ].join(" · ");
  const from = st.playedBy === null ? null : $(`#players li[data-seat="${st.playedBy}"]`);
  renderPile($("#pile"), v.discard || [], v.draw_pile, from);
  $("#turn").textContent = st.texts.turn;
  $("#turn").classList.toggle("mine", mine && (v.legal || []).length > 0);
  const owes = $("#owes");
  owes.textContent = st.texts.owes || "";
  show(owes, Boolean(st.texts.owes));

  // players
  const items = v.names.map((name, s) => {
    const flags = seatFlags(st, s);
    const bits = [h("span", { class: "name", text: name })];
    if (s === v.seat) bits.push(h("span", { class: "tag you", text: t("you") }));
    if (flags.away) bits.push(h("span", { class: "tag", text: t("away: a bot plays for now") }));
    else if (flags.bot) bits.push(h("span", { class: "tag", text: t("bot") }));
    const facts = [tn("{count} card", "{count} cards", v.hand_sizes[s])];
    const score = scoreText(v, s);
    if (score) facts.push(score);
    const status = statusText(v, s);
    if (status) facts.push(status);
    if (flags.connected === false && !flags.bot && !flags.away) facts.push(t("disconnected"));
    if (v.owes_two === s && v.to_move !== null) facts.push(t("owes two cards"));
    if (v.pending_draw === s) facts.push(t("has a card to draw"));
    const turn = v.to_move === s;
    const li = h("li", {
      class: ["player", turn ? "turn" : "", isOut(v, s) ? "out" : "", s === v.seat ? "me" : ""].join(" ").trim(),
      "aria-current": turn ? "true" : null,
      dataset: { seat: String(s) },
    },
    h("span", { class: "marker", "aria-hidden": "true", text: turn ? "▶" : "" }),
    h("span", { class: "who" }, bits),
    h("span", { class: "facts", text: facts.join(" · ") }),
    seatBrief(v, s));
    li.title = facts.join(" · ");
    if (turn) li.append(h("span", { class: "sr-only", text: ` — ${t("plays now")}` }));
    if ((v.laid_down || [])[s] && v.laid_down[s].length) {
      li.append(h("span", { class: "laid small", text: v.laid_down[s].map((c) => cardWord(st, c)).join(" ") }));
    }
    return li;
  });
  fill($("#players"), items);
  placeSeats($("#players"), v);

  renderHand(st);
}

/** A seat's facts in figures (cards, tokens or points, out), for a phone with many seats:
 * drawn, not read (the words stay in `.facts` for screen readers and as the title).
 * @param {TableView} v @param {number} s */
function seatBrief(v, s) {
  const figures = [h("span", { class: "n-cards", text: String(v.hand_sizes[s]) })];
  if (v.tokens) figures.push(h("span", { class: "n-tokens", text: String(v.tokens[s]) }));
  if (v.scores) figures.push(h("span", { class: "n-points", text: String(v.scores[s]) }));
  if (isOut(v, s)) figures.push(h("span", { class: "n-out", text: "✕" }));
  return h("span", { class: "brief", "aria-hidden": "true" }, figures);
}

/** Where each seat sits around the table (a wide screen draws the seats on an oval, this
 * page's seat at the bottom and the others clockwise from it, in the order of play).
 * @param {HTMLElement} ol @param {TableView} v */
function placeSeats(ol, v) {
  const n = v.names.length;
  const me = v.seat === null || v.seat === undefined ? 0 : v.seat;
  ol.classList.toggle("many", n > 4);
  for (const child of ol.children) {
    const li = /** @type {HTMLElement} */ (child);
    const k = (Number(li.dataset.seat) - me + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    li.style.setProperty("--sx", `${(50 + 42 * Math.cos(angle)).toFixed(2)}%`);
    li.style.setProperty("--sy", `${(50 + 40 * Math.sin(angle)).toFixed(2)}%`);
  }
}

/** This seat's hand: each card playable or with its reason, the hint's chances, the
 * draw button and its alert, the hint button. @param {TableState} st */
export function renderHand(st) {
  const v = /** @type {TableView} */ (st.view);
  const mine = seated(v);
  show($("#hand-area"), mine);
  if (!mine) return;
  const legal = new Set(v.legal || []);
  const myTurn = v.to_move === v.seat;
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focused = active && active.closest && active.closest("#hand") ? Number(active.dataset.index) : null;
  const buttons = (v.hand || []).map((code, i) => {
    const ok = legal.has(code) && !st.sent;
    // on your turn each card says why it cannot be played; otherwise the turn line says it
    const reason = legal.has(code) || !myTurn ? null : whyNot(st, code);
    const rid = `card-why-${i}`;
    return h("button", {
      type: "button",
      class: `card c-${cardClass(code)}${ok ? " ok" : ""}`,
      "aria-disabled": ok ? "false" : "true",
      "aria-describedby": reason ? rid : myTurn ? null : "turn",
      "aria-keyshortcuts": i < 9 ? String(i + 1) : null,
      dataset: { card: code, index: String(i) },
      onclick: () => play(code, i),
    },
    h("span", { class: "key", "aria-hidden": "true", text: i < 9 ? String(i + 1) : "" }),
    cardFace(code),
    h("span", { class: "face", text: cardWord(st, code) }),
    hintFor(st, code),
    reason ? h("span", { class: "why", id: rid, text: reason }) : null);
  });
  if (legal.has("99x4")) {
    buttons.push(h("button", {
      type: "button", class: "card c-x4 ok", "aria-disabled": st.sent ? "true" : "false",
      dataset: { card: "99x4", index: String(buttons.length) }, onclick: () => play("99x4"),
    }, cardFace("99x4"), h("span", { class: "face", text: t("Discard four {card} cards", { card: cardWord(st, "99") }) })));
  }
  fill($("#hand"), buttons);
  if (focused !== null && !Number.isNaN(focused)) {
    const b = $$("#hand button")[Math.min(focused, buttons.length - 1)];
    if (b) b.focus();
  }
  const drawLegal = legal.has("draw");
  const drawBtn = $("#draw-button");
  // with the draw penalty (R-DRAW-1) the button stays in view, lit when a draw is due
  show(drawBtn, drawLegal || (v.options || {}).draw_penalty === true);
  drawBtn.setAttribute("aria-disabled", drawLegal && !st.sent ? "false" : "true");
  drawBtn.classList.toggle("ok", drawLegal);
  const alert = $("#draw-alert");
  const wasShown = !alert.hidden;
  if (drawLegal && v.to_move !== v.seat) {
    if (!wasShown) alert.textContent = t("Press D now to draw your card!");
    show(alert, true);
  } else show(alert, false);
  renderHint(st);
}

/** A card code's name, as this state's `texts` gives it. @param {TableState} st @param {string} code */
export function cardWord(st, code) {
  const name = st.texts.cards[code];
  return name === undefined ? String(code) : name;
}

/** Why this seat cannot make `code` now (the server's reason, from its own view), or "".
 * @param {TableState} st @param {string} code */
export function whyNot(st, code) {
  return st.texts.why_not[code] || "";
}

/** @param {string} code */
function cardClass(code) {
  if (code !== "99" && /^\d+$/.test(code)) return "num";
  /** @type {Record<string, string>} */
  const kinds = { "-10": "minus", R: "rev", P2: "p2", H: "hold", "99": "n99" };
  return kinds[code] || "other";
}

/** A card's chance to win from the hint for this version of the table, or null.
 * @param {TableState} st @param {string} code */
function hintFor(st, code) {
  if (st.hint.version !== st.version) return null;
  const o = st.hint.options.find((x) => x.move === code);
  // TRANSLATORS: under a card of the hand: its chance to win the game, a
  // percentage ("41 %")
  return o ? h("span", { class: "chance", text: t("{win} to win", { win: percent(o.win) }) }) : null;
}

/** The hint button (only where the table allows hints) and the values on the cards.
 * @param {TableState} st */
export function renderHint(st) {
  const v = st.view;
  const allowed = Boolean(st.info && st.info.hints) && v && seated(v);
  const myTurn = allowed && v && v.to_move === v.seat && (v.legal || []).length > 1;
  const button = $("#hint-button");
  show(button, Boolean(myTurn));
  button.disabled = st.hint.asked === st.version;
}

/** The turn timer: the seconds left (hidden without a deadline or when the game is over);
 * `left` is null when none is shown. @param {TableState} st @returns {number | null} */
export function drawTimer(st) {
  const el = $("#timer");
  const v = st.view;
  if (st.deadline === null || !v || v.to_move === null) {
    show(el, false);
    return null;
  }
  const left = Math.max(0, Math.round(st.deadline - Date.now() / 1000));
  el.textContent = tn("{count} second left", "{count} seconds left", left);
  show(el, true);
  return left;
}

/** The last event beside the total: a card played, a bust, a round's end.
 * @param {TableState} st */
export function renderLastEvent(st) {
  const el = $("#last-event");
  const last = st.lastEvent;
  el.textContent = last ? last.text : "";
  el.dataset.kind = last ? last.kind : "";
  el.classList.toggle("bad", last !== null && last.kind !== "play" && last.kind !== "four99");
}

/** What just happened, shown where it happened: the total changes visibly, a bust or a lost
 * token shakes the seat's place, a Reverse turns the direction and marks its seat, a Play 2
 * marks the seat that owes two. Motion only where the user allows it (CSS keeps a still
 * highlight under prefers-reduced-motion).
 * @param {TableState} st @param {TableView | null} prev */
export function showEffects(st, prev) {
  const v = /** @type {TableView} */ (st.view);
  /** @param {Element | null} el @param {string} cls */
  const mark = (el, cls) => {
    if (!el) return;
    el.classList.remove(cls);
    void (/** @type {HTMLElement} */ (el)).offsetWidth; // restart the animation
    el.classList.add(cls);
    el.addEventListener("animationend", () => el.classList.remove(cls), { once: true });
    if (!motionAllowed()) setTimeout(() => el.classList.remove(cls), 1200);
  };
  if (prev && prev.total !== v.total) mark($("#total"), "fx-total");
  for (const e of st.effects) {
    const seat = $(`#players li[data-seat="${e.seat}"]`);
    if (e.kind === "reverse") {
      mark(seat, "fx-reverse");
      mark($("#direction"), "fx-turn");
    } else if (e.kind === "owes_two") {
      mark(seat, "fx-play2");
    } else {
      mark(seat, "fx-bust");
    }
  }
}

// ---------------------------------------------------------------- summaries

/** The round's or the game's summary: its lines (the winner first at the game's end, where
 * the events did not say it), the standings, and at the end the record, replay and rematch.
 * @param {TableState} st @param {"game" | "round"} kind @param {string[]} lines @param {boolean} [toldWinner] */
export function drawSummary(st, kind, lines, toldWinner = false) {
  const v = /** @type {TableView} */ (st.view);
  const box = $("#summary");
  const over = kind === "game";
  $("#summary-title").textContent = over ? t("Game over") : t("Round {round} is over", { round: v.round - 1 });
  const shown = over && !toldWinner ? [winnerText(v.winner, v.names, v.seat), ...lines] : lines;
  fill($("#summary-lines"), shown.filter(Boolean).map((l) => h("li", { text: l })));
  // at the game's end the server's places (R-END-3: players put out at the same round's
  // end by their points, never by seat), first place first; during the game seat order
  const places = over ? st.texts.places || [] : [];
  const order = places.length ? places : v.names.map((_n, s) => ({ seat: s, place: null }));
  const head = h("tr", {});
  // TRANSLATORS: the column of the final standings that holds each player's
  // place
  if (places.length) head.append(h("th", { scope: "col", text: t("Place") }));
  head.append(h("th", { scope: "col", text: t("Player") }));
  if (v.tokens) head.append(h("th", { scope: "col", text: t("Tokens") }));
  if (v.scores) head.append(h("th", { scope: "col", text: t("Points") }));
  head.append(h("th", { scope: "col", text: t("Status") }));
  const rows = order.map(({ seat: s, place }) => {
    const tr = h("tr", { "data-seat": String(s) });
    if (places.length) tr.append(h("td", { text: t("{place}.", { place: /** @type {number} */ (place) }) }));
    tr.append(h("th", { scope: "row", text: v.names[s] }));
    if (v.tokens) tr.append(h("td", { text: String(v.tokens[s]) }));
    if (v.scores) tr.append(h("td", { text: String(v.scores[s]) }));
    tr.append(h("td", { text: statusText(v, s) }));
    return tr;
  });
  fill($("#standings"), h("thead", {}, head), h("tbody", {}, rows));
  const link = $("#record-link");
  const id = /** @type {string} */ (st.tableId);
  link.href = api.recordUrl(id);
  link.setAttribute("download", `ono99-${st.code || id}.json`);
  show(link, over);
  show($("#replay-button"), over);
  show($("#rematch-button"), over && Boolean(st.creds));
  show($("#summary-close"), !over);
  box.classList.toggle("overlay", !over);
  show(box, true);
  box.focus({ preventScroll: true });
}

/** The summary put away. */
export function hideSummaryBox() {
  show($("#summary"), false);
}
