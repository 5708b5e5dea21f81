"""``ono99 serve``: the web table (CONTRACTS.md "Web", docs/protocol.md)."""

from __future__ import annotations

import errno
import logging
import socket
from typing import Annotated

import typer

from ono99.cli.base import app, fail
from ono99.i18n import _, os_reason, translate_error


@app.command(help=_("Serve the web table: play ONO 99 with friends in the browser."))
def serve(
    host: Annotated[str, typer.Option("--host", help=_("Address to listen on."))] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help=_("Port to listen on."), min=0, max=65535)
    ] = 8099,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help=_("Database URL: sqlite:///PATH or postgresql://USER@HOST:PORT/DB."),
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help=_(
                "Where players reach the server, e.g. https://ono.example.org: the start "
                "of every invitation link, and the origin websockets may come from."
            ),
        ),
    ] = None,
) -> None:
    """Serve the web table: play ONO 99 with friends in the browser."""
    try:
        import uvicorn

        from ono99.web.app import create_app
        from ono99.web.guards import BODY_LIMIT, http_protocol, public_origin
        from ono99.web.limits import LimitError, Limits
        from ono99.web.shared import lease_seconds
        from ono99.web.store import default_db_url, engine_url
    except ModuleNotFoundError:
        raise fail(_("the web table needs its extra: pip install 'ono99[web]'")) from None
    try:
        limits = Limits.from_env()  # docs/deploy.md "Limits"
    except LimitError as e:
        raise fail(
            _('bad value {value} for {name} (see "Limits" in docs/deploy.md)').format(
                value=repr(e.value), name=e.name
            )
        ) from None
    try:
        lease_seconds()  # read again by each process sharing PostgreSQL; checked here
    except ValueError as e:
        raise fail(
            _('bad value {value} for {name} (see "Settings that matter" in docs/deploy.md)').format(
                value=repr(str(e)), name="ONO99_LEASE_SECONDS"
            )
        ) from None
    if public_url is not None:
        try:
            public_url = public_origin(public_url)
        except ValueError:
            raise fail(
                _("--public-url must be an http(s) URL such as https://ono.example.org")
            ) from None
    from ono99.web.companion_site import SiteError, pyodide_source

    try:
        pyodide_source()  # ONO99_PYODIDE naming a folder without Pyodide: say so now
    except SiteError as e:
        raise fail(_(e.template).format(**e.params)) from None
    sock = _listen(host, port)  # before the database: a busy port touches nothing
    url = db or default_db_url()
    try:
        engine_url(url)
        from ono99.web.store import Store

        Store(url).close()  # reach the database now: a bad URL is a one-line error
    except ModuleNotFoundError:
        sock.close()
        raise fail(_("PostgreSQL needs psycopg: pip install 'ono99[web]'")) from None
    except Exception as e:  # any driver error: one line, no traceback
        sock.close()
        raise fail(
            _("cannot open the database {url}: {reason}").format(
                url=_shown(url), reason=str(e).splitlines()[0] if str(e) else type(e).__name__
            )
        ) from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    port = sock.getsockname()[1]  # --port 0: the port the system chose
    print(_("ONO 99 web table on http://{host}:{port}/").format(host=host, port=port), flush=True)
    config = uvicorn.Config(
        create_app(url, limits=limits, public_url=public_url, tune_gc=True),
        host=host,
        port=port,
        # a request line and headers must come within ONO99_HEADER_SECONDS, a body within
        # ONO99_BODY_SECONDS (docs/deploy.md "Limits"), an idle connection goes after 5 s
        http=http_protocol(limits.header_seconds),
        timeout_keep_alive=5,
        ws_max_size=BODY_LIMIT,
        # No permessage-deflate: compressing every state message for every connection
        # cost more CPU than anything else per move in benchmarks/load.py (README "Web
        # server load"); the messages are a few KiB.
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=False,  # websocket URLs carry tokens: never logged
        proxy_headers=True,
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C during startup or shutdown (uvicorn.run's own rule)
        pass
    finally:
        sock.close()
    if not server.started:  # the app failed to start (uvicorn has logged why): its status
        raise typer.Exit(3)


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here as uvicorn would bind it, so that a busy port or
    an address this machine does not have is a one-line error (exit 2), not uvicorn's
    log lines and exit 3."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: restarts at once
    try:
        sock.bind((host, port))
    except (OSError, OverflowError) as e:
        sock.close()
        if isinstance(e, OSError) and e.errno == errno.EADDRINUSE:
            raise fail(
                _(
                    "port {port} on {host} is in use (another server?); choose another with --port"
                ).format(port=port, host=host)
            ) from None
        reason = translate_error(os_reason(e)) if isinstance(e, OSError) else str(e)
        raise fail(
            _("cannot listen on {host} port {port}: {reason}").format(
                host=host, port=port, reason=reason
            )
        ) from None
    sock.set_inheritable(True)
    return sock


def _shown(url: str) -> str:
    """``url`` with any password masked."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]
