"""Hostile input, fuzzed (issue 13): thousands of malformed, oversized, wrong-typed and
out-of-order websocket messages and HTTP requests.

The server runs in this process (uvicorn in a thread, limits off so that nothing is
refused for its rate), so every test also sees the live tables and every log record:
no reply is a 5xx, nothing escapes as a traceback, a rejected message leaves the table as
it was (version, every seat's view, the public facts), and no reply to a seat holds
another seat's cards (test_web_leaks' checker, against the live game).

``slow``: the same with ten times as many examples (CI runs it too).
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hostile_helpers import InProcess, Records, served, snapshot, truth_now
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_web_leaks import _check
from websockets.sync.client import ClientConnection, connect

from ono99.cards import action_code
from ono99.web.limits import Limits

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CODES = sorted({action_code(a) for a in range(18)})
QUICK = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=False,
)
LONG = settings(QUICK, max_examples=800)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[InProcess, Records]]:
    with served(tmp_path_factory.mktemp("fuzz"), Limits.off()) as (srv, records):
        yield srv, records
        assert records.problems() == [], records.text()[-3000:]


# ---------------------------------------------------------------- strategies

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from([*CODES, "99x4", "draw", "", "move", "hello", "ping"])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _raw_texts() -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(max_size=60),
        st.just("[" * 5000 + "]" * 5000),  # too deep for the parser
        st.just('{"type": "move", "move": "7", "version": ' + "9" * 5000 + "}"),  # huge int
        st.just('{"type": "move", "move": "7", "version": NaN}'),
        st.just('{"type": "ping", "id": "\\ud800"}'),  # a lone surrogate
        st.integers(4097, 60_000).map(lambda n: '{"type": "ping", "id": "' + "x" * n + '"}'),
        st.just("\x00" * 100),
    )


def _messages(data: st.DataObject, view: dict[str, Any], version: int) -> Any:
    """One message: mostly move-shaped with wrong parts, sometimes a legal move (to go
    on), sometimes anything at all."""
    legal = view.get("legal") or []
    kind = data.draw(st.integers(0, 9))
    if kind <= 1 and legal:
        return {"type": "move", "move": data.draw(st.sampled_from(legal)), "version": version}
    if kind <= 4:
        msg: dict[str, Any] = {
            "type": data.draw(st.sampled_from(["move", "move", "hello", "ping", "MOVE", "x"])),
            "move": data.draw(st.sampled_from([*CODES, "99x4", "draw"]) | json_scalars),
            "version": data.draw(
                st.sampled_from([version, version - 1, version + 1, 0, -1]) | json_scalars
            ),
        }
        if data.draw(st.booleans()):
            msg["id"] = data.draw(json_values)
        if data.draw(st.booleans()):
            msg["lang"] = data.draw(st.sampled_from(["ta", "xx", "", "en"]) | json_scalars)
        for key in data.draw(st.lists(st.sampled_from(["type", "move", "version"]), max_size=2)):
            msg.pop(key, None)
        return msg
    if kind <= 6:
        return data.draw(json_values)
    if kind <= 8:
        return ("raw", data.draw(_raw_texts()))
    return ("bytes", data.draw(st.binary(max_size=100)))


# ---------------------------------------------------------------- websocket


def _open(srv: InProcess, tid: str, token: str | None) -> ClientConnection:
    url = f"{srv.ws_url}/ws/{tid}" + (f"?token={token}" if token else "")
    return connect(url, max_size=2**22, open_timeout=10)


def _recv(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    msg = json.loads(ws.recv(timeout=timeout))
    assert isinstance(msg, dict) and msg.get("type") in ("state", "error", "pong"), msg
    return msg


def _new_table(
    srv: InProcess, rules: str, options: dict[str, Any], seed: int
) -> tuple[str, list[str]]:
    r = httpx.post(
        srv.url + "/api/tables",
        # no takeover: a table left behind stays idle (no bots playing on for its seats)
        json={"rules": rules, "options": options, "players": 2, "seed": seed, "takeover": False},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    tid = r.json()["table"]
    tokens = []
    for name in ("Ana", "Bo"):
        j = httpx.post(f"{srv.url}/api/tables/{tid}/join", json={"name": name}, timeout=10)
        tokens.append(j.json()["token"])
    return tid, tokens


def _websocket_fuzz(live: tuple[InProcess, Records], data: st.DataObject) -> None:
    srv, records = live
    rules, options = data.draw(
        st.sampled_from(
            [("mattel2022", {}), ("classic1980", {"draw_penalty": True}), ("gamerules", {})]
        )
    )
    tid, tokens = _new_table(srv, rules, options, data.draw(st.integers(0, 10**6)))
    table = srv.table(tid)
    conns = [_open(srv, tid, t) for t in tokens] + [_open(srv, tid, None)]
    try:
        if data.draw(st.integers(0, 9)) > 0:  # mostly a game under way, sometimes the lobby
            r = httpx.post(f"{srv.url}/api/tables/{tid}/start", json={"token": tokens[0]})
            assert r.status_code == 200
        for ws in conns:
            _drain(ws)
        seats = [0, 1, None]
        last = {i: _recv_state(conns[i], i) for i in range(3)}
        for _ in range(data.draw(st.integers(1, 25))):
            who = data.draw(st.sampled_from([0, 0, 1, 2]))
            ws = conns[who]
            before = snapshot(table)
            msg = _messages(data, last[who]["view"], table.version)
            if isinstance(msg, tuple):  # ("raw", text) or ("bytes", data)
                ws.send(msg[1])
            else:
                ws.send(json.dumps(msg))
            reply = _recv(ws)
            if reply["type"] == "error":
                assert reply["error"] and "\n" not in reply["error"], reply
                assert reply["version"] == before[0]
                assert snapshot(table) == before, f"rejected {msg!r} changed the table"
                continue
            if reply["type"] == "pong":
                assert snapshot(table) == before
                continue
            _check_state(reply, seats[who], table)
            last[who] = reply
            if reply["version"] != before[0]:  # a legal move: every other connection hears
                for other in range(3):
                    if other != who:
                        last[other] = _recv(conns[other])
                        assert last[other]["type"] == "state"
                        _check_state(last[other], seats[other], table)
            else:
                assert snapshot(table) == before
        assert records.problems() == [], records.text()[-3000:]
    finally:
        for ws in conns:
            ws.close()


def _drain(ws: ClientConnection) -> None:
    """Read everything sent so far (the states of connects and the start): a ping is
    answered after them."""
    ws.send(json.dumps({"type": "ping", "id": "sync"}))
    while _recv(ws) != {"type": "pong", "id": "sync"}:
        pass


def _recv_state(ws: ClientConnection, i: int) -> dict[str, Any]:
    """The state that a ``hello`` asks for (the current one)."""
    ws.send(json.dumps({"type": "hello"}))
    msg = _recv(ws)
    assert msg["type"] == "state"
    return msg


def _check_state(msg: dict[str, Any], seat: int | None, table: Any) -> None:
    assert msg["version"] == table.version
    assert msg["view"]["seat"] == seat
    if table.game is not None:
        _check(msg, seat, truth_now(table))
    else:
        assert msg["view"]["hand"] == []


@pytest.mark.slow
@given(data=st.data())
@QUICK
def test_websocket_fuzz(live: tuple[InProcess, Records], data: st.DataObject) -> None:
    """Malformed, oversized, wrong-typed, out-of-turn and stale messages from both seats
    and a spectator: one-line errors, nothing changes, no leak, no traceback."""
    _websocket_fuzz(live, data)


@pytest.mark.slow
@given(data=st.data())
@LONG
def test_websocket_fuzz_long(live: tuple[InProcess, Records], data: st.DataObject) -> None:
    _websocket_fuzz(live, data)


def test_frame_over_the_transport_limit_closes_only_that_socket(
    live: tuple[InProcess, Records],
) -> None:
    """A frame over 64 KiB is refused by the transport (close 1009); the table goes on."""
    srv, _records = live
    tid, tokens = _new_table(srv, "mattel2022", {}, 1)
    with _open(srv, tid, tokens[0]) as ws, _open(srv, tid, tokens[1]) as other:
        _recv(ws)
        _recv(other)
        ws.send("x" * (65 * 1024))
        with pytest.raises(Exception):  # noqa: B017  (closed: 1009)
            for _ in range(5):
                ws.recv(timeout=5)
        other.send(json.dumps({"type": "ping", "id": 1}))
        while (msg := _recv(other))["type"] == "state":  # the first one's leaving
            pass
        assert msg == {"type": "pong", "id": 1}


# ---------------------------------------------------------------- HTTP

PATHS = [
    ("POST", "/api/tables"),
    ("POST", "/api/tables/{id}/join"),
    ("POST", "/api/tables/{id}/start"),
    ("POST", "/api/tables/{id}/rematch"),
    ("GET", "/api/tables/{id}"),
    ("GET", "/api/tables/{id}/record"),
    ("GET", "/api/codes/{code}"),
    ("GET", "/api/i18n/{text}"),
    ("POST", "/api/replay"),
    ("PUT", "/api/tables/{id}"),
    ("DELETE", "/api/tables"),
]


def _bodies(tokens: list[str]) -> st.SearchStrategy[bytes]:
    fields = st.fixed_dictionaries(
        {},
        optional={
            "rules": st.sampled_from(["mattel2022", "classic1980", "nope", "\ud800"])
            | json_scalars,
            "options": st.dictionaries(st.text(max_size=20), json_scalars, max_size=3)
            | json_values,
            "players": st.integers(-3, 12) | json_scalars,
            "bots": st.sampled_from(["easy", "expert", "godlike"]) | json_scalars,
            "seed": st.integers(-1, 2**257) | json_scalars,
            "turn_seconds": st.floats(-1, 5000) | json_scalars,
            "name": st.text(max_size=50) | st.just("<script>alert(1)</script>") | json_scalars,
            "token": st.sampled_from([*tokens, "x" * 43, ""]) | json_scalars,
        },
    )
    as_json = (fields | json_values).map(lambda v: json.dumps(v).encode())
    return st.one_of(
        as_json,
        st.binary(max_size=200),
        st.just(b'{"name": "\\ud800"}'),
        st.just(b"[" * 5000),
        st.just(b'{"seed": ' + b"9" * 5000 + b"}"),
        st.integers(60_000, 70_000).map(lambda n: b'{"name": "' + b"a" * n + b'"}'),
    )


def _http_fuzz(live: tuple[InProcess, Records], data: st.DataObject) -> None:
    srv, records = live
    tid, tokens = _new_table(srv, "mattel2022", {}, 3)
    table = srv.table(tid)
    code = table.code
    with httpx.Client(base_url=srv.url, timeout=20) as http:
        for _ in range(data.draw(st.integers(1, 12))):
            method, path = data.draw(st.sampled_from(PATHS))
            target = data.draw(st.sampled_from([tid, tid, "NoSuchTable123", "x", "%2e%2e"]))
            path = path.format(
                id=target,
                code=data.draw(st.sampled_from([code, code.lower(), "ZZZZZZ", "é"])),
                text=data.draw(
                    st.sampled_from(["ta", "xx", "../etc"])
                    | st.text(string.ascii_letters, max_size=5)
                ),
            )
            headers = {
                "content-type": data.draw(
                    st.sampled_from(["application/json", "text/plain", "multipart/form-data", ""])
                ),
                "accept-language": data.draw(st.sampled_from(["ta", "zz", "", "kn;q=0.5, *"])),
            }
            body = data.draw(_bodies(tokens)) if method != "GET" else b""
            before = snapshot(table)
            r = http.request(method, path, content=body, headers=headers)
            assert r.status_code < 500, (method, path, body[:200], r.text)
            if r.status_code >= 400:
                err = r.json()["error"]
                assert isinstance(err, str) and err and "\n" not in err
                assert snapshot(table) == before, (method, path, body[:200])
            elif method == "GET":
                assert snapshot(table) == before
            if table.game is not None:  # started: try from the top on another table
                break
        assert records.problems() == [], records.text()[-3000:]


@pytest.mark.slow
@given(data=st.data())
@QUICK
def test_http_fuzz(live: tuple[InProcess, Records], data: st.DataObject) -> None:
    """Random endpoints, methods, headers and bodies (valid, wrong-typed, oversized, not
    JSON, lone surrogates) and tokens: a 4xx with a one-line error or a success; a
    refused request changes nothing; no traceback."""
    _http_fuzz(live, data)


@pytest.mark.slow
@given(data=st.data())
@LONG
def test_http_fuzz_long(live: tuple[InProcess, Records], data: st.DataObject) -> None:
    _http_fuzz(live, data)


def test_openapi_documents_the_bodies(live: tuple[InProcess, Records]) -> None:
    spec = httpx.get(live[0].url + "/api/openapi.json").json()
    for path in ("/api/tables", "/api/tables/{table_id}/join", "/api/tables/{table_id}/start"):
        body = spec["paths"][path]["post"]["requestBody"]
        assert body["content"]["application/json"]["schema"]["type"] == "object"


def test_no_traceback_text_is_caught(tmp_path: Path) -> None:
    """The log check can fail: an error record counts as a problem."""
    rec = Records()
    import logging

    rec.emit(logging.LogRecord("ono99.web", logging.ERROR, __file__, 1, "boom", None, None))
    assert rec.problems()


def test_a_client_side_reset_is_not_the_servers_problem() -> None:
    """The test's websocket client logs (DEBUG, with a traceback) when the server drops a
    hostile connection; that is not counted, a server-side traceback at DEBUG is."""
    import logging
    import sys

    try:
        raise ConnectionResetError(104, "Connection reset by peer")
    except ConnectionResetError:
        info = sys.exc_info()
    rec = Records()
    rec.emit(logging.LogRecord("websockets.client", logging.DEBUG, __file__, 1,
                               "! error while receiving data", None, info))  # fmt: skip
    assert rec.problems() == []
    rec.emit(logging.LogRecord("websockets.server", logging.DEBUG, __file__, 1,
                               "! error while receiving data", None, info))  # fmt: skip
    assert rec.problems() == ["DEBUG websockets.server: ! error while receiving data"]
