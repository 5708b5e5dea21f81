// Small DOM helpers. Text always goes in as text (textContent), never as markup:
// player names and server messages cannot inject elements or scripts.

/**
 * Create an element. attrs: plain attributes, plus `class`, `text`, `on<event>` handlers,
 * `dataset` (object) and `hidden`/`disabled` booleans. Children: nodes or strings (as text).
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

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

/** Replace all children of `el` (text children as text). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c)));
  return el;
}

export function show(el, visible = true) {
  el.hidden = !visible;
}
