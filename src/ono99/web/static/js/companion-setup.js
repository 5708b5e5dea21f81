// @ts-check
// The companion's setup form: the preset, its options, the players' names (as many as the
// preset takes, R-SET-5) and who plays first; the last game and the earlier games of this
// browser; a game asked for by the address (?players=... starts one, #g=ID opens one).
import { keepAwake, main } from "./companion-render.js";
import { lastGame, recentGames } from "./companion-store.js";
import { openGame } from "./companion-sync.js";
import { firstPreset } from "./companion-say.js";
import { $, fill, h, show } from "./dom.js";
import { presetList, presetWords, t } from "./i18n.js";
import { collectOptions, fillOptions, setOptions } from "./options.js";
import { presetTitle } from "./words.js";

/** @typedef {import("./companion-sync.js").NewGame} NewGame */

/** The address's query keys that are not options. */
const RESERVED = new Set(["rules", "players", "first", "lang"]);

/** [fewest, most] players of a preset, as the engine says (PresetOut.players, R-SET-5).
 * @param {string} preset @returns {[number, number]} */
function playerRange(preset) {
  const p = presetWords(preset);
  return p ? p.players : [2, 2];
}

/** @returns {HTMLInputElement[]} */
function nameInputs() {
  return Array.from(document.querySelectorAll("#setup-names input"));
}

/** @param {string[]} names */
function setNames(names) {
  fill($("#setup-names"), names.map((n, i) => h("li", {}, h("input", {
    value: n, maxlength: "40", autocomplete: "off", "aria-label": `${t("Player")} ${i + 1}`,
    oninput: refreshFirst,
  }))));
  refreshFirst();
}

function refreshFirst() {
  const sel = $("#setup-first");
  const keep = sel.value;
  fill(sel, nameInputs().map((inp, i) => h("option", { value: String(i), text: inp.value || `${t("Player")} ${i + 1}` })));
  if (keep && Number(keep) < nameInputs().length) sel.value = keep;
  const [lo, hi] = playerRange($("#setup-rules").value);
  $("#add-player").disabled = nameInputs().length >= hi;
  $("#remove-player").disabled = nameInputs().length <= lo;
}

function trimNames() {
  const [, hi] = playerRange($("#setup-rules").value);
  const names = nameInputs().map((i) => i.value).slice(0, hi);
  setNames(names);
}

/** The setup form in view (built the first time, and again in a new language). */
export function showSetup() {
  main().dataset.view = "setup";
  main().dataset.state = "{}";
  show($("#play"), false);
  show($("#setup"), true);
  const rules = $("#setup-rules");
  if (!rules.childElementCount) {
    fill(rules, presetList().map((p) => h("option", { value: p.name, text: p.title })));
    rules.addEventListener("change", () => { fillOptions($("#setup-options"), rules.value, "hint"); trimNames(); });
    setNames([1, 2, 3].map((i) => `${t("Player")} ${i}`));
  }
  fillOptions($("#setup-options"), rules.value, "hint");
  show($("#continue-last"), Boolean(lastGame()));
  const recent = recentGames();
  show($("#recent"), recent.length > 0);
  fill($("#recent-games"), recent.map((g) => h("li", {}, h("button", {
    type: "button", dataset: { game: g.id }, onclick: () => openGame(g.id),
  }, `${(g.names || []).join(", ")} · ${presetTitle(g.rules)}`))));
  show($("#tableview"), false);
  keepAwake(false);
}

/** The setup form in a new language (built again from the catalog). */
export function relangSetup() {
  $("#setup-rules").replaceChildren();
  showSetup();
}

/** The setup form filled in as ``s`` was set up: a new game keeps the names.
 * @param {{rules: string, options: Record<string, unknown>, names: string[], first?: number}} s */
export function setupLike(s) {
  showSetup();
  const rules = $("#setup-rules");
  rules.value = s.rules;
  fillOptions($("#setup-options"), s.rules, "hint");
  setOptions($("#setup-options"), s.rules, /** @type {Record<string, any>} */ (s.options));
  setNames(s.names);
  $("#setup-first").value = String(s.first || 0);
}

/** The form's buttons: a player more or fewer, and `create` with the game set up.
 * @param {(game: NewGame) => void} create */
export function bindSetup(create) {
  $("#add-player").addEventListener("click", () => {
    const names = nameInputs().map((i) => i.value);
    names.push(`${t("Player")} ${names.length + 1}`);
    setNames(names);
  });
  $("#remove-player").addEventListener("click", () => setNames(nameInputs().map((i) => i.value).slice(0, -1)));
  $("#setup-form").addEventListener("submit", (/** @type {Event} */ e) => {
    e.preventDefault();
    const rules = $("#setup-rules").value;
    const players = nameInputs().map((i, k) => i.value.trim() || `${t("Player")} ${k + 1}`);
    create({ rules, players, first: Number($("#setup-first").value) || 0, options: collectOptions($("#setup-options"), rules) });
  });
}

/** A game the address asks to start (?players=Ann,Bob&rules=...&first=1&option=value), or
 * null. @returns {NewGame | null} */
export function deepLink() {
  const q = new URLSearchParams(location.search);
  const listed = q.get("players");
  if (listed === null) return null;
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const [k, v] of q.entries()) {
    if (RESERVED.has(k)) continue;
    try { options[k] = JSON.parse(v); } catch (_e) { options[k] = v; }
  }
  const players = listed.split(",").map((s) => s.trim());
  const first = Number.parseInt(q.get("first") || "0", 10);
  return { rules: q.get("rules") || firstPreset(), players, first: Number.isNaN(first) ? 0 : first, options };
}

/** The game the address opens (#g=ID), or null. @returns {string | null} */
export function hashId() {
  const m = /(?:^#|&)g=([\w-]+)/.exec(location.hash);
  return m ? m[1] : null;
}
