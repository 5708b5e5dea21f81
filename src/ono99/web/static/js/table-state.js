// @ts-check
// The web table's state and its one reducer: which part of the page is up, the table and
// this page's seat, the last `state` message (view, texts, events) and what the page made
// of it (the last event, the seat a card came from, the effects to show, whose turn), a
// move on its way, the hint, the summaries, the turn timer's warnings. Actions in, a new
// state out: no DOM, no network (table-render.js draws it, table-connection.js talks to
// the server). The page holds no rule fact: all of it comes from the server's messages.
import { createStore } from "./store.js";

/** A view as a `state` message sends it: the seat's View (types/page.d.ts) and the
 * table's progress (moves made, seats away, the turn's deadline, the table's phase).
 * @typedef {View & {moves?: number, away?: boolean[], deadline?: number | null, phase?: string}} TableView */
/** The server's words for this state (docs/protocol.md `texts`).
 * @typedef {{cards: Record<string, string>, turn: string, owes: string | null,
 *   why_not: Record<string, string>, places: {seat: number, place: number}[]}} Texts */
/** One event of a change, worded by the server.
 * @typedef {{kind: string, seat?: number | null, text?: string | null, [key: string]: unknown}} TableEvent */
/** A table as GET /api/tables/{ID} (or a `state` message's `table`) describes it.
 * @typedef {{id?: string, table?: string, code?: string, url?: string, rules?: string, players?: number,
 *   seats?: any[], phase?: string, hints?: boolean, takeover?: boolean, deadline?: number | null,
 *   next_table?: string | null, [key: string]: any}} TableInfo */
/** This page's seat: its number, its token and the name it joined with (seats.js).
 * @typedef {import("./seats.js").SeatCreds} Creds */
/** A hint: the version it was asked for, the version it values (null: not come yet) and
 * each legal card's chance to win.
 * @typedef {{asked: number | null, version: number | null, options: {move: string, win: number}[]}} Hint */
/**
 * @typedef {{
 *   page: string, tableId: string | null, code: string | null, url: string | null,
 *   info: TableInfo | null, creds: Creds | null, msg: any, view: TableView | null, texts: Texts,
 *   version: number | null, sent: boolean, moveId: number, hint: Hint,
 *   helpRules: [string | null, Record<string, unknown>], summaryFor: "game" | number | null,
 *   summaryMoves: number | null | undefined, effects: TableEvent[], playedBy: number | null,
 *   deadline: number | null, warned: number | null, timedOut: number | null, myTurn: boolean,
 *   lastEvent: {kind: string, text: string} | null,
 * }} TableState
 * `sent`: a move is on its way. `helpRules`: [preset, options] of the last table seen (null:
 * the default). `summaryMoves`: view.moves when the round summary was shown (the next move
 * hides it). `effects`: this change's events to show on the seats. `playedBy`: the seat
 * whose card went on the pile with the last state. `warned`/`timedOut`: the deadlines
 * whose warning and time-out were said. `lastEvent`: the last card played, a bust, a
 * round's end.
 */
/**
 * @typedef {{type: "page", page: string}
 *   | {type: "table", id: string, info: TableInfo | null, code: string | null, url: string | null, creds: Creds | null}
 *   | {type: "info", info: TableInfo}
 *   | {type: "creds", creds: Creds | null}
 *   | {type: "state", msg: any, now: number}
 *   | {type: "moving"}
 *   | {type: "sent"}
 *   | {type: "refused"}
 *   | {type: "hintAsked"}
 *   | {type: "hint", version: number, options: unknown}
 *   | {type: "summary", over: boolean}
 *   | {type: "summaryHidden"}
 *   | {type: "summaryCleared"}
 *   | {type: "effectsShown"}
 *   | {type: "pileDrawn"}
 *   | {type: "warned", deadline: number}
 *   | {type: "timedOut", deadline: number}} Action
 */

// events shown next to the total: the last card played, a bust, a round's end
// not game_over: the turn line says the winner then, and the same words twice one under
// the other ("You win the game!" as the last event and as the turn) were seen on phones
export const HEADLINE = ["play", "four99", "bust", "out_of_round", "token_lost", "eliminated", "round_end"];
// events shown where they happen: on the seat's place at the table
export const EFFECTS = ["bust", "token_lost", "eliminated", "out_of_round", "reverse", "owes_two"];

/** @returns {Texts} */
const noTexts = () => ({ cards: {}, turn: "", owes: null, why_not: {}, places: [] });

/** The state before the page knows anything. @returns {TableState} */
export function initialState() {
  return { page: "loading", tableId: null, code: null, url: null, info: null, creds: null, msg: null, view: null,
    texts: noTexts(), version: null, sent: false, moveId: 0, hint: { asked: null, version: null, options: [] },
    helpRules: [null, {}], summaryFor: null, summaryMoves: null, effects: [], playedBy: null, deadline: null,
    warned: null, timedOut: null, myTurn: false, lastEvent: null };
}

/** The state after `action`: a new object (the one given is never changed).
 * @param {TableState} st @param {Action} a @returns {TableState} */
export function reduce(st, a) {
  switch (a.type) {
    case "page": return { ...st, page: a.page };
    case "table": return { ...st, tableId: a.id, info: a.info, code: a.code, url: a.url, creds: a.creds };
    case "info": return withInfo(st, a.info);
    case "creds": return { ...st, creds: a.creds };
    case "state": return onState(st, a.msg, a.now);
    case "moving": return { ...st, moveId: st.moveId + 1 };
    case "sent": return { ...st, sent: true };
    case "refused": return { ...st, sent: false };
    case "hintAsked": return { ...st, hint: { asked: st.version, version: null, options: [] } };
    case "hint":
      if (a.version !== st.version) return st; // the table moved on meanwhile
      return { ...st, hint: { asked: a.version, version: a.version, options: Array.isArray(a.options) ? a.options : [] } };
    case "summary": {
      const v = st.view;
      if (!v) return st;
      return { ...st, summaryFor: a.over ? "game" : v.round, summaryMoves: a.over ? null : v.moves };
    }
    case "summaryHidden": return { ...st, summaryMoves: null };
    case "summaryCleared": return { ...st, summaryFor: null };
    case "effectsShown": return { ...st, effects: [] };
    case "pileDrawn": return { ...st, playedBy: null };
    case "warned": return { ...st, warned: a.deadline };
    case "timedOut": return { ...st, timedOut: a.deadline };
    default: return st;
  }
}

/** The table's description, with its code and address where it names them.
 * @param {TableState} st @param {TableInfo} info @returns {TableState} */
function withInfo(st, info) {
  return { ...st, info, code: info.code ? info.code : st.code, url: info.url ? info.url : st.url };
}

/** Whether this page has a seat in `v` (not watching). @param {TableView} v */
export function seated(v) {
  return v.seat !== null && v.seat !== undefined;
}

/** Whether the seat's deadline is past (or a second from it) at `now` (seconds).
 * @param {number | null} deadline @param {number} now */
function late(deadline, now) {
  return deadline !== null && now >= deadline - 1;
}

/** A `state` message taken in. `now`: the time it came (seconds), for the turn timer: a
 * card of this seat that this page did not send came from a bot (away, or time out), and a
 * time-out is said once (`timedOut` set to the deadline that ran out).
 * @param {TableState} st @param {any} msg @param {number} now @returns {TableState} */
function onState(st, msg, now) {
  const prev = st.view;
  let s = { ...st, msg };
  // a presence change (same version, higher `presence`) leaves a move on its way as it is
  if (msg.version !== st.version || msg.ack !== undefined || msg.catchup) s.sent = false;
  s.version = msg.version ?? st.version;
  if (msg.table) s = withInfo(s, msg.table);
  /** @type {TableView | null} */
  const v = msg.view || null;
  const phase = (v && v.phase) || (msg.table && msg.table.phase);
  if (!v || phase === "lobby") return { ...s, view: null }; // not started yet
  s.view = v;
  s.texts = msg.texts || noTexts();
  s.helpRules = [v.rules, v.options || {}];
  /** @type {TableEvent[]} */
  const events = Array.isArray(msg.events) ? msg.events : [];
  const catchup = Boolean(msg.catchup) || !prev;
  const mine = seated(v);
  // a card of this seat that this page did not send: a bot played it (away, or time out)
  const acked = msg.ack !== undefined && msg.ack !== null && msg.ack === st.moveId;
  const away = mine && Boolean((v.away || [])[/** @type {number} */ (v.seat)]);
  const ranOut = late(st.deadline, now);
  const botForMe = mine && !catchup && !acked && (away || ranOut);
  if (botForMe && ranOut && st.timedOut !== st.deadline && events.some((e) => e.seat === v.seat)) {
    s.timedOut = st.deadline; // the timer ran out and a bot moved: said once
  }
  for (const e of events) {
    if (e.text && HEADLINE.includes(e.kind)) s.lastEvent = { kind: e.kind, text: e.text };
    // the seat a new card on the pile comes from (it travels from there; not on a catch-up)
    if (e.kind === "play" && typeof e.seat === "number") s.playedBy = catchup ? null : e.seat;
  }
  if (!catchup) s.effects = events.filter((e) => EFFECTS.includes(e.kind) && typeof e.seat === "number");
  const dl = v.deadline ?? msg.deadline ?? (msg.table && msg.table.deadline) ?? null;
  s.deadline = typeof dl === "number" ? dl : null;
  s.myTurn = mine && v.to_move === v.seat && (v.legal || []).length > 0;
  return s;
}

/** The seat's flags as the last message says them: connected, played by a bot, away.
 * @param {TableState} st @param {number} s */
export function seatFlags(st, s) {
  const m = st.msg || {};
  const v = /** @type {Record<string, any>} */ (st.view || {});
  const pick = (/** @type {string} */ key) => (Array.isArray(m[key]) ? m[key] : Array.isArray(v[key]) ? v[key] : null);
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

/** The page's one state (the only place it is kept). */
export const store = createStore(reduce, initialState());
