"""The payloads of PostgreSQL ``NOTIFY ono99`` between processes on one database
(web/shared.py): what changed, and for stored moves the moves themselves, so that the other
processes apply them without reading them back.

- ``PROC:TABLE``: table TABLE changed (seats, the start, the rematch): reload it.
- ``PROC:TABLE:IDX:VERSION:MOVES``: the table's moves from index IDX on were stored, the
  table is at VERSION after the last; MOVES are ``;``-separated move codes, each followed by
  ``@SEAT`` where a bot played it for the human seat SEAT (away, or out of time).

A process that finds a gap (IDX past the moves it has) reads the moves back instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["MovesNotice", "move_payloads", "parse"]

#: a payload longer than this announces the change alone: PostgreSQL refuses over 8000 bytes
MAX_PAYLOAD = 7900

#: one stored move as ``move_payloads`` takes it: (table id, move index, move code, version
#: after it, the seat a bot played it for or None)
Stored = tuple[str, int, str, int, int | None]


@dataclass(frozen=True)
class MovesNotice:
    """Moves another process stored: from index ``first`` on, the table at ``version``
    after the last; each move with the seat a bot played it for (or None)."""

    first: int
    version: int
    moves: list[tuple[str, int | None]]


def move_payloads(proc: str, stored: Iterable[Stored]) -> list[str]:
    """One payload per table of ``stored`` (one transaction's moves)."""
    by_table: dict[str, list[Stored]] = {}
    for row in stored:
        by_table.setdefault(row[0], []).append(row)
    out = []
    for table, rows in by_table.items():
        rows.sort(key=lambda r: r[1])
        first = rows[0][1]
        payload = f"{proc}:{table}"
        if all(r[1] == first + k for k, r in enumerate(rows)):
            moves = ";".join(m if b is None else f"{m}@{b}" for _t, _i, m, _v, b in rows)
            full = f"{payload}:{first}:{rows[-1][3]}:{moves}"
            if len(full.encode()) <= MAX_PAYLOAD:
                payload = full
        out.append(payload)
    return out


def parse(payload: str) -> tuple[str, str, MovesNotice | None]:
    """(process, table, the moves or None: reload the table). Anything that does not read
    as moves (an older release's payload) asks for the reload."""
    parts = payload.split(":", 4)
    proc, table = parts[0], parts[1] if len(parts) > 1 else ""
    if len(parts) != 5:
        return proc, table, None
    try:
        first, version = int(parts[2]), int(parts[3])
        moves: list[tuple[str, int | None]] = []
        for code in parts[4].split(";"):
            move, at, seat = code.partition("@")
            moves.append((move, int(seat) if at else None))
    except ValueError:
        return proc, table, None
    if first < 0 or not all(m for m, _s in moves):
        return proc, table, None
    return proc, table, MovesNotice(first, version, moves)
