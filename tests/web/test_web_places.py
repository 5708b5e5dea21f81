"""The web table's final standings (R-END-3): every connection's ``texts.places`` at the
game's end is :func:`ono99.texts.final_places` of the game, the ranking the terminal and
the analysis report use; players put out at the same round's end are placed by their
points, never by seat. The page draws its standings table in this order
(tests/web/e2e/test_phone_e2e.py)."""

from __future__ import annotations

import random

import httpx
from server_helpers import Client, Server, arun, create, join, play_to_end, start

from ono99 import replay
from ono99.texts import final_places


def test_places_at_the_end_of_a_points_game(server: Server) -> None:
    async def run() -> None:
        t = create(server, players=4, rules="classic1980", bots="easy", seed=5,
                   options={"scoring": "points", "target": 30})  # fmt: skip
        seat = join(server, t["table"], "Ana")
        a = await Client.open(server, t["table"], seat["token"], seat=0)
        spec = await Client.open(server, t["table"])
        await a.next_state()
        start(server, t["table"], seat["token"])
        assert (await a.next_state())["texts"]["places"] == []  # while it is played
        final = await play_to_end([a], random.Random(5))
        await spec.drain()
        record = httpx.get(f"{server.url}/api/tables/{t['table']}/record").json()
        v = replay(record).public_view()
        want = [{"place": p, "seat": s} for p, s in final_places(v)]
        assert final["texts"]["places"] == want
        assert spec.state is not None and spec.state["texts"]["places"] == want
        await a.close()
        await spec.close()

    arun(run())
