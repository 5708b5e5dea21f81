// The companion's state reducer (companion-state.js): actions in, a new state out; the
// drafts of a round's hands (R-END-3) and of a hand laid face up (R-END-1), the pad's mode,
// the queue of changes and the game followed here.
import assert from "node:assert/strict";
import { test } from "node:test";

import { initialState, isBusy, padMode, publicState, reduce, STATE_KEYS, unsent, waiting } from "../../src/ono99/web/static/js/companion-state.js";

/** A game state as the engine sends it, with `over` replacing some keys. */
function game(over = {}) {
  return { rules: "classic", options: {}, names: ["Ann", "Bob", "Cy"], cards: ["0", "1", "R"], total: 10,
    direction: 1, to_move: 0, owes_two: null, plays_left: 1, pending_draw: null, round: 1, out: [],
    round_out: [], tokens: null, scores: null, scores_known: [0, 0, 0], winner: null, steps: 3,
    hands_needed: null, laid_open: null, give_up: [], can_undo: true, can_redo: false, ...over };
}

/** `actions` applied in order from the initial state. */
function run(...actions) {
  return actions.reduce(reduce, initialState());
}

test("the state given is never changed: each action gives a new object", () => {
  const before = initialState();
  const frozen = JSON.stringify(before);
  const after = reduce(before, { type: "queued", change: { path: "tap", body: { tap: "5" }, req: "a" } });
  assert.equal(JSON.stringify(before), frozen);
  assert.notEqual(after, before);
  assert.deepEqual(after.queue, [{ path: "tap", body: { tap: "5" }, req: "a" }]);
});

test("the queue: changes in order, the first dequeued once counted (the server is back)", () => {
  const q = run({ type: "away", away: true },
    { type: "queued", change: { path: "tap", body: { tap: "5" }, req: "a" } },
    { type: "queued", change: { path: "undo", body: {}, req: "b" } });
  assert.deepEqual(q.queue.map((c) => c.req), ["a", "b"]);
  assert.ok(isBusy(q));
  const next = reduce(q, { type: "dequeued" });
  assert.deepEqual(next.queue.map((c) => c.req), ["b"]);
  assert.equal(next.away, false);
  assert.equal(reduce(next, { type: "drained" }).queue.length, 0);
  assert.ok(!isBusy(reduce(next, { type: "drained" })));
});

test("a round waiting for its hands gets a draft, one per wait; cards typed fill a hand then move on (R-END-3)", () => {
  const need = { tap: 7, round: 2, sizes: [2, null, 1] };
  let s = run({ type: "accepted", version: 4, state: game({ hands_needed: need, to_move: null }) });
  assert.equal(padMode(s), "hands");
  assert.deepEqual(s.handsDraft, { tap: 7, round: 2, hands: [[], null, []], points: ["", "", ""] });
  assert.equal(s.handsSeat, 0);
  s = reduce(s, { type: "handCard", code: "5" });
  assert.equal(s.handsSeat, 0);
  s = reduce(s, { type: "handCard", code: "R" });
  assert.deepEqual(s.handsDraft && s.handsDraft.hands, [["5", "R"], null, []]);
  assert.equal(s.handsSeat, 2, "a full hand moves on to the next seat short of cards");
  s = reduce(s, { type: "handCard", code: "1" });
  s = reduce(s, { type: "handCard", code: "0" });
  assert.deepEqual(s.handsDraft && s.handsDraft.hands, [["5", "R"], null, ["1"]], "a full hand takes no more");
  s = reduce(s, { type: "handCleared" });
  assert.deepEqual(s.handsDraft && s.handsDraft.hands, [["5", "R"], null, []]);
  s = reduce(s, { type: "points", seat: 0, value: "12" });
  assert.deepEqual(s.handsDraft && s.handsDraft.points, ["12", "", ""]);
  // the same wait sent again keeps what was typed; another wait starts afresh
  s = reduce(s, { type: "accepted", version: 5, state: game({ hands_needed: need, to_move: null }) });
  assert.deepEqual(s.handsDraft && s.handsDraft.points, ["12", "", ""]);
  s = reduce(s, { type: "accepted", version: 6, state: game({ hands_needed: { ...need, tap: 9 }, to_move: null }) });
  assert.deepEqual(s.handsDraft && s.handsDraft.hands, [[], null, []]);
  s = reduce(s, { type: "accepted", version: 7, state: game() });
  assert.equal(s.handsDraft, null);
  assert.equal(padMode(s), "play");
});

test("a hand laid face up is typed only in its mode, up to its size, and the mode ends with it (R-END-1)", () => {
  let s = run({ type: "accepted", version: 1, state: game({ laid_open: { seat: 1, size: 2 } }) });
  assert.deepEqual(s.laidDraft, { seat: 1, cards: [] });
  assert.equal(padMode(s), "play");
  s = reduce(s, { type: "mode", mode: "laid" });
  assert.equal(padMode(s), "laid");
  for (const code of ["1", "R", "0"]) s = reduce(s, { type: "laidCard", code });
  assert.deepEqual(s.laidDraft && s.laidDraft.cards, ["1", "R"]);
  s = reduce(s, { type: "laidCleared" });
  assert.deepEqual(s.laidDraft && s.laidDraft.cards, []);
  s = reduce(s, { type: "accepted", version: 2, state: game() });
  assert.equal(s.laidDraft, null);
  assert.equal(s.mode, null);
});

test("the give-up question holds only while someone is to move with cards to give up (R-END-3)", () => {
  const points = game({ scores: [0, 0, 0], give_up: ["5"] });
  let s = run({ type: "accepted", version: 1, state: points }, { type: "mode", mode: "giveup" });
  assert.equal(padMode(s), "giveup");
  s = reduce(s, { type: "accepted", version: 2, state: { ...points, give_up: [] } });
  assert.equal(s.mode, null);
  assert.equal(padMode(s), "play");
});

test("the quick fix keeps its mode and its place until set otherwise", () => {
  let s = run({ type: "accepted", version: 1, state: game() }, { type: "mode", mode: "fix", fixAt: null });
  assert.equal(padMode(s), "fix");
  s = reduce(s, { type: "fixAt", at: 1 });
  s = reduce(s, { type: "accepted", version: 2, state: game({ steps: 4 }) });
  assert.equal(padMode(s), "fix");
  assert.equal(s.fixAt, 1);
  s = reduce(s, { type: "mode", mode: null, fixAt: null });
  assert.equal(s.fixAt, null);
  assert.equal(padMode(s), "play");
});

test("a game followed here: its changes counted until the server stores them", () => {
  const kept = { record: { moves: [] }, base: null, pending: [] };
  let s = run({ type: "local", id: "g", kept, queue: [] });
  assert.equal(s.local, true);
  assert.equal(unsent(s), 1, "a game the server never saw counts one");
  s = reduce(s, { type: "applied", record: { moves: [1] }, change: { path: "tap", body: { tap: "5" }, req: "x" } });
  s = reduce(s, { type: "applied", record: { moves: [1, 2] }, change: { path: "undo", body: {} } });
  assert.deepEqual(s.kept && s.kept.pending, [{ path: "tap", body: { tap: "5" } }, { path: "undo", body: {} }]);
  assert.equal(waiting(s), 2);
  const epoch = s.keptEpoch;
  s = reduce(s, { type: "synced", version: 3, sent: 1 });
  assert.equal(s.version, 3);
  assert.deepEqual(s.kept && s.kept.pending, [{ path: "undo", body: {} }]);
  assert.equal(s.kept && s.kept.base, 3);
  assert.equal(s.keptEpoch, epoch, "a sync is the same game followed here");
  assert.equal(unsent(s), 1);
  assert.ok(reduce(s, { type: "kept", kept }).keptEpoch > epoch, "a game replaced is another");
  assert.equal(unsent(reduce(s, { type: "configured", server: false })), 0, "no server: nothing to send");
  assert.deepEqual(reduce(s, { type: "pendingTaken" }).kept?.pending, []);
  const closed = reduce(s, { type: "closed" });
  assert.equal(closed.id, null);
  assert.equal(closed.kept, null);
  assert.equal(closed.local, false);
});

test("data-state holds every public key, null where the state has none", () => {
  const out = publicState(game({ busted: undefined }));
  assert.deepEqual(Object.keys(out), STATE_KEYS);
  assert.equal(out.busted, null);
  assert.equal(out.total, 10);
});
