// @ts-check
// Card faces drawn for this project (no Mattel artwork): an SVG per card, built in the page
// (createElementNS: no markup from strings). Each kind of card differs by colour AND by
// shape, so the kinds are told apart without colour too: number cards are plain paper with
// the number; -10 is blue with downward chevrons; Reverse orange with two turning arrows;
// Play 2 (Double Play) purple with two stacked cards; Hold amber with pause bars; the 99
// black with a gold diamond. The colours are the theme's (--cf-* in cards.css, light and
// dark), the words the catalog's: the face carries glyphs only, the card's name in the
// page's language goes beside it as text.

import { fill, h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
/** How many cards of the discard pile are shown, fanned, the last played on top. */
const SHOWN = 3;

/** @typedef {"number" | "minus" | "reverse" | "play2" | "hold" | "n99" | "x4" | "draw"} CardKind */

/**
 * What a card code looks like: its kind (a CSS class `cf-KIND`), the glyph in its corners
 * and the glyph in its middle ("" where the middle is a drawn shape only).
 * @param {string} code a card code of RULES.md (0..10, -10, R, P2, H, 99), 99x4 or draw
 * @returns {{kind: CardKind, corner: string, middle: string}}
 */
export function cardSpec(code) {
  switch (code) {
    case "-10": return { kind: "minus", corner: "−10", middle: "−10" };
    case "R": return { kind: "reverse", corner: "R", middle: "" };
    case "P2": return { kind: "play2", corner: "×2", middle: "2" };
    case "H": return { kind: "hold", corner: "H", middle: "" };
    case "99": return { kind: "n99", corner: "99", middle: "99" };
    case "99x4": return { kind: "x4", corner: "99", middle: "4×99" };
    case "draw": return { kind: "draw", corner: "", middle: "" };
    default:
      if (/^(10|[0-9])$/.test(code)) return { kind: "number", corner: code, middle: code };
      return { kind: "number", corner: "?", middle: code };
  }
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {...SVGElement} children
 * @returns {SVGElement}
 */
function s(tag, attrs, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** @param {string} text @param {Record<string, string | number>} attrs */
function text(text, attrs) {
  const el = s("text", { "text-anchor": "middle", "dominant-baseline": "central", ...attrs });
  el.textContent = text;
  return el;
}

/** The drawn motif of a kind, in the middle of a 100×140 card. @param {CardKind} kind */
function motif(kind) {
  switch (kind) {
    case "minus":
      return s("g", { class: "cf-motif" },
        s("path", { d: "M35 22 L50 34 L65 22 M35 108 L50 120 L65 108", fill: "none", "stroke-width": 6, "stroke-linecap": "round", "stroke-linejoin": "round" }));
    case "reverse":
      return s("g", { class: "cf-motif", fill: "none", "stroke-width": 8, "stroke-linecap": "round" },
        s("path", { d: "M28 62 A24 24 0 0 1 68 50" }),
        s("path", { d: "M72 78 A24 24 0 0 1 32 90" }),
        s("path", { d: "M60 40 L70 50 L57 56", "stroke-width": 6, "stroke-linejoin": "round" }),
        s("path", { d: "M40 100 L30 90 L43 84", "stroke-width": 6, "stroke-linejoin": "round" }));
    case "play2":
      return s("g", { class: "cf-motif", fill: "none", "stroke-width": 4 },
        s("rect", { x: 24, y: 30, width: 36, height: 50, rx: 5, transform: "rotate(-10 42 55)" }),
        s("rect", { x: 40, y: 56, width: 36, height: 50, rx: 5, transform: "rotate(8 58 81)" }));
    case "hold":
      return s("g", { class: "cf-motif" },
        s("rect", { x: 34, y: 44, width: 11, height: 52, rx: 3 }),
        s("rect", { x: 55, y: 44, width: 11, height: 52, rx: 3 }));
    case "n99":
    case "x4":
      return s("g", { class: "cf-motif", fill: "none", "stroke-width": 4 },
        s("path", { d: "M50 18 L86 70 L50 122 L14 70 Z" }));
    default:
      return s("g", { class: "cf-motif", fill: "none", "stroke-width": 3 },
        s("ellipse", { cx: 50, cy: 70, rx: 34, ry: 46 }));
  }
}

/**
 * A card's face as an SVG element (decorative: `aria-hidden`; the button around it carries
 * the card's name as text). Sized by CSS (`.cf`), 5:7.
 * @param {string} code
 * @returns {SVGElement}
 */
export function cardFace(code) {
  const spec = cardSpec(code);
  const big = spec.middle.length > 2 ? 30 : 46;
  // Play 2's number sits on the front one of its two cards
  const at = spec.kind === "play2" ? { x: 58, y: 81, "font-size": 30 } : { x: 50, y: 70, "font-size": big };
  const face = s("svg", { class: `cf cf-${spec.kind}`, viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" },
    s("rect", { class: "cf-bg", x: 2, y: 2, width: 96, height: 136, rx: 10 }),
    motif(spec.kind));
  if (spec.middle) face.append(text(spec.middle, { class: "cf-mid", ...at }));
  if (spec.corner) {
    face.append(text(spec.corner, { class: "cf-idx", x: 15, y: 15, "font-size": 15 }),
      text(spec.corner, { class: "cf-idx", x: 85, y: 125, "font-size": 15 }));
  }
  return face;
}

/**
 * The back of a card (the draw pile), with the number of cards left on it.
 * @param {number} count
 * @returns {SVGElement}
 */
export function cardBack(count) {
  return s("svg", { class: "cf cf-back", viewBox: "0 0 100 140", "aria-hidden": "true", focusable: "false" },
    s("rect", { class: "cf-bg", x: 2, y: 2, width: 96, height: 136, rx: 10 }),
    s("path", { class: "cf-motif", d: "M14 20 L86 120 M86 20 L14 120", fill: "none", "stroke-width": 3 }),
    text(String(count), { class: "cf-mid", x: 50, y: 70, "font-size": 34 }));
}

/** Whether the page may move things (the user's `prefers-reduced-motion`). */
export function motionAllowed() {
  return !(typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/**
 * The piles in the middle of the table: the draw pile (a back with its count) and the last
 * few cards of the discard pile, fanned, the last played on top. A card new on the pile
 * travels there from `from` (the seat that played it), unless motion is reduced.
 * @param {HTMLElement} el
 * @param {string[]} discard the discard pile, bottom first (the view's `discard`)
 * @param {number} drawCount cards left in the draw pile
 * @param {Element | null} from
 */
export function renderPile(el, discard, drawCount, from) {
  const before = Number(el.dataset.size || "0");
  const shown = discard.slice(-SHOWN);
  fill(el,
    h("div", { class: "draw-pile" }, cardBack(drawCount)),
    h("div", { class: "discard" },
      shown.map((code, i) => h("div", { class: `pc pc-${shown.length - 1 - i}`, dataset: { card: code } }, cardFace(code)))));
  el.dataset.size = String(discard.length);
  const top = /** @type {HTMLElement | null} */ (el.querySelector(".discard .pc:last-child"));
  if (!top || !from || discard.length <= before || !motionAllowed() || typeof top.animate !== "function") return;
  const a = from.getBoundingClientRect();
  const b = top.getBoundingClientRect();
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  top.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(0.45)`, opacity: 0.4 },
    { transform: "none", opacity: 1 },
  ], { duration: 380, easing: "cubic-bezier(.2,.7,.3,1)" });
}
