// @ts-check
/** @typedef {Node | string | number | null | undefined | false} Child */

// Small DOM helpers. Text always goes in as text (textContent), never as markup:
// player names and server messages cannot inject elements or scripts.

/**
 * Create an element. attrs: plain attributes, plus `class`, `text`, `on<event>` handlers,
 * `dataset` (object) and `hidden`/`disabled` booleans. Children: nodes or strings (as text).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement & Record<string, any>}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

/** The first element matching `sel` (typed loosely: the pages know their own markup).
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {any} */
export const $ = (sel, root = document) => root.querySelector(sel);
/** Every element matching `sel`.
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {any[]} */
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

/** Replace all children of `el` (text children as text).
 * @template {Element} E
 * @param {E} el
 * @param {...(Child | Child[])} children
 * @returns {E} */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c)));
  return el;
}

/** @param {HTMLElement} el @param {boolean} [visible] */
export function show(el, visible = true) {
  el.hidden = !visible;
}
