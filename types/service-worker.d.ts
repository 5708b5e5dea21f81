// The little of a service worker's global scope that companion-sw.js uses (lib.webworker
// cannot be loaded beside lib.dom, which the pages need).

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}

interface ServiceWorkerScope {
  readonly location: Location;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
}

/** companion-site.json (web/companion_site.py), as the service worker reads it. */
interface CompanionSite {
  server: boolean;
  page: string;
  modules: string[];
  languages: string[];
  i18n: string;
  python: string;
  pyodide: string | null;
  pyodide_version: string;
  pyodide_files: string[];
}
