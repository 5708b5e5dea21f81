// @ts-check
// The replay viewer's review (POST /api/review, docs/review.md): each seat's chance to win
// over the game as a chart, its mistakes marked, and a line on the decision at the step
// shown. The values are the server's (ono99 review's); the page only draws them. Each
// seat's line differs by colour and by dash, and every mistake is also a button in a list,
// so nothing is told by colour or by pointer alone.
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { cardName } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 600;
const H = 200;
const PAD = { left: 34, right: 8, top: 8, bottom: 20 };
// Okabe–Ito hues and a dash each: eight seats apart for every kind of colour vision
const COLOURS = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "currentColor"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 2 1 2", "3 3"];

/**
 * @typedef {{move: string, win: number, ci95: [number, number]}} ReviewOption
 * @typedef {{move: number, seat: number, played: string, options: ReviewOption[], loss: number, mistake: boolean}} ReviewDecision
 * @typedef {{seat: number, name: string, decisions: number, mean_loss: number, mistakes: number,
 *   start_win: number, start_ci95: [number, number], result: number | null}} ReviewSeat
 * @typedef {{decisions: ReviewDecision[], seats: ReviewSeat[], samples: number}} Review
 */

/** @param {number} p a chance in [0, 1] @returns {string} it as a whole percentage */
export function percent(p) {
  return `${Math.round(p * 100)} %`;
}

/**
 * Each seat's points: its chance when the game began (step 0), after each of its own
 * decisions the chance of the card it played (at the step of that decision), and its
 * result at the end.
 * @param {Review} review @param {number} steps the replay's steps (moves + 1)
 * @returns {[number, number][][]} per seat, [step, chance] pairs in order
 */
export function seatLines(review, steps) {
  return review.seats.map((s) => {
    /** @type {[number, number][]} */
    const line = [[0, s.start_win]];
    for (const d of review.decisions) {
      if (d.seat !== s.seat) continue;
      const played = d.options.find((o) => o.move === d.played);
      if (played) line.push([d.move, played.win]);
    }
    if (s.result !== null) line.push([steps - 1, s.result]);
    return line;
  });
}

/** @param {string} tag @param {Record<string, string | number>} attrs @returns {SVGElement} */
function s(tag, attrs) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/**
 * Draw `review` into `fig`: the chart, the list of mistakes (each a button that shows its
 * move), the seats' figures and the decision at step `at`.
 * @param {HTMLElement} fig
 * @param {Review} review
 * @param {{steps: number, at: number, names: string[], rules: string, go: (step: number) => void}} shown
 */
export function drawReview(fig, review, { steps, at, names, rules, go }) {
  const x = (/** @type {number} */ step) => PAD.left + (step / Math.max(1, steps - 1)) * (W - PAD.left - PAD.right);
  const y = (/** @type {number} */ p) => PAD.top + (1 - p) * (H - PAD.top - PAD.bottom);
  const chart = s("svg", { class: "review-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "review-caption" });
  for (const p of [0, 0.5, 1]) {
    chart.append(s("line", { class: "grid", x1: PAD.left, x2: W - PAD.right, y1: y(p), y2: y(p) }));
    const label = s("text", { class: "axis", x: PAD.left - 4, y: y(p), "text-anchor": "end", "dominant-baseline": "central" });
    label.textContent = percent(p);
    chart.append(label);
  }
  seatLines(review, steps).forEach((line, seat) => {
    const d = line.map(([step, p], i) => `${i ? "L" : "M"}${x(step).toFixed(1)} ${y(p).toFixed(1)}`).join(" ");
    chart.append(s("path", { class: "seat-line", d, stroke: COLOURS[seat % 8], "stroke-dasharray": DASHES[seat % 8], fill: "none" }));
  });
  const mistakes = review.decisions.filter((d) => d.mistake);
  for (const d of mistakes) {
    const played = d.options.find((o) => o.move === d.played);
    if (!played) continue;
    const dot = s("circle", { class: "mistake", cx: x(d.move), cy: y(played.win), r: 5 });
    dot.addEventListener("click", () => go(d.move));
    chart.append(dot);
  }
  chart.append(s("line", { class: "now", x1: x(at), x2: x(at), y1: PAD.top, y2: H - PAD.bottom }));
  chart.addEventListener("click", (e) => {
    const box = chart.getBoundingClientRect();
    const fx = ((/** @type {MouseEvent} */ (e).clientX - box.left) / box.width) * W;
    go(Math.round(((fx - PAD.left) / (W - PAD.left - PAD.right)) * (steps - 1)));
  });
  const key = h("ul", { class: "review-key" }, review.seats.map((seat, i) => {
    // a call of its own: Babel's extractor does not see a tn() inside a t()
    const count = tn("{count} mistake", "{count} mistakes", seat.mistakes);
    // (and the words worked out first: Babel ties a comment to a call on the next line)
    const words = { name: names[seat.seat] || seat.name, chance: percent(seat.start_win), mistakes: count,
      loss: percent(seat.mean_loss) };
    return h("li", {},
      h("span", { class: `swatch swatch-${i % 8}`, "aria-hidden": "true" }),
      // TRANSLATORS: {chance} is a percentage ("41 %"), {mistakes} "2 mistakes",
      // {loss} a percentage
      t("{name}: {chance} to win from the deal; {mistakes}, mean loss {loss}", words));
  }));
  const list = h("ul", { class: "review-mistakes" }, mistakes.map((d) => h("li", {},
    h("button", { type: "button", class: "link", onclick: () => go(d.move) },
      t("Move {index}: {name} played {card}", { index: d.move + 1, name: names[d.seat], card: cardName(d.played, rules) })))));
  fig.replaceChildren(
    h("figcaption", { id: "review-caption", text: t("Each player's chance to win, move by move") }),
    chart, key,
    h("p", { id: "review-move", class: "review-move" }, decisionText(review, at, names, rules)),
    ...(mistakes.length ? [h("h3", { text: t("Mistakes") }), list] : [h("p", { class: "small", text: t("No mistakes") })]));
}

/**
 * The decision made at step `at` (the move from that step to the next), in words.
 * @param {Review} review @param {number} at @param {string[]} names @param {string} rules
 */
export function decisionText(review, at, names, rules) {
  const d = review.decisions.find((x) => x.move === at);
  if (!d) return "";
  const played = d.options.find((o) => o.move === d.played);
  const best = d.options.reduce((a, b) => (b.win > a.win ? b : a));
  const name = names[d.seat];
  const card = cardName(d.played, rules);
  const win = played ? percent(played.win) : "";
  if (!d.loss || best.move === d.played) {
    // TRANSLATORS: {win} is a percentage ("41 %")
    return t("{name} played {card}, the best move: {win} to win", { name, card, win });
  }
  const bestWords = { best: cardName(best.move, rules), best_win: percent(best.win) };
  // TRANSLATORS: {win} and {best_win} are percentages; {best} is a card's name
  const words = t("{name} played {card}: {win} to win; {best} had {best_win}", { name, card, win, ...bestWords });
  return d.mistake ? `${t("Mistake")} — ${words}` : words;
}
