"""The web table's contract (CONTRACTS.md "Web"), through a real ``ono99 serve``."""

from __future__ import annotations

import json
import random

import httpx
import pytest
from server_helpers import Client, Server, arun, create, join, play_to_end, start

from ono99.i18n import translator
from ono99.records import replay


def test_healthz(server: Server) -> None:
    r = httpx.get(server.url + "/healthz")
    assert r.status_code == 200 and r.json() == {"ok": True}


def test_create_join_start_and_play_to_the_end(server: Server) -> None:
    """A whole game over websockets against bots; the record is 409 before the end, then
    replays to the winner the clients saw (R-REC, R-END-1)."""
    r = httpx.post(
        server.url + "/api/tables",
        json={"rules": "mattel2022", "options": {}, "players": 4, "bots": "medium", "seed": 5,
              "bot_delay": 0},
    )  # fmt: skip
    assert r.status_code == 201
    body = r.json()
    assert set(body) >= {"table", "code", "url"}
    assert body["url"].endswith("/t/" + body["code"])
    tid = body["table"]
    j = join(server, tid, "Ana")
    assert j["seat"] == 0 and len(j["token"]) >= 32
    assert httpx.get(f"{server.url}/api/tables/{tid}/record").status_code == 409
    info = httpx.get(f"{server.url}/api/codes/{body['code'].lower()}").json()
    assert info["table"] == tid and info["seed_fixed"] is True and info["seed"] is None

    async def run() -> dict:
        c = await Client.open(server, tid, j["token"], seat=0)
        st = await c.next_state()
        assert st["view"]["seat"] == 0 and st["view"]["phase"] == "lobby"
        start(server, tid, j["token"])
        final = await play_to_end([c], random.Random(1))
        await c.close()
        return final

    final = arun(run())
    view = final["view"]
    for key in ("seat", "hand", "hand_sizes", "total", "direction", "to_move", "owes_two",
                "legal", "out", "tokens", "scores", "round", "winner"):  # fmt: skip
        assert key in view
    assert view["phase"] == "over" and view["winner"] is not None
    rec = httpx.get(f"{server.url}/api/tables/{tid}/record")
    assert rec.status_code == 200
    record = rec.json()
    assert record["seed"] == 5 and record["deals"]
    game = replay(record)
    assert game.is_over and game.winner == view["winner"]
    assert record["players"][0] == "Ana"
    info = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert info["phase"] == "over" and info["seed"] == 5


@pytest.mark.parametrize(
    "body",
    [
        {"players": 9},
        {"rules": "nope"},
        {"options": {"draw_penalty": True}},  # mattel2022 takes no options (R-SET-6)
        {"rules": "mini", "players": 2, "options": {"size": "huge"}},  # small or large
        {"rules": "classic1980", "options": {"size": "large"}},  # mini's option only
        {"players": "4"},
        {"players": True},
        {"bots": "godlike"},
        {"seed": -1},
        {"seed": 2**300},
        {"seed": "5"},
        {"turn_seconds": 0.5},
        [],
        "x",
    ],
)
def test_bad_create_is_a_4xx_with_one_line(server: Server, body: object) -> None:
    """R-SET-5, R-SET-6: a bad table is refused with one line."""
    r = httpx.post(server.url + "/api/tables", json=body)
    assert 400 <= r.status_code < 500, r.text
    err = r.json()["error"]
    assert isinstance(err, str) and err and "\n" not in err


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{",
        b"\xff\xfe",
        b"[" * 100000,
        b'{"players": ' + b"9" * 5000 + b"}",
        b"null",
        b'{"turn_seconds": 1e999}',
        b'{"draw_window": NaN}',
        b'{"players": 4, "options": []}',
    ],
)
def test_hostile_bodies_never_5xx(server: Server, content: bytes) -> None:
    r = httpx.post(server.url + "/api/tables", content=content)
    assert 400 <= r.status_code < 500, r.text
    assert "\n" not in r.json()["error"]


def test_big_body_is_413(server: Server) -> None:
    r = httpx.post(server.url + "/api/tables", content=b" " * 100_000)
    assert r.status_code == 413 and r.json() == {"error": "the request body is too large"}


@pytest.mark.parametrize("lang", ["ta", "gu", "uz", "my", "kn"])
def test_big_body_is_refused_in_the_clients_language(server: Server, lang: str) -> None:
    """The body guard answers before any route, in the language the request asks for
    (Accept-Language, or ``?lang=``), as every other refusal does; a record over the
    replay limit gets the same line, with ``move`` null."""
    from ono99.web.announce import catalog
    from ono99.web.guards import RECORD_LIMIT, TOO_LARGE

    want = catalog(lang).gettext(TOO_LARGE)
    assert want != TOO_LARGE  # translated
    big = b" " * 100_000
    r = httpx.post(server.url + "/api/tables", content=big, headers={"Accept-Language": lang})
    assert r.status_code == 413 and r.json() == {"error": want}
    r = httpx.post(f"{server.url}/api/tables?lang={lang}", content=big)
    assert r.status_code == 413 and r.json() == {"error": want}
    r = httpx.post(f"{server.url}/api/replay?lang={lang}", content=b" " * (RECORD_LIMIT + 1))
    assert r.status_code == 413 and r.json()["error"] == want


def test_replay_router_alone_refuses_a_big_record_in_the_clients_language() -> None:
    """``POST /api/replay`` mounted without the body guard refuses a record over
    ``RECORD_LIMIT`` itself, with the guard's line in the client's language."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from ono99.web.announce import catalog
    from ono99.web.guards import RECORD_LIMIT, TOO_LARGE
    from ono99.web.replay_api import make_router

    app = FastAPI()
    app.include_router(make_router())
    with TestClient(app) as client:
        r = client.post("/api/replay", content=b" " * (RECORD_LIMIT + 1),
                        headers={"Accept-Language": "kn-IN,kn;q=0.9"})  # fmt: skip
    assert r.status_code == 413
    assert r.json() == {"error": catalog("kn").gettext(TOO_LARGE), "move": None}


def test_unknown_table_and_wrong_token_answer_alike(server: Server) -> None:
    t = create(server, players=2)
    j = join(server, t["table"], "Ana")
    bad = httpx.post(f"{server.url}/api/tables/{t['table']}/start", json={"token": "x" * 43})
    unknown = httpx.post(
        f"{server.url}/api/tables/NoSuchTable123/start", json={"token": j["token"]}
    )
    assert bad.status_code == unknown.status_code == 404
    assert bad.json() == unknown.json()
    for path in ("", "/record"):
        r = httpx.get(f"{server.url}/api/tables/NoSuchTable123{path}")
        assert r.status_code == 404 and r.json()["error"]
    assert httpx.get(server.url + "/api/codes/ZZZZZZ").status_code == 404
    assert httpx.get(server.url + "/api/codes/../../etc").status_code == 404


def test_join_rules(server: Server) -> None:
    t = create(server, players=2)
    tid = t["table"]
    for name in ("", "   ", "x" * 41, "a\x00b", "\u202e"):
        r = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": name})
        assert r.status_code == 400, name
    for bad in ({}, {"name": 5}, {"name": None}, []):
        assert httpx.post(f"{server.url}/api/tables/{tid}/join", json=bad).status_code == 400
    a = join(server, tid, "Ana")
    b = join(server, tid, "Bo")
    assert (a["seat"], b["seat"]) == (0, 1) and a["token"] != b["token"]
    full = httpx.post(f"{server.url}/api/tables/{tid}/join", json={"name": "Cy"})
    assert full.status_code == 409 and full.json()["error"]
    start(server, tid, b["token"])
    again = httpx.post(f"{server.url}/api/tables/{tid}/start", json={"token": a["token"]})
    assert again.status_code == 409
    info = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert [s["name"] for s in info["seats"]] == ["Ana", "Bo"]
    assert [s["kind"] for s in info["seats"]] == ["human", "human"]


def test_unknown_routes_and_methods(server: Server) -> None:
    assert httpx.get(server.url + "/api/nothing").status_code == 404
    r = httpx.delete(server.url + "/api/tables")
    assert r.status_code == 405 and r.json()["error"]
    assert httpx.get(server.url + "/api/i18n/xx").status_code == 404
    cat = httpx.get(server.url + "/api/i18n/ta").json()
    assert cat["lang"] == "ta" and cat["messages"]


def test_pages(server: Server) -> None:
    t = create(server, players=2)
    for path in ("/", "/t/" + t["code"]):
        r = httpx.get(server.url + path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert httpx.get(server.url + "/static/nope.js").status_code == 404
    schema = httpx.get(server.url + "/api/schema").json()
    assert {"move", "hello", "ping"} <= set(schema["client"])


def test_replay_api_is_mounted(server: Server) -> None:
    rec = {"rules": "mattel2022", "players": ["Ana", "Bo"], "seed": 1, "moves": []}
    r = httpx.post(server.url + "/api/replay", json=rec)
    assert r.status_code == 200 and len(r.json()["steps"]) == 1
    bad = httpx.post(server.url + "/api/replay", json={"players": 9})
    assert bad.status_code == 400 and bad.json()["error"]


@pytest.mark.parametrize("lang", ["ta", "my"])
def test_replay_api_words_a_body_that_is_not_a_record_in_the_pages_language(
    server: Server, lang: str
) -> None:
    """R-REC: a record file that is not JSON (the replay viewer's upload), not UTF-8 or
    too large is one line in ``?lang=``, worded as ``ono99 replay`` words it, never
    Python's own English; a UTF-8 byte order mark (a file saved by Notepad) is ignored."""
    say = translator(lang).gettext
    url = f"{server.url}/api/replay?lang={lang}"
    headers = {"Content-Type": "application/json"}
    r = httpx.post(url, content=b'{"players": 2,', headers=headers)
    want = say("not valid JSON (line {line}, column {column})").format(line=1, column=15)
    assert r.status_code == 400 and r.json() == {"error": want, "move": None}
    assert "Expecting" not in r.text
    r = httpx.post(url, content=b"\xff\xfe{}", headers=headers)
    assert r.status_code == 400 and r.json()["error"] == say("the record is not UTF-8 text")
    r = httpx.post(url, content=b"[" * 100_000 + b"]" * 100_000, headers=headers)
    assert r.status_code == 400 and r.json()["error"] != "maximum recursion depth exceeded"
    r = httpx.post(url, content=b" " * 1_000_001, headers=headers)
    assert r.status_code == 413 and r.json()["error"] == say("the request body is too large")
    rec = {"rules": "mattel2022", "players": ["Ana", "Bo"], "seed": 1, "moves": []}
    r = httpx.post(url, content=b"\xef\xbb\xbf" + json.dumps(rec).encode(), headers=headers)
    assert r.status_code == 200 and len(r.json()["steps"]) == 1
