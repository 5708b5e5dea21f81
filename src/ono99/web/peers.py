"""Direct links between the processes that share one PostgreSQL database (web/shared.py):
the announcements of stored changes (web/notices.py's payloads) go from the process that
stored them straight to the others, instead of through ``NOTIFY``.

Why: PostgreSQL reads its notice queue for every listening connection of the database in a
transaction of its own, so with ``NOTIFY`` a change stored alone cost one transaction more
per process (three with two processes). Sent over these links, it costs its own write only.

How: every process listens on a TCP port (``ONO99_PEER_HOST``, 127.0.0.1 by default, any
free port) and keeps its address and a random key in its row of ``ono99_procs``, renewed
with its lease. Each process connects to every other live one and subscribes; both sides
prove they read the key from the database (HMAC-SHA256 of fresh nonces), so nobody without
the database can read or inject announcements. After each commit a process sends the
change's payloads, one a line, to its subscribers.

Nothing is lost: a process announces with ``NOTIFY`` (in the transaction, as before)
whenever some live process is not subscribed to it (it has just started, its link
dropped, it cannot reach this one's address, or it is an older release). A subscriber
reads back everything it has loaded each time its link is made and each time it drops (a
process killed between its commit and its send), and a gap in a table's moves is read
back as for ``NOTIFY`` (web/tables.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import secrets
import threading
from collections.abc import Callable, Mapping

__all__ = ["Peer", "Peers", "peer_host"]

log = logging.getLogger("ono99.web")

#: the first line a process sends a process that connects to it
HELLO = "ono99-peer-1"
#: bytes a subscriber may have waiting unsent before its link is dropped (it reads back)
MAX_BACKLOG = 1 << 20
#: seconds to connect and prove the key
HANDSHAKE_SECONDS = 5.0

#: a live process as the heartbeat reads it: (id, address or None, key or None)
Peer = tuple[str, str | None, str | None]


def peer_host(env: Mapping[str, str] | None = None) -> str | None:
    """``ONO99_PEER_HOST``: the address this process listens on for the others and tells
    them (127.0.0.1 by default: processes on one machine); ``off``: no links (every change
    announced with ``NOTIFY``)."""
    raw = (os.environ if env is None else env).get("ONO99_PEER_HOST", "").strip()
    if raw.lower() == "off":
        return None
    return raw or "127.0.0.1"


def _mac(key: str, *parts: str) -> str:
    return hmac.new(bytes.fromhex(key), "|".join(parts).encode(), hashlib.sha256).hexdigest()


class Peers:
    """This process's links to the others: its subscribers, and its subscriptions."""

    def __init__(self, proc: str, heard: Callable[[str | None], None]) -> None:
        self.proc = proc
        #: called with each payload another process sent, or None: read back everything
        self.heard = heard
        self.key = secrets.token_hex(32)
        #: "HOST:PORT" others connect to, once listening (None: no links)
        self.addr: str | None = None
        self._server: asyncio.Server | None = None
        self._subs: dict[str, asyncio.StreamWriter] = {}
        self._live: set[str] | None = None  # the other live processes, at the last heartbeat
        self._links: dict[str, asyncio.Task[None]] = {}
        self._linked = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = 0
        self._enabled = False  # subscribes to the others (not with ONO99_PEER_HOST=off)

    async def start(self, host: str | None) -> None:
        """Listen for the others on ``host`` (None: no links; a failure is logged)."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._enabled = host is not None
        if host is None:
            return
        try:
            self._server = await asyncio.start_server(self._serve, host, 0)
        except OSError as e:
            log.warning("ono99: no links between processes on %s (%s): NOTIFY only", host, e)
            return
        port = self._server.sockets[0].getsockname()[1]
        self.addr = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    async def stop(self) -> None:
        for task in self._links.values():
            task.cancel()
        for task in list(self._links.values()):
            with contextlib.suppress(BaseException):
                await task
        self._links.clear()
        for writer in list(self._subs.values()):
            writer.close()
        self._subs.clear()
        self._linked = False
        if self._server is not None:
            self._server.close()
            self._server = None

    def linked(self) -> bool:
        """Whether every other live process is subscribed here: a change may then be
        announced by ``push`` alone (any thread)."""
        return self._linked

    def push(self, payloads: list[str]) -> None:
        """Send ``payloads`` (stored, committed) to every subscriber; from any thread.
        Never raises: what is committed stays told as stored (a subscriber that misses it
        reads it back when its link drops)."""
        if not payloads or self._loop is None:
            return
        if threading.get_ident() == self._thread:
            self._send(payloads)
        else:
            with contextlib.suppress(RuntimeError):  # the loop has closed: shutting down
                self._loop.call_soon_threadsafe(self._send, payloads)

    def _send(self, payloads: list[str]) -> None:
        data = ("\n".join(payloads) + "\n").encode()
        for pid, writer in list(self._subs.items()):
            try:
                if writer.is_closing():
                    continue
                writer.write(data)
                if writer.transport.get_write_buffer_size() <= MAX_BACKLOG:
                    continue
                log.warning("ono99: process %s reads too slowly: its link is dropped", pid)
            except Exception:  # a broken link: dropped, the subscriber reads back
                pass
            self._drop(pid, writer)

    def _drop(self, pid: str, writer: asyncio.StreamWriter) -> None:
        if self._subs.get(pid) is writer:
            del self._subs[pid]
            self._update()
        writer.close()

    def _update(self) -> None:
        self._linked = self._live is not None and self._live <= self._subs.keys()

    def heard_of(self, pid: str) -> None:
        """Process ``pid`` has just started (its hello): announce by NOTIFY until it has
        subscribed here (the next heartbeat brings its address)."""
        self._live = {pid} if self._live is None else self._live | {pid}
        self._update()

    def update(self, live: list[Peer]) -> None:
        """The other live processes as the heartbeat found them: subscribe to each one
        that can be reached, forget the gone."""
        self._live = {pid for pid, _a, _k in live}
        for pid, addr, key in live:
            task = self._links.get(pid)
            if self._enabled and addr and key and (task is None or task.done()):
                self._links[pid] = asyncio.create_task(self._link(pid, addr, key))
        for pid in list(self._links):
            if pid not in self._live:
                self._links.pop(pid).cancel()
        self._update()

    # ------------------------------------------------------------ a subscriber's side

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One process subscribing here: the key's proof, then this process's payloads
        until it goes."""
        pid = None
        try:
            nonce = secrets.token_hex(16)
            writer.write(f"{HELLO} {nonce}\n".encode())
            line = await asyncio.wait_for(reader.readline(), HANDSHAKE_SECONDS)
            parts = line.decode("ascii", "replace").split()
            if len(parts) != 3 or not hmac.compare_digest(
                parts[2], _mac(self.key, "sub", parts[0], nonce, parts[1])
            ):
                return
            pid, theirs = parts[0], parts[1]
            old = self._subs.pop(pid, None)
            if old is not None:
                old.close()
            # subscribed from here on: every payload pushed after this line reaches it
            self._subs[pid] = writer
            writer.write((_mac(self.key, "pub", self.proc, theirs, nonce) + "\n").encode())
            self._update()
            while await reader.read(1024):  # it sends nothing more: wait for it to go
                pass
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            if pid is not None and self._subs.get(pid) is writer:
                del self._subs[pid]
                self._update()
            writer.close()

    # ----------------------------------------------------------- a subscription's side

    async def _link(self, pid: str, addr: str, key: str) -> None:
        """Subscribe to process ``pid`` and take in its payloads, again after a drop,
        until cancelled (it is no longer live)."""
        host, _, port = addr.rpartition(":")
        backoff = 0.2
        while True:
            made = False
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(host.strip("[]"), int(port), limit=1 << 20),
                    HANDSHAKE_SECONDS,
                )
                try:
                    await asyncio.wait_for(self._subscribe(reader, writer, pid, key), 5)
                    made = True
                    backoff = 0.2
                    self.heard(None)  # what it stored before the link: read back
                    while line := await reader.readline():
                        if not line.endswith(b"\n"):
                            break
                        self.heard(line[:-1].decode("utf-8", "replace"))
                finally:
                    writer.close()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.debug("ono99: link to process %s: %s", pid, type(e).__name__)
            if made:
                # what it stored and did not send (killed between its commit and its
                # send): read back now, and once more when its last commit has surely landed
                self.heard(None)
                await asyncio.sleep(1.0)
                self.heard(None)
            else:
                await asyncio.sleep(backoff)
                backoff = min(5.0, backoff * 2)

    async def _subscribe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, pid: str, key: str
    ) -> None:
        hello = (await reader.readline()).decode("ascii", "replace").split()
        if len(hello) != 2 or hello[0] != HELLO:
            raise ConnectionError("not a peer")
        mine = secrets.token_hex(16)
        writer.write(f"{self.proc} {mine} {_mac(key, 'sub', self.proc, hello[1], mine)}\n".encode())
        proof = (await reader.readline()).decode("ascii", "replace").strip()
        if not hmac.compare_digest(proof, _mac(key, "pub", pid, mine, hello[1])):
            raise ConnectionError("the peer did not prove its key")
