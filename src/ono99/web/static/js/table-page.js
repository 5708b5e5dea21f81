// @ts-check
// The web table's parts put up from its state, where drawing and the state go together:
// which part of the page is up, the table with its pile's card travelling once and its
// turn timer (its warning and its time-out said once, on this seat's turn), the summaries.
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { announce, drawPage, drawSummary, drawTimer, hideSummaryBox, renderTable, renderWaiting } from "./table-render.js";
import { seated, store } from "./table-state.js";

const WARN_SECONDS = 5; // the turn timer's warning, in the live region

const st = store.get;
const dispatch = store.dispatch;

/** Put up one part of the page (lobby, waiting, table, replay; loading: none).
 * @param {string} name */
export function setPage(name) {
  dispatch({ type: "page", page: name });
  drawPage(name);
}

/** The waiting room as the table now is. */
export function drawWaiting() {
  setPage("waiting");
  renderWaiting(st());
}

/** The table, its pile's new card travelling from its seat once, and the timer. */
export function drawTable() {
  setPage("table");
  renderTable(st());
  dispatch({ type: "pileDrawn" });
  tick();
}

/** The turn timer drawn; on this seat's turn its warning and its time-out said once. */
function tick() {
  const s = st();
  const left = drawTimer(s);
  const v = s.view;
  if (left === null || s.deadline === null || !v || !seated(v) || v.to_move !== v.seat) return;
  const text = $("#timer").textContent;
  if (left <= WARN_SECONDS && left > 0 && s.warned !== s.deadline) {
    dispatch({ type: "warned", deadline: s.deadline });
    announce(text);
  } else if (left === 0 && s.timedOut !== s.deadline) {
    dispatch({ type: "timedOut", deadline: s.deadline });
    const takeover = !(s.info && s.info.takeover === false);
    // TRANSLATORS: said to a player (screen reader) when their turn timer ran out
    announce(takeover ? t("Time is up: a bot plays for you") : text);
  }
}
setInterval(() => {
  if (st().page === "table" && st().deadline !== null) tick();
}, 1000);

/** The round's or the game's summary shown (table-render.js drawSummary).
 * @param {"game" | "round"} kind @param {string[]} lines @param {boolean} [toldWinner] */
export function showSummary(kind, lines, toldWinner = false) {
  drawSummary(st(), kind, lines, toldWinner);
  dispatch({ type: "summary", over: kind === "game" });
}

/** The summary put away (the next move no longer hides it). */
export function hideSummary() {
  hideSummaryBox();
  dispatch({ type: "summaryHidden" });
}
