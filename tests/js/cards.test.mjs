// cards.js: every card code has a face of its own kind, told apart by shape and glyph as
// well as by colour (issue 40: colour-blind safe).
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardSpec } from "../../src/ono99/web/static/js/cards.js";

const CODES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "-10", "R", "P2", "H", "99", "99x4"];

test("each special card has a kind of its own; number cards share one", () => {
  const kinds = CODES.map((c) => cardSpec(c).kind);
  assert.deepEqual(kinds.slice(0, 11), Array(11).fill("number"));
  assert.deepEqual(kinds.slice(11), ["minus", "reverse", "play2", "hold", "n99", "x4"]);
});

test("number cards show their number in the middle and the corners", () => {
  for (const c of CODES.slice(0, 11)) assert.deepEqual(cardSpec(c), { kind: "number", corner: c, middle: c });
});

test("no two kinds of card carry the same corner glyph", () => {
  const corners = new Map();
  for (const c of CODES.slice(10)) {
    const { kind, corner } = cardSpec(c);
    if (corners.has(corner)) assert.equal(corners.get(corner), kind === "x4" ? "n99" : kind, c);
    corners.set(corner, kind);
  }
});

test("an unknown code is drawn as a number card showing the code, never a blank", () => {
  assert.deepEqual(cardSpec("Z"), { kind: "number", corner: "?", middle: "Z" });
});
