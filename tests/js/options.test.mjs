// options.js: a preset's options as the engine words them (PresetOut.options, R-SET-6),
// read from and written to the controls, with a stand-in for the few DOM calls it makes.
import assert from "node:assert/strict";
import { before, test } from "node:test";

const OPTIONS = [
  { name: "points", type: "bool", default: false, label: "Points" },
  { name: "target", type: "int", default: 100, min: 50, max: 500, label: "Target", needs: { points: true } },
  { name: "penalty", type: "choice", default: "token", label: "Penalty",
    choices: [{ value: "token", label: "Token" }, { value: "draw", label: "Draw" }] },
];
const CATALOG = {
  lang: "en", dir: "ltr", messages: {}, plurals: {},
  presets: [{ name: "house", title: "House", players: [2, 6], options: OPTIONS, cards: {}, help: [] },
    { name: "plain", title: "Plain", players: [2, 4], options: [], cards: {}, help: [] }],
};

/** The controls the page would hold: an input or select per option, by id. */
class Control {
  constructor(props) { Object.assign(this, props); }
}
globalThis.HTMLInputElement = Control;
globalThis.Event = class { constructor(type) { this.type = type; } };
globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.fetch = async () => ({ ok: true, json: async () => CATALOG });

/** A fieldset holding `controls` (id -> control), answering querySelector("#id"). */
function fieldset(controls) {
  const events = [];
  return {
    events,
    onchange: null,
    querySelector: (sel) => controls[sel.slice(1)] || null,
    querySelectorAll: () => Object.values(controls),
    dispatchEvent(e) { events.push(e.type); },
  };
}

const i18n = await import("../../src/ono99/web/static/js/i18n.js");
const { collectOptions, presetOptions, setOptions } = await import("../../src/ono99/web/static/js/options.js");

before(async () => { await i18n.setLanguage("en"); });

test("a preset's options are the engine's, in its order; none for a preset without", () => {
  assert.deepEqual(presetOptions("house").map((o) => o.name), ["points", "target", "penalty"]);
  assert.deepEqual(presetOptions("plain"), []);
  assert.deepEqual(presetOptions("no-such-preset"), []);
});

test("only the options that differ from their defaults are sent", () => {
  const fs = fieldset({
    "opt-points": new Control({ type: "checkbox", checked: false }),
    "opt-target": new Control({ type: "number", value: "100" }),
    "opt-penalty": new Control({ value: "token" }),
  });
  assert.deepEqual(collectOptions(fs, "house"), {});
  fs.querySelector("#opt-penalty").value = "draw";
  assert.deepEqual(collectOptions(fs, "house"), { penalty: "draw" });
});

test("an option that needs another counts only when that one has the value it needs", () => {
  const fs = fieldset({
    "opt-points": new Control({ type: "checkbox", checked: false }),
    "opt-target": new Control({ type: "number", value: "250" }),
    "opt-penalty": new Control({ value: "token" }),
  });
  assert.deepEqual(collectOptions(fs, "house"), {}); // the target needs points
  fs.querySelector("#opt-points").checked = true;
  assert.deepEqual(collectOptions(fs, "house"), { points: true, target: 250 });
});

test("a number that cannot be read is the option's default; a missing control its default", () => {
  const fs = fieldset({
    "opt-points": new Control({ type: "checkbox", checked: true }),
    "opt-target": new Control({ type: "number", value: "" }),
  });
  assert.deepEqual(collectOptions(fs, "house"), { points: true });
});

test("a game's options set the controls, the rest go back to their defaults", () => {
  const fs = fieldset({
    "opt-points": new Control({ type: "checkbox", checked: false }),
    "opt-target": new Control({ type: "number", value: "400" }),
    "opt-penalty": new Control({ value: "draw" }),
  });
  fs.onchange = () => {};
  setOptions(fs, "house", { points: true });
  assert.equal(fs.querySelector("#opt-points").checked, true);
  assert.equal(fs.querySelector("#opt-target").value, "100");
  assert.equal(fs.querySelector("#opt-penalty").value, "token");
  assert.deepEqual(fs.events, ["change"]); // the page's own handler re-shows what applies
  assert.deepEqual(collectOptions(fs, "house"), { points: true });
});
