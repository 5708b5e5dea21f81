// @ts-check
// A preset's options as controls, built from the engine's words (PresetOut.options of
// docs/protocol.md, R-SET-6): the table's lobby and the companion's setup share them, so
// neither page knows which preset takes which option, its default or its label.
import { $, $$, fill, h, show } from "./dom.js";
import { presetWords, t } from "./i18n.js";

/** @typedef {Record<string, boolean | number | string>} OptionValues */

/** The options the preset takes (PresetOut.options): one control each, `opt-NAME`.
 * @param {string} preset @returns {OptionWords[]} */
export function presetOptions(preset) {
  const p = presetWords(preset);
  return p ? p.options : [];
}

/** @param {OptionWords} o @returns {HTMLElement} */
function optionControl(o) {
  const id = `opt-${o.name}`;
  if (o.type === "bool") {
    return h("label", { class: "check", dataset: { option: o.name } },
      h("input", { id, type: "checkbox", checked: o.default === true ? "" : null }), h("span", { text: o.label }));
  }
  const input = o.type === "choice"
    ? h("select", { id }, (o.choices || []).map((c) => h("option", { value: c.value, text: c.label })))
    : h("input", { id, type: "number", min: String(o.min), max: String(o.max), value: String(o.default), inputmode: "numeric" });
  return h("label", { dataset: { option: o.name } }, h("span", { text: o.label }), input);
}

/** The value a control holds, in the option's type.
 * @param {OptionWords} o @param {ParentNode} root @returns {boolean | number | string} */
function optionValue(o, root) {
  const el = $(`#opt-${o.name}`, root);
  if (!el) return o.default;
  if (o.type === "bool") return el.checked;
  if (o.type === "int") return Number(el.value) || o.default;
  return el.value;
}

/** Whether the option counts with the values chosen (`needs`, e.g. the points target).
 * @param {OptionWords} o @param {OptionValues} chosen */
function optionApplies(o, chosen) {
  return Object.entries(o.needs || {}).every(([k, v]) => chosen[k] === v);
}

/** The preset's controls in fieldset `fs` (what was chosen before kept where it still
 * fits); those that do not count with the others' values hidden. `emptyClass`: the class
 * of the note said when the preset has no options.
 * @param {HTMLFieldSetElement} fs @param {string} preset @param {string} [emptyClass] */
export function fillOptions(fs, preset, emptyClass = "small") {
  /** @type {Record<string, boolean | string>} */
  const prev = {};
  for (const el of $$("[id^=opt-]", fs)) prev[el.id] = el.type === "checkbox" ? el.checked : el.value;
  const options = presetOptions(preset);
  fill(fs, h("legend", { text: t("Options") }),
    options.length ? options.map(optionControl) : h("p", { class: emptyClass, text: t("These rules have no options.") }));
  for (const [id, value] of Object.entries(prev)) setControl($(`#${id}`, fs), value);
  const sync = () => {
    const chosen = Object.fromEntries(options.map((o) => [o.name, optionValue(o, fs)]));
    for (const o of options) show($(`[data-option="${o.name}"]`, fs), optionApplies(o, chosen));
  };
  fs.onchange = sync;
  sync();
}

/** @param {HTMLInputElement | HTMLSelectElement | null} el @param {unknown} value */
function setControl(el, value) {
  if (!el) return;
  if (el instanceof HTMLInputElement && el.type === "checkbox") el.checked = Boolean(value);
  else el.value = String(value);
}

/** The controls of `fs` set to `values` (a game's options; the rest to their defaults).
 * @param {HTMLFieldSetElement} fs @param {string} preset @param {Record<string, unknown> | null} [values] */
export function setOptions(fs, preset, values) {
  const given = values || {};
  for (const o of presetOptions(preset)) {
    setControl($(`#opt-${o.name}`, fs), o.name in given ? given[o.name] : o.default);
  }
  if (fs.onchange) fs.dispatchEvent(new Event("change"));
}

/** The options chosen in `fs`: those that count and differ from their defaults.
 * @param {HTMLFieldSetElement} fs @param {string} preset @returns {OptionValues} */
export function collectOptions(fs, preset) {
  const options = presetOptions(preset);
  const chosen = Object.fromEntries(options.map((o) => [o.name, optionValue(o, fs)]));
  /** @type {OptionValues} */
  const out = {};
  for (const o of options) {
    if (optionApplies(o, chosen) && chosen[o.name] !== o.default) out[o.name] = chosen[o.name];
  }
  return out;
}
