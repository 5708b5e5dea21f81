// @ts-check
// The companion's state and its one reducer: what the page knows of the open game (the
// server's or the engine's public state, its version), the queue of changes, whether the
// game is followed here (kept: its record and the changes the server has not stored) and
// the drafts typed on the pad (a round's hands, a hand laid face up, a quick fix). Actions
// in, a new state out: no DOM, no storage, no network (those are companion-render.js,
// companion-store.js/tap-queue.js/local.js and companion-sync.js). No rules here either:
// the game's state comes whole from the engine.
import { createStore } from "./store.js";

/** What a round's end waits for (R-END-3): a hand size per seat (null: out of the round).
 * @typedef {{tap: number, round: number, sizes: (number | null)[]}} HandsNeeded */
/** The companion's public state of a game (ono99.tracking, as /api/companion sends it).
 * @typedef {{rules: string, options: Record<string, unknown>, names: string[], first?: number,
 *   cards: string[], total: number, direction: 1 | -1, to_move: number | null,
 *   owes_two: number | null, plays_left: number, pending_draw: number | null, round: number,
 *   out: number[], round_out: number[], tokens: number[] | null, scores: (number | null)[] | null,
 *   scores_known: number[], winner: number | number[] | null, steps: number,
 *   hands_needed: HandsNeeded | null, laid_open: {seat: number, size: number} | null,
 *   give_up: string[], can_undo: boolean, can_redo: boolean, last_card?: string | null,
 *   recent?: {at: number, seat: number | null, tap: string, total: number}[],
 *   [key: string]: unknown}} GameState */
/** One change made here: its API path (tap, undo, redo, insert, hands, points, laid) and
 * its body; queued, it has its request id too (tap-queue.js: sent again, not counted twice).
 * @typedef {{path: string, body: any, req?: string}} Change */
/** @typedef {import("./tap-queue.js").QueuedChange} QueuedChange */
/** A game followed here (local.js KeptGame).
 * @typedef {import("./local.js").KeptGame} Kept */
/** The round's hands as typed so far, and each seat's points typed.
 * @typedef {{tap: number, round: number, hands: (string[] | null)[], points: string[]}} HandsDraft */
/** What a pad tap means besides a play: typing a hand laid face up (R-END-1), the card a
 * player out of safe cards gave up (R-END-3), a forgotten card (the quick fix).
 * @typedef {"laid" | "giveup" | "fix" | null} Mode */
/**
 * @typedef {{
 *   server: boolean, id: string | null, version: number, state: GameState | null,
 *   busy: number, errorSticky: boolean, lastAnnounce: string[],
 *   mode: Mode, fixAt: number | null,
 *   handsDraft: HandsDraft | null, handsSeat: number | null,
 *   laidDraft: {seat: number, cards: string[]} | null,
 *   queue: QueuedChange[], sending: boolean, away: boolean,
 *   local: boolean, kept: Kept | null, keptEpoch: number, syncing: boolean, engineDone: boolean,
 * }} CompanionState
 * `server`: a server is behind the page. `busy`: requests in flight that hold the pad
 * (creating a game). `errorSticky`: the error shown names changes not counted. `local`: the
 * game is followed here (Pyodide's engine) and `kept` sent to the server when there is one;
 * `keptEpoch` counts the times `kept` was replaced (a sync's answer for another is dropped).
 */
/**
 * @typedef {{type: "configured", server: boolean}
 *   | {type: "busy", delta: number}
 *   | {type: "errorShown", sticky: boolean}
 *   | {type: "announced", lines: string[]}
 *   | {type: "opened", id: string | null, queue?: QueuedChange[]}
 *   | {type: "accepted", version: number, state: GameState}
 *   | {type: "shown", state: GameState}
 *   | {type: "closed"}
 *   | {type: "queued", change: QueuedChange}
 *   | {type: "queueLoaded", queue: QueuedChange[]}
 *   | {type: "dequeued"}
 *   | {type: "drained"}
 *   | {type: "sending", on: boolean}
 *   | {type: "away", away: boolean}
 *   | {type: "server", id: string}
 *   | {type: "local", id: string, kept: Kept, queue?: QueuedChange[]}
 *   | {type: "unkept"}
 *   | {type: "kept", kept: Kept | null}
 *   | {type: "applied", record: unknown, change: Change}
 *   | {type: "syncing", on: boolean}
 *   | {type: "synced", version: number, sent: number}
 *   | {type: "pendingTaken"}
 *   | {type: "engineDone"}
 *   | {type: "mode", mode: Mode, fixAt?: number | null}
 *   | {type: "fixAt", at: number}
 *   | {type: "handSeat", seat: number}
 *   | {type: "handCard", code: string}
 *   | {type: "handCleared"}
 *   | {type: "points", seat: number, value: string}
 *   | {type: "laidCard", code: string}
 *   | {type: "laidCleared"}} Action
 */

/** The keys of <main data-state> (CONTRACTS.md "Companion"), in this order. */
export const STATE_KEYS = ["total", "direction", "to_move", "owes_two", "out", "tokens", "scores", "round",
  "winner", "plays_left", "pending_draw", "round_out", "steps", "busted", "hands_needed", "laid", "laid_open",
  "can_undo", "can_redo", "scores_known", "give_up"];

/** The state before anything is open. @returns {CompanionState} */
export function initialState() {
  return { server: true, id: null, version: 0, state: null, busy: 0, errorSticky: false, lastAnnounce: [],
    mode: null, fixAt: null, handsDraft: null, handsSeat: null, laidDraft: null,
    queue: [], sending: false, away: false, local: false, kept: null, keptEpoch: 0, syncing: false,
    engineDone: false };
}

/** The state after `action`: a new object (the one given is never changed).
 * @param {CompanionState} st @param {Action} action @returns {CompanionState} */
export function reduce(st, action) {
  return settle(step(st, action));
}

/** @param {CompanionState} st @param {Action} a @returns {CompanionState} */
function step(st, a) {
  switch (a.type) {
    case "configured": return { ...st, server: a.server };
    case "busy": return { ...st, busy: st.busy + a.delta };
    case "errorShown": return { ...st, errorSticky: a.sticky };
    case "announced": return { ...st, lastAnnounce: a.lines };
    case "opened": return { ...st, id: a.id, queue: a.queue === undefined ? st.queue : a.queue };
    case "accepted": return { ...st, version: a.version, state: a.state };
    case "shown": return { ...st, state: a.state };
    case "closed": return { ...st, id: null, state: null, queue: [], local: false, kept: null, keptEpoch: st.keptEpoch + 1 };
    case "queued": return { ...st, queue: [...st.queue, a.change] };
    case "queueLoaded": return { ...st, queue: a.queue };
    case "dequeued": return { ...st, queue: st.queue.slice(1), away: false };
    case "drained": return { ...st, queue: [] };
    case "sending": return { ...st, sending: a.on };
    case "away": return { ...st, away: a.away };
    case "server": return { ...st, id: a.id, local: false, kept: null, keptEpoch: st.keptEpoch + 1 };
    case "local": return { ...st, id: a.id, local: true, kept: a.kept, keptEpoch: st.keptEpoch + 1,
      queue: a.queue === undefined ? st.queue : a.queue };
    case "unkept": return { ...st, local: false, kept: null, keptEpoch: st.keptEpoch + 1 };
    case "kept": return { ...st, kept: a.kept, keptEpoch: st.keptEpoch + 1 };
    case "applied": {
      if (!st.kept) return st;
      const kept = { ...st.kept, record: a.record, pending: [...st.kept.pending, { path: a.change.path, body: a.change.body }] };
      return { ...st, kept };
    }
    case "syncing": return { ...st, syncing: a.on };
    case "synced": {
      if (!st.kept) return st;
      return { ...st, version: a.version, away: false,
        kept: { ...st.kept, base: a.version, pending: st.kept.pending.slice(a.sent) } };
    }
    case "pendingTaken": return st.kept ? { ...st, kept: { ...st.kept, pending: [] } } : st;
    case "engineDone": return { ...st, engineDone: true };
    case "mode": return { ...st, mode: a.mode, fixAt: a.fixAt === undefined ? st.fixAt : a.fixAt };
    case "fixAt": return { ...st, fixAt: a.at };
    case "handSeat": return { ...st, handsSeat: a.seat };
    case "handCard": return addHandCard(st, a.code);
    case "handCleared": {
      const d = st.handsDraft;
      if (!d || st.handsSeat === null || st.handsSeat < 0) return st;
      return { ...st, handsDraft: { ...d, hands: d.hands.map((hand, seat) => (seat === st.handsSeat ? [] : hand)) } };
    }
    case "points": {
      const d = st.handsDraft;
      if (!d) return st;
      return { ...st, handsDraft: { ...d, points: d.points.map((p, seat) => (seat === a.seat ? a.value : p)) } };
    }
    case "laidCard": {
      const open = st.state && st.state.laid_open;
      const d = st.laidDraft;
      if (!open || !d || d.cards.length >= open.size) return st;
      return { ...st, laidDraft: { ...d, cards: [...d.cards, a.code] } };
    }
    case "laidCleared": return st.laidDraft ? { ...st, laidDraft: { ...st.laidDraft, cards: [] } } : st;
    default: return st;
  }
}

/** A card typed into the hand of the seat being typed; a full hand moves on to the next
 * seat still short of cards.
 * @param {CompanionState} st @param {string} code @returns {CompanionState} */
function addHandCard(st, code) {
  const need = st.state && st.state.hands_needed;
  const d = st.handsDraft;
  const seat = st.handsSeat;
  if (!need || !d || seat === null || seat < 0) return st;
  const size = need.sizes[seat] || 0;
  const hand = d.hands[seat] || [];
  const typed = hand.length < size ? [...hand, code] : hand;
  const hands = d.hands.map((x, k) => (k === seat ? typed : x));
  let next = seat;
  if (typed.length >= size) {
    const short = need.sizes.findIndex((k, s) => k && (hands[s] || []).length < k);
    if (short >= 0) next = short;
  }
  return { ...st, handsDraft: { ...d, hands }, handsSeat: next };
}

/** The drafts and the pad's mode as the game now stands: a round waiting for its hands has
 * a draft of them (a new one for each such wait), a hand laid face up a draft of its cards,
 * and a mode that no longer applies is dropped.
 * @param {CompanionState} st @returns {CompanionState} */
function settle(st) {
  const s = st.state;
  if (!s) return st;
  let { handsDraft, handsSeat, laidDraft, mode } = st;
  const need = s.hands_needed;
  if (!need) handsDraft = null;
  else if (!handsDraft || handsDraft.tap !== need.tap) {
    handsDraft = { tap: need.tap, round: need.round, hands: need.sizes.map((k) => (k === null ? null : [])),
      points: need.sizes.map(() => "") };
    handsSeat = need.sizes.findIndex((k) => k);
  }
  const open = s.laid_open;
  if (!open) laidDraft = null;
  else if (!laidDraft || laidDraft.seat !== open.seat) laidDraft = { seat: open.seat, cards: [] };
  if (!open && mode === "laid") mode = null;
  if (!need && padMode({ ...st, mode }) === "play") mode = null;
  if (handsDraft === st.handsDraft && handsSeat === st.handsSeat && laidDraft === st.laidDraft && mode === st.mode) return st;
  return { ...st, handsDraft, handsSeat, laidDraft, mode };
}

/** What a pad tap means now: "hands", "laid", "giveup", "fix" or "play".
 * @param {CompanionState} st @returns {"hands" | "laid" | "giveup" | "fix" | "play"} */
export function padMode(st) {
  const s = st.state;
  if (!s) return "play";
  if (s.hands_needed) return "hands";
  if (st.mode === "fix") return "fix";
  if (st.mode === "laid" && s.laid_open) return "laid";
  if (st.mode === "giveup" && s.to_move !== null && (s.give_up || []).length) return "giveup";
  return "play";
}

/** A request holds the page, or changes wait to be sent (<main data-busy>).
 * @param {CompanionState} st */
export function isBusy(st) {
  return st.busy > 0 || st.sending || st.queue.length > 0;
}

/** The changes of the game followed here that the server has not stored yet (a game it has
 * never seen counts one more); none without a server. @param {CompanionState} st */
export function unsent(st) {
  return st.local && st.server && st.kept ? st.kept.pending.length + (st.kept.base === null ? 1 : 0) : 0;
}

/** Every change not yet counted by the server: queued here, or made on the game followed
 * here. @param {CompanionState} st */
export function waiting(st) {
  const mine = st.local && st.server && st.kept ? st.kept.pending.length : 0;
  return st.queue.length + mine;
}

/** The public state as <main data-state> holds it (every key, null where absent).
 * @param {GameState} s @returns {Record<string, unknown>} */
export function publicState(s) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const k of STATE_KEYS) out[k] = s[k] === undefined ? null : s[k];
  return out;
}

/** The page's one state (the only place it is kept). */
export const store = createStore(reduce, initialState());
