// @ts-check
// The web table's lobby: a new table (preset, players, bots, timer, options, hints, a seed)
// made and joined, a table joined or watched by its code or link, and the way to the
// table's page (/t/ID, or the address the server gives it).
import * as api from "./api.js";
import { $, fill, h } from "./dom.js";
import { presetList, presetWords, t, tn } from "./i18n.js";
import { collectOptions, fillOptions } from "./options.js";
import { saveCreds, savedName } from "./seats.js";
import { codeFromInput } from "./table-address.js";
import { resolveTable } from "./table-connection.js";
import { showError } from "./table-render.js";

const BOT_LEVELS = ["easy", "medium", "hard", "expert"];
const TIMERS = [0, 15, 30, 60, 120];

/** The engine's default preset: the first it lists. */
export function defaultPreset() {
  const [first] = presetList();
  return first ? first.name : "";
}

/** The lobby's form in the page's language (what was chosen is kept). */
export function buildLobby() {
  const rulesSel = $("#create-rules");
  const keep = {
    rules: rulesSel.value || defaultPreset(),
    players: $("#create-players").value || "4",
    bots: $("#create-bots").value || "medium",
    timer: $("#create-timer").value || "0",
  };
  fill(rulesSel, presetList().map((p) => h("option", { value: p.name, text: p.title })));
  rulesSel.value = keep.rules;
  const players = () => {
    const p = presetWords(rulesSel.value);
    const [lo, hi] = p ? p.players : [Number(keep.players), Number(keep.players)];
    const sel = $("#create-players");
    const cur = Number(sel.value || keep.players);
    fill(sel, Array.from({ length: hi - lo + 1 }, (_, i) => h("option", { value: String(lo + i), text: String(lo + i) })));
    sel.value = String(Math.min(hi, Math.max(lo, cur)));
  };
  players();
  /** @type {Record<string, string>} */
  const levels = { easy: t("easy"), medium: t("medium"), hard: t("hard"), expert: t("expert") };
  fill($("#create-bots"), BOT_LEVELS.map((b) => h("option", { value: b, text: levels[b] })));
  $("#create-bots").value = keep.bots;
  fill($("#create-timer"), TIMERS.map((s) => h("option", {
    value: String(s), text: s ? tn("{count} second", "{count} seconds", s) : t("no timer"),
  })));
  $("#create-timer").value = keep.timer;
  rulesSel.onchange = () => {
    players();
    fillOptions($("#create-options"), rulesSel.value);
  };
  fillOptions($("#create-options"), rulesSel.value);
  if (!$("#create-name").value) $("#create-name").value = savedName();
  if (!$("#join-name").value) $("#join-name").value = savedName();
}

/** The name typed in `selector`, or "" after asking for one. @param {string} selector */
export function typedName(selector) {
  const name = $(selector).value.trim();
  if (!name) {
    showError(t("Please enter your name."));
    $(selector).focus();
  }
  return name;
}

/** Make the table set up in the form, join it, and go to it. @param {Event} e */
export async function onCreate(e) {
  e.preventDefault();
  showError("");
  const name = typedName("#create-name");
  if (!name) return;
  /** @type {Record<string, unknown>} */
  const body = {
    rules: $("#create-rules").value,
    options: collectOptions($("#create-options"), $("#create-rules").value),
    players: Number($("#create-players").value),
    bots: $("#create-bots").value,
  };
  const timer = Number($("#create-timer").value);
  if (timer > 0) body.turn_seconds = timer;
  if ($("#create-hints").checked) body.hints = true;
  body.name = name;
  const seed = $("#create-seed").value.trim();
  if (seed) {
    if (!/^\d{1,12}$/.test(seed)) {
      showError(t("The seed must be a whole number, or empty for a new random deal."));
      return;
    }
    body.seed = Number(seed);
  }
  try {
    const created = await api.createTable(body);
    const joined = created.token ? created : await api.joinTable(created.table, name);
    saveCreds(created.table, { seat: joined.seat, token: joined.token, name });
    if (created.code && created.code !== created.table) saveCreds(created.code, { seat: joined.seat, token: joined.token, name });
    try { sessionStorage.setItem(`ono99.url.${created.table}`, created.url || ""); } catch (_e) { /* ignore */ }
    goToTable(created.url, created.table);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
  }
}

/** Go to table `id`'s page (at `url` where the server gave one).
 * @param {string | null | undefined} url @param {string} id */
export function goToTable(url, id) {
  let target = `/t/${encodeURIComponent(id)}`;
  if (url) {
    try {
      const u = new URL(url, location.href);
      target = u.pathname + u.search;
    } catch (_e) { /* keep the default */ }
  }
  location.assign(target);
}

/** Join (or `watch`) the table whose code or link was typed, and go to it.
 * @param {Event | null} e @param {boolean} [watch] */
export async function onJoin(e, watch = false) {
  if (e) e.preventDefault();
  showError("");
  const code = codeFromInput($("#join-code").value);
  if (!code) {
    showError(t("Please enter a table code or link."));
    $("#join-code").focus();
    return;
  }
  try {
    const { id, info } = await resolveTable(code);
    if (!watch) {
      const name = typedName("#join-name");
      if (!name) return;
      const joined = await api.joinTable(id, name);
      saveCreds(id, { seat: joined.seat, token: joined.token, name });
      if (code !== id) saveCreds(code, { seat: joined.seat, token: joined.token, name });
    }
    goToTable(info && info.url, code);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
  }
}
