// @ts-check
// The web table: lobby, waiting room, the game, summaries and the replay viewer.
// The page draws only what the server sends (view, texts) and sends intents (moves); it
// never decides what is legal and holds no rule fact: the presets (player ranges,
// options, card names, rules help) come from GET /api/i18n/{lang} and /api/presets, and
// every `state` names the cards, says whose turn it is and why a card cannot be played.
// This module starts the page: the language, the replay viewer, and what each button does.
// The state is table-state.js's, the drawing table-render.js's and table-page.js's, the
// line to the server table-connection.js's, the game table-play.js's, the seat
// table-seat.js's, the lobby table-lobby.js's, the keys and help table-keys.js's.
import * as api from "./api.js";
import { $, fill, h, show } from "./dom.js";
import { LANGUAGES, currentLanguage, initialLanguage, onLanguageChange, setLanguage, t } from "./i18n.js";
import { ReplayViewer } from "./replay.js";
import { setSoundsOn, sound, soundsOn } from "./sounds.js";
import { tableFromLocation } from "./table-address.js";
import { sendMessage } from "./table-connection.js";
import { keyHandler, openHelp } from "./table-keys.js";
import { buildLobby, onCreate, onJoin } from "./table-lobby.js";
import { drawTable, drawWaiting, hideSummary, setPage, showSummary } from "./table-page.js";
import { askHint, playCard } from "./table-play.js";
import { onRematch, onStart, onWaitJoin, openTable } from "./table-seat.js";
import { renderLastEvent, showError } from "./table-render.js";
import { setUpSpeech } from "./table-speech.js";
import { store } from "./table-state.js";

const st = store.get;

// ---------------------------------------------------------------- replay

const replay = new ReplayViewer({
  onClose: () => {
    if (st().view) drawTable();
    else setPage("lobby");
  },
  show: () => setPage("replay"),
  error: showError,
});

async function openReplayOfTable() {
  showError("");
  try {
    const record = await api.getRecord(/** @type {string} */ (st().tableId));
    await replay.open(record);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
  }
}

/** @param {File} file */
async function openReplayFile(file) {
  showError("");
  try {
    // a byte order mark (a file saved by Notepad) is not part of the record
    const text = (await file.text()).replace(/^\uFEFF/, "");
    let record;
    try {
      record = api.parseJSON(text); // every digit of the seed kept
    } catch (_e) {
      // not JSON to the browser: the text goes as it is, and the server says what is
      // wrong with it in the page's language (as `ono99 replay` says it), never the
      // browser's own English
      record = text;
    }
    await replay.open(record);
  } catch (err) {
    showError(/** @type {Error} */ (err).message);
  }
}

// ---------------------------------------------------------------- start

function buildLanguagePicker() {
  const sel = $("#lang-select");
  fill(sel, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, text: name })));
  sel.value = currentLanguage();
  sel.addEventListener("change", () => setLanguage(sel.value));
}

function retranslate() {
  $("#lang-select").value = currentLanguage();
  sendMessage({ type: "hello", lang: currentLanguage() });
  if (st().page === "lobby") buildLobby();
  if (st().page === "waiting") drawWaiting();
  if (st().view) {
    drawTable();
    renderLastEvent(st());
    if (!$("#summary").hidden && st().summaryFor === "game") showSummary("game", []);
  }
  if (st().page === "replay") replay.relang().catch((/** @type {Error} */ err) => showError(err.message));
}

async function main() {
  api.setLanguageSource(currentLanguage);
  buildLanguagePicker();
  setUpSpeech(() => { const v = st().view; return v ? v.total : 0; });
  onLanguageChange(retranslate);
  await setLanguage(initialLanguage());
  $("#create-form").addEventListener("submit", onCreate);
  $("#join-form").addEventListener("submit", (/** @type {Event} */ e) => onJoin(e, false));
  $("#watch-button").addEventListener("click", () => onJoin(null, true));
  $("#record-file").addEventListener("change", (/** @type {Event} */ e) => {
    const files = /** @type {HTMLInputElement} */ (e.target).files;
    if (files && files[0]) openReplayFile(files[0]);
  });
  $("#wait-join").addEventListener("submit", onWaitJoin);
  $("#start-button").addEventListener("click", onStart);
  $("#copy-link").addEventListener("click", async () => {
    const input = $("#wait-link");
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (_e) {
      input.select();
      document.execCommand && document.execCommand("copy");
    }
    $("#copy-link").textContent = t("Copied");
    setTimeout(() => ($("#copy-link").textContent = t("Copy link")), 2000);
  });
  $("#draw-button").addEventListener("click", () => playCard("draw"));
  $("#help-button").addEventListener("click", openHelp);
  $("#hint-button").addEventListener("click", askHint);
  const soundBox = $("#sounds-on");
  soundBox.checked = soundsOn();
  soundBox.addEventListener("change", () => { setSoundsOn(soundBox.checked); if (soundBox.checked) sound("play"); });
  $("#summary-close").addEventListener("click", () => {
    hideSummary();
    const first = $("#hand button.ok") || $("#hand button");
    if (first) first.focus();
  });
  $("#replay-button").addEventListener("click", openReplayOfTable);
  $("#rematch-button").addEventListener("click", onRematch);
  document.addEventListener("keydown", keyHandler(replay));
  // a click outside the round summary puts it away (and does what it clicked)
  document.addEventListener("click", (e) => {
    const box = $("#summary");
    if (!box.hidden && st().summaryFor !== "game" && !box.contains(e.target)) hideSummary();
  }, true);
  const x = tableFromLocation();
  if (x) await openTable(x);
  else {
    setPage("lobby");
    buildLobby();
    show($("#conn"), false);
  }
}

main();
