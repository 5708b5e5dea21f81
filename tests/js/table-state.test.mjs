// The web table's state reducer (table-state.js): a `state` message taken in (the move on
// its way, the table's code, the last event, the effects, the turn, the timer), the hint,
// the summaries; actions in, a new state out.
import assert from "node:assert/strict";
import { test } from "node:test";

import { initialState, reduce, seatFlags } from "../../src/ono99/web/static/js/table-state.js";

/** A view of seat 0 with `over` replacing some keys. */
function view(over = {}) {
  return { seat: 0, rules: "classic", options: {}, names: ["Ann", "Bob"], hand: ["5", "R"], hand_sizes: [2, 3],
    total: 10, direction: 1, to_move: 0, owes_two: null, plays_left: 1, legal: ["5"], bust_mode: false,
    discard: ["5"], draw_pile: 20, laid_down: [[], []], out: [], round_out: [], tokens: [3, 3], scores: null,
    round: 1, winner: null, pending_draw: null, moves: 4, ...over };
}

/** A `state` message of version `version` with `over` replacing some keys. */
function msg(version, over = {}) {
  return { type: "state", version, view: view(), texts: { cards: { 5: "5" }, turn: "Your turn", owes: null, why_not: {}, places: [] },
    events: [], ...over };
}

const take = (st, m, now = 1000) => reduce(st, { type: "state", msg: m, now });

test("the state given is never changed: each action gives a new object", () => {
  const before = initialState();
  const frozen = JSON.stringify(before);
  const after = take(before, msg(1));
  assert.equal(JSON.stringify(before), frozen);
  assert.notEqual(after, before);
  assert.equal(after.version, 1);
  assert.deepEqual(after.helpRules, ["classic", {}]);
});

test("a move on its way stays so through a presence change, and not past a new version", () => {
  let s = take(initialState(), msg(1));
  s = reduce(reduce(s, { type: "moving" }), { type: "sent" });
  assert.equal(s.sent, true);
  assert.equal(s.moveId, 1);
  assert.equal(take(s, msg(1)).sent, true, "the same version: a presence change");
  assert.equal(take(s, msg(2)).sent, false);
  assert.equal(take(s, msg(1, { ack: 1 })).sent, false, "an answer to the move");
  assert.equal(reduce(s, { type: "refused" }).sent, false);
});

test("a table not started yet has no view; its description gives the code and address", () => {
  const s = take(initialState(), { type: "state", version: 0, view: null, table: { phase: "lobby", code: "ABCD", url: "/t/x" } });
  assert.equal(s.view, null);
  assert.equal(s.code, "ABCD");
  assert.equal(s.url, "/t/x");
  const kept = reduce(s, { type: "info", info: { players: 2 } });
  assert.equal(kept.code, "ABCD", "a description without a code keeps the one known");
});

test("events: the last one shown by the total, the pile's seat and the seats' effects, none on a catch-up", () => {
  let s = take(initialState(), msg(1, { catchup: true, events: [{ kind: "play", seat: 1, text: "Bob plays 5" }] }));
  assert.deepEqual(s.lastEvent, { kind: "play", text: "Bob plays 5" });
  assert.equal(s.playedBy, null, "a catch-up's card does not travel");
  assert.deepEqual(s.effects, []);
  s = take(s, msg(2, { events: [{ kind: "play", seat: 1, text: "Bob plays R" }, { kind: "reverse", seat: 1, text: "Reverse" },
    { kind: "game_over", seat: null, text: "Ann wins" }] }));
  assert.equal(s.playedBy, 1);
  assert.deepEqual(s.effects.map((e) => e.kind), ["reverse"]);
  assert.deepEqual(s.lastEvent, { kind: "play", text: "Bob plays R" }, "game_over is not a headline");
  assert.deepEqual(reduce(reduce(s, { type: "effectsShown" }), { type: "pileDrawn" }).effects, []);
  assert.equal(reduce(s, { type: "pileDrawn" }).playedBy, null);
});

test("whose turn: this seat's with a legal card; the deadline from the view or the table", () => {
  let s = take(initialState(), msg(1, { view: view({ deadline: 1030 }) }));
  assert.equal(s.myTurn, true);
  assert.equal(s.deadline, 1030);
  s = take(s, msg(2, { view: view({ to_move: 1 }), table: { deadline: 1060 } }));
  assert.equal(s.myTurn, false);
  assert.equal(s.deadline, 1060);
  assert.equal(take(s, msg(3, { view: view({ seat: null, hand: [] }) })).myTurn, false, "watching");
});

test("a bot's card for this seat after its deadline is said once (timedOut), not for one this page sent", () => {
  let s = take(initialState(), msg(1, { view: view({ deadline: 1030 }) }), 1000);
  const botMoved = msg(2, { view: view({ to_move: 1 }), events: [{ kind: "play", seat: 0, text: "A bot plays 5 for you" }] });
  const late = take(s, botMoved, 1030);
  assert.equal(late.timedOut, 1030);
  assert.equal(take(s, botMoved, 1010).timedOut, null, "before the deadline: a move of the player's");
  s = reduce(reduce(s, { type: "moving" }), { type: "sent" });
  assert.equal(take(s, { ...botMoved, ack: 1 }, 1030).timedOut, null, "this page's own move");
  assert.equal(take(reduce(late, { type: "timedOut", deadline: 1030 }), botMoved, 1031).timedOut, 1030);
});

test("a hint is kept only for the version it values", () => {
  let s = take(initialState(), msg(3));
  s = reduce(s, { type: "hintAsked" });
  assert.deepEqual(s.hint, { asked: 3, version: null, options: [] });
  assert.equal(reduce(s, { type: "hint", version: 2, options: [{ move: "5", win: 0.5 }] }), s, "an older version's");
  s = reduce(s, { type: "hint", version: 3, options: [{ move: "5", win: 0.5 }] });
  assert.deepEqual(s.hint, { asked: 3, version: 3, options: [{ move: "5", win: 0.5 }] });
  assert.deepEqual(reduce(s, { type: "hint", version: 3, options: "no" }).hint.options, []);
});

test("summaries: a round's remembers the moves it was shown at; the game's is 'game'", () => {
  const s = take(initialState(), msg(1, { view: view({ round: 2, moves: 9 }) }));
  const round = reduce(s, { type: "summary", over: false });
  assert.equal(round.summaryFor, 2);
  assert.equal(round.summaryMoves, 9);
  assert.equal(reduce(round, { type: "summaryHidden" }).summaryMoves, null);
  const game = reduce(s, { type: "summary", over: true });
  assert.equal(game.summaryFor, "game");
  assert.equal(game.summaryMoves, null);
  assert.equal(reduce(game, { type: "summaryCleared" }).summaryFor, null);
});

test("a seat's flags: the message's lists first, then the table's seats", () => {
  const s = take(initialState(), msg(1, { connected: [true, false], bots: [false, true],
    table: { seats: [{ kind: "human", away: true }, { kind: "bot" }] } }));
  assert.deepEqual(seatFlags(s, 0), { connected: true, bot: false, away: true });
  assert.deepEqual(seatFlags(s, 1), { connected: false, bot: true, away: false });
});
