"""What one client may send to ``ono99 serve``: message size, message and request rates,
open websockets (docs/protocol.md "Limits", docs/deploy.md "Limits").

Every limit is a token bucket or a counter kept per connection or per client address
(``scope["client"]``: behind a proxy, the address uvicorn read from ``X-Forwarded-For`` of
a trusted proxy). The defaults leave a person at a table far below every limit; each one is
set by an environment variable (``ONO99_...``, see ``ENV``), 0 meaning no limit, and
``ONO99_LIMITS=off`` turns the rate and connection limits off (load tests from one address).

A refused HTTP request is a 429 ``{"error": ...}``; a refused websocket is told
``{"type": "error", "error": ...}`` and closed (4429: this address, 1013: the server is
full); a message over the rate gets an error (one a second at most, the others are
dropped), and a connection that keeps flooding is told so and closed with 1008.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ono99.i18n import N_
from ono99.web.announce import catalog, request_language

__all__ = [
    "ENV",
    "Guard",
    "LimitError",
    "Limits",
    "RateLimit",
    "SocketGuard",
    "Verdict",
    "client_ip",
    "hide_tokens",
    "is_json",
]

#: the largest websocket frame the server reads at all (uvicorn's ``ws_max_size``)
FRAME_LIMIT = 64 * 1024
#: client addresses whose buckets are kept at most (idle full ones are forgotten first)
MAX_TRACKED = 50_000

TOO_MANY_REQUESTS = N_("too many requests; slow down")
TOO_MANY_MESSAGES = N_("too many messages; slow down")
FLOODING = N_("too many messages: the connection is closed")
TOO_MANY_SOCKETS = N_("too many connections from your address")
SERVER_FULL = N_("the server is full; try again later")
TOO_LARGE = N_("the message is too large")
TOO_MANY_LOBBIES = N_("too many open tables from your address; start or wait for one")
TOO_MANY_OPEN = N_("too many open connections from your address; wait for them to finish")

#: websocket close codes
CLOSE_ADDRESS = 4429  # this address: too many connections or handshakes
CLOSE_FULL = 1013  # try again later: the server is full
CLOSE_FLOOD = 1008  # policy violation: kept flooding
CLOSE_SILENT = 1001  # going away: a client that sent heartbeats fell silent
CLOSE_GONE = 1000  # normal closure: the client went


class LimitError(ValueError):
    """A bad ``ONO99_...`` value: ``name`` and the text it held."""

    def __init__(self, name: str, value: str) -> None:
        super().__init__(f"{name}={value!r}")
        self.name = name
        self.value = value


@dataclass(frozen=True)
class Limits:
    """Every limit; a rate or a count of 0 means no limit."""

    #: the largest client message, in bytes of UTF-8 (at most ``FRAME_LIMIT``)
    max_message: int = 4096
    #: messages per second (sustained) and in a burst, one websocket
    ws_rate: float = 100.0
    ws_burst: float = 200.0
    #: messages per second and in a burst, all websockets of one address together
    ip_ws_rate: float = 1000.0
    ip_ws_burst: float = 2000.0
    #: HTTP requests and websocket handshakes per second and in a burst, one address
    ip_http_rate: float = 50.0
    ip_http_burst: float = 300.0
    #: HTTP requests of one address in progress at once (each holds a connection: a body
    #: that comes slowly holds one for up to ``body_seconds``)
    ip_http_open: int = 64
    #: open websockets of one address, and of the whole server
    ip_sockets: int = 100
    sockets: int = 10_000
    #: refused messages (less the accepted ones since) before a websocket is closed
    flood_strikes: int = 100
    #: open lobby tables (made, not started, not expired) one address may have
    lobby_tables: int = 20
    #: seconds after which a lobby table nobody started is deleted (memory and database)
    lobby_seconds: float = 6 * 3600.0
    #: seconds a finished table nobody is connected to stays in memory (then it is
    #: loaded again from the database when asked for)
    finished_seconds: float = 60.0
    #: seconds a client has to send a request's line and headers, and its body
    header_seconds: float = 10.0
    body_seconds: float = 10.0
    #: seconds a websocket that has sent a heartbeat (``ping``) may then stay silent before
    #: it counts as gone and is closed: a phone that drops off frees its seat (the away
    #: clock starts) without waiting for the websocket layer's own ping timeout (40 s)
    silent_seconds: float = 10.0

    @classmethod
    def off(cls) -> Limits:
        """No rate, connection or lobby-count limit (the message size, the timeouts and
        the lobby tables' expiry still hold)."""
        return cls(
            ws_rate=0, ws_burst=0, ip_ws_rate=0, ip_ws_burst=0, ip_http_rate=0,
            ip_http_burst=0, ip_http_open=0, ip_sockets=0, sockets=0, flood_strikes=0,
            lobby_tables=0,
        )  # fmt: skip

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """The limits that ``ONO99_...`` variables set (LimitError for a bad value)."""
        env = os.environ if env is None else env
        switch = env.get("ONO99_LIMITS", "").strip().lower()
        if switch not in ("", "on", "off"):
            raise LimitError("ONO99_LIMITS", env["ONO99_LIMITS"])
        base = cls.off() if switch == "off" else cls()
        changes: dict[str, Any] = {}
        types = {f.name: f.type for f in fields(cls)}
        for name, attr in ENV.items():
            raw = env.get(name)
            if raw is None or not raw.strip():
                continue
            try:
                value = float(raw)
            except ValueError:
                raise LimitError(name, raw) from None
            if not math.isfinite(value) or value < 0 or value > 1e9:
                raise LimitError(name, raw)
            if types[attr] in ("int", int):
                if value != int(value):
                    raise LimitError(name, raw)
                changes[attr] = int(value)
            else:
                changes[attr] = value
        limits = replace(base, **changes)
        if not 1 <= limits.max_message <= FRAME_LIMIT:
            raise LimitError("ONO99_MAX_MESSAGE", env.get("ONO99_MAX_MESSAGE", ""))
        return limits


#: environment variable -> ``Limits`` field
ENV = {
    "ONO99_MAX_MESSAGE": "max_message",
    "ONO99_WS_RATE": "ws_rate",
    "ONO99_WS_BURST": "ws_burst",
    "ONO99_IP_WS_RATE": "ip_ws_rate",
    "ONO99_IP_WS_BURST": "ip_ws_burst",
    "ONO99_IP_HTTP_RATE": "ip_http_rate",
    "ONO99_IP_HTTP_BURST": "ip_http_burst",
    "ONO99_IP_HTTP_OPEN": "ip_http_open",
    "ONO99_IP_SOCKETS": "ip_sockets",
    "ONO99_SOCKETS": "sockets",
    "ONO99_FLOOD_STRIKES": "flood_strikes",
    "ONO99_LOBBY_TABLES": "lobby_tables",
    "ONO99_LOBBY_SECONDS": "lobby_seconds",
    "ONO99_FINISHED_SECONDS": "finished_seconds",
    "ONO99_HEADER_SECONDS": "header_seconds",
    "ONO99_BODY_SECONDS": "body_seconds",
    "ONO99_SILENT_SECONDS": "silent_seconds",
}


class Bucket:
    """A token bucket: ``rate`` tokens a second up to ``burst``; rate 0: never empty."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.tokens = self.burst
        self.stamp = now

    def take(self, now: float) -> bool:
        if self.rate <= 0:
            return True
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class Buckets:
    """One bucket per client address, forgetting idle full ones when there are many."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.by_ip: dict[str, Bucket] = {}

    def take(self, ip: str, now: float) -> bool:
        if self.rate <= 0:
            return True
        bucket = self.by_ip.get(ip)
        if bucket is None:
            if len(self.by_ip) >= MAX_TRACKED:
                self._prune(now)
            bucket = self.by_ip[ip] = Bucket(self.rate, self.burst, now)
        return bucket.take(now)

    def _prune(self, now: float) -> None:
        self.by_ip = {ip: b for ip, b in self.by_ip.items() if not b.full(now)}
        if len(self.by_ip) >= MAX_TRACKED:  # all busy: keep the most recent half
            recent = sorted(self.by_ip.items(), key=lambda kv: kv[1].stamp)
            self.by_ip = dict(recent[len(recent) // 2 :])


class Verdict(Enum):
    """What the reader does with one websocket message."""

    OK = "ok"
    TOO_LARGE = "too large"  # reply an error
    SLOW_DOWN = "slow down"  # over the rate: reply an error (one a second at most)
    DROP = "drop"  # over the rate: drop it silently
    CLOSE = "close"  # kept flooding: say so and close

    @property
    def error(self) -> str | None:
        """What the client is told of a refused message (untranslated; None: nothing)."""
        return _REFUSALS.get(self)


_REFUSALS = {
    Verdict.TOO_LARGE: TOO_LARGE,
    Verdict.SLOW_DOWN: TOO_MANY_MESSAGES,
    Verdict.CLOSE: FLOODING,
}


class SocketGuard:
    """The limits of one open websocket. Each refused message is a strike, each accepted
    one takes a strike back: a client that keeps sending faster than its rate gathers
    strikes and is closed at ``flood_strikes``; one that is only now and then too quick
    never is. A run of refusals is answered with one error a second at most."""

    def __init__(self, guard: Guard, ip: str) -> None:
        self.guard = guard
        self.ip = ip
        lim = guard.limits
        self.bucket = Bucket(lim.ws_rate, lim.ws_burst, time.monotonic())
        self.strikes = 0
        self.warned = -math.inf

    def admit(self, size: int) -> Verdict:
        """The verdict on one message of ``size`` bytes."""
        lim = self.guard.limits
        now = time.monotonic()
        ok = self.bucket.take(now) and self.guard.ws_msgs.take(self.ip, now)
        if ok and size <= lim.max_message:
            self.strikes = max(0, self.strikes - 1)
            return Verdict.OK
        self.strikes += 1
        if lim.flood_strikes and self.strikes >= lim.flood_strikes:
            return Verdict.CLOSE
        if ok:
            return Verdict.TOO_LARGE
        if now - self.warned >= 1.0:
            self.warned = now
            return Verdict.SLOW_DOWN
        return Verdict.DROP

    async def receive(self, websocket: WebSocket, beating: bool) -> Message | int:
        """The client's next frame, or the close code: ``CLOSE_GONE`` when it went,
        ``CLOSE_SILENT`` when it has sent a heartbeat (``beating``) and then nothing for
        ``silent_seconds`` (0: no such rule)."""
        silent = self.guard.limits.silent_seconds
        try:
            if beating and silent > 0:
                frame = await asyncio.wait_for(websocket.receive(), silent)
            else:
                frame = await websocket.receive()
        except TimeoutError:
            return CLOSE_SILENT
        except (WebSocketDisconnect, RuntimeError):
            return CLOSE_GONE
        if frame["type"] == "websocket.disconnect":
            return CLOSE_GONE
        return frame


def frame_size(frame: Message) -> int:
    """A frame's size in bytes: its text's in UTF-8, or its bytes'."""
    text = frame.get("text")
    if text is not None:
        return len(text) if text.isascii() else len(text.encode("utf-8", "replace"))
    return len(frame.get("bytes") or b"")


class Guard:
    """The limits of one server: buckets per address, open websockets."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.http = Buckets(limits.ip_http_rate, limits.ip_http_burst)
        self.ws_msgs = Buckets(limits.ip_ws_rate, limits.ip_ws_burst)
        self.open_by_ip: dict[str, int] = {}
        self.open_total = 0
        #: HTTP requests in progress, per address (``Limits.ip_http_open``)
        self.http_open: dict[str, int] = {}

    def request(self, ip: str) -> bool:
        """Whether ``ip`` may make one more HTTP request or websocket handshake."""
        return self.http.take(ip, time.monotonic())

    def open_socket(self, ip: str) -> tuple[str, int] | None:
        """Count one more websocket of ``ip``; or the refusal (message template, close
        code), and then nothing is counted."""
        lim = self.limits
        if not self.request(ip):
            return TOO_MANY_REQUESTS, CLOSE_ADDRESS
        if lim.sockets and self.open_total >= lim.sockets:
            return SERVER_FULL, CLOSE_FULL
        if lim.ip_sockets and self.open_by_ip.get(ip, 0) >= lim.ip_sockets:
            return TOO_MANY_SOCKETS, CLOSE_ADDRESS
        self.open_by_ip[ip] = self.open_by_ip.get(ip, 0) + 1
        self.open_total += 1
        return None

    def close_socket(self, ip: str) -> None:
        n = self.open_by_ip.get(ip, 0) - 1
        if n > 0:
            self.open_by_ip[ip] = n
        else:
            self.open_by_ip.pop(ip, None)
        self.open_total = max(0, self.open_total - 1)

    def socket(self, ip: str) -> SocketGuard:
        return SocketGuard(self, ip)


def client_ip(scope: Scope) -> str:
    """The client's address (after uvicorn's proxy headers), or "-" when unknown."""
    client = scope.get("client")
    if client:
        return str(client[0])
    return "-"


#: the pages' own files (GET or HEAD): not counted in an address's request rate. A phone
#: opening the companion fetches about 30 of them and its service worker stores Pyodide's
#: (dozens more), so a family's phones behind one home router, opening the page together,
#: used up the burst and had their taps refused (429). They still count among the
#: requests in progress at once (``ip_http_open``), which bounds what one address can ask.
ASSET_PREFIXES = (
    "/static/", "/companion-pyodide/", "/companion-python.zip", "/companion-sw.js",
    "/companion-site.json",
)  # fmt: skip


def _asset(scope: Scope) -> bool:
    return scope.get("method") in ("GET", "HEAD") and str(scope.get("path", "")).startswith(
        ASSET_PREFIXES
    )


class RateLimit:
    """ASGI middleware: HTTP requests over an address's rate get 429 ``{"error": ...}``,
    and so do those over its count of requests in progress at once (``ip_http_open``;
    that answer closes the connection); ``/healthz`` is never limited, and the pages' own
    files (:data:`ASSET_PREFIXES`) are not counted in the rate; websocket handshakes are
    counted by the handler."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") == "/healthz":
            await self.app(scope, receive, send)
            return
        ip = client_ip(scope)
        if not _asset(scope) and not self.guard.request(ip):
            lim = self.guard.limits
            retry = 1 if lim.ip_http_rate >= 1 else 1 + int(1 / max(lim.ip_http_rate, 1e-3))
            await _too_many(scope, send, TOO_MANY_REQUESTS, [(b"retry-after", str(retry).encode())])
            return
        cap = self.guard.limits.ip_http_open
        open_now = self.guard.http_open
        if cap and open_now.get(ip, 0) >= cap:
            await _too_many(scope, send, TOO_MANY_OPEN, [(b"connection", b"close")])
            return
        # counted before the first await: concurrent requests cannot all slip under the cap
        open_now[ip] = open_now.get(ip, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = open_now.get(ip, 1) - 1
            if left > 0:
                open_now[ip] = left
            else:
                open_now.pop(ip, None)


async def _too_many(
    scope: Scope, send: Send, message: str, headers: list[tuple[bytes, bytes]]
) -> None:
    """429 ``{"error": message}`` in the language the request asks for."""
    text = catalog(request_language(Request(scope))).gettext(message)
    body = json.dumps({"error": text}, ensure_ascii=False).encode()
    await send(
        {"type": "http.response.start", "status": 429,
         "headers": [(b"content-type", b"application/json"),
                     (b"content-length", str(len(body)).encode()), *headers]}
    )  # fmt: skip
    await send({"type": "http.response.body", "body": body})


def is_json(request: Request) -> bool:
    """Whether the request says its body is ``application/json`` (parameters aside):
    state-changing POSTs require it, so that a form on another site cannot send one."""
    kind = request.headers.get("content-type", "")
    return kind.split(";", 1)[0].strip().lower() == "application/json"


_TOKEN = re.compile(r"(token=)[^&\s\"']+", re.IGNORECASE)


class HideTokens(logging.Filter):
    """Rewrites ``token=SECRET`` in a log record as ``token=***`` (uvicorn logs the URL of
    every websocket it accepts at INFO, the URL holds the seat's token)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # a record that does not format: leave it to the handler
            return True
        if "token=" in text.lower():
            record.msg = _TOKEN.sub(r"\1***", text)
            record.args = ()
        return True


class NoClientTracebacks(logging.Filter):
    """uvicorn logs a client's bad websocket frame (a text frame that is not UTF-8) with
    a traceback; it closes the connection (1007) itself. One info line, no traceback:
    what a client sends never puts a traceback in the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, UnicodeDecodeError):
            record.exc_info = None
            record.exc_text = None
            record.levelno = logging.INFO
            record.levelname = "INFO"
        return True


def hide_tokens() -> None:
    """Keep tokens out of uvicorn's log lines (whatever its log level), and a client's
    bad frames from putting a traceback there."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideTokens) for f in logger.filters):
            logger.addFilter(HideTokens())
        if not any(isinstance(f, NoClientTracebacks) for f in logger.filters):
            logger.addFilter(NoClientTracebacks())
