// @ts-check
// The companion without a server (docs/companion.md "Without a server"): the page follows
// a game itself with the project's own Python (ono99.web.companion_core and the engine
// under it, unpacked from companion-python.zip) run by Pyodide. No rule is written here:
// every answer (state, announcements, refusals) comes from that Python, as the server's.

/** companion-site.json (web/companion_site.py): where Pyodide, the Python and the catalogs
 * are; whether a server is behind the page.
 * @typedef {{server: boolean, pyodide: string | null, i18n: string, python?: string,
 *   [key: string]: unknown}} SiteConfig */

/** An answer of the engine (as /api/companion's, plus `record`); `error`: refused.
 * @typedef {{error?: string, state?: any, record?: any, announce?: string[], say?: string[],
 *   refused?: {index: number, error: string}[], [key: string]: any}} EngineAnswer */

/** The engine followed in the page (companion_core.Local through Pyodide).
 * @typedef {{create: (id: string, body: unknown, lang: string) => EngineAnswer,
 *   open: (id: string, record: unknown, lang: string) => EngineAnswer,
 *   change: (id: string, what: string, body: unknown, lang: string) => EngineAnswer,
 *   rebase: (id: string, record: unknown, items: unknown[], lang: string) => EngineAnswer}} Engine */

/** A game kept in this browser: its record, the server's version it was last the same as
 * (null: never sent) and the changes made here since.
 * @typedef {{record: unknown, base: number | null, pending: {path: string, body: any}[]}} KeptGame */

/** An old server without companion-site.json: the server follows the games alone.
 * @returns {Promise<SiteConfig>} */
export async function siteConfig() {
  try {
    const r = await fetch("companion-site.json", { cache: "no-cache" });
    if (r.ok) return await r.json();
  } catch (_e) { /* no server and no kept copy */ }
  return { server: true, pyodide: null, i18n: "api/i18n/{lang}" };
}

/** @param {Promise<unknown>} promise @param {number} ms */
function waitFor(promise, ms) {
  return Promise.race([promise, new Promise((resolve) => { setTimeout(resolve, ms); })]);
}

/** The engine: {create, open, change, rebase}, each answering what /api/companion answers (plus
 * `record`); null where Pyodide cannot run here.
 * @param {SiteConfig} config @returns {Promise<Engine | null>} */
export async function loadEngine(config) {
  if (!config.pyodide || typeof WebAssembly !== "object") return null;
  try {
    if ("serviceWorker" in navigator) {
      // first visit: the service worker keeps Pyodide as it installs; loading it after
      // that takes it from there instead of downloading it twice
      await waitFor(navigator.serviceWorker.ready, 30_000);
    }
    const base = new URL(config.pyodide, location.href).href;
    const { loadPyodide } = await import(`${base}pyodide.mjs`);
    const py = await loadPyodide({ indexURL: base, lockFileURL: `${base}pyodide-lock.json`, stdout: () => {}, stderr: () => {} });
    const r = await fetch(String(config.python));
    if (!r.ok) throw new Error(`${config.python}: HTTP ${r.status}`);
    py.unpackArchive(await r.arrayBuffer(), "zip", { extractDir: "/home/pyodide/ono99-site" });
    py.runPython("import sys\nsys.path.insert(0, '/home/pyodide/ono99-site')");
    const local = py.pyimport("ono99.web.companion_core").Local();
    return {
      create: (/** @type {string} */ id, /** @type {unknown} */ body, /** @type {string} */ lang) => JSON.parse(local.create(id, JSON.stringify(body), lang)),
      open: (/** @type {string} */ id, /** @type {unknown} */ record, /** @type {string} */ lang) => JSON.parse(local.open(id, JSON.stringify(record), lang)),
      change: (/** @type {string} */ id, /** @type {string} */ what, /** @type {unknown} */ body, /** @type {string} */ lang) => JSON.parse(local.change(id, what, JSON.stringify(body), lang)),
      // another screen's game with this browser's changes merged on top (companion_core.merge)
      rebase: (/** @type {string} */ id, /** @type {unknown} */ record, /** @type {unknown[]} */ items, /** @type {string} */ lang) => JSON.parse(local.rebase(id, JSON.stringify(record), JSON.stringify(items), lang)),
    };
  } catch (e) {
    console.warn("ono99: the game is followed on the server only:", e);
    return null;
  }
}

// ------------------------------------------------------------------ kept in the browser
// ono99.companion.local.ID: {record, base, pending}: the game as followed here (its record
// and redo list), the server's version it was last the same as (null: the server has not
// seen it) and the changes made here since (what "Not counted" names if the server's game
// moved on meanwhile, on another screen).
const LOCAL = "ono99.companion.local.";

/** @param {string} id @returns {KeptGame | null} */
export function keptGame(id) {
  try {
    const g = JSON.parse(localStorage.getItem(LOCAL + id) || "null");
    return g && g.record && Array.isArray(g.pending) ? g : null;
  } catch (_e) { return null; }
}

/** @param {string} id @param {KeptGame} game */
export function keepGame(id, game) {
  try { localStorage.setItem(LOCAL + id, JSON.stringify(game)); } catch (_e) { /* storage off: as long as the page */ }
}

/** A new game's id, made here (24 URL-safe characters, as the server makes them). */
export function newGameId() {
  const b = new Uint8Array(18);
  crypto.getRandomValues(b);
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_");
}
