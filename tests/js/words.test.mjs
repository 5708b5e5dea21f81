// words.js and i18n.js: the words the pages build from the server's catalog (GET
// /api/i18n/{lang}), with the catalog served by a stub fetch.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

const CATALOG = {
  lang: "ta", dir: "ltr",
  messages: { "{name} wins the game!": "{name} வெற்றி!", "winner": "வெற்றியாளர்", "clockwise": "கடிகார திசை", "Broken {x}": "உடைந்த {y}" },
  plurals: { "{count} token": ["{count} டோக்கன்", "{count} டோக்கன்கள்"] },
  presets: [{ name: "mattel2022", title: "ONO 99 (2022)", players: [2, 8], options: [], cards: { "P2": "இரண்டு ஆடு" }, help: [] }],
};

globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.fetch = async (url) => ({ ok: url.endsWith("/ta"), json: async () => CATALOG });

const i18n = await import("../../src/ono99/web/static/js/i18n.js");
const words = await import("../../src/ono99/web/static/js/words.js");

beforeEach(async () => { await i18n.setLanguage("ta"); });

test("a message is translated and its placeholders filled", () => {
  assert.equal(words.winnerText(1, ["Ana", "Bo"], 0), "Bo வெற்றி!");
  assert.equal(words.directionText(1), "கடிகார திசை");
});

test("a translation whose placeholders differ from the English falls back to English", () => {
  assert.equal(i18n.t("Broken {x}", { x: 3 }), "Broken 3");
});

test("plurals follow the language's rule", () => {
  assert.equal(words.scoreText({ tokens: [1, 2] }, 0), "1 டோக்கன்");
  assert.equal(words.scoreText({ tokens: [1, 2] }, 1), "2 டோக்கன்கள்");
});

test("card names and preset titles are the server's; unknown ones stay codes", () => {
  assert.equal(words.cardName("P2", "mattel2022"), "இரண்டு ஆடு");
  assert.equal(words.cardName("7", "mattel2022"), "7");
  assert.equal(words.presetTitle("mattel2022"), "ONO 99 (2022)");
  assert.equal(words.presetTitle("nosuch"), "nosuch");
});

test("the winner is called the winner even when out with the others (R-END-3)", () => {
  const view = { out: [0, 1, 2], round_out: [], winner: 1 };
  assert.equal(words.statusText(view, 1), "வெற்றியாளர்");
  assert.equal(words.isOut(view, 1), false);
  assert.equal(words.isOut(view, 0), true);
  assert.equal(words.isWinner({ winner: [0, 2] }, 2), true);
});

test("a language the server cannot give falls back to English words", async () => {
  await i18n.setLanguage("gu");
  assert.equal(i18n.currentLanguage(), "gu");
  assert.equal(words.directionText(1), "clockwise");
  assert.equal(words.winnerText(null, [], null), "No winner yet");
});
