// @ts-check
// The web table's keys (1-9 a card, D draw, H a hint, arrows along the hand, ? the rules,
// Escape the round's summary; the replay's own keys while it is up) and the rules help.
import * as api from "./api.js";
import { $, $$, fill, h } from "./dom.js";
import { presetWords } from "./i18n.js";
import { collectOptions } from "./options.js";
import { defaultPreset } from "./table-lobby.js";
import { hideSummary } from "./table-page.js";
import { askHint, playCard } from "./table-play.js";
import { store } from "./table-state.js";

/** @typedef {import("./replay.js").ReplayViewer} ReplayViewer */

const st = store.get;

/** The page's key handler, the replay's keys going to `replay`.
 * @param {ReplayViewer} replay @returns {(e: KeyboardEvent) => void} */
export function keyHandler(replay) {
  return (e) => onKey(e, replay);
}

/** @param {KeyboardEvent} e @param {ReplayViewer} replay */
function onKey(e, replay) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = /** @type {HTMLElement | null} */ (e.target);
  const tag = (target && target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
  if ($("#help").open) return;
  const s = st();
  if (e.key === "Escape" && !$("#summary").hidden && s.summaryFor !== "game") {
    hideSummary();
    e.preventDefault();
    return;
  }
  if (e.key === "?") {
    openHelp();
    e.preventDefault();
    return;
  }
  if (s.page === "replay") {
    replay.onKey(e);
    return;
  }
  if (s.page !== "table" || !s.view) return;
  if (/^[1-9]$/.test(e.key)) {
    const b = $$("#hand button.card")[Number(e.key) - 1];
    if (b) {
      b.focus();
      playCard(b.dataset.card, Number(e.key) - 1);
      e.preventDefault();
    }
  } else if ((e.key === "h" || e.key === "H") && !$("#hint-button").hidden) {
    askHint();
    e.preventDefault();
  } else if (e.key === "d" || e.key === "D") {
    playCard("draw");
    e.preventDefault();
  } else if ((e.key === "ArrowRight" || e.key === "ArrowLeft") && target && target.closest && target.closest("#hand")) {
    const cards = $$("#hand button");
    const i = cards.indexOf(target);
    const rtl = document.documentElement.dir === "rtl";
    const step = (e.key === "ArrowRight") !== rtl ? 1 : -1;
    const next = cards[(i + step + cards.length) % cards.length];
    if (next) next.focus();
    e.preventDefault();
  }
}

/** The rules help for the preset and options in play (or chosen in the lobby), worded
 * by the server (GET /api/presets/{P}?options=...). */
export async function openHelp() {
  const s = st();
  const [chosen, options] = s.view ? [s.view.rules, s.view.options || {}]
    : s.page === "lobby" ? [$("#create-rules").value, collectOptions($("#create-options"), $("#create-rules").value)] : s.helpRules;
  const preset = chosen || defaultPreset();
  /** @type {string[]} */
  let lines;
  try {
    lines = (await api.presetWords(preset, options)).help;
  } catch (_e) {
    const known = presetWords(preset); // the catalog's copy: the preset's default options
    lines = known ? known.help : [];
  }
  const [title, ...rest] = lines;
  fill($("#help-text"), h("p", {}, h("strong", { text: title || "" })), rest.map((l) => h("p", { text: l })));
  if (!$("#help").open) $("#help").showModal();
}
