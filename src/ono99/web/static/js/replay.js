// @ts-check
// The replay viewer: a finished game's record, stepped forward and back. The server
// replays the record (POST /api/replay) and sends the state after every move, each
// move's announcements worded by the server (events' `text`, as in the live game). The
// record keeps every digit of its 128-bit seed (api.parseJSON/stringifyJSON): the viewer
// shows it, sends it back and downloads it exactly.
import * as api from "./api.js";
import { cardFace, renderPile } from "./cards.js";
import { $, fill, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { drawReview } from "./review.js";
import { cardName, directionText, isOut, statusText, winnerText } from "./words.js";

/**
 * @typedef {{kind?: string, text?: string}} ReplayEvent
 * @typedef {{state: any, events?: ReplayEvent[]}} ReplayStep one step of POST /api/replay's `steps`
 */

export class ReplayViewer {
  /** @param {{onClose: () => void, show: () => void, error: (message: string) => void}} hooks */
  constructor({ onClose, show, error }) {
    /** @type {ReplayStep[]} */
    this.steps = [];
    this.i = 0;
    /** @type {any} the record as parsed, or its text */
    this.record = null;
    /** @type {import("./review.js").Review | null} the game's review, once asked for */
    this.review = null;
    this.onClose = onClose;
    this.showPage = show;
    this.error = error;
    $("#replay-first").addEventListener("click", () => this.go(0));
    $("#replay-back").addEventListener("click", () => this.go(this.i - 1));
    $("#replay-forward").addEventListener("click", () => this.go(this.i + 1));
    $("#replay-last").addEventListener("click", () => this.go(this.steps.length - 1));
    $("#replay-close").addEventListener("click", () => this.onClose());
    $("#replay-slider").addEventListener("input", (/** @type {Event} */ e) => this.go(Number(/** @type {HTMLInputElement} */ (e.target).value)));
    $("#replay-download").addEventListener("click", () => this.download());
    $("#replay-review").addEventListener("click", () => this.reviewGame());
  }

  /** Ask the server for the game's review (seconds), then draw it under the controls. */
  async reviewGame() {
    if (!this.record) return;
    const button = $("#replay-review");
    const status = $("#review-status");
    button.disabled = true;
    status.textContent = t("Reviewing the game…");
    const record = this.record;
    try {
      const review = await api.reviewGame(record);
      if (this.record !== record) return; // another record was opened meanwhile
      this.review = review;
      status.textContent = "";
      this.render();
    } catch (e) {
      status.textContent = e instanceof Error ? e.message : String(e);
      button.disabled = false;
    }
  }

  /** The record as a file, every digit as it came. */
  download() {
    if (!this.record) return;
    // a record the browser could not parse (only the server could) goes back as it came
    const text = typeof this.record === "string" ? this.record : `${api.stringifyJSON(this.record, 2)}\n`;
    const blob = new Blob([text], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: "ono99-record.json" });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  /** `record`: a parsed record (api.parseJSON: big integers as BigInt), or the text of
   * one the browser could not parse (the server parses it, or says why not).
   * @param {unknown} record */
  async open(record) {
    const data = await api.replaySteps(record);
    this.record = record;
    this.review = null;
    $("#replay-review").disabled = false;
    $("#review-status").textContent = "";
    this.steps = data.steps || [];
    this.i = 0;
    $("#replay-slider").max = String(Math.max(0, this.steps.length - 1));
    this.showPage();
    this.render();
    $("#replay-forward").focus();
  }

  /** The same steps again, worded in the page's new language. */
  async relang() {
    if (!this.record) return;
    const data = await api.replaySteps(this.record);
    this.steps = data.steps || this.steps;
    this.render();
  }

  /** Show step `i` (clamped to the steps there are). @param {number} i */
  go(i) {
    if (!this.steps.length) return;
    this.i = Math.max(0, Math.min(this.steps.length - 1, i));
    this.render();
  }

  /** The viewer's keys: arrows step, Home/End jump, Escape closes. @param {KeyboardEvent} e */
  onKey(e) {
    const rtl = document.documentElement.dir === "rtl";
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (e.target instanceof HTMLElement && e.target.id === "replay-slider") return;
      this.go(this.i + ((e.key === "ArrowRight") !== rtl ? 1 : -1));
      e.preventDefault();
    } else if (e.key === "Home") {
      this.go(0);
      e.preventDefault();
    } else if (e.key === "End") {
      this.go(this.steps.length - 1);
      e.preventDefault();
    } else if (e.key === "Escape") {
      this.onClose();
    }
  }

  render() {
    const step = this.steps[this.i];
    if (!step) return;
    const s = step.state;
    /** @type {string[]} */
    const names = s.players;
    const last = this.steps.length - 1;
    const seed = this.record && typeof this.record === "object" && this.record.seed !== undefined && this.record.seed !== null ? String(this.record.seed) : "";
    $("#main").dataset.replay = JSON.stringify({ step: this.i, steps: this.steps.length, total: s.total, seed });
    $("#replay-seed").textContent = seed ? `${/* TRANSLATORS: the number that fixes the shuffles of a game */ t("Seed")}: ${seed}` : "";
    // TRANSLATORS: replay viewer position; {index} is 0 at the deal
    $("#replay-pos").textContent = t("Move {index} of {count}", { index: this.i, count: last });
    $("#replay-slider").value = String(this.i);
    $("#replay-first").disabled = this.i === 0;
    $("#replay-back").disabled = this.i === 0;
    $("#replay-forward").disabled = this.i === last;
    $("#replay-last").disabled = this.i === last;
    $("#replay-total").textContent = String(s.total);
    $("#replay-direction").textContent = `${s.direction === 1 ? "↻" : "↺"} ${directionText(s.direction)}`;
    $("#replay-round").textContent = t("Round {round}", { round: s.round });
    renderPile($("#replay-pile"), s.discard || [], s.draw_pile || 0, null);
    const fig = $("#review");
    fig.hidden = !this.review;
    if (this.review) {
      drawReview(fig, this.review, { steps: this.steps.length, at: this.i, names, rules: s.rules, go: (i) => this.go(i) });
    }
    $("#main").dataset.review = this.review ? JSON.stringify({ step: this.i, move: $("#review-move") ? $("#review-move").textContent : "" }) : "";
    /** @type {string[]} */
    let lines = (step.events || []).map((e) => e.text || "").filter(Boolean);
    // TRANSLATORS: replay viewer: the state before the first move
    if (this.i === 0 && !lines.length) lines = [t("The deal")];
    const told = (step.events || []).some((e) => e.kind === "game_over");
    if (this.i === last && !told && s.winner !== null && s.winner !== undefined) lines.push(winnerText(s.winner, names, null));
    fill($("#replay-lines"), lines.map((/** @type {string} */ l) => h("li", { text: l })));
    fill($("#replay-players"), names.map((name, p) => {
      const facts = [];
      if (s.tokens) facts.push(tn("{count} token", "{count} tokens", s.tokens[p]));
      if (s.scores) facts.push(tn("{count} point", "{count} points", s.scores[p]));
      const status = statusText(s, p);
      if (status) facts.push(status);
      const turn = s.to_move === p;
      return h("li", { class: `player${turn ? " turn" : ""}${isOut(s, p) ? " out" : ""}`, "aria-current": turn ? "true" : null },
        h("span", { class: "marker", "aria-hidden": "true", text: turn ? "▶" : "" }),
        h("span", { class: "who" }, h("span", { class: "name", text: name })),
        h("span", { class: "facts", text: facts.join(" · ") }),
        handFaces(s.hands[p] || [], s.rules));
    }));
  }
}

/** A hand as small card faces, its cards' names in words for screen readers.
 * @param {string[]} codes @param {string} rules */
function handFaces(codes, rules) {
  const names = codes.map((c) => cardName(c, rules)).join("  ");
  return h("span", { class: "laid mini-hand" },
    codes.map((c) => h("span", { class: "mini-card", dataset: { card: c } }, cardFace(c))),
    h("span", { class: "sr-only", text: names }));
}
