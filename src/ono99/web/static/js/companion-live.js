// Every page open on a companion game follows it live (docs/companion.md "Several phones
// on one game"): a websocket to /ws/companion/ID is sent the game after each change made
// on any screen. It only listens; changes go through the API. Dropped, it comes back
// (the game as it stands is its first message), and it pings to notice a dead link.

const PING_MS = 15_000;

/** Follow game `id` in language `lang`: `onGame(message)` for each game sent; the
 * returned function stops following. */
export function follow(id, lang, onGame) {
  let ws = null;
  let stopped = false;
  let wait = 500;
  let timer = null;
  let ping = null;
  const open = () => {
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/ws/companion/${encodeURIComponent(id)}?lang=${lang}`);
    ws.addEventListener("open", () => {
      wait = 500;
      ping = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}'); }, PING_MS);
    });
    ws.addEventListener("message", (e) => {
      let msg = null;
      try { msg = JSON.parse(e.data); } catch (_e) { return; }
      if (msg && msg.type === "game" && msg.id === id) onGame(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(ping);
      if (stopped) return;
      timer = setTimeout(open, wait); // the server away: again, less and less often
      wait = Math.min(wait * 2, 8000);
    });
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearInterval(ping);
    if (ws) ws.close();
  };
}
