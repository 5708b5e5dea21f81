// A stand-in for the browser's localStorage in node tests: a Map behind its calls, and a
// switch that makes every call throw as a browser with storage off does.
export class MemoryStorage {
  constructor() { this.items = new Map(); this.off = false; }
  getItem(k) { this.check(); return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.check(); this.items.set(k, String(v)); }
  removeItem(k) { this.check(); this.items.delete(k); }
  check() { if (this.off) throw new Error("storage off"); }
}
