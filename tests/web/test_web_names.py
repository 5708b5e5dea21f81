"""One rule for player names at the table, in the companion and in records (issue 22):
joiners (ZWJ/ZWNJ) in Indic scripts and joined emoji are names everywhere; a typed name
with control characters or a lone surrogate is refused at the table and in the companion
(a record from elsewhere that holds one still replays, shown escaped)."""

from __future__ import annotations

import json

import httpx
import pytest
from server_helpers import Server, create

from ono99 import RecordError, parse_record
from ono99.names import clean_name

GOOD = [
    "ಕನ್\u200dನಡ",
    "ক্\u200cষ",
    "👩\u200d👩\u200d👧",
    "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
]
BAD = ["Bo\x07", "A\u200eB", "x" * 41, "   "]


def _record(name: str) -> dict[str, object]:
    return {"rules": "mattel2022", "options": {}, "players": ["Ana", name], "seed": 1,
            "dealer": 0, "moves": []}  # fmt: skip


@pytest.mark.parametrize("name", GOOD)
def test_joined_names_are_names_everywhere(server: Server, name: str) -> None:
    assert clean_name(name) == name
    t = create(server, players=2)
    r = httpx.post(f"{server.url}/api/tables/{t['table']}/join", json={"name": name})
    assert r.status_code == 200, r.text
    r = httpx.post(
        f"{server.url}/api/companion", json={"rules": "mattel2022", "players": ["Ana", name]}
    )
    assert r.status_code in (200, 201), r.text
    assert parse_record(_record(name)).players == ["Ana", name]


@pytest.mark.parametrize("name", BAD)
def test_bad_names_are_refused_everywhere(server: Server, name: str) -> None:
    t = create(server, players=2)
    r = httpx.post(f"{server.url}/api/tables/{t['table']}/join", json={"name": name})
    assert r.status_code == 400 and "\n" not in r.json()["error"]
    r = httpx.post(
        f"{server.url}/api/companion", json={"rules": "mattel2022", "players": ["Ana", name]}
    )
    assert r.status_code == 400 and "\n" not in r.json()["error"]
    if not name.strip() or len(name) > 40:
        with pytest.raises(RecordError):
            parse_record(_record(name))
    else:  # a record from elsewhere still replays: its names are shown escaped
        assert parse_record(_record(name)).players == ["Ana", name]


def test_a_lone_surrogate_name_is_a_clean_400(server: Server) -> None:
    body = '{"rules": "mattel2022", "players": ["Ana", "\\ud800"]}'
    headers = {"content-type": "application/json"}
    r = httpx.post(f"{server.url}/api/companion", content=body, headers=headers)
    assert r.status_code == 400 and json.loads(r.text)["error"]
    t = create(server, players=2)
    r = httpx.post(f"{server.url}/api/tables/{t['table']}/join", content='{"name": "\\udc00"}',
                   headers=headers)  # fmt: skip
    assert r.status_code == 400 and json.loads(r.text)["error"]
