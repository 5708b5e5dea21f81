"""The companion's API (docs/companion.md), in process on a SQLite file: what each tap
announces, in the language asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from ono99.web.app import create_app


def _game(client: TestClient, **setup: Any) -> tuple[str, int]:
    r = client.post("/api/companion", json=setup)
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["version"]


def _tap(client: TestClient, gid: str, version: int, tap: str) -> dict[str, Any]:
    r = client.post(f"/api/companion/{gid}/tap", json={"tap": tap, "version": version})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_who_loses_is_said_for_the_card_that_went_over_only(tmp_path: Path) -> None:
    """R-LIM-1, R-END-1: a card that takes the total to 99 is announced as that player's
    loss; a player busted because no safe card is left for them (a forced bust, or a
    "no safe card" tap) is not said to have been put over by someone else's card."""
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        gid, v = _game(client, rules="mattel2022", players=["Ana", "Bo", "Cy"], first=0)
        for _ in range(9):
            v = _tap(client, gid, v, "10")["version"]
        got = _tap(client, gid, v, "9")  # Ana: 90 + 9 = 99
        assert got["state"]["out"] == [0]
        assert any("9" in line and "Ana" in line for line in got["announce"][:1])
        v = got["version"]
        over = [line for line in got["announce"] if "limit" in line]
        assert len(over) == 1
        got = _tap(client, gid, v, "bust")  # Bo has no safe card at 90
        assert got["state"]["out"] == [0, 1]
        assert not any("limit" in line for line in got["announce"])
        assert got["announce"]  # the engine's own words for Bo's bust
        # classic1980, 2 players: every safe card played, then 98: no card left anywhere is
        # safe for Bo, so the engine busts Bo at once (R-LIM-2); Ana's 3 did not go over
        gid, v = _game(client, rules="classic1980", players=["Ana", "Bo"], first=0)
        taps = ["R"] * 6 + ["H"] * 4 + ["-10"] * 4 + ["P2", "10", "P2", "10", "10"]
        for code in [*taps, *["10"] * 7, "9", "9", "9", "8"]:
            v = _tap(client, gid, v, code)["version"]
        got = _tap(client, gid, v, "3")
        assert got["state"]["busted"] == [1] and got["state"]["tokens"] == [3, 2]
        assert not any("limit" in line for line in got["announce"]), got["announce"]
        assert any("Bo" in line for line in got["announce"])
        # classic1980: a player dealt four ONO 99s busts before the first card (R-99-4)
        gid, v = _game(client, rules="classic1980", players=["Ana", "Bo"], first=1)
        got = _tap(client, gid, v, "bust")
        assert got["state"]["tokens"] == [3, 2] and got["state"]["round"] == 2
        assert not any("limit" in line for line in got["announce"])


def test_points_mode_never_speaks_a_score_that_is_not_known(tmp_path: Path) -> None:
    """R-END-3, R-LIM-1: 2 players, points: ten taps end round 1 (Bo's 9 goes over). The
    page hears no score, nobody out and no winner until the points are told; a tap meanwhile
    is refused with one line and changes nothing; told, the scores are announced, and a
    round that puts a player out says so then. Hands told instead of points work too."""
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        setup = {"rules": "classic1980", "players": ["Ana", "Bo"], "first": 0,
                 "options": {"scoring": "points", "target": 50}}  # fmt: skip
        gid, v = _game(client, **setup)
        for _ in range(9):
            v = _tap(client, gid, v, "10")["version"]
        got = _tap(client, gid, v, "9")
        said = " ".join(got["announce"])
        assert "wins" not in said and "out of the game" not in said and "Scores:" not in said
        assert "wait" in said
        s = got["state"]
        assert s["scores"] == [None, None] and s["out"] == [] and s["winner"] is None
        v = got["version"]
        r = client.post(f"/api/companion/{gid}/tap", json={"tap": "5", "version": v})
        assert r.status_code == 400 and "\n" not in r.json()["error"]
        assert r.json()["state"] == s and r.json()["version"] == v
        r = client.post(f"/api/companion/{gid}/points", json={"points": [3, 30], "version": v})
        assert r.status_code == 400 and r.json()["state"] == s
        r = client.post(f"/api/companion/{gid}/points", json={"points": [12, 30], "version": v})
        assert r.status_code == 200, r.text
        said = " ".join(r.json()["announce"])
        assert "Ana 12" in said and "Bo 55" in said and "Ana wins" in said
        assert r.json()["state"]["out"] == [1] and r.json()["state"]["winner"] == 0
        # the same round told by its hands
        gid, v = _game(client, **setup)
        for code in ["10"] * 9 + ["9"]:
            v = _tap(client, gid, v, code)["version"]
        hands = [["2", "3", "4", "5"], ["99", "99", "9", "2"]]  # Bo drew the 2 (R-LIM-2)
        r = client.post(f"/api/companion/{gid}/hands", json={"hands": hands, "version": v})
        assert r.status_code == 200, r.text
        assert r.json()["state"]["scores"] == [14, 76]
        assert "Ana 14" in " ".join(r.json()["announce"])


def test_a_change_sent_again_counts_once(tmp_path: Path) -> None:
    """R-TURN-1: the page sends a tap again when its answer was lost; the same request id
    counts once (the answer is the state as it stands), a new id counts again. The answer
    to be spoken puts the total first."""
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        gid, v = _game(client, rules="mattel2022", players=["Ana", "Bo"], first=0)
        body = {"tap": "7", "version": v, "req": "a1b2c3d4e5f6"}
        first = client.post(f"/api/companion/{gid}/tap", json=body).json()
        assert first["state"]["steps"] == 1 and first["say"][0] == "7"
        again = client.post(f"/api/companion/{gid}/tap", json=body)
        assert again.status_code == 200 and again.json()["state"]["steps"] == 1
        assert again.json()["version"] == first["version"]
        body = {"tap": "7", "version": first["version"], "req": "f6e5d4c3b2a1"}
        assert client.post(f"/api/companion/{gid}/tap", json=body).json()["state"]["steps"] == 2
    # the last id counted survives a restart of the server (it is stored with the game)
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        body = {"tap": "7", "version": 1, "req": "f6e5d4c3b2a1"}
        r = client.post(f"/api/companion/{gid}/tap", json=body)
        assert r.status_code == 200 and r.json()["state"]["steps"] == 2


def test_the_server_speaks_each_language(tmp_path: Path, monkeypatch: Any) -> None:
    """R-TURN-1 (the total announced): where the browser has no voice for the language,
    the server speaks it with espeak-ng (Debian: apt-get install -y espeak-ng): a WAV for
    each of the six languages; bad text is refused with one line; without espeak-ng the
    server says it has no voice (and the page shows its note)."""
    import shutil

    from ono99.i18n import translator
    from ono99.web import voice

    if shutil.which("espeak-ng") is None:
        raise AssertionError("espeak-ng is not installed: apt-get install -y espeak-ng")
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}")
    with TestClient(app) as client:
        langs = client.get("/api/companion-voice").json()["languages"]
        assert langs == sorted(["en", "ta", "gu", "uz", "my", "kn"])
        for lang in langs:
            text = translator(lang).gettext("Total {total}").format(total=42)
            r = client.get("/api/companion-voice", params={"lang": lang, "text": text})
            assert r.status_code == 200, (lang, r.text)
            assert r.headers["content-type"] == "audio/wav" and r.content[:4] == b"RIFF"
            assert len(r.content) > 4000  # a real sound, not an empty file
        for params in [{"lang": "xx", "text": "42"}, {"lang": "ta", "text": "a\x01b"},
                       {"lang": "ta", "text": "9" * 601}, {"lang": "ta", "text": ""}]:  # fmt: skip
            r = client.get("/api/companion-voice", params=params)
            assert r.status_code == 400 and "\n" not in r.json()["error"]
        monkeypatch.setattr(voice, "_espeak", lambda: None)
        monkeypatch.setattr(voice, "_kept", type(voice._kept)())
        assert client.get("/api/companion-voice").json()["languages"] == []
        r = client.get("/api/companion-voice", params={"lang": "ta", "text": "42"})
        assert r.status_code == 404 and r.json()["error"]
