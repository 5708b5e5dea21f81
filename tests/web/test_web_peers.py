"""The direct links between server processes (web/peers.py): what one process pushes after
a commit reaches the others that subscribed, in order; a process announces by links alone
only while every other live process is subscribed to it (else NOTIFY); a link is made
only by someone who read the key from the database, both ways; a dropped link is read
back. No database here: the heartbeat's list of live processes is given by hand."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from server_helpers import arun

from ono99.web.peers import HELLO, Peers, peer_host


async def until(check: Callable[[], Any], timeout: float = 10.0) -> None:
    """Wait for a state (polled), failing after ``timeout`` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "the state never came"
        await asyncio.sleep(0.01)


def test_pushed_payloads_reach_every_subscribed_process_in_order() -> None:
    """Three processes, each told of the other two: each links to both; once all are
    subscribed to A, A may announce by links alone (``linked``), and what A pushes (from
    the loop or a database thread) reaches B and C in order, each after the read-back
    (None) that follows its link's making. C goes: A is no longer linked (NOTIFY again),
    and B, whose link to C dropped, reads back."""
    heard: dict[str, list[str | None]] = {"a": [], "b": [], "c": []}

    async def scenario() -> None:
        peers = {n: Peers(n, heard[n].append) for n in "abc"}
        for p in peers.values():
            await p.start("127.0.0.1")
        live = {n: (n, p.addr, p.key) for n, p in peers.items()}
        try:
            assert not peers["a"].linked()  # no heartbeat yet: who else lives is unknown
            for n, p in peers.items():
                p.update([live[m] for m in "abc" if m != n])
            await until(lambda: all(p.linked() for p in peers.values()))
            peers["a"].push(["a:T1:0:1:7", "a:T2:0:1:R@1"])
            await asyncio.to_thread(peers["a"].push, ["a:T1:1:2:5"])  # from a thread
            for n in "bc":
                await until(lambda n=n: "a:T1:1:2:5" in heard[n])
                from_a = [x for x in heard[n] if x is not None and x.startswith("a:")]
                assert from_a == ["a:T1:0:1:7", "a:T2:0:1:R@1", "a:T1:1:2:5"]
                assert heard[n][0] is None  # read back once linked, before any payload
            assert not any(x is not None and x.startswith("a:") for x in heard["a"])
            before = heard["b"].count(None)
            await peers["c"].stop()
            await until(lambda: not peers["a"].linked())  # C still in A's list: NOTIFY
            await until(lambda: heard["b"].count(None) > before)  # B reads back
            peers["a"].update([live["b"]])  # C's lease ran out
            assert peers["a"].linked()
        finally:
            for p in peers.values():
                await p.stop()

    arun(scenario())


def test_a_link_needs_the_key_from_the_database() -> None:
    """Someone who connects to a process's port without its key (not read from the
    database) gets no payload and does not count as subscribed; a process that answers
    at a peer's address without that peer's key is not believed (nothing it sends is
    heard)."""
    heard: list[str | None] = []

    async def scenario() -> None:
        a = Peers("a", heard.append)
        await a.start("127.0.0.1")
        assert a.addr is not None
        host, _, port = a.addr.rpartition(":")
        try:
            # a stranger: a wrong proof, then it waits for payloads
            reader, writer = await asyncio.open_connection(host, int(port))
            hello = (await reader.readline()).decode().split()
            assert hello[0] == HELLO
            writer.write(f"b {secrets.token_hex(16)} {'0' * 64}\n".encode())
            await writer.drain()
            a.update([("b", None, None)])
            a.push(["a:T1:0:1:7"])
            assert await reader.read() == b""  # closed, nothing sent
            writer.close()
            assert not a.linked()

            # an impostor at a peer's address: it does not know the peer's key
            done: list[bytes] = []

            async def impostor(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
                w.write(f"{HELLO} {secrets.token_hex(16)}\n".encode())
                await r.readline()
                w.write(b"0" * 64 + b"\nx:T1:0:1:9\n")
                await w.drain()
                done.append(await r.read())  # until the subscriber hangs up
                w.close()

            fake = await asyncio.start_server(impostor, "127.0.0.1", 0)
            fport = fake.sockets[0].getsockname()[1]
            a.update([("x", f"127.0.0.1:{fport}", secrets.token_hex(32))])
            await until(lambda: len(done) >= 2)  # it hangs up, and tries again
            assert heard == []
            fake.close()
        finally:
            await a.stop()

    arun(scenario())


def test_the_peer_host_setting() -> None:
    """``ONO99_PEER_HOST``: 127.0.0.1 by default (processes on one machine), an address
    of the caller's, or ``off`` (no links: every change announced with NOTIFY)."""
    assert peer_host({}) == "127.0.0.1"
    assert peer_host({"ONO99_PEER_HOST": " 10.0.0.5 "}) == "10.0.0.5"
    assert peer_host({"ONO99_PEER_HOST": "OFF"}) is None
