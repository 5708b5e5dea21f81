// The table companion's service worker (served at /companion-sw.js, scope /companion): after
// the first visit the page opens with no server reachable. Pages, scripts, styles and the
// catalogs are fetched from the network first and kept; without a network the kept copy
// answers. The game API is never kept: the page queues its changes until the server is back.
const CACHE = "ono99-companion-v1";
const SHELL = ["/companion", "/static/style.css", "/static/companion.css", "/static/js/companion.js",
  "/static/js/dom.js", "/static/js/i18n.js", "/static/js/speech.js", "/static/js/words.js",
  "/static/companion.webmanifest", "/static/companion-icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("ono99-companion-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

function keyOf(request) {
  const url = new URL(request.url);
  // every /companion?... link opens the same page: one copy of it
  return url.pathname === "/companion" ? "/companion" : url.pathname;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const kept = url.pathname === "/companion" || url.pathname.startsWith("/static/") || url.pathname.startsWith("/api/i18n/");
  if (!kept) return; // the game API: always the network
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(keyOf(request), response.clone());
      return response;
    } catch (err) {
      const copy = await cache.match(keyOf(request));
      if (copy) return copy;
      throw err;
    }
  })());
});
