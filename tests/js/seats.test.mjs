// The web table's seat credentials and its addresses (seats.js, table-address.js).
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { forgetCreds, loadCreds, saveCreds, savedName } from "../../src/ono99/web/static/js/seats.js";
import { codeFromInput, tableFromLocation, tableLink } from "../../src/ono99/web/static/js/table-address.js";
import { MemoryStorage } from "./memory-storage.mjs";

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
});

test("a seat is kept per table, with its name offered next time, and forgotten", () => {
  assert.equal(loadCreds("T1"), null);
  assert.equal(savedName(), "");
  saveCreds("T1", { seat: 2, token: "tok", name: "Ana" });
  assert.deepEqual(loadCreds("T1"), { seat: 2, token: "tok", name: "Ana" });
  assert.equal(loadCreds("T2"), null);
  assert.equal(savedName(), "Ana");
  forgetCreds("T1");
  assert.equal(loadCreds("T1"), null);
  assert.equal(savedName(), "Ana");
});

test("with storage off nothing is kept and nothing throws", () => {
  localStorage.off = true;
  saveCreds("T1", { seat: 0, token: "t" });
  forgetCreds("T1");
  assert.equal(loadCreds("T1"), null);
  assert.equal(savedName(), "");
});

test("the page's address names its table by path or query", () => {
  assert.equal(tableFromLocation({ pathname: "/t/AB12", search: "" }), "AB12");
  assert.equal(tableFromLocation({ pathname: "/tables/a%20b", search: "" }), "a b");
  assert.equal(tableFromLocation({ pathname: "/join/XY", search: "?table=no" }), "XY");
  assert.equal(tableFromLocation({ pathname: "/", search: "?table=Q1" }), "Q1");
  assert.equal(tableFromLocation({ pathname: "/", search: "?t=Q2" }), "Q2");
  assert.equal(tableFromLocation({ pathname: "/", search: "?code=Q3" }), "Q3");
  assert.equal(tableFromLocation({ pathname: "/", search: "" }), null);
});

test("a code or a pasted link gives the table's code", () => {
  assert.equal(codeFromInput("  ab 12 "), "ab12");
  assert.equal(codeFromInput(""), "");
  assert.equal(codeFromInput("https://example.org/t/K9K9"), "K9K9");
  assert.equal(codeFromInput("https://example.org/?code=ZZ"), "ZZ");
  // a link naming no table: taken as typed (without spaces)
  assert.equal(codeFromInput("https://example.org/about"), "https://example.org/about");
});

test("the invitation link is absolute: the server's, else /t/ with the code or the id", () => {
  const origin = "https://ono.example";
  assert.equal(tableLink("id1", { url: "/t/CODE" }, origin), "https://ono.example/t/CODE");
  assert.equal(tableLink("id1", { url: "https://pub.example/t/C" }, origin), "https://pub.example/t/C");
  assert.equal(tableLink("id1", { code: "C 1" }, origin), "https://ono.example/t/C%201");
  assert.equal(tableLink("id1", {}, origin), "https://ono.example/t/id1");
});
