"""One declaration of what a client is sent (issue 23): ``ono99.web.protocol``'s output
models. Every message of whole games, for players and a spectator, in three presets, is
validated against them with nothing left over and nothing missing, and docs/protocol.md
lists exactly their keys (R-SET-1: a seat's view holds its own hand only)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError
from server_helpers import Client, Server, arun, create, join, play_to_end, start

from ono99.web.protocol import (
    ErrorMsg,
    EventOut,
    PongMsg,
    SeatOut,
    StateMsg,
    TableOut,
    ViewOut,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
SERVER_MSGS = {"state": StateMsg, "error": ErrorMsg, "pong": PongMsg}


def _check(messages: list[dict[str, object]]) -> None:
    for msg in messages:
        SERVER_MSGS[str(msg["type"])].model_validate(msg)


@pytest.mark.parametrize(
    ("rules", "options"),
    [("mattel2022", {}), ("classic1980", {"scoring": "points"}), ("classic1980", {"draw_penalty": True})],
)  # fmt: skip
def test_every_message_of_whole_games_fits_the_declaration(
    server: Server, rules: str, options: dict[str, object]
) -> None:
    """R-SET-1, R-DRAW-1: two players, a bot and a spectator play to the end; every
    state, error and pong each of them got validates, and a spectator's hand is empty."""

    async def run() -> None:
        t = create(server, rules=rules, options=options, players=3, bots="easy", seed=31,
                   bot_delay=0, draw_window=0.2)  # fmt: skip
        tid = t["table"]
        ana, bo = join(server, tid, "Ana"), join(server, tid, "Bo")
        a = await Client.open(server, tid, ana["token"], seat=0)
        b = await Client.open(server, tid, bo["token"], seat=1)
        spectator = await Client.open(server, tid)
        for c in (a, b, spectator):
            await c.next_state()
        await a.send({"type": "ping", "id": "p"})
        await a.next_of("pong")
        await a.send({"type": "move", "move": "7", "version": 0, "id": 1})  # not started
        await a.next_of("error")
        start(server, tid, ana["token"])
        await play_to_end([a, b], random.Random(5), think=0.015)
        await spectator.drain(0.5)
        for c in (a, b, spectator):
            _check(c.messages)
        assert all(m["view"]["hand"] == [] for m in spectator.messages if m["type"] == "state")
        info = httpx.get(f"{server.url}/api/tables/{tid}").json()
        TableOut.model_validate(info)
        assert info["seed"] is not None  # shown once the game is over
        for c in (a, b, spectator):
            await c.close()

    arun(run())


def test_a_key_the_declaration_lacks_or_misses_is_refused() -> None:
    """R-SET-1: the declaration is exact both ways. A real view (a seat's view and the
    table facts) validates; the same view with one key more, or with any one key left
    out, is refused."""
    from ono99.game import Game

    view = Game("mattel2022", 3, seed=4).view(1).to_json()
    view.update(phase="playing", connected=[True] * 3, bots=[False] * 3, away=[False] * 3,
                deadline=None, moves=0)  # fmt: skip
    ViewOut.model_validate(view)
    with pytest.raises(ValidationError, match="extra"):
        ViewOut.model_validate({**view, "hands": [[], [], []]})
    for key in view:
        with pytest.raises(ValidationError, match=r"required|missing"):
            ViewOut.model_validate({k: v for k, v in view.items() if k != key})
    event = {"kind": "play", "seat": 0, "card": "7", "total": 7, "info": None, "text": None}
    EventOut.model_validate(event)
    with pytest.raises(ValidationError, match="extra"):
        EventOut.model_validate({**event, "secret": 1})


def _bullet(text: str, start: str) -> str:
    """The markdown bullet of ``text`` that begins with ``start`` (up to the next one)."""
    i = text.index(start)
    j = text.find("\n- ", i + 1)
    return text[i : j if j != -1 else None]


def test_docs_list_exactly_the_declared_keys() -> None:
    """docs/protocol.md's VIEW bullet and TableInfo example name every declared key and
    no other."""
    doc = DOC.read_text(encoding="utf-8")
    view_words = set(re.findall(r"`([a-z_]+)`", _bullet(doc, "- `view`:")))
    assert set(ViewOut.model_fields) <= view_words, set(ViewOut.model_fields) - view_words
    assert view_words - {"view", "lobby", "draw"} <= set(ViewOut.model_fields), view_words - set(
        ViewOut.model_fields
    )
    i = doc.index("### `GET /api/tables/{ID}`")
    block = doc[doc.index("```json", i) : doc.index("```\n", doc.index("```json", i) + 7)]
    keys = set(re.findall(r'"([a-z_]+)":', block))
    assert keys == set(TableOut.model_fields) | set(SeatOut.model_fields) | {"draw_penalty"}, (
        keys ^ (set(TableOut.model_fields) | set(SeatOut.model_fields))
    )
