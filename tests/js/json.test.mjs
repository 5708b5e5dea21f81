// api.js's JSON with big integers: a record's 128-bit seed survives parse and stringify
// exactly, with and without the reviver's source text (older browsers).
import assert from "node:assert/strict";
import { test } from "node:test";

import { parseJSON, stringifyJSON } from "../../src/ono99/web/static/js/api.js";

const SEED = "271828182845904523536028747135266249775";

test("a seed beyond 2^53 is parsed as a BigInt with every digit", () => {
  const rec = parseJSON(`{"rules": "mattel2022", "seed": ${SEED}, "moves": ["7", "-10"]}`);
  assert.equal(typeof rec.seed, "bigint");
  assert.equal(rec.seed, BigInt(SEED));
  assert.deepEqual(rec.moves, ["7", "-10"]);
});

test("safe integers, floats and negative numbers stay numbers", () => {
  assert.deepEqual(parseJSON('{"a": 5, "b": -3, "c": 1.5, "d": 9007199254740991, "e": 1e3}'),
    { a: 5, b: -3, c: 1.5, d: 9007199254740991, e: 1000 });
});

test("strings that look like big numbers are not touched", () => {
  const v = parseJSON(`{"name": "${SEED}", "q": "say \\"${SEED}\\""}`);
  assert.equal(v.name, SEED);
  assert.equal(v.q, `say "${SEED}"`);
});

test("stringify writes a BigInt as its digits, and round-trips", () => {
  const text = stringifyJSON({ seed: BigInt(SEED), n: 3 });
  assert.equal(text, `{"seed":${SEED},"n":3}`);
  assert.deepEqual(parseJSON(text), { seed: BigInt(SEED), n: 3 });
  assert.equal(stringifyJSON({ seed: -BigInt(SEED) }, 2), `{\n  "seed": -${SEED}\n}`);
});

test("without the reviver's source text, big integers are still kept exactly", async () => {
  // a fresh copy of the module, whose feature test sees a JSON.parse without source text
  const real = JSON.parse;
  const realRaw = JSON.rawJSON;
  JSON.parse = (text, reviver) => real(text, reviver ? (k, v) => reviver(k, v) : undefined);
  JSON.rawJSON = undefined;
  try {
    const api = await import(`../../src/ono99/web/static/js/api.js?old=${Date.now()}`);
    const rec = api.parseJSON(`[${SEED}, -${SEED}, 12, "x${SEED}", {"k": 1234567890123456789}]`);
    assert.deepEqual(rec, [BigInt(SEED), -BigInt(SEED), 12, `x${SEED}`, { k: 1234567890123456789n }]);
    assert.equal(api.stringifyJSON([BigInt(SEED)]), `[${SEED}]`);
  } finally {
    JSON.parse = real;
    JSON.rawJSON = realRaw;
  }
});

test("malformed JSON is refused, as JSON.parse refuses it", () => {
  assert.throws(() => parseJSON("{"), SyntaxError);
  assert.throws(() => parseJSON(`{"seed": ${SEED}`), SyntaxError);
});
