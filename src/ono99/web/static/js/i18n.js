// @ts-check
// The page's words: the same gettext catalogs as the terminal game, served by
// GET /api/i18n/{lang} as {"lang", "dir", "messages": {msgid: msgstr},
// "plurals": {singular: [forms...]}, "presets": [PRESET...]}. `scripts/i18n.py extract`
// finds the pages' msgids itself (babel.cfg): those of every t() and tn() call of these
// scripts (Babel's javascript extractor: each msgid a plain string literal) and every
// data-i18n* of the pages' HTML (scripts/page_strings.py). The presets (titles, player
// ranges, options, card names, rules help) are the
// engine's (ono99/texts.py preset_words), worded in the language: the page knows no rule.

/** @type {Record<string, string>} */
export const LANGUAGES = {
  en: "English", ta: "தமிழ்", gu: "ગુજરાતી", uz: "Oʻzbekcha", my: "မြန်မာ", kn: "ಕನ್ನಡ",
};

// Plural-Forms of docs/i18n.md, as functions.
/** @type {Record<string, (n: number) => number>} */
const PLURAL = {
  en: (n) => (n !== 1 ? 1 : 0),
  ta: (n) => (n !== 1 ? 1 : 0),
  uz: (n) => (n !== 1 ? 1 : 0),
  gu: (n) => (n > 1 ? 1 : 0),
  kn: (n) => (n > 1 ? 1 : 0),
  my: () => 0,
};

/** @type {Catalog} */
let catalog = { lang: "en", dir: "ltr", messages: {}, plurals: {}, presets: [] };
/** @type {((lang: string) => void)[]} */
const listeners = [];
// where a language's catalog is: the server's API, or a file of a static site (the
// companion's, written by `ono99 companion-site`)
/** @type {(lang: string) => string} */
let catalogUrl = (lang) => `/api/i18n/${lang}`;

/** Read the catalogs from `template` ("{lang}" stands for the language code).
 * @param {string} template */
export function setCatalogUrl(template) {
  catalogUrl = (lang) => template.replace("{lang}", lang);
}

/** @returns {string} */
export function currentLanguage() {
  return catalog.lang;
}

/** The language to start in: ?lang=, the saved choice, the browser's, else English.
 * @returns {string} */
export function initialLanguage() {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && q in LANGUAGES) return q;
  try {
    const saved = localStorage.getItem("ono99.lang");
    if (saved && saved in LANGUAGES) return saved;
  } catch (_e) { /* storage may be off */ }
  for (const l of navigator.languages || []) {
    const code = l.split("-")[0].toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return "en";
}

/** The presets as the server words them in the page's language (PresetOut of
 * docs/protocol.md), in the engine's order; [] when the server could not be reached.
 * @returns {PresetWords[]} */
export function presetList() {
  return catalog.presets;
}

/** One preset's words, or null.
 * @param {string} name @returns {PresetWords | null} */
export function presetWords(name) {
  return catalog.presets.find((p) => p.name === name) || null;
}

/** Switch the page to `lang`: its catalog from the server (English where it cannot be had).
 * @param {string} lang */
export async function setLanguage(lang) {
  if (!(lang in LANGUAGES)) lang = "en";
  /** @type {Partial<Catalog>} */
  let data = { lang, dir: "ltr", messages: {}, plurals: {}, presets: [] };
  try {
    // English too: the answer carries the presets' words
    const r = await fetch(catalogUrl(lang));
    if (r.ok) data = await r.json();
  } catch (_e) { /* offline: English, card codes */ }
  catalog = {
    lang, dir: data.dir || "ltr", messages: data.messages || {}, plurals: data.plurals || {},
    presets: Array.isArray(data.presets) ? data.presets : [],
  };
  document.documentElement.lang = lang;
  document.documentElement.dir = catalog.dir;
  try { localStorage.setItem("ono99.lang", lang); } catch (_e) { /* ignore */ }
  translateStatic();
  for (const fn of listeners) fn(lang);
}

/** @param {(lang: string) => void} fn called after every change of language */
export function onLanguageChange(fn) {
  listeners.push(fn);
}

/** @param {string} s */
const placeholders = (s) => new Set(Array.from(s.matchAll(/\{(\w+)\}/g), (m) => m[1]));

/** @param {Set<string>} a @param {Set<string>} b */
function sameSet(a, b) {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** Fill {name} placeholders (Python str.format style).
 * @param {string} s @param {Params} [params] @returns {string} */
export function fmt(s, params = {}) {
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Translate msgid and fill its placeholders; a translation whose placeholders differ
 * from the English falls back to English (as ono99.i18n does).
 * @param {string} msgid @param {Params} [params] @returns {string} */
export function t(msgid, params = {}) {
  let s = catalog.messages[msgid] || msgid;
  if (s !== msgid && !sameSet(placeholders(s), placeholders(msgid))) s = msgid;
  return fmt(s, params);
}

/** ngettext: the form for n of the language's plural rule.
 * @param {string} singular @param {string} plural @param {number} n @param {Params} [params]
 * @returns {string} */
export function tn(singular, plural, n, params = {}) {
  const forms = catalog.plurals[singular];
  const english = n !== 1 ? plural : singular;
  let s = english;
  if (forms && forms.length) {
    const i = (PLURAL[catalog.lang] || PLURAL.en)(n);
    s = forms[Math.min(i, forms.length - 1)] || english;
    if (!sameSet(placeholders(s), placeholders(singular))) s = english;
  }
  return fmt(s, { count: n, ...params });
}

/** Elements with data-i18n="msgid" get the translation as their text;
 * data-i18n-label / data-i18n-placeholder / data-i18n-title set those attributes.
 * @param {ParentNode} [root] */
export function translateStatic(root = document) {
  /** @param {string} attr @returns {[HTMLElement, string][]} each element with `attr` and its value */
  const marked = (attr) => Array.from(root.querySelectorAll(`[${attr}]`), (el) => [/** @type {HTMLElement} */ (el), el.getAttribute(attr) || ""]);
  for (const [el, id] of marked("data-i18n")) el.textContent = t(id);
  for (const [el, id] of marked("data-i18n-label")) el.setAttribute("aria-label", t(id));
  for (const [el, id] of marked("data-i18n-placeholder")) el.setAttribute("placeholder", t(id));
  for (const [el, id] of marked("data-i18n-title")) el.setAttribute("title", t(id));
}
