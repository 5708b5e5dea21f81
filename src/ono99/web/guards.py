"""The HTTP server's guards against a hostile client: security headers on every answer,
a limit on request bodies (size and time), a deadline on request headers, and the websocket
``Origin`` check (docs/deploy.md "Limits", docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ono99.i18n import N_
from ono99.records import RECORD_LIMIT  # the largest game record ``POST /api/replay`` takes
from ono99.web.announce import catalog, request_language
from ono99.web.limits import Limits

__all__ = [
    "BODY_LIMIT", "BODY_SECONDS", "HEADER_SECONDS", "NOSNIFF", "PAGE_HEADERS", "RECORD_LIMIT",
    "TOO_LARGE", "TOO_SLOW", "BodyLimit", "SecurityHeaders", "http_protocol", "public_origin",
    "same_origin",
]  # fmt: skip

#: the largest request body or websocket message, in bytes
BODY_LIMIT = 64 * 1024
#: seconds a client has to send a request's whole body (a slow one gets 408), and its
#: request line and headers (then it is closed): ``Limits.body_seconds``/``header_seconds``
BODY_SECONDS = Limits.body_seconds
HEADER_SECONDS = Limits.header_seconds
#: the answers to a body over the limit (413) and to one that came too slowly (408)
TOO_LARGE = N_("the request body is too large")
TOO_SLOW = N_("the request body came too slowly")

#: the page runs only its own files: nothing a name or a message holds can run as script
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class SecurityHeaders:
    """ASGI middleware: ``nosniff`` on every answer, and the page headers (CSP with
    ``frame-ancestors 'none'``) on every HTML one (``/``, ``/t/CODE``, ``/companion``,
    ``/static/*.html``, an error page)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers") or [])
                have = {k.lower() for k, _v in headers}
                kind = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                extra = PAGE_HEADERS if kind.lower().startswith(b"text/html") else NOSNIFF
                for k, v in extra.items():
                    if k.lower().encode() not in have:
                        headers.append((k.lower().encode(), v.encode()))
                msg = {**msg, "headers": headers}
            await send(msg)

        await self.app(scope, receive, with_headers)


NOSNIFF = {"X-Content-Type-Options": "nosniff"}


def public_origin(url: str) -> str:
    """``url`` (``--public-url``) as the links' start: ``scheme://host[:port][/path]``
    without a trailing slash; ValueError, one line, unless it is an http(s) URL."""
    raw = url.strip()
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise ValueError(f"not an http(s) URL: {raw!r}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"not an http(s) URL: {raw!r}")
    if any(ch.isspace() or ord(ch) < 32 for ch in raw):
        raise ValueError(f"not an http(s) URL: {raw!r}")
    return f"{parts.scheme}://{parts.netloc}{parts.path}".rstrip("/")


def same_origin(origin: str, host: str | None, public: str | None) -> bool:
    """Whether a websocket's ``Origin`` is this server's: the Host it asked for, or the
    configured public URL."""
    try:
        o = urlsplit(origin.strip())
        netloc = o.netloc.lower()
    except ValueError:
        return False
    if o.scheme not in ("http", "https") or not netloc:
        return False
    if public is not None:
        p = urlsplit(public)
        if (o.scheme, netloc) == (p.scheme, p.netloc.lower()):
            return True
    if host is None:
        return False
    default = {"http": ":80", "https": ":443"}[o.scheme]
    host = host.strip().lower()
    return netloc == host or netloc + default == host or netloc == host + default


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 (Content-Length or counted);
    ``/api/replay`` takes records up to ``RECORD_LIMIT``. A body that has not come in
    whole ``seconds`` after the app asked for it is refused with 408 (a slow client)."""

    def __init__(self, app: ASGIApp, limit: int, seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.default = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = RECORD_LIMIT if scope.get("path") == "/api/replay" else self.default
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        too_big = False
        if length is not None:
            try:
                too_big = int(length) > limit
            except ValueError:
                too_big = True
        if too_big:
            await _refuse(scope, send, 413, TOO_LARGE)
            return
        seen = 0
        whole = False  # the last part of the body came: later reads wait for the disconnect
        deadline: float | None = None
        started = False

        async def limited() -> Message:
            nonlocal deadline
            if whole:
                return await receive()
            if self.seconds <= 0:
                msg = await receive()
                return _count(msg)
            loop = asyncio.get_running_loop()
            if deadline is None:
                deadline = loop.time() + self.seconds
            try:
                msg = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise _TooSlow from None
            return _count(msg)

        def _count(msg: Message) -> Message:
            nonlocal seen, whole
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise _TooBig
                whole = not msg.get("more_body", False)
            return msg

        async def watched(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, limited, watched)
        except _TooBig:
            if not started:
                await _refuse(scope, send, 413, TOO_LARGE)
        except _TooSlow:
            if not started:
                await _refuse(scope, send, 408, TOO_SLOW)


async def _refuse(scope: Scope, send: Send, status: int, message: str) -> None:
    """Answer ``{"error": message}`` in the language the request asks for: this guard
    answers before any route has read the request."""
    text = catalog(request_language(HTTPConnection(scope))).gettext(message)
    body = json.dumps({"error": text}, ensure_ascii=False).encode()
    # and the connection is closed: the rest of a body that came too slowly (or too big)
    # is never read, so a client that goes on trickling bytes holds nothing
    await send(
        {"type": "http.response.start", "status": status,
         "headers": [(b"content-type", b"application/json; charset=utf-8"),
                     (b"content-length", str(len(body)).encode()),
                     (b"connection", b"close")]}
    )  # fmt: skip
    await send({"type": "http.response.body", "body": body})


def http_protocol(seconds: float = HEADER_SECONDS) -> Any:
    """uvicorn's HTTP protocol (httptools) with a deadline on the request line and
    headers: a connection that has not sent them whole ``seconds`` after it opened, or
    after its request began, is closed (a slow-header client holds nothing for long;
    0: no deadline).
    uvicorn's own ``timeout_keep_alive`` only covers the wait between two requests.
    "auto" (uvicorn's choice, without that deadline) where httptools is not installed."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
        return "auto"

    class HeaderDeadline(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            if seconds > 0:
                self._header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._header_timer is None:
                self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # idle until the next request: uvicorn's keep-alive timeout closes it
            self._disarm()

    return HeaderDeadline


class _TooBig(Exception):
    pass


class _TooSlow(Exception):
    pass
