// @ts-check
// The table companion (/companion): people play with a real deck and tap each card as it
// is played; the rules engine (ono99.tracking) follows the game, on the server or, once
// Pyodide has loaded, here in the browser (local.js: the same Python), and this page only
// shows its state, passes the taps on and speaks the announcements. No rules here.
// Hooks (CONTRACTS.md "Companion"): [data-card], [data-action=bust|undo|redo], and
// <main data-state> holding the public state after every tap.
// This module starts the page and says what each control does; the state is
// companion-state.js's, the drawing companion-render.js's, the sending companion-sync.js's.
import { answered, setLanguageSource } from "./api.js";
import { bindPad, fitLabels, main, render, renderTableView, setTableView, updateHandsButtons, updateMute } from "./companion-render.js";
import { showError } from "./companion-say.js";
import { bindSetup, deepLink, hashId, relangSetup, setupLike, showSetup } from "./companion-setup.js";
import { padMode, store } from "./companion-state.js";
import { lastGame } from "./companion-store.js";
import { close, configure, create, followGame, load, offline, online, openAway, openGame, send, shownAgain, whenNoGame } from "./companion-sync.js";
import { loadServerVoices, updateSpeechNote, voice } from "./companion-voice.js";
import { $, fill, h, show } from "./dom.js";
import { LANGUAGES, currentLanguage, initialLanguage, onLanguageChange, setCatalogUrl, setLanguage, t } from "./i18n.js";
import { siteConfig } from "./local.js";
import { onVoices, setSpeechEnabled, speechEnabled } from "./speech.js";

const st = store.get;
const dispatch = store.dispatch;
/** @param {import("./companion-state.js").Action} action */
const redraw = (action) => render(dispatch(action));

setLanguageSource(currentLanguage); // the server words its refusals in the page's language
whenNoGame(showSetup);

// ------------------------------------------------------------------ what a tap does

/** A card on the pad: typed into a hand, a hand laid face up or a fix, else played.
 * @param {string} code */
function padTap(code) {
  const s = st();
  const mode = padMode(s);
  if (mode === "hands") redraw({ type: "handCard", code });
  else if (mode === "laid") redraw({ type: "laidCard", code });
  else if (mode === "fix") {
    const at = s.fixAt === null ? (s.state ? s.state.steps : 0) : s.fixAt;
    dispatch({ type: "mode", mode: null, fixAt: null });
    send("insert", { at, tap: code });
  } else {
    dispatch({ type: "mode", mode: null });
    send("tap", { tap: code });
  }
}

function bustTap() {
  const s = st().state;
  const mode = padMode(st());
  if (mode === "giveup") {
    dispatch({ type: "mode", mode: null });
    send("tap", { tap: "bust" }); // R-END-3: nothing they could give up (only ONO 99s)
  } else if (s && s.scores && (s.give_up || []).length) {
    redraw({ type: "mode", mode: "giveup" }); // R-END-3: ask which card was given up
  } else {
    send("tap", { tap: "bust" });
  }
}

function undoTap() {
  if (st().mode) { // a question in progress is taken back first
    redraw({ type: "mode", mode: null });
    return;
  }
  send("undo");
}

bindPad({
  pad: padTap,
  draw: () => send("tap", { tap: "draw" }),
  handSeat: (seat) => redraw({ type: "handSeat", seat }),
  points: (seat, value) => { dispatch({ type: "points", seat, value }); updateHandsButtons(st()); },
  fixAt: (at) => redraw({ type: "fixAt", at }),
});

// ------------------------------------------------------------------ start

async function start() {
  const cfg = await siteConfig();
  setCatalogUrl(cfg.i18n || "api/i18n/{lang}");
  if (!cfg.server) $("#home-link").href = "./";
  registerWorker(cfg.server);
  configure(cfg);
  const sel = $("#lang-select");
  fill(sel, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, text: name })));
  await setLanguage(initialLanguage());
  sel.value = currentLanguage();
  sel.addEventListener("change", () => setLanguage(sel.value));
  onLanguageChange(() => {
    sel.value = currentLanguage();
    if (st().id) followGame(); // the words of other screens' changes in the new language
    if (st().state) render(st()); else if (main().dataset.view === "setup") relangSetup();
    updateSpeechNote();
  });

  updateMute();
  $("#speech-on").addEventListener("change", (/** @type {Event} */ e) => {
    setSpeechEnabled(/** @type {HTMLInputElement} */ (e.target).checked);
    updateMute();
  });
  $("#mute").addEventListener("click", () => { setSpeechEnabled(!speechEnabled()); updateMute(); });
  $("#speech-test").addEventListener("click", () => {
    const s = st().state;
    const total = s ? s.total : 42;
    voice(t("Total {total}", { total }), currentLanguage(), true);
  });
  onVoices(updateSpeechNote);
  updateSpeechNote();
  if (cfg.server) loadServerVoices();

  $("#bust").addEventListener("click", bustTap);
  $("#undo").addEventListener("click", undoTap);
  window.addEventListener("resize", fitLabels);
  $("#redo").addEventListener("click", () => send("redo"));
  $("#hands-clear").addEventListener("click", () => redraw({ type: "handCleared" }));
  $("#hands-save").addEventListener("click", () => {
    const d = st().handsDraft;
    if (d) send("hands", { hands: d.hands, tap: d.tap });
  });
  $("#points-save").addEventListener("click", () => {
    const { handsDraft: d, state: s } = st();
    if (!d || !s || !s.hands_needed) return;
    const points = s.hands_needed.sizes.map((k, seat) => (k === null ? null : Number.parseInt(d.points[seat], 10)));
    send("points", { points, round: d.round });
  });
  $("#laid-type").addEventListener("click", () => redraw({ type: "mode", mode: "laid" }));
  $("#laid-clear").addEventListener("click", () => redraw({ type: "laidCleared" }));
  $("#laid-save").addEventListener("click", () => {
    const d = st().laidDraft;
    if (d) send("laid", { seat: d.seat, cards: d.cards });
  });
  $("#laid-skip").addEventListener("click", () => {
    const d = st().laidDraft;
    if (d) send("laid", { seat: d.seat, cards: null });
  });
  $("#new-game").addEventListener("click", () => show($("#new-confirm"), true)); // ask first
  $("#new-game-no").addEventListener("click", () => show($("#new-confirm"), false));
  $("#new-game-yes").addEventListener("click", () => {
    const s = st().state;
    show($("#new-confirm"), false);
    close();
    history.replaceState(null, "", location.pathname);
    if (s) setupLike(s); else showSetup();
  });
  $("#table-view-on").addEventListener("click", () => setTableView(st(), true));
  $("#fix-on").addEventListener("click", () => redraw({ type: "mode", mode: st().mode === "fix" ? null : "fix", fixAt: null }));
  $("#fix-off").addEventListener("click", () => redraw({ type: "mode", mode: null, fixAt: null }));
  $("#table-view-off").addEventListener("click", () => setTableView(st(), false));
  document.addEventListener("visibilitychange", () => { if (!document.hidden && st().state) renderTableView(st()); });
  $("#continue-last").addEventListener("click", async () => {
    const last = lastGame();
    if (last) await openGame(last);
  });
  bindSetup(create);
  window.addEventListener("online", () => {
    if (cfg.server) loadServerVoices();
    online();
  });
  window.addEventListener("offline", () => { offline(); updateSpeechNote(); });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) shownAgain();
  });

  const id = hashId();
  if (id) {
    try {
      await load(id);
      return;
    } catch (e) {
      if (!answered(e)) {
        openAway(id); // no server: the game as last seen here; taps queue until the server is back
        return;
      }
      showError(e.message);
    }
  }
  const link = deepLink();
  if (link) {
    await create(link);
    return;
  }
  showSetup();
}

/** Installable, and after the first visit the page opens and follows games with no server
 * (companion-sw.js, beside the page: its scope is the page, or the whole static site).
 * @param {boolean} server */
function registerWorker(server) {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("companion-sw.js", { scope: server ? "companion" : "./" })
    .catch(() => { /* not offered (a plain http address that is not this machine's) */ });
}

start();
