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
