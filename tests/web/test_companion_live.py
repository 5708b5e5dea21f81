"""Several phones on one companion game (docs/companion.md "Several phones on one game"):
every page open on a game follows it live over ``/ws/companion/{id}``; a change made on
a version another phone has changed since is merged where it still applies legally
(a tap, a fix), refused otherwise (an undo or a redo of another phone's tap), and never
lost silently; the browser's merge (``companion_core.merge``, the same Python) keeps
every tap of the other phone."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from ono99.errors import Ono99Error
from ono99.tracking import Tracker
from ono99.web.app import create_app
from ono99.web.companion_core import Local, game_data, merge, tracker_from


def _game(client: TestClient, **setup: Any) -> tuple[str, int]:
    r = client.post("/api/companion", json=setup)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["version"]


def _post(client: TestClient, gid: str, what: str, **body: Any) -> Any:
    return client.post(f"/api/companion/{gid}/{what}", json=body)


def test_every_page_on_a_game_hears_each_change(tmp_path: Path) -> None:
    """R-TURN-1, R-P2-6: two pages (sockets) on one game, in two languages: each gets the
    game at once, then after every tap its version, state and record, and the words of
    the change in its own language; a ping is answered; anything else is refused with
    one line; a game that does not exist is refused and closed."""
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        gid, v = _game(client, rules="mattel2022", players=["Ana", "Bo", "Cy"], first=0)
        with (
            client.websocket_connect(f"/ws/companion/{gid}") as a,
            client.websocket_connect(f"/ws/companion/{gid}?lang=ta") as b,
        ):
            for ws in (a, b):
                first = ws.receive_json()
                assert first["type"] == "game" and first["version"] == v
                assert first["state"]["steps"] == 0 and first["record"]["moves"] == []
            twin = Tracker("mattel2022", ["Ana", "Bo", "Cy"], 0)
            for code in ["7", "P2", "R", "10"]:
                r = _post(client, gid, "tap", tap=code, version=v, req=f"req-{code}-0000")
                assert r.status_code == 200, r.text
                v = r.json()["version"]
                twin.tap(code)
                for ws in (a, b):
                    got = ws.receive_json()
                    assert got["version"] == v and got["req"] == f"req-{code}-0000"
                    assert got["state"] == json.loads(json.dumps(twin.state()))
                    assert got["record"] == game_data(twin)
                    assert got["announce"] and got["say"][0] == str(twin.state()["total"])
            a.send_text(json.dumps({"type": "ping"}))
            assert a.receive_json() == {"type": "pong"}
            a.send_text("not json")
            bad = a.receive_json()
            assert bad["type"] == "error" and "\n" not in bad["error"]
            a.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))  # over 4096 bytes
            big = a.receive_json()
            assert big["type"] == "error" and "large" in big["error"]
            a.send_bytes(b"\xff" * 10)
            assert a.receive_json()["type"] == "error"
        evil = {"origin": "http://evil.example"}  # a page of another site: refused
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/companion/{gid}", headers=evil) as c,
        ):
            c.receive_json()
        with client.websocket_connect("/ws/companion/no-such-game-at-all") as c:
            gone = c.receive_json()
            assert gone["type"] == "error" and gone["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                c.receive_json()
            assert closed.value.code == 4404


def test_the_words_of_a_change_reach_each_page_in_its_language(tmp_path: Path) -> None:
    """R-REV-1: a Reverse tapped on one phone is told to a Tamil page in Tamil and to an
    English page in English (the same change, each in its catalog's words)."""
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        gid, v = _game(client, rules="mattel2022", players=["Ana", "Bo", "Cy"], first=0)
        with (
            client.websocket_connect(f"/ws/companion/{gid}?lang=en") as en,
            client.websocket_connect(f"/ws/companion/{gid}?lang=ta") as ta,
        ):
            en.receive_json(), ta.receive_json()
            assert _post(client, gid, "tap", tap="R", version=v).status_code == 200
            said_en, said_ta = en.receive_json()["announce"], ta.receive_json()["announce"]
            assert said_en and said_ta and said_en != said_ta


def test_a_tap_made_on_an_older_version_is_merged_or_refused(tmp_path: Path) -> None:
    """R-TURN-1, R-99-1: phone A taps 7 on version 1; phone B, still on version 1, taps 5:
    merged on top (it applies legally), answered as merged; B's undo made on version 1
    would take back A's tap: refused (409) with the game as it stands, nothing changed; a
    tap on an old version that no longer applies legally is refused with the engine's
    reason. The same change sent again (its request id) counts once."""
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        gid, v1 = _game(client, rules="mattel2022", players=["Ana", "Bo", "Cy"], first=0)
        a = _post(client, gid, "tap", tap="7", version=v1)
        assert a.status_code == 200
        b = _post(client, gid, "tap", tap="5", version=v1, req="phone-b-0001")
        assert b.status_code == 200 and b.json()["merged"] is True
        assert b.json()["state"]["total"] == 12 and b.json()["state"]["steps"] == 2
        again = _post(client, gid, "tap", tap="5", version=v1, req="phone-b-0001")
        assert again.json()["state"]["steps"] == 2  # counted once
        undo = _post(client, gid, "undo", version=v1)
        assert undo.status_code == 409 and "\n" not in undo.json()["error"]
        assert undo.json()["state"]["steps"] == 2 and undo.json()["state"]["total"] == 12
        bad = _post(client, gid, "tap", tap="99", version=v1)  # R-99-1 in mattel2022
        assert bad.status_code == 400 and "R-99-1" in bad.json()["error"]
        assert bad.json()["state"]["steps"] == 2
        v = b.json()["version"]
        assert _post(client, gid, "undo", version=v).json()["state"]["total"] == 7
        assert _post(client, gid, "tap", tap="2", version="x").status_code == 400


def _random_taps(t: Tracker, rng: random.Random, count: int, undo: bool) -> list[dict[str, Any]]:
    """Up to ``count`` changes one phone could make on ``t``: legal taps (and undos of
    its own taps, where ``undo``), applied to ``t``."""
    items: list[dict[str, Any]] = []
    own = 0
    for _ in range(count * 4):
        if len(items) >= count or t.is_over or t.state()["hands_needed"]:
            break
        if undo and own and rng.random() < 0.25:
            t.undo()
            own -= 1
            items.append({"path": "undo", "body": {}})
            continue
        code = rng.choice([*t.card_codes(), "bust"])
        try:
            t.tap(code)
        except Ono99Error:
            continue
        own += 1
        items.append({"path": "tap", "body": {"tap": code}})
    return items


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(["mattel2022", "classic1980", "gamerules"]),
    seed=st.integers(0, 10**6),
    start=st.integers(0, 25),
    theirs=st.integers(0, 6),
    mine=st.integers(1, 8),
)
def test_a_merge_never_takes_back_another_phones_tap(
    rules: str, seed: int, start: int, theirs: int, mine: int
) -> None:
    """R-TURN-1, R-LIM-2 (any rules): two phones on one game; each makes changes on its
    own copy (phone A taps and undoes offline, phone B taps on the server). Merged on top
    of B's game, every change of A is either applied or refused (none lost), every tap
    of B stays where it was, the taps A's undos left standing are gone, and the merged
    game is a game the rules allow (its record replays to the same state)."""
    rng = random.Random(seed)
    names = ["Ana", "Bo", "Cy"]
    base = Tracker(rules, names, 0)
    _random_taps(base, rng, start, undo=False)
    record = game_data(base)
    server = Tracker.from_record(record)
    phone = Tracker.from_record(record)
    _random_taps(server, rng, theirs, undo=False)
    items = _random_taps(phone, rng, mine, undo=True)
    theirs_taps = list(server.taps)
    their_game = json.dumps(game_data(server))
    refused = merge(server, items)
    assert all(0 <= i < len(items) for i, _ in refused)
    assert server.taps[: len(theirs_taps)] == theirs_taps
    if not refused:
        assert server.taps[len(theirs_taps) :] == phone.taps[len(base.taps) :]
    again = tracker_from(game_data(server))
    assert again.state() == server.state()
    # the browser's rebase (Pyodide runs this same class) answers it the same way
    local = Local()
    out = json.loads(local.rebase("g" * 24, their_game, json.dumps(items), "en"))
    assert [r["index"] for r in out["refused"]] == [i for i, _ in refused]
    assert out["record"]["moves"] == server.taps


def test_a_page_that_floods_its_socket_is_told_and_closed(tmp_path: Path) -> None:
    """The companion's socket has the table's limits (docs/protocol.md "Limits"): a page
    sending far more than the rate is told to slow down, then closed; the game is
    untouched and the next page is let in."""
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        gid, v = _game(client, rules="mattel2022", players=["Ana", "Bo"], first=0)
        seen: list[dict[str, Any]] = []
        with client.websocket_connect(f"/ws/companion/{gid}") as ws:
            ws.receive_json()
            for _ in range(600):
                ws.send_text('{"type": "ping"}')
            with pytest.raises(WebSocketDisconnect):
                while True:
                    seen.append(ws.receive_json())
        errors = [m["error"] for m in seen if m["type"] == "error"]
        assert errors and "too many" in errors[-1], errors[-3:]
        with client.websocket_connect(f"/ws/companion/{gid}") as ws:
            assert ws.receive_json()["version"] == v


def test_games_nobody_watches_are_not_all_kept_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-TURN-1: the process keeps at most KEPT_GAMES games in memory besides those a page
    is open on; a game forgotten is loaded again from the database, as it was, and plays
    on; one a page is open on is never forgotten."""
    import contextlib
    from collections.abc import AsyncIterator

    from fastapi import FastAPI, WebSocket

    from ono99.web import companion
    from ono99.web.limits import Guard, Limits, SocketGuard

    @contextlib.asynccontextmanager
    async def admit(ws: WebSocket, lang: str) -> AsyncIterator[SocketGuard | None]:
        await ws.accept()
        yield Guard(Limits()).socket("testclient")

    monkeypatch.setattr(companion, "KEPT_GAMES", 3)
    router = companion.make_router(f"sqlite:///{tmp_path / 'c.db'}", pyodide=None, admit=admit)
    app = FastAPI()
    app.include_router(router)
    with TestClient(app) as client:
        gid, v = _game(client, rules="mattel2022", players=["Ana", "Bo"], first=0)
        v = _post(client, gid, "tap", tap="7", version=v).json()["version"]
        others = [_game(client, rules="mattel2022", players=["Cy", "Di"], first=1)[0]
                  for _ in range(6)]  # fmt: skip
        assert len(router.games) == 3 and gid not in router.games
        got = _post(client, gid, "tap", tap="5", version=v).json()  # loaded again
        assert got["state"]["total"] == 12 and got["version"] == v + 1
        assert gid in router.games and len(router.games) == 3
        assert all(client.get(f"/api/companion/{o}").status_code == 200 for o in others)
        assert len(router.games) == 3
        with client.websocket_connect(f"/ws/companion/{gid}") as ws:  # a page open on it
            ws.receive_json()
            for _ in range(6):
                _game(client, rules="mattel2022", players=["Ed", "Fi"], first=0)
            assert gid in router.games and len(router.games) == 4
