// HTTP and websocket calls of the web table (CONTRACTS.md "Web", docs/protocol.md).

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(url, init);
  } catch (e) {
    throw new ApiError(0, String(e && e.message ? e.message : e));
  }
  let data = null;
  try {
    data = await r.json();
  } catch (_e) { /* no JSON body */ }
  if (!r.ok) throw new ApiError(r.status, (data && data.error) || `HTTP ${r.status}`);
  return data;
}

export const createTable = (settings) => call("POST", "/api/tables", settings);
export const joinTable = (id, name) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { name });
export const startTable = (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/start`, { token });
export const rematch = (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token });
export const tableInfo = (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`);
export const resolveCode = (code) => call("GET", `/api/codes/${encodeURIComponent(code)}`);
export const getRecord = (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/record`);
export const replaySteps = (record) => call("POST", "/api/replay", record);

export function recordUrl(id) {
  return `/api/tables/${encodeURIComponent(id)}/record`;
}

/**
 * One websocket to a table that reconnects by itself (with the same token: the server
 * sends the full view again). onMessage gets every parsed message; onStatus gets
 * "open" | "connecting" | "closed".
 */
export class TableSocket {
  constructor(id, token, { onMessage, onStatus, onGone, lang }) {
    this.id = id;
    this.token = token;
    this.lang = lang || (() => "en");
    this.onGone = onGone || (() => {});
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.closed = false;
    this.retry = 0;
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
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus("open");
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch (_e) {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      if (e.code === 4404) {
        this.closed = true;
        this.onGone();
        return;
      }
      this.onStatus("closed");
      if (this.closed) return;
      const delay = Math.min(5000, 300 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    };
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
