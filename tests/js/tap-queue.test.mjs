// The companion's queue of changes (tap-queue.js): kept per game, request ids, the merge.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { MemoryStorage } from "./memory-storage.mjs";
import { loadQueue, requestId, saveQueue, splitRefused } from "../../src/ono99/web/static/js/tap-queue.js";

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
});

test("a queue is kept per game and read back in order", () => {
  const q = [{ path: "tap", body: { tap: "5" }, req: "a" }, { path: "undo", body: {}, req: "b" }];
  saveQueue("g1", q);
  assert.deepEqual(loadQueue("g1"), q);
  assert.deepEqual(loadQueue("g2"), []);
});

test("what is kept but is not a list, or not JSON, reads as an empty queue", () => {
  localStorage.setItem("ono99.companion.queue.g", "{\"path\": \"tap\"}");
  assert.deepEqual(loadQueue("g"), []);
  localStorage.setItem("ono99.companion.queue.g", "not json");
  assert.deepEqual(loadQueue("g"), []);
});

test("with storage off the queue is not kept and nothing throws", () => {
  localStorage.off = true;
  saveQueue("g", [{ path: "tap", body: { tap: "5" }, req: "a" }]);
  assert.deepEqual(loadQueue("g"), []);
});

test("request ids are 24 hex digits and differ", () => {
  const ids = new Set(Array.from({ length: 50 }, () => requestId()));
  assert.equal(ids.size, 50);
  for (const id of ids) assert.match(id, /^[0-9a-f]{24}$/);
});

test("the merge keeps the changes that still apply, in order, and names the others", () => {
  const items = ["a", "b", "c", "d"];
  assert.deepEqual(splitRefused(items, [{ index: 1 }, { index: 3 }]), { kept: ["a", "c"], gone: ["b", "d"] });
  assert.deepEqual(splitRefused(items, []), { kept: items, gone: [] });
  assert.deepEqual(splitRefused(items, undefined), { kept: items, gone: [] });
  assert.deepEqual(splitRefused(items, [{ index: 0 }, { index: 1 }, { index: 2 }, { index: 3 }]), { kept: [], gone: items });
});
