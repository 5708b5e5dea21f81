// @ts-check
// The table companion's service worker: after the first visit the page opens, and follows a
// game, with no server reachable. It sits beside the page (/companion-sw.js for /companion
// on a server, companion-sw.js beside index.html on a static site) and reads what to keep
// from companion-site.json there: the page, its scripts, styles and catalogs, the Python
// the page runs (companion-python.zip) and Pyodide. At install all of it is fetched and
// kept; then Pyodide (one release under one address) is answered from the cache, everything
// else from the network first, the kept copy when there is none. The game API is never kept.
/** @type {ServiceWorkerScope} */
const sw = /** @type {any} */ (self);
const SHELL_CACHE = "ono99-companion-v2";
const PYODIDE_CACHE = "ono99-pyodide-";
const BASE = new URL("./", sw.location.href).href;
const SHELL = ["static/style.css", "static/cards.css", "static/companion.css", "static/companion.webmanifest",
  "static/companion-icon.svg", "companion-site.json"];

/** @returns {Promise<CompanionSite | null>} */
async function siteConfig() {
  try {
    const r = await fetch(new URL("companion-site.json", BASE), { cache: "no-cache" });
    if (r.ok) return await r.json();
  } catch (_e) { /* offline: the kept copy */ }
  const kept = await caches.match(new URL("companion-site.json", BASE).href);
  return kept ? kept.json() : null;
}

/** @param {CompanionSite | null} config */
function pyodideBase(config) {
  return config && config.pyodide ? new URL(config.pyodide, BASE).href : null;
}

/** @param {CompanionSite | null} config */
async function keepAll(config) {
  const shell = await caches.open(SHELL_CACHE);
  const page = config ? config.page : "companion";
  const modules = (config ? config.modules : ["companion.js"]).filter((m) => m !== "companion-sw.js");
  await shell.addAll([page, ...SHELL, ...modules.map((m) => `static/js/${m}`)].map((p) => new URL(p, BASE).href));
  if (!config) return;
  // the rest is kept where it can be: without it the page still opens (on the server's game)
  const more = config.languages.map((l) => config.i18n.replace("{lang}", l));
  more.push(config.python);
  await Promise.allSettled(more.map((p) => shell.add(new URL(p, BASE).href)));
  const base = pyodideBase(config);
  if (base) {
    const py = await caches.open(PYODIDE_CACHE + config.pyodide_version);
    await Promise.allSettled(config.pyodide_files.map(async (f) => {
      const url = new URL(f, base).href;
      if (!(await py.match(url))) await py.add(url);
    }));
  }
}

sw.addEventListener("install", (event) => {
  event.waitUntil(siteConfig().then(keepAll).then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const config = await siteConfig();
    const keep = new Set([SHELL_CACHE, VOICE_CACHE, PYODIDE_CACHE + (config ? config.pyodide_version : "")]);
    const names = await caches.keys();
    await Promise.all(names.filter((k) => k.startsWith("ono99-") && !keep.has(k)).map((k) => caches.delete(k)));
    await sw.clients.claim();
  })());
});

/** @type {CompanionSite | null} */
let config = null;

/** The key a request is kept under: every link to the page (any query) is one copy. */
/** @param {URL} url */
function keyOf(url) {
  const page = new URL(config ? config.page : "companion", BASE);
  if (url.pathname === page.pathname || (config && !config.server && url.href.split(/[?#]/)[0] === BASE)) {
    return page.href;
  }
  return url.href.split(/[?#]/)[0];
}

// the server's voice: each clip kept as it is heard, so that a total heard before is
// said again with the network off (the page falls back to the browser's voice otherwise)
const VOICE_CACHE = "ono99-companion-voice";

/** @param {URL} url */
function isClip(url) {
  return url.href.startsWith(`${BASE}api/companion-voice?`) && url.searchParams.has("text");
}

/** @param {URL} url */
function kept(url) {
  if (url.href.startsWith(BASE)) {
    const rel = url.href.slice(BASE.length);
    // the server's game API and voice are live, never kept; its catalogs are
    return !rel.startsWith("api/") || rel.startsWith("api/i18n/");
  }
  return false;
}

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  event.respondWith((async () => {
    if (!config) config = await siteConfig();
    const base = pyodideBase(config);
    if (base && url.href.startsWith(base)) {
      // one Pyodide release under one address: the kept copy, else the network (and kept)
      const py = await caches.open(PYODIDE_CACHE + (config ? config.pyodide_version : ""));
      const copy = await py.match(url.href);
      if (copy) return copy;
      const response = await fetch(request);
      if (response.ok) await py.put(url.href, response.clone());
      return response;
    }
    if (isClip(url)) {
      const voices = await caches.open(VOICE_CACHE);
      try {
        const response = await fetch(request);
        if (response.ok) await voices.put(url.href, response.clone());
        return response;
      } catch (err) {
        const copy = await voices.match(url.href);
        if (copy) return copy;
        throw err;
      }
    }
    if (!kept(url)) return fetch(request);
    const shell = await caches.open(SHELL_CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) await shell.put(keyOf(url), response.clone());
      return response;
    } catch (err) {
      const copy = await shell.match(keyOf(url));
      if (copy) return copy;
      throw err;
    }
  })());
});
