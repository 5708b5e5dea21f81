"""The NOTIFY payloads between processes on one PostgreSQL (web/notices.py): the moves a
process stored reach the others whole and in order (R-TURN-1: a game is its moves, one after the other), and
anything else asks for a reload instead of being misread."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from ono99.cards import ACTION_CODES, action_code
from ono99.web.hub import Hub
from ono99.web.notices import MAX_PAYLOAD, MovesNotice, move_payloads, parse
from ono99.web.protocol import CreateTable
from ono99.web.settings import Settings
from ono99.web.store import MoveRow, Store

PROC = "0123456789abcdef0123456789abcdef"
table_ids = st.text(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=8, max_size=32
)
runs = st.lists(
    st.tuples(st.sampled_from(ACTION_CODES), st.none() | st.integers(0, 9)), min_size=1, max_size=6
)


@given(
    st.dictionaries(
        table_ids, st.tuples(st.integers(0, 5000), st.integers(1, 10**6), runs), max_size=6
    )
)
def test_stored_moves_come_back_whole(
    batch: dict[str, tuple[int, int, list[tuple[str, int | None]]]],
) -> None:
    """One transaction's moves of several tables (each table's a run of consecutive move
    indices, given in any order): one payload per table, read back as exactly those moves,
    from the first index on, with the version after the last."""
    stored = [
        (tid, first + k, move, version + k, seat)
        for tid, (first, version, moves) in batch.items()
        for k, (move, seat) in enumerate(moves)
    ]
    payloads = move_payloads(PROC, reversed(stored))
    assert len(payloads) == len(batch)
    for payload in payloads:
        proc, tid, notice = parse(payload)
        first, version, moves = batch[tid]
        assert proc == PROC
        assert notice == MovesNotice(first, version + len(moves) - 1, moves)


def test_what_is_not_a_run_of_moves_asks_for_a_reload() -> None:
    """A gap in one table's indices, a payload over PostgreSQL's limit, an older release's
    payload and anything malformed: the table is named, its moves are not (reload)."""
    gap = move_payloads(PROC, [("t" * 12, 3, "5", 4, None), ("t" * 12, 5, "7", 6, None)])
    assert gap == [f"{PROC}:{'t' * 12}"]
    many = [("u" * 12, i, "99x4", i + 1, 3) for i in range(2000)]
    (long,) = move_payloads(PROC, many)
    assert long == f"{PROC}:{'u' * 12}" and len(long) < MAX_PAYLOAD
    for payload in (
        f"{PROC}:tbl",
        f"{PROC}:tbl:x:1:5",
        f"{PROC}:tbl:1:2:5@x",
        f"{PROC}:tbl:-1:2:5",
        f"{PROC}:tbl:1:2:",
        f"{PROC}:tbl:1:2:5;;6",
        f"{PROC}",
        "",
    ):
        proc, _tid, notice = parse(payload)
        assert notice is None, payload
        assert proc == payload.split(":")[0]


def test_a_bot_move_for_a_human_seat_is_marked() -> None:
    """A bot's move for an away seat stays marked as the bot's in the other process, and a
    draw (R-DRAW-1) is a move like any other."""
    (payload,) = move_payloads(
        PROC, [("tbl12345", 7, "draw", 9, None), ("tbl12345", 8, "R", 10, 2)]
    )
    assert payload == f"{PROC}:tbl12345:7:10:draw;R@2"
    assert parse(payload)[2] == MovesNotice(7, 10, [("draw", None), ("R", 2)])


def test_a_table_applies_notices_in_order_and_reads_back_after_a_gap(tmp_path: Path) -> None:
    """A table another process moves on (R-TURN-1, one move after the other): moves that
    follow on from what this process has are applied from the notice alone, without a read;
    a notice already taken in changes nothing; a notice after a gap (one that did not
    arrive) makes the table read its moves back, so nothing is skipped."""

    async def scenario() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'n.db'}"))
        try:
            settings = Settings.from_request(CreateTable(players=2, takeover=False))
            table = await hub.create(settings, seed=77)
            _seat, token = await table.join("Ana")
            await table.join("Bo")
            await table.start(token)
            assert table.game is not None
            other = table.game.copy(events=True)  # the other process's copy of the game
            rows: list[MoveRow] = []
            base = table.version

            def store_next(by_bot: int | None = None) -> tuple[str, int | None]:
                seat, legal = next(iter(other.acting().items()))
                idx = len(other.moves)
                other.apply(legal[0], seat)
                move = action_code(legal[0])
                rows.append((table.id, idx, move, base + len(rows) + 1, other.is_over,
                             None, by_bot))  # fmt: skip
                assert hub.store.add_moves([rows[-1]]) == [None]
                return move, by_bot

            reads: list[str] = []
            real_moves_since, real_load = hub.store.moves_since, hub.store.load
            hub.store.moves_since = lambda *a: reads.append("moves") or real_moves_since(*a)  # type: ignore[method-assign]
            hub.store.load = lambda *a: reads.append("load") or real_load(*a)  # type: ignore[method-assign]

            async def settled() -> None:
                while table._sync_task is not None and not table._sync_task.done():
                    await asyncio.sleep(0.01)

            first = [store_next(), store_next()]
            table.request_sync(MovesNotice(0, rows[1][3], first))
            await settled()
            assert table.game.moves == other.moves and table.version == rows[1][3]
            assert reads == []  # applied from the notice alone
            table.request_sync(MovesNotice(1, rows[1][3], first[1:]))  # taken in already
            await settled()
            assert table.game.moves == other.moves and reads == []
            store_next()  # its notice never arrives
            last = store_next(by_bot=1)
            table.request_sync(MovesNotice(len(rows) - 1, rows[-1][3], [last]))
            await settled()
            assert reads == ["moves"]  # the gap: read back
            assert table.game.moves == other.moves and table.version == rows[-1][3]
        finally:
            await hub.close()

    asyncio.run(scenario())
