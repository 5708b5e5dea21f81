"""Turn timer and bot takeover: a bot plays for a seat whose timer ran out, and for a
player who left, until the player is back."""

from __future__ import annotations

from server_helpers import Client, Server, arun, create, join, start


def test_turn_timer_lets_a_bot_play_for_the_seat(server: Server) -> None:
    async def run() -> None:
        t = create(server, players=2, bots="easy", seed=31, turn_seconds=1)
        tid = t["table"]
        me = join(server, tid, "Ana")
        a = await Client.open(server, tid, me["token"], seat=0)
        await a.next_state()
        start(server, tid, me["token"])
        st = await a.next_state()
        assert st["view"]["to_move"] == 0 and st["view"]["deadline"] is not None
        # Do nothing: the timer runs out and a bot plays seat 0's card.
        while True:
            st = await a.next_state(5)
            played = [e for e in st["events"] if e["kind"] == "play" and e["seat"] == 0]
            if played:
                break
        assert st["view"]["moves"] >= 1
        await a.close()

    arun(run())


def test_a_bot_plays_for_a_player_who_left_until_they_are_back(server: Server) -> None:
    async def run() -> None:
        t = create(server, players=2, bots="easy", seed=32, away_seconds=0.3, bot_delay=0.05)
        tid = t["table"]
        me = join(server, tid, "Ana")
        a = await Client.open(server, tid, me["token"], seat=0)
        await a.next_state()
        start(server, tid, me["token"])
        await a.next_state()
        await a.close()
        spec = await Client.open(server, tid)
        st = await spec.next_state()
        while not (st["view"]["away"][0] and st["view"]["moves"] >= 4):
            st = await spec.next_state(5)
        assert st["table"]["seats"][0]["away"] is True
        if st["view"]["phase"] == "playing":
            back = await Client.open(server, tid, me["token"], seat=0)
            st = await back.next_state()
            assert st["view"]["away"][0] is False and st["view"]["seat"] == 0
            while st["view"]["phase"] == "playing" and not st["view"]["legal"]:
                st = await back.next_state(5)
            if st["view"]["legal"]:
                await back.move(st["view"]["legal"][0], id="mine")
                st = await back.next_state()
                assert st.get("ack") == "mine"
            await back.close()
        await spec.close()

    arun(run())
