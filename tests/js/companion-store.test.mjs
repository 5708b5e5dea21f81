// What the companion keeps in the browser (companion-store.js): the last game, the state
// last seen of each, the earlier games most recent first, the table view.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { keepSeen, keepTableView, keptState, lastGame, recentGames, remember, tableViewOn } from "../../src/ono99/web/static/js/companion-store.js";
import { MemoryStorage } from "./memory-storage.mjs";

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
});

test("the state seen last is kept per game, and the game as the one opened last", () => {
  assert.equal(lastGame(), null);
  assert.equal(keptState("g1"), null);
  keepSeen("g1", { version: 3, state: { total: 42 }, announce: ["not kept"] });
  keepSeen("g2", { version: 1, state: { total: 7 } });
  assert.equal(lastGame(), "g2");
  assert.deepEqual(keptState("g1"), { version: 3, state: { total: 42 } });
});

test("a kept state without its version or state is none", () => {
  localStorage.setItem("ono99.companion.state.g", JSON.stringify({ state: { total: 1 } }));
  assert.equal(keptState("g"), null);
  localStorage.setItem("ono99.companion.state.g", "not json");
  assert.equal(keptState("g"), null);
});

test("earlier games: most recent first, each once, at most eight", () => {
  for (let i = 0; i < 10; i += 1) remember(`g${i}`, { names: ["Ana", "Bo"], rules: "mattel2022", winner: null });
  remember("g3", { names: ["Ana", "Bo"], rules: "mattel2022", winner: 1 });
  const ids = recentGames().map((g) => g.id);
  assert.deepEqual(ids, ["g3", "g9", "g8", "g7", "g6", "g5", "g4", "g2"]);
  assert.deepEqual(recentGames()[0], { id: "g3", names: ["Ana", "Bo"], rules: "mattel2022", over: true });
  assert.equal(recentGames()[1].over, false);
});

test("what is kept but is not a list of games is left out", () => {
  localStorage.setItem("ono99.companion.games", JSON.stringify([{ id: "a" }, null, { id: 5 }, "x"]));
  assert.deepEqual(recentGames(), [{ id: "a" }]);
  localStorage.setItem("ono99.companion.games", "{}");
  assert.deepEqual(recentGames(), []);
});

test("the table view is kept on or off; storage off: off, and nothing throws", () => {
  assert.equal(tableViewOn(), false);
  keepTableView(true);
  assert.equal(tableViewOn(), true);
  keepTableView(false);
  assert.equal(tableViewOn(), false);
  localStorage.off = true;
  keepTableView(true);
  keepSeen("g", { version: 0, state: {} });
  remember("g", { names: [], rules: "x", winner: null });
  assert.equal(tableViewOn(), false);
  assert.equal(lastGame(), null);
  assert.deepEqual(recentGames(), []);
});
