"""Seat tokens (issue 13): unguessable (``secrets``), compared in constant time, never
logged, and a wrong token gets exactly the answer of an unknown table, on every endpoint
that takes one and on the websocket, in every phase of a table."""

from __future__ import annotations

import contextlib
import json
import random
import re
import string
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest
from hostile_helpers import InProcess, served
from server_helpers import Client, Server, arun, create, join, play_to_end, start
from websockets.sync.client import connect

import ono99.web.tables as tables_module
from ono99.web.limits import Limits

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: loggers of the server side (the test's own websocket and HTTP clients log URLs too)
SERVER_LOGGERS = re.compile(
    r"^(uvicorn|ono99|sqlalchemy|starlette|fastapi|asyncio|websockets\.server)"
)


def test_tokens_are_long_random_and_distinct(tmp_path: Path) -> None:
    with served(tmp_path, Limits.off()) as (srv, _records):
        tokens = []
        for _ in range(8):
            tid = create(srv, players=4)["table"]
            tokens += [join(srv, tid, f"P{i}")["token"] for i in range(4)]
    assert len(set(tokens)) == len(tokens)
    alphabet = set(string.ascii_letters + string.digits + "-_")
    for t in tokens:
        assert len(t) >= 43 and set(t) <= alphabet  # 32 random bytes, URL-safe base64
    # No shared structure: prefixes and suffixes differ as random text's do.
    assert len({t[:4] for t in tokens}) > len(tokens) - 3
    assert len({t[-4:] for t in tokens}) > len(tokens) - 3
    # Made by ``secrets`` (the operating system's randomness), never ``random``.
    real = tables_module.secrets.token_urlsafe

    def fake(n: int) -> str:
        return "T" * 43 if n == 32 else real(n)

    with mock.patch.object(tables_module.secrets, "token_urlsafe", side_effect=fake) as made:
        with served(tmp_path / "b", Limits.off()) as (srv, _records):
            tid = create(srv, players=2)["table"]
            assert join(srv, tid, "Ana")["token"] == "T" * 43
        assert made.called


def test_seat_for_compares_every_seat_in_constant_time(tmp_path: Path) -> None:
    """Every seat's hash is compared with ``hmac.compare_digest``, whether the token is
    right, wrong or the first seat's: no early exit."""
    with served(tmp_path, Limits.off()) as (srv, _records):
        tid = create(srv, players=4)["table"]
        toks = [join(srv, tid, f"P{i}")["token"] for i in range(4)]
        table = srv.table(tid)
        for token, seat in ((toks[0], 0), (toks[3], 3), ("x" * 43, None), ("", None)):
            with mock.patch.object(
                tables_module.hmac, "compare_digest", wraps=tables_module.hmac.compare_digest
            ) as cmp:
                assert table.seat_for(token) == seat
            assert cmp.call_count == 4


def _answer(r: httpx.Response) -> tuple[int, Any]:
    return r.status_code, r.json()


def test_wrong_token_answers_like_an_unknown_table(tmp_path: Path) -> None:
    """start and rematch (HTTP) and the websocket, for a table in the lobby, playing and
    over: a wrong token (made up, empty, very long, another table's, another seat's
    hash...) gets the very answer of an unknown table, in English and in Tamil."""
    with served(tmp_path, Limits.off()) as (srv, records):
        lobby = create(srv, players=2)["table"]
        lobby_tok = join(srv, lobby, "Ana")["token"]
        playing = create(srv, players=2, seed=1)["table"]
        join(srv, playing, "Ana")
        start(srv, playing, join(srv, playing, "Bo")["token"])
        over = _finished_table(srv)
        wrong = [
            "x" * 43,
            "",
            "é" * 50,
            "A" * 5000,
            lobby_tok + "x",
            lobby_tok[:-1],
            " " + lobby_tok,
        ]
        for lang in ("en", "ta"):
            for endpoint in ("start", "rematch"):
                unknown = _answer(
                    httpx.post(
                        f"{srv.url}/api/tables/NoSuchTable123/{endpoint}",
                        params={"lang": lang}, json={"token": lobby_tok},
                    )
                )  # fmt: skip
                assert unknown[0] == 404
                for tid in (lobby, playing, over):
                    for token in [*wrong, *(["other"] if tid != lobby else [])]:
                        token = lobby_tok if token == "other" else token
                        got = httpx.post(
                            f"{srv.url}/api/tables/{tid}/{endpoint}",
                            params={"lang": lang}, json={"token": token},
                        )  # fmt: skip
                        assert _answer(got) == unknown, (endpoint, tid, token[:10])
            ws_unknown = _ws_answer(srv, "NoSuchTable123", lobby_tok, lang)
            assert ws_unknown[1] == 4404
            for tid in (lobby, playing, over):
                for token in [
                    "x" * 43,
                    "é",
                    lobby_tok + "x",
                    *([lobby_tok] if tid != lobby else []),
                ]:
                    assert _ws_answer(srv, tid, token, lang) == ws_unknown, (tid, token[:10])
        assert records.problems() == []


def _ws_answer(srv: InProcess, tid: str, token: str, lang: str) -> tuple[Any, int | None]:
    url = f"{srv.ws_url}/ws/{tid}?" + httpx.QueryParams({"token": token, "lang": lang}).__str__()
    with connect(url, open_timeout=10) as ws:
        msg = json.loads(ws.recv(timeout=10))
        with contextlib.suppress(Exception):  # closed: the close code is known then
            ws.recv(timeout=10)
        return msg, ws.close_code


def _finished_table(srv: Any) -> str:
    """A 2-seat table of two people played to the end; its id."""

    async def run() -> str:
        t = create(srv, players=2, seed=7)
        tid = t["table"]
        seats = [join(srv, tid, n) for n in ("Ana", "Bo")]
        clients = [await Client.open(srv, tid, s["token"], seat=s["seat"]) for s in seats]
        for c in clients:
            await c.next_state()
        start(srv, tid, seats[0]["token"])
        final = await play_to_end(clients, random.Random(7), timeout=90)
        assert final["view"]["phase"] == "over"
        for c in clients:
            await c.close()
        return str(tid)

    return str(arun(run()))


def _tokens_of_a_game(srv: Any) -> list[str]:
    """Play a game with two people (tokens in websocket URLs, start and rematch bodies),
    reconnect once, ask for a rematch: every token handed out."""

    async def run() -> list[str]:
        t = create(srv, players=3, seed=3)
        tid = t["table"]
        seats = [join(srv, tid, n) for n in ("Ana", "Bo")]
        clients = [await Client.open(srv, tid, s["token"], seat=s["seat"]) for s in seats]
        for c in clients:
            await c.next_state()
        start(srv, tid, seats[1]["token"])
        await clients[0].close()
        clients[0] = await Client.open(srv, tid, seats[0]["token"], seat=0)
        await play_to_end(clients, random.Random(3), timeout=90)
        r = httpx.post(f"{srv.url}/api/tables/{tid}/rematch", json={"token": seats[0]["token"]})
        assert r.status_code == 201
        bad = httpx.post(f"{srv.url}/api/tables/{tid}/start", json={"token": seats[0]["token"]})
        assert bad.status_code == 409
        for c in clients:
            await c.close()
        return [s["token"] for s in seats] + [r.json()["token"]]

    return list(arun(run()))


def test_tokens_never_logged_in_process(tmp_path: Path) -> None:
    """Every record of every server-side logger at DEBUG (uvicorn at INFO logs each
    websocket URL it accepts: the token is hidden there)."""
    with served(tmp_path, Limits.off()) as (srv, records):
        tokens = _tokens_of_a_game(srv)
        text = "\n".join(
            f"{r.name} {r.getMessage()}" for r in records.records if SERVER_LOGGERS.match(r.name)
        )
    assert "/ws/" in text  # the websocket lines are there, without their tokens
    for token in tokens:
        assert token not in text


def test_tokens_never_logged_by_ono99_serve(server: Server) -> None:
    """The log of a real ``ono99 serve`` (stdout and stderr) holds no token."""
    tokens = _tokens_of_a_game(server)
    log = server.log.read_text(errors="replace")
    for token in tokens:
        assert token not in log


def test_log_records_of_the_checker(tmp_path: Path) -> None:
    """The check above would see a token in an uvicorn line if the filter were gone."""
    import logging

    from ono99.web.limits import HideTokens

    rec = logging.LogRecord(
        "uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5", "/ws/abc?token=SECRET123&lang=ta"), None,
    )  # fmt: skip
    assert "SECRET123" in rec.getMessage()
    HideTokens().filter(rec)
    assert "SECRET123" not in rec.getMessage() and "lang=ta" in rec.getMessage()
