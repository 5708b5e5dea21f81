// @ts-check
// Every page open on a companion game follows it live (docs/companion.md "Several phones
// on one game"): a websocket to /ws/companion/ID is sent the game after each change made
// on any screen. It only listens; changes go through the API. Dropped, it comes back
// (the game as it stands is its first message), and it pings to notice a dead link: every
// 3 s, as the table's page does, since the server closes a socket that has pinged and then
// falls silent for its silent_seconds (10 s by default).

const PING_MS = 3_000;

/** Follow game `id` in language `lang`: `onGame(message)` for each game sent; the
 * returned function stops following.
 * @param {string} id @param {string} lang @param {(msg: any) => void} onGame
 * @returns {() => void} */
export function follow(id, lang, onGame) {
  /** @type {WebSocket | null} */
  let ws = null;
  let stopped = false;
  let wait = 500;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let ping;
  const open = () => {
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/companion/${encodeURIComponent(id)}?lang=${lang}`);
    ws = socket;
    socket.addEventListener("open", () => {
      wait = 500;
      ping = setInterval(() => { if (socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}'); }, PING_MS);
    });
    socket.addEventListener("message", (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (_e) { return; }
      if (msg && msg.type === "game" && msg.id === id) onGame(msg);
    });
    socket.addEventListener("close", () => {
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
