// The web table: lobby, waiting room, the game, summaries and the replay viewer.
// The page draws only what the server sends (view, texts) and sends intents (moves); it
// never decides what is legal and holds no rule fact: the presets (player ranges,
// options, card names, rules help) come from GET /api/i18n/{lang} and /api/presets, and
// every `state` names the cards, says whose turn it is and why a card cannot be played.
import * as api from "./api.js";
import { cardFace, motionAllowed, renderPile } from "./cards.js";
import { percent } from "./review.js";
import { eventSound, setSoundsOn, sound, soundsOn } from "./sounds.js";
import { $, $$, fill, h, show } from "./dom.js";
import {
  LANGUAGES, currentLanguage, initialLanguage, onLanguageChange, presetList, presetWords, setLanguage, t, tn,
} from "./i18n.js";
import { collectOptions, fillOptions } from "./options.js";
import { ReplayViewer } from "./replay.js";
import { say, setUpSpeech } from "./table-speech.js";
import { forgetCreds, loadCreds, saveCreds, savedName } from "./seats.js";
import { codeFromInput, tableFromLocation, tableLink } from "./table-address.js";
import { directionText, isOut, presetTitle, scoreText, statusText, winnerText } from "./words.js";

const BOT_LEVELS = ["easy", "medium", "hard", "expert"];
const TIMERS = [0, 15, 30, 60, 120];
const LOG_MAX = 150;
const WARN_SECONDS = 5; // the turn timer's warning, in the live region
// events shown next to the total: the last card played, a bust, a round's end
// not game_over: the turn line says the winner then, and the same words twice one under
// the other ("You win the game!" as the last event and as the turn) were seen on phones
const HEADLINE = ["play", "four99", "bust", "out_of_round", "token_lost", "eliminated", "round_end"];
// events shown where they happen: on the seat's place at the table
const EFFECTS = ["bust", "token_lost", "eliminated", "out_of_round", "reverse", "owes_two"];
const ROUND_LINES = ["bust", "token_lost", "eliminated", "out_of_round", "round_end"];

const state = {
  page: "loading",
  tableId: null,
  code: null,
  url: null,
  info: null, // GET /api/tables/{ID}, when the server has it
  creds: null, // {seat, token, name}
  socket: null,
  msg: null, // the last state message
  view: null,
  texts: { cards: {}, turn: "", owes: null, why_not: {}, places: [] }, // the last state's `texts`
  version: null,
  sent: false, // a move is on its way
  hint: { asked: null, version: null, options: [] }, // the last hint asked and got (askHint)
  helpRules: [null, {}], // [preset, options] of the last table seen (null: the default)
  summaryFor: null,
  effects: [], // this change's events shown on the seats (showEffects)
  playedBy: null, // the seat whose card went on the pile with the last state (the pile's motion)
  summaryMoves: null, // view.moves when the round summary was shown: the next move hides it
  deadline: null,
  warned: null, // the deadline whose "seconds left" warning was said
  timedOut: null, // the deadline whose time-out was said
  myTurn: false,
  lastEvent: null, // {kind, text}: the last card played, a bust, a round's end
};

// ---------------------------------------------------------------- small things

function setPage(name) {
  state.page = name;
  $("#main").dataset.view = name;
  for (const id of ["lobby", "waiting", "table", "replay"]) show($(`#${id}`), id === name);
}

function showError(text) {
  const el = $("#error");
  el.textContent = text || "";
  show(el, Boolean(text));
}

async function resolveTable(x) {
  // an invitation code (GET /api/codes/{CODE}) or a table id (GET /api/tables/{ID})
  const lookups = /^[A-Za-z0-9]{4,8}$/.test(x) ? [api.resolveCode, api.tableInfo] : [api.tableInfo, api.resolveCode];
  let missing = null;
  for (const look of lookups) {
    try {
      const info = await look(x);
      return { id: info.table || info.id || x, info };
    } catch (e) {
      if (e.status === 404) missing = e;
      else if (e.status !== 405) throw e;
    }
  }
  // no table has that code or id: the server's own line ("no such table"), without
  // asking it a third time by joining
  if (missing) throw missing;
  return { id: x, info: null };
}

// ---------------------------------------------------------------- language picker

function buildLanguagePicker() {
  const sel = $("#lang-select");
  fill(sel, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, text: name })));
  sel.value = currentLanguage();
  sel.addEventListener("change", () => setLanguage(sel.value));
}

// ---------------------------------------------------------------- lobby

/** The engine's default preset: the first it lists. */
function defaultPreset() {
  const [first] = presetList();
  return first ? first.name : "";
}

function buildLobby() {
  const rulesSel = $("#create-rules");
  const keep = {
    rules: rulesSel.value || defaultPreset(),
    players: $("#create-players").value || "4",
    bots: $("#create-bots").value || "medium",
    timer: $("#create-timer").value || "0",
  };
  fill(rulesSel, presetList().map((p) => h("option", { value: p.name, text: p.title })));
  rulesSel.value = keep.rules;
  const players = () => {
    const p = presetWords(rulesSel.value);
    const [lo, hi] = p ? p.players : [Number(keep.players), Number(keep.players)];
    const sel = $("#create-players");
    const cur = Number(sel.value || keep.players);
    fill(sel, Array.from({ length: hi - lo + 1 }, (_, i) => h("option", { value: String(lo + i), text: String(lo + i) })));
    sel.value = String(Math.min(hi, Math.max(lo, cur)));
  };
  players();
  const levels = { easy: t("easy"), medium: t("medium"), hard: t("hard"), expert: t("expert") };
  fill($("#create-bots"), BOT_LEVELS.map((b) => h("option", { value: b, text: levels[b] })));
  $("#create-bots").value = keep.bots;
  fill($("#create-timer"), TIMERS.map((s) => h("option", {
    value: String(s), text: s ? tn("{count} second", "{count} seconds", s) : t("no timer"),
  })));
  $("#create-timer").value = keep.timer;
  rulesSel.onchange = () => {
    players();
    fillOptions($("#create-options"), rulesSel.value);
  };
  fillOptions($("#create-options"), rulesSel.value);
  if (!$("#create-name").value) $("#create-name").value = savedName();
  if (!$("#join-name").value) $("#join-name").value = savedName();
}

/** The name typed in `selector`, or "" after asking for one. */
function typedName(selector) {
  const name = $(selector).value.trim();
  if (!name) {
    showError(t("Please enter your name."));
    $(selector).focus();
  }
  return name;
}

async function onCreate(e) {
  e.preventDefault();
  showError("");
  const name = typedName("#create-name");
  if (!name) return;
  const body = {
    rules: $("#create-rules").value,
    options: collectOptions($("#create-options"), $("#create-rules").value),
    players: Number($("#create-players").value),
    bots: $("#create-bots").value,
  };
  const timer = Number($("#create-timer").value);
  if (timer > 0) body.turn_seconds = timer;
  if ($("#create-hints").checked) body.hints = true;
  body.name = name;
  const seed = $("#create-seed").value.trim();
  if (seed) {
    if (!/^\d{1,12}$/.test(seed)) {
      showError(t("The seed must be a whole number, or empty for a new random deal."));
      return;
    }
    body.seed = Number(seed);
  }
  try {
    const created = await api.createTable(body);
    const joined = created.token ? created : await api.joinTable(created.table, name);
    saveCreds(created.table, { seat: joined.seat, token: joined.token, name });
    if (created.code && created.code !== created.table) saveCreds(created.code, { seat: joined.seat, token: joined.token, name });
    try { sessionStorage.setItem(`ono99.url.${created.table}`, created.url || ""); } catch (_e) { /* ignore */ }
    goToTable(created.url, created.table);
  } catch (err) {
    showError(err.message);
  }
}

function goToTable(url, id) {
  let target = `/t/${encodeURIComponent(id)}`;
  if (url) {
    try {
      const u = new URL(url, location.href);
      target = u.pathname + u.search;
    } catch (_e) { /* keep the default */ }
  }
  location.assign(target);
}

async function onJoin(e, watch = false) {
  if (e) e.preventDefault();
  showError("");
  const code = codeFromInput($("#join-code").value);
  if (!code) {
    showError(t("Please enter a table code or link."));
    $("#join-code").focus();
    return;
  }
  try {
    const { id, info } = await resolveTable(code);
    if (!watch) {
      const name = typedName("#join-name");
      if (!name) return;
      const joined = await api.joinTable(id, name);
      saveCreds(id, { seat: joined.seat, token: joined.token, name });
      if (code !== id) saveCreds(code, { seat: joined.seat, token: joined.token, name });
    }
    goToTable(info && info.url, code);
  } catch (err) {
    showError(err.message);
  }
}

// ---------------------------------------------------------------- waiting room

function renderWaiting() {
  setPage("waiting");
  const info = state.info || {};
  $("#wait-code").textContent = state.code || state.tableId;
  $("#wait-link").value = tableLink(state.tableId, state);
  const rules = info.rules || (state.view && state.view.rules);
  $("#wait-rules").textContent = rules ? presetTitle(rules) : "";
  const seats = info.seats || [];
  const n = Number(info.players) || seats.length;
  const items = [];
  for (let s = 0; s < n; s++) {
    const seat = seats[s] || {};
    const who = seat.name ? seat.name : t("empty seat");
    const bits = [h("span", { class: "name", text: who })];
    // TRANSLATORS: a tag after the reader's own name in the list of players
    if (state.creds && state.creds.seat === s) bits.push(h("span", { class: "tag", text: t("you") }));
    // TRANSLATORS: a tag after the name of a seat a bot plays
    if (seat.bot || seat.kind === "bot") bits.push(h("span", { class: "tag", text: t("bot") }));
    if (seat.kind === "human" && seat.connected === false) bits.push(h("span", { class: "tag", text: t("disconnected") }));
    items.push(h("li", {}, bits));
  }
  fill($("#wait-seats"), items);
  const open = seats.some((x) => x && x.kind === "open");
  show($("#wait-join"), !state.creds && (open || !seats.length));
  show($("#start-button"), Boolean(state.creds));
  if (!$("#wait-name").value) $("#wait-name").value = savedName();
}

async function refreshInfo() {
  if (!state.tableId) return;
  try {
    state.info = await api.tableInfo(state.tableId);
    if (state.info.code) state.code = state.info.code;
    if (state.info.url) state.url = state.info.url;
  } catch (_e) { /* the server may not have it */ }
}

let infoTimer = null;
function pollWaiting() {
  clearInterval(infoTimer);
  infoTimer = setInterval(async () => {
    if (state.page !== "waiting") return clearInterval(infoTimer);
    await refreshInfo();
    if (state.page === "waiting") renderWaiting();
  }, 2000);
}

async function onWaitJoin(e) {
  e.preventDefault();
  showError("");
  const name = typedName("#wait-name");
  if (!name) return;
  try {
    const joined = await api.joinTable(state.tableId, name);
    state.creds = { seat: joined.seat, token: joined.token, name };
    saveCreds(state.tableId, state.creds);
    if (state.code && state.code !== state.tableId) saveCreds(state.code, state.creds);
    openSocket();
    await refreshInfo();
    renderWaiting();
  } catch (err) {
    showError(err.message);
  }
}

async function onStart() {
  showError("");
  try {
    await api.startTable(state.tableId, state.creds.token);
  } catch (err) {
    showError(err.message);
  }
}

// ---------------------------------------------------------------- the table

function seatFlags(s) {
  const m = state.msg || {};
  const v = state.view || {};
  const pick = (key) => (Array.isArray(m[key]) ? m[key] : Array.isArray(v[key]) ? v[key] : null);
  const seats = pick("seats");
  const seat = seats && seats[s] && typeof seats[s] === "object" ? seats[s] : {};
  const connected = pick("connected");
  const bots = pick("bots");
  const away = pick("away");
  const info = (m.table && Array.isArray(m.table.seats) && m.table.seats[s]) || {};
  return {
    connected: connected ? Boolean(connected[s]) : info.connected ?? seat.connected,
    bot: bots ? Boolean(bots[s]) : Boolean(seat.bot) || info.kind === "bot",
    away: away ? Boolean(away[s]) : Boolean(info.away),
  };
}

/** Add `lines` to the announcements; `replace`: they are the whole log (a catch-up).
 * A catch-up goes into a new list that takes the old one's place: the log is a live
 * region, and lines put into the one in the page would be read out again (after a
 * reconnect, every line already heard); a screen reader reads nothing of a live region
 * that comes into the page with its lines. */
function log(lines, replace = false) {
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

function renderTable() {
  const v = state.view;
  setPage("table");
  const mine = v.seat !== null && v.seat !== undefined;
  show($("#watching"), !mine);
  $("#main").dataset.state = JSON.stringify({
    version: state.version, seat: v.seat, total: v.total, direction: v.direction, to_move: v.to_move,
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
  const from = state.playedBy === null ? null : $(`#players li[data-seat="${state.playedBy}"]`);
  renderPile($("#pile"), v.discard || [], v.draw_pile, from);
  state.playedBy = null;
  $("#turn").textContent = state.texts.turn;
  $("#turn").classList.toggle("mine", mine && (v.legal || []).length > 0);
  const owes = $("#owes");
  owes.textContent = state.texts.owes || "";
  show(owes, Boolean(state.texts.owes));

  // players
  const items = v.names.map((name, s) => {
    const flags = seatFlags(s);
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
      li.append(h("span", { class: "laid small", text: v.laid_down[s].map(cardWord).join(" ") }));
    }
    return li;
  });
  fill($("#players"), items);
  placeSeats($("#players"), v);

  renderHand();
  renderTimer();
}

/** A seat's facts in figures (cards, tokens or points, out), for a phone with many seats:
 * drawn, not read (the words stay in `.facts` for screen readers and as the title). */
function seatBrief(v, s) {
  const figures = [h("span", { class: "n-cards", text: String(v.hand_sizes[s]) })];
  if (v.tokens) figures.push(h("span", { class: "n-tokens", text: String(v.tokens[s]) }));
  if (v.scores) figures.push(h("span", { class: "n-points", text: String(v.scores[s]) }));
  if (isOut(v, s)) figures.push(h("span", { class: "n-out", text: "✕" }));
  return h("span", { class: "brief", "aria-hidden": "true" }, figures);
}

/** Where each seat sits around the table (a wide screen draws the seats on an oval, this
 * page's seat at the bottom and the others clockwise from it, in the order of play). */
function placeSeats(ol, v) {
  const n = v.names.length;
  const me = v.seat === null || v.seat === undefined ? 0 : v.seat;
  ol.classList.toggle("many", n > 4);
  for (const li of ol.children) {
    const k = (Number(li.dataset.seat) - me + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    li.style.setProperty("--sx", `${(50 + 42 * Math.cos(angle)).toFixed(2)}%`);
    li.style.setProperty("--sy", `${(50 + 40 * Math.sin(angle)).toFixed(2)}%`);
  }
}

function renderHand() {
  const v = state.view;
  const mine = v.seat !== null && v.seat !== undefined;
  show($("#hand-area"), mine);
  if (!mine) return;
  const legal = new Set(v.legal || []);
  const myTurn = v.to_move === v.seat;
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand")
    ? Number(document.activeElement.dataset.index) : null;
  const buttons = (v.hand || []).map((code, i) => {
    const ok = legal.has(code) && !state.sent;
    // on your turn each card says why it cannot be played; otherwise the turn line says it
    const reason = legal.has(code) || !myTurn ? null : whyNot(code);
    const rid = `card-why-${i}`;
    return h("button", {
      type: "button",
      class: `card c-${cardClass(code)}${ok ? " ok" : ""}`,
      "aria-disabled": ok ? "false" : "true",
      "aria-describedby": reason ? rid : myTurn ? null : "turn",
      "aria-keyshortcuts": i < 9 ? String(i + 1) : null,
      dataset: { card: code, index: String(i) },
      onclick: () => playCard(code, i),
    },
    h("span", { class: "key", "aria-hidden": "true", text: i < 9 ? String(i + 1) : "" }),
    cardFace(code),
    h("span", { class: "face", text: cardWord(code) }),
    hintFor(code),
    reason ? h("span", { class: "why", id: rid, text: reason }) : null);
  });
  if (legal.has("99x4")) {
    buttons.push(h("button", {
      type: "button", class: "card c-x4 ok", "aria-disabled": state.sent ? "true" : "false",
      dataset: { card: "99x4", index: String(buttons.length) }, onclick: () => playCard("99x4"),
    }, cardFace("99x4"), h("span", { class: "face", text: t("Discard four {card} cards", { card: cardWord("99") }) })));
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
  drawBtn.setAttribute("aria-disabled", drawLegal && !state.sent ? "false" : "true");
  drawBtn.classList.toggle("ok", drawLegal);
  const alert = $("#draw-alert");
  const wasShown = !alert.hidden;
  if (drawLegal && v.to_move !== v.seat) {
    if (!wasShown) alert.textContent = t("Press D now to draw your card!");
    show(alert, true);
  } else show(alert, false);
  renderHint();
}

/** A card code's name, as this state's `texts` gives it. */
function cardWord(code) {
  const name = state.texts.cards[code];
  return name === undefined ? String(code) : name;
}

/** Why this seat cannot make `code` now (the server's reason, from its own view), or "". */
function whyNot(code) {
  return state.texts.why_not[code] || "";
}

function cardClass(code) {
  if (code !== "99" && /^\d+$/.test(code)) return "num";
  return { "-10": "minus", R: "rev", P2: "p2", H: "hold", "99": "n99" }[code] || "other";
}

function playCard(code, index) {
  const v = state.view;
  if (!v) return;
  if (!(v.legal || []).includes(code)) {
    $("#move-note").textContent = whyNot(code);
    return;
  }
  if (state.sent) return;
  state.moveId = (state.moveId || 0) + 1;
  if (state.socket && state.socket.send({ type: "move", move: code, version: state.version, id: state.moveId })) {
    state.sent = true;
    $("#move-note").textContent = "";
    renderHand();
    const b = index !== undefined ? $$("#hand button")[index] : null;
    if (b) b.focus();
  }
}

function renderTimer() {
  const el = $("#timer");
  const m = state.msg || {};
  const v = state.view || {};
  const dl = v.deadline ?? m.deadline ?? (m.table && m.table.deadline) ?? null;
  state.deadline = typeof dl === "number" ? dl : null;
  if (state.deadline === null || v.to_move === null) {
    show(el, false);
    return;
  }
  const left = Math.max(0, Math.round(state.deadline - Date.now() / 1000));
  el.textContent = tn("{count} second left", "{count} seconds left", left);
  show(el, true);
  const mine = v.seat !== null && v.seat !== undefined && v.to_move === v.seat;
  if (!mine) return;
  if (left <= WARN_SECONDS && left > 0 && state.warned !== state.deadline) {
    state.warned = state.deadline;
    announce(el.textContent);
  } else if (left === 0 && state.timedOut !== state.deadline) {
    state.timedOut = state.deadline;
    const takeover = !(state.info && state.info.takeover === false);
    // TRANSLATORS: said to a player (screen reader) when their turn timer ran out
    announce(takeover ? t("Time is up: a bot plays for you") : el.textContent);
  }
}

/** Say `text` in the live region (screen readers read out what is added to it). Each
 * line stays a few seconds, so one said right after it ("Your turn") does not cut it off. */
function announce(text) {
  if (!text) return;
  const line = h("span", { text: `${text} ` });
  $("#live").append(line);
  setTimeout(() => line.remove(), 6000);
}
setInterval(() => {
  if (state.page === "table" && state.deadline !== null) renderTimer();
}, 1000);

// round and game summaries
function showSummary(kind, lines, toldWinner = false) {
  const v = state.view;
  const box = $("#summary");
  const over = kind === "game";
  $("#summary-title").textContent = over ? t("Game over") : t("Round {round} is over", { round: v.round - 1 });
  const shown = over && !toldWinner ? [winnerText(v.winner, v.names, v.seat), ...lines] : lines;
  fill($("#summary-lines"), shown.filter(Boolean).map((l) => h("li", { text: l })));
  // at the game's end the server's places (R-END-3: players put out at the same round's
  // end by their points, never by seat), first place first; during the game seat order
  const places = over ? state.texts.places || [] : [];
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
    if (places.length) tr.append(h("td", { text: t("{place}.", { place }) }));
    tr.append(h("th", { scope: "row", text: v.names[s] }));
    if (v.tokens) tr.append(h("td", { text: String(v.tokens[s]) }));
    if (v.scores) tr.append(h("td", { text: String(v.scores[s]) }));
    tr.append(h("td", { text: statusText(v, s) }));
    return tr;
  });
  fill($("#standings"), h("thead", {}, head), h("tbody", {}, rows));
  const link = $("#record-link");
  link.href = api.recordUrl(state.tableId);
  link.setAttribute("download", `ono99-${state.code || state.tableId}.json`);
  show(link, over);
  show($("#replay-button"), over);
  show($("#rematch-button"), over && Boolean(state.creds));
  show($("#summary-close"), !over);
  box.classList.toggle("overlay", !over);
  show(box, true);
  state.summaryFor = over ? "game" : v.round;
  state.summaryMoves = over ? null : v.moves;
  box.focus({ preventScroll: true });
}

function hideSummary() {
  show($("#summary"), false);
  state.summaryMoves = null;
}

/** An event's words: the server's narration (`text`). A card a bot played for this seat
 * while its player was away or out of time comes worded as the bot's ("A bot plays 10 for
 * you"), live and in a catch-up (`info.by_bot`). */
function eventText(e) {
  return e.text || null;
}

/** What just happened, shown where it happened: the total changes visibly, a bust or a lost
 * token shakes the seat's place, a Reverse turns the direction and marks its seat, a Play 2
 * marks the seat that owes two. Motion only where the user allows it (CSS keeps a still
 * highlight under prefers-reduced-motion). */
function showEffects(prev, v) {
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
  for (const e of state.effects) {
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
  state.effects = [];
}

function renderLastEvent() {
  const el = $("#last-event");
  const last = state.lastEvent;
  el.textContent = last ? last.text : "";
  el.dataset.kind = last ? last.kind : "";
  el.classList.toggle("bad", Boolean(last) && last.kind !== "play" && last.kind !== "four99");
}

function onState(msg) {
  const prev = state.view;
  const prevDeadline = state.deadline;
  state.msg = msg;
  // a presence change (same version, higher `presence`) leaves a move on its way as it is
  if (msg.version !== state.version || msg.ack !== undefined || msg.catchup) state.sent = false;
  state.version = msg.version ?? state.version;
  if (msg.table) {
    state.info = msg.table;
    if (msg.table.code) state.code = msg.table.code;
    if (msg.table.url) state.url = msg.table.url;
  }
  const v = msg.view;
  const phase = (v && v.phase) || (msg.table && msg.table.phase);
  if (!v || phase === "lobby") {
    // not started yet
    state.view = null;
    if (msg.table) renderWaiting();
    else {
      refreshInfo().then(() => {
        if (!state.view) {
          renderWaiting();
          pollWaiting();
        }
      });
    }
    return;
  }
  state.view = v;
  state.texts = msg.texts || { cards: {}, turn: "", owes: null, why_not: {}, places: [] };
  state.helpRules = [v.rules, v.options || {}];
  const events = Array.isArray(msg.events) ? msg.events : [];
  const catchup = Boolean(msg.catchup) || !prev;
  // a card of this seat that this page did not send: a bot played it (away, or time out)
  const mine = v.seat !== null && v.seat !== undefined;
  const acked = msg.ack !== undefined && msg.ack !== null && msg.ack === state.moveId;
  const away = mine && Boolean((v.away || [])[v.seat]);
  const late = prevDeadline !== null && Date.now() / 1000 >= prevDeadline - 1;
  const botForMe = mine && !catchup && !acked && (away || late);
  const lines = events.map(eventText).filter(Boolean);
  if (botForMe && late && state.timedOut !== prevDeadline && events.some((e) => e.seat === v.seat)) {
    state.timedOut = prevDeadline; // the timer ran out and a bot moved: say so once
    announce(t("Time is up: a bot plays for you"));
  }
  // a fresh connection's events are the catch-up: they replace the log, never add to it
  log(lines, catchup);
  if (!catchup) say(lines);
  for (const e of events) {
    const text = eventText(e);
    if (text && HEADLINE.includes(e.kind)) state.lastEvent = { kind: e.kind, text };
    // the seat a new card on the pile comes from (it travels from there; not on a catch-up)
    if (e.kind === "play" && typeof e.seat === "number") state.playedBy = catchup ? null : e.seat;
  }
  if (!catchup) {
    const heard = events.map((e) => eventSound(e.kind)).filter(Boolean);
    // the most telling sound of the change: a bust over a Reverse over a Play 2 over a card
    for (const k of ["bust", "reverse", "play2", "play"]) if (heard.includes(k)) { sound(k); break; }
    state.effects = events.filter((e) => EFFECTS.includes(e.kind) && typeof e.seat === "number");
  }
  const moved = prev && v.moves !== prev.moves;
  if (moved && state.summaryMoves !== null && v.moves > state.summaryMoves) hideSummary();
  renderTable();
  renderLastEvent();
  showEffects(prev, v);
  const myTurn = mine && v.to_move === v.seat && (v.legal || []).length > 0;
  // said once a turn: not again for a reconnect's catch-up while the turn is the same one
  if (myTurn && (!state.myTurn || moved || !prev)) {
    announce(state.texts.turn);
    if (prev) sound("turn");
  }
  state.myTurn = myTurn;
  const gameOver = v.winner !== null && v.winner !== undefined;
  if (gameOver && state.summaryFor !== "game") {
    const over = events.filter((e) => e.kind === "game_over" || ROUND_LINES.includes(e.kind));
    const told = over.some((e) => e.kind === "game_over" && e.text);
    showSummary("game", over.map(eventText).filter(Boolean), told);
  }
  if (gameOver && msg.table && msg.table.next_table && !$("#rematch-link")) {
    onRematchOffered({ table: msg.table.next_table });
  } else if (!gameOver && prev && v.round > prev.round) {
    const roundLines = events.filter((e) => ROUND_LINES.includes(e.kind)).map(eventText);
    showSummary("round", roundLines.filter(Boolean));
  } else if (!gameOver && state.summaryFor === "game") {
    hideSummary();
    state.summaryFor = null;
  }
}

function onMessage(msg) {
  if (!msg || typeof msg !== "object") return;
  if (msg.type === "state") onState(msg);
  else if (msg.type === "pong") return; // the heartbeat (api.TableSocket)
  else if (msg.type === "hint") onHint(msg);
  else if (msg.type === "error") {
    state.sent = false;
    $("#move-note").textContent = typeof msg.error === "string" ? msg.error : "";
    if (state.view) renderHand();
  }
  // the server sends nothing else: presence, seats and a rematch come in `state`
}

/** A card's chance to win from the hint for this version of the table, or null. */
function hintFor(code) {
  if (state.hint.version !== state.version) return null;
  const o = state.hint.options.find((x) => x.move === code);
  // TRANSLATORS: under a card of the hand: its chance to win the game, a
  // percentage ("41 %")
  return o ? h("span", { class: "chance", text: t("{win} to win", { win: percent(o.win) }) }) : null;
}

/** Ask for a hint (a table whose creator allows them, on your turn with a choice). */
function askHint() {
  const v = state.view;
  if (!v || !state.socket || state.hint.asked === state.version) return;
  state.hint = { asked: state.version, version: null, options: [] };
  $("#move-note").textContent = t("Working out each card's chance…");
  state.socket.send({ type: "hint", version: state.version });
  renderHint();
}

/** The server's hint: each legal card's chance to win, shown on the cards while the table
 * is still at the version it was valued for. */
function onHint(msg) {
  if (msg.version !== state.version) return; // the table moved on meanwhile
  state.hint = { asked: msg.version, version: msg.version, options: Array.isArray(msg.options) ? msg.options : [] };
  const best = state.hint.options.reduce((a, b) => (!a || b.win > a.win ? b : a), null);
  // TRANSLATORS: {win} is a percentage ("41 %")
  $("#move-note").textContent = best ? t("Best chance: {card}, {win} to win", { card: cardWord(best.move), win: percent(best.win) }) : "";
  renderHand();
}

/** The hint button (only where the table allows hints) and the values on the cards. */
function renderHint() {
  const v = state.view;
  const allowed = Boolean(state.info && state.info.hints) && v && v.seat !== null && v.seat !== undefined;
  const myTurn = allowed && v.to_move === v.seat && (v.legal || []).length > 1;
  const button = $("#hint-button");
  show(button, Boolean(myTurn));
  button.disabled = state.hint.asked === state.version;
}

function onRematchOffered(msg) {
  const id = msg.table;
  const button = h("button", {
    type: "button", id: "rematch-link", class: "primary", text: t("Join the rematch"),
    onclick: async () => {
      showError("");
      try {
        let creds = loadCreds(id);
        if (!creds && state.creds) {
          const joined = await api.joinTable(id, state.creds.name);
          creds = { seat: joined.seat, token: joined.token, name: state.creds.name };
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
        showError(err.message);
      }
    },
  });
  $("#summary-actions").append(button);
}

async function onRematch() {
  showError("");
  try {
    const r = await api.rematch(state.tableId, state.creds.token);
    const id = r.table;
    if (r.token) saveCreds(id, { seat: r.seat, token: r.token, name: state.creds.name });
    else {
      const joined = await api.joinTable(id, state.creds.name);
      saveCreds(id, { seat: joined.seat, token: joined.token, name: state.creds.name });
    }
    if (r.code) {
      const c = loadCreds(id);
      if (c) saveCreds(r.code, c);
    }
    goToTable(r.url, id);
  } catch (err) {
    showError(err.status === 404 ? t("A rematch is not available on this server.") : err.message);
  }
}

function openSocket() {
  if (state.socket) state.socket.close();
  state.socket = new api.TableSocket(state.tableId, state.creds && state.creds.token, {
    lang: currentLanguage,
    onGone: () => {
      // an unknown table, or a token the server does not know: forget it, watch instead
      if (state.creds) {
        forgetCreds(state.tableId);
        state.creds = null;
        openSocket();
      } else {
        showError(t("There is no such table."));
      }
    },
    onMessage,
    onStatus: (s) => {
      const el = $("#conn");
      if (s === "open") {
        show(el, false);
      } else if (s === "closed") {
        el.textContent = t("Connection lost. Reconnecting…");
        show(el, true);
      } else if (!state.view) {
        el.textContent = t("Connecting…");
        show(el, true);
      }
    },
  });
}

async function openTable(x) {
  setPage("loading");
  $("#conn").textContent = t("Connecting…");
  show($("#conn"), true);
  let resolved;
  try {
    resolved = await resolveTable(x);
  } catch (err) {
    showError(err.message);
    return;
  }
  state.tableId = resolved.id;
  state.info = resolved.info;
  state.code = (resolved.info && resolved.info.code) || (x !== resolved.id ? x : null);
  try { state.url = sessionStorage.getItem(`ono99.url.${resolved.id}`) || null; } catch (_e) { /* ignore */ }
  if (resolved.info && resolved.info.url) state.url = resolved.info.url;
  state.creds = loadCreds(resolved.id) || loadCreds(x);
  if (state.creds) saveCreds(resolved.id, state.creds);
  openSocket();
}

// ---------------------------------------------------------------- keys

function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  if ($("#help").open) return;
  if (e.key === "Escape" && !$("#summary").hidden && state.summaryFor !== "game") {
    hideSummary();
    e.preventDefault();
    return;
  }
  if (e.key === "?") {
    openHelp();
    e.preventDefault();
    return;
  }
  if (state.page === "replay") {
    replay.onKey(e);
    return;
  }
  if (state.page !== "table" || !state.view) return;
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
  } else if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && e.target.closest && e.target.closest("#hand")) {
    const cards = $$("#hand button");
    const i = cards.indexOf(e.target);
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
  const [chosen, options] = state.view ? [state.view.rules, state.view.options || {}]
    : state.page === "lobby" ? [$("#create-rules").value, collectOptions($("#create-options"), $("#create-rules").value)] : state.helpRules;
  const preset = chosen || defaultPreset();
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
    if (state.view) renderTable();
    else setPage("lobby");
  },
  show: () => setPage("replay"),
  error: showError,
});

async function openReplayOfTable() {
  showError("");
  try {
    const record = await api.getRecord(state.tableId);
    await replay.open(record);
  } catch (err) {
    showError(err.message);
  }
}

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
    showError(err.message);
  }
}

// ---------------------------------------------------------------- start

function retranslate() {
  $("#lang-select").value = currentLanguage();
  if (state.socket) state.socket.send({ type: "hello", lang: currentLanguage() });
  if (state.page === "lobby") buildLobby();
  if (state.page === "waiting") renderWaiting();
  if (state.view) {
    renderTable();
    renderLastEvent();
    if (!$("#summary").hidden && state.summaryFor === "game") showSummary("game", []);
  }
  if (state.page === "replay") replay.relang().catch((err) => showError(err.message));
}

async function main() {
  api.setLanguageSource(currentLanguage);
  buildLanguagePicker();
  setUpSpeech(() => (state.view ? state.view.total : 0));
  onLanguageChange(retranslate);
  await setLanguage(initialLanguage());
  $("#create-form").addEventListener("submit", onCreate);
  $("#join-form").addEventListener("submit", (e) => onJoin(e, false));
  $("#watch-button").addEventListener("click", () => onJoin(null, true));
  $("#record-file").addEventListener("change", (e) => e.target.files[0] && openReplayFile(e.target.files[0]));
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
    if (!box.hidden && state.summaryFor !== "game" && !box.contains(e.target)) hideSummary();
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
