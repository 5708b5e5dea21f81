"""docs/envs.md stays true: its examples run and its layout table is the encoder's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ono99.envs.encoding import PER_SEAT, SEAT_FIELDS, SEATS_AT, field_names

DOC = Path(__file__).resolve().parents[2] / "docs" / "envs.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = [
    (TEXT.count("\n", 0, m.start()) + 2, m.group(1))
    for m in re.finditer(r"^```python\n(.*?)^```", TEXT, re.M | re.S)
]


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"line{n}" for n, _ in BLOCKS])
def test_doc_examples_run(line: int, code: str) -> None:
    """The examples play whole games to the end (R-END-4)."""
    pytest.importorskip("pyspiel")
    exec(compile(code, f"docs/envs.md:{line}", "exec"), {"__name__": "docs"})


def test_layout_table_matches_the_encoder() -> None:
    """Each row of the observation table names the index the encoder uses (R-SET-1)."""
    names = field_names(3)
    table = TEXT[TEXT.index("## Observation") : TEXT.index("## Rewards")]
    rows = re.findall(r"^\| ([0-9 +k…]+) \| `([^`]+)` \|", table, re.M)
    assert len(rows) == 9 + PER_SEAT
    assert rows
    for index, name in rows:
        if "…" in index:
            lo, hi = (int(x) for x in index.split("…"))
            prefix = name.split("[")[0]
            assert all(names[i].startswith(prefix) for i in range(lo, hi + 1)), name
        elif "k" in index:
            base, _, per, _, offset = index.split()
            assert int(base) == SEATS_AT and int(per[:-1]) == PER_SEAT
            assert SEAT_FIELDS[int(offset)] == name.split(".")[1]
        else:
            assert names[int(index)] == name
