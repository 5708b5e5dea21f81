// @ts-check
// HTTP and websocket calls of the web table (CONTRACTS.md "Web", docs/protocol.md); the
// companion's requests go through `call` too (CONTRACTS.md "Companion").

/** A refused or failed request: `status` is the HTTP status (0: no answer), the message the
 * server's one line, `data` the answer's JSON (the companion's refusals carry the game). */
export class ApiError extends Error {
  /** @param {number} status @param {string} message @param {any} [data] */
  constructor(status, message, data = null) {
    super(message);
    this.status = status;
    /** @type {any} */
    this.data = data;
  }
}

/** Whether `e` is the server's answer (a refusal or its failure), not a server away.
 * @param {unknown} e @returns {e is ApiError} */
export function answered(e) {
  return e instanceof ApiError && e.status > 0;
}

// ---------------------------------------------------------------- JSON with big integers
// A record's seed is a 128-bit integer: JSON.parse would make it a float (2.79e+38) and
// JSON.stringify would send that float back. parseJSON keeps every integer beyond 2^53
// as a BigInt (from its source text), stringifyJSON writes a BigInt as its digits.

const BIG = "\u2063ono99-big:";

/** @param {string} _key @param {unknown} value @param {{source?: string}} [context] */
function reviveBig(_key, value, context) {
  if (typeof value === "number" && !Number.isSafeInteger(value) && context && typeof context.source === "string"
    && /^-?\d+$/.test(context.source)) return BigInt(context.source);
  if (typeof value === "string" && value.startsWith(BIG)) {
    // quoteBig quotes every integer of 16 digits or more: those still safe stay numbers
    const digits = value.slice(BIG.length);
    return Number.isSafeInteger(Number(digits)) ? Number(digits) : BigInt(digits);
  }
  return value;
}

/** Quote every integer of 16 or more digits outside strings (for browsers whose reviver
 * gets no source text).
 * @param {string} text @returns {string} */
function quoteBig(text) {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      const tok = m ? m[0] : c;
      out += /^-?\d{16,}$/.test(tok) ? `"${BIG}${tok}"` : tok;
      i += tok.length;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** @type {boolean | null} */
let sourceText = null;
function hasSourceText() {
  if (sourceText === null) {
    sourceText = false;
    try {
      JSON.parse("1", /** @type {any} */ ((/** @type {string} */ _k, /** @type {unknown} */ v, /** @type {{source?: string}} */ ctx) => {
        sourceText = Boolean(ctx && ctx.source === "1");
        return v;
      }));
    } catch (_e) { /* old */ }
  }
  return sourceText;
}

/** JSON.parse that keeps integers beyond 2^53 exactly (as BigInt).
 * @param {string} text @returns {any} */
export function parseJSON(text) {
  const revive = /** @type {(key: string, value: any) => any} */ (reviveBig);
  return hasSourceText() ? JSON.parse(text, revive) : JSON.parse(quoteBig(text), revive);
}

/** JSON.stringify that writes a BigInt as its digits (the inverse of parseJSON).
 * @param {unknown} value @param {number} [space] @returns {string} */
export function stringifyJSON(value, space) {
  const raw = JSON.rawJSON;
  if (typeof raw === "function") {
    return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? raw(v.toString()) : v), space);
  }
  const text = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${BIG}${v}` : v), space);
  return text.replace(new RegExp(`"${BIG}(-?\\d+)"`, "g"), "$1");
}

// ---------------------------------------------------------------- HTTP

/** @type {() => string} */
let pageLanguage = () => "en";
/** Where the page's language comes from: the server words its errors in it (?lang=).
 * @param {() => string} fn */
export function setLanguageSource(fn) {
  pageLanguage = fn;
}

/** @param {string} url */
function withLang(url) {
  return `${url}${url.includes("?") ? "&" : "?"}lang=${encodeURIComponent(pageLanguage())}`;
}

/** One request; the answer's JSON, or an ApiError with the server's one line.
 * `timeoutMs`: a request that hangs that long fails as a server away (status 0).
 * @param {string} method @param {string} url @param {unknown} [body] @param {number} [timeoutMs]
 * @returns {Promise<any>} */
export async function call(method, url, body, timeoutMs) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : stringifyJSON(body);
  }
  if (timeoutMs !== undefined && typeof AbortSignal.timeout === "function") init.signal = AbortSignal.timeout(timeoutMs);
  let r;
  try {
    r = await fetch(withLang(url), init);
  } catch (e) {
    throw new ApiError(0, String(e instanceof Error ? e.message : e));
  }
  let data = null;
  try {
    data = parseJSON(await r.text());
  } catch (_e) { /* no JSON body */ }
  if (!r.ok) throw new ApiError(r.status, (data && data.error) || `HTTP ${r.status}`, data);
  return data;
}

/** @param {Record<string, unknown>} settings */
export const createTable = (settings) => call("POST", "/api/tables", settings);
/** @param {string} id @param {string} name */
export const joinTable = (id, name) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { name });
/** @param {string} id @param {string} token */
export const startTable = (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/start`, { token });
/** @param {string} id @param {string} token */
export const rematch = (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token });
/** @param {string} id */
export const tableInfo = (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`);
/** @param {string} code */
export const resolveCode = (code) => call("GET", `/api/codes/${encodeURIComponent(code)}`);
/** @param {string} id */
export const getRecord = (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/record`);
/** The replay's steps; `record` is an object (big integers as BigInt) or a record's JSON text.
 * @param {unknown} record */
export const replaySteps = (record) => call("POST", "/api/replay", record);
/** The review of a finished game's record (docs/review.md): each decision's values.
 * @param {unknown} record */
export const reviewGame = (record) => call("POST", "/api/review", record);
/** A preset's words (PresetOut) for `options`: its rules help for them.
 * @param {string} preset @param {Record<string, unknown>} [options] */
export const presetWords = (preset, options) => call(
  "GET", `/api/presets/${encodeURIComponent(preset)}?options=${encodeURIComponent(JSON.stringify(options || {}))}`,
);

/** @param {string} id */
export function recordUrl(id) {
  return `/api/tables/${encodeURIComponent(id)}/record`;
}

/** Seconds between heartbeats, and of silence after which a connection counts as dead. */
export const PING_SECONDS = 3;
export const DEAD_SECONDS = 9;

/**
 * One websocket to a table that reconnects by itself (with the same token: the server
 * sends the full view again, with `catchup: true`). A heartbeat (`ping` every
 * PING_SECONDS, answered `pong`) finds a dead connection: when nothing at all arrives for
 * DEAD_SECONDS the socket is dropped and a new one opened. onMessage gets every parsed
 * message (pongs too); onStatus gets "open" | "connecting" | "closed".
 */
export class TableSocket {
  /**
   * @param {string} id
   * @param {string | null} token
   * @param {{onMessage: (msg: any) => void, onStatus: (status: string) => void,
   *   onGone?: () => void, lang?: () => string}} handlers
   */
  constructor(id, token, { onMessage, onStatus, onGone, lang }) {
    this.id = id;
    this.token = token;
    this.lang = lang || (() => "en");
    this.onGone = onGone || (() => {});
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.heard = 0;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.beat = undefined;
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = new URLSearchParams();
    if (this.token) q.set("token", this.token);
    q.set("lang", this.lang());
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.id)}?${q}`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.heard = Date.now();
    // a handshake that never ends (a frozen server) counts as a lost connection too
    const opening = setTimeout(() => {
      if (this.ws === ws && ws.readyState !== WebSocket.OPEN) this.lost();
    }, DEAD_SECONDS * 1000);
    ws.onopen = () => {
      clearTimeout(opening);
      if (this.ws !== ws) return;
      this.retry = 0;
      this.heard = Date.now();
      this.onStatus("open");
      this.startHeartbeat(ws);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.heard = Date.now();
      let msg;
      try {
        msg = parseJSON(e.data);
      } catch (_e) {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      if (e.code === 4404) {
        this.closed = true;
        this.stopHeartbeat();
        this.onGone();
        return;
      }
      this.lost();
    };
  }

  /** The connection is gone (closed, or silent too long): say so and open another. */
  lost() {
    this.stopHeartbeat();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      try { ws.close(); } catch (_e) { /* already closed */ }
    }
    this.onStatus("closed");
    if (this.closed) return;
    const delay = Math.min(5000, 300 * 2 ** this.retry++);
    setTimeout(() => this.connect(), delay);
  }

  /** @param {WebSocket} ws */
  startHeartbeat(ws) {
    this.stopHeartbeat();
    let n = 0;
    this.beat = setInterval(() => {
      if (this.ws !== ws) return this.stopHeartbeat();
      if (Date.now() - this.heard > DEAD_SECONDS * 1000) {
        this.lost();
        return;
      }
      if (n++ % PING_SECONDS === 0) this.send({ type: "ping" });
    }, 1000);
  }

  stopHeartbeat() {
    clearInterval(this.beat);
    this.beat = undefined;
  }

  /** Send `obj` now; false when the socket is not open.
   * @param {unknown} obj @returns {boolean} */
  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(stringifyJSON(obj));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    this.stopHeartbeat();
    if (this.ws) this.ws.close();
  }
}
