"""The websocket protocol (docs/protocol.md): bad moves change nothing, reconnect,
spectators, languages, the 1980 draw penalty in real time."""

from __future__ import annotations

import json
import random

import httpx
from server_helpers import Client, Server, arun, create, join, play_to_end, start
from websockets.asyncio.client import connect


async def _seated(
    server: Server, players: int = 2, humans: int | None = None, **body: object
) -> tuple[str, list[dict]]:
    t = create(server, players=players, **body)
    names = ("Ana", "Bo", "Cy", "Di")[: players if humans is None else humans]
    seats = [join(server, t["table"], n) for n in names]
    return t["table"], seats


def test_bad_moves_change_nothing(server: Server) -> None:
    """Illegal (R-TURN-1), out of turn, stale, malformed and spectator moves get one-line
    errors and the version does not move."""

    async def run() -> None:
        tid, seats = await _seated(server, 2, seed=11)
        a = await Client.open(server, tid, seats[0]["token"], seat=0)
        b = await Client.open(server, tid, seats[1]["token"], seat=1)
        spec = await Client.open(server, tid)
        await a.next_state()
        await a.send({"type": "move", "move": "5", "version": a.state["version"]})
        err = await a.next_of("error")
        assert "start" in err["error"]
        start(server, tid, seats[0]["token"])
        await b.drain()
        await a.drain()
        await spec.drain()
        st = a.state
        v = st["version"]
        assert st["view"]["to_move"] == 0 and st["view"]["legal"]
        hand = st["view"]["hand"]
        not_held = next(c for c in ("99", "P2", "R", "-10", "0", "1", "2", "3") if c not in hand)
        bad = [
            (a, {"type": "move", "move": not_held, "version": v, "id": 1}),
            (a, {"type": "move", "move": st["view"]["legal"][0], "version": v - 1, "id": 2}),
            (a, {"type": "move", "move": st["view"]["legal"][0], "version": v + 5}),
            (a, {"type": "move", "move": "banana", "version": v}),
            (a, {"type": "move", "move": 7, "version": v}),
            (a, {"type": "move", "move": "7", "version": "3"}),
            (a, {"type": "move", "move": "7", "version": True}),
            (a, {"type": "move"}),
            (a, {"type": "nope"}),
            (a, {"type": "move", "move": "x" * 1000, "version": v}),
            (a, [1, 2]),
            (a, "just a string"),
            (b, {"type": "move", "move": b.state["view"]["hand"][0], "version": v}),
            (spec, {"type": "move", "move": "7", "version": v}),
        ]
        for client, msg in bad:
            await client.send(msg)
            err = await client.next_of("error")
            assert err["error"] and "\n" not in err["error"], err
            assert err["version"] == v
            if isinstance(msg, dict) and "id" in msg:
                assert err["id"] == msg["id"]
        for client in (a, b, spec):
            await client.ws.send(b"\x00binary")
            assert (await client.next_of("error"))["version"] == v
            await client.ws.send("{not json")
            assert (await client.next_of("error"))["version"] == v
        await a.send({"type": "ping", "id": "p"})
        assert (await a.next_of("pong"))["id"] == "p"
        # Nothing changed: a fresh connection sees the same version and the same total.
        again = await Client.open(server, tid, seats[0]["token"], seat=0)
        st2 = await again.next_state()
        assert st2["version"] == v and st2["view"]["hand"] == hand
        # A legal move with an id is acknowledged on the state that answers it.
        await a.move(st["view"]["legal"][0], id=99)
        nxt = await a.next_state()
        assert nxt["version"] == v + 1 and nxt.get("ack") == 99
        for c in (a, b, spec, again):
            await c.close()

    arun(run())


def test_wrong_token_is_like_an_unknown_table(server: Server) -> None:
    async def run() -> None:
        tid, _seats = await _seated(server, 2)
        answers = []
        for url in (f"/ws/{tid}?token=wrong", "/ws/NoSuchTable99", "/ws/x?token=y"):
            async with connect(server.ws_url + url) as ws:
                answers.append(json.loads(await ws.recv()))
                await ws.wait_closed()
                assert ws.close_code == 4404
        assert answers[0] == answers[1] == answers[2]
        assert answers[0]["type"] == "error"

    arun(run())


def test_reconnect_spectator_and_connected_flags(server: Server) -> None:
    """A returning token gets the full view; the others see who is connected; a spectator
    sees no hand (R-SET-1)."""

    async def run() -> None:
        tid, seats = await _seated(server, 3, 2, seed=3, bots="easy")
        a = await Client.open(server, tid, seats[0]["token"], seat=0)
        b = await Client.open(server, tid, seats[1]["token"], seat=1)
        await a.next_state()
        start(server, tid, seats[0]["token"])
        await a.drain()
        await b.drain()
        assert a.state["view"]["connected"] == [True, True, False]
        hand_b = b.state["view"]["hand"]
        await b.close()
        st = await a.next_state()
        assert st["view"]["connected"] == [True, False, False]
        b2 = await Client.open(server, tid, seats[1]["token"], seat=1)
        st_b = await b2.next_state()
        assert st_b["view"]["seat"] == 1 and st_b["view"]["hand"] == hand_b
        assert st_b["catchup"] is True and st_b["events"]
        st = await a.next_state()
        assert st["view"]["connected"] == [True, True, False]
        spec = await Client.open(server, tid)
        sv = (await spec.next_state())["view"]
        assert sv["seat"] is None and sv["hand"] == [] and sv["legal"] == []
        assert sv["hand_sizes"] == st["view"]["hand_sizes"]
        info = httpx.get(f"{server.url}/api/tables/{tid}").json()
        assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
        final = await play_to_end([a, b2], random.Random(2))
        await spec.drain(0.5)
        assert spec.state["view"]["winner"] == final["view"]["winner"]
        for c in (a, b2, spec):
            await c.close()

    arun(run())


def test_announcements_in_the_connection_language(server: Server) -> None:
    """Each connection hears the announcements in its own language; its own events in the
    second person."""

    async def run() -> None:
        tid, seats = await _seated(server, 2, seed=4)
        ta = await Client.open(server, tid, seats[0]["token"], lang="ta", seat=0)
        en = await Client.open(server, tid, seats[1]["token"], seat=1)
        await ta.next_state()
        start(server, tid, seats[0]["token"])
        await ta.drain()
        await en.drain()
        texts_en = [e["text"] for m in en.messages if m["type"] == "state" for e in m["events"]]
        texts_ta = [e["text"] for m in ta.messages if m["type"] == "state" for e in m["events"]]
        assert "Round 1: Ana starts" in texts_en
        assert texts_ta and texts_ta[0] != "Round 1: you start" and texts_ta[0]
        await en.send({"type": "hello", "lang": "kn"})
        await en.next_state()
        await ta.move(ta.state["view"]["legal"][0])
        await ta.next_state()
        st = await en.next_state()
        assert st["events"][0]["text"] and "Ana plays" not in st["events"][0]["text"]
        await en.send({"type": "hello", "lang": "xx"})
        assert (await en.next_of("error"))["error"]
        await ta.close()
        await en.close()

    arun(run())


def test_draw_penalty_in_real_time(server: Server) -> None:
    """R-DRAW-1: a human's draw stays open until the next card lands; the bot after them
    waits the draw window; drawing in time gets the card, not drawing loses it."""

    async def run() -> None:
        t = create(server, rules="classic1980", options={"draw_penalty": True}, players=2,
                   seed=8, bots="easy", draw_window=1.0)  # fmt: skip
        tid = t["table"]
        seat = join(server, tid, "Ana")
        a = await Client.open(server, tid, seat["token"], seat=0)
        await a.next_state()
        start(server, tid, seat["token"])
        await a.drain(0.2)
        drew = lost = 0
        while a.state["view"]["phase"] == "playing" and drew + lost < 6:
            view = a.state["view"]
            if view["to_move"] != 0 or view["pending_draw"] is not None:
                await a.next_state(10)
                continue
            cards = [c for c in view["legal"] if c != "draw"]
            await a.move(cards[0])
            st = await a.next_state()
            if st["view"]["phase"] != "playing" or st["view"]["to_move"] == 0:
                continue
            assert st["view"]["pending_draw"] == 0 and "draw" in st["view"]["legal"]
            size = len(st["view"]["hand"])
            if drew <= lost:
                await a.move("draw")
                st = await a.next_state()
                assert len(st["view"]["hand"]) == size + 1 and st["view"]["pending_draw"] is None
                drew += 1
            else:
                st = await a.next_state(5)  # the bot plays after the window
                assert st["view"]["pending_draw"] != 0
                kinds = [(e["kind"], e["seat"]) for e in st["events"]]
                assert ("draw_lost", 0) in kinds, kinds
                assert len(st["view"]["hand"]) == size
                lost += 1
        assert drew and lost
        await a.close()

    arun(run())


def test_rematch(server: Server) -> None:
    """After the game: a new table with the same settings, the asker seated; asking twice
    gives the same seat; others see next_table."""

    async def run() -> None:
        tid, seats = await _seated(server, 2, 1, bots="easy", seed=41)
        a = await Client.open(server, tid, seats[0]["token"], seat=0)
        await a.next_state()
        early = httpx.post(f"{server.url}/api/tables/{tid}/rematch", json=seats[0])
        assert early.status_code == 409
        start(server, tid, seats[0]["token"])
        await play_to_end([a], random.Random(3))
        spec = await Client.open(server, tid)
        await spec.next_state()
        r = httpx.post(f"{server.url}/api/tables/{tid}/rematch", json={"token": seats[0]["token"]})
        assert r.status_code == 201, r.text
        new = r.json()
        assert new["table"] != tid and new["seat"] == 0 and new["token"]
        again = httpx.post(f"{server.url}/api/tables/{tid}/rematch", json=seats[0]).json()
        assert (again["table"], again["seat"], again["token"]) == (
            new["table"], new["seat"], new["token"],
        )  # fmt: skip
        st = await spec.next_state()
        assert st["table"]["next_table"] == new["table"]
        info = httpx.get(f"{server.url}/api/tables/{new['table']}").json()
        assert info["phase"] == "lobby" and not info["seed_fixed"] and info["players"] == 2
        assert info["seats"][0]["name"] == "Ana"
        wrong = httpx.post(f"{server.url}/api/tables/{tid}/rematch", json={"token": "nope"})
        assert wrong.status_code == 404
        await a.close()
        await spec.close()

    arun(run())
