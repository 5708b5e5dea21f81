"""The strength table's commands keep working (benchmarks/strength.sh, strength_table.py).

Each row of the plan is run tiny (``GAMES``: one rotation block, the first part only, on
the row's own fixed seed) through the script itself, and the table tooling reads it
back; the search rows cost minutes on two cores (the points rows most) and are marked slow.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ono99.arena import make_spec
from ono99.cli.options import parse_options

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


table = _script("strength_table")
ROWS = table.plan()
SLOW = {r.name for r in ROWS if any(b.startswith("ismcts") for b in r.bots)}  # the searches


def test_the_plan_is_fixed_and_valid() -> None:
    """Every row names valid bots, rules and options; no two parts share a seed; the
    four settings each have the three comparisons and a bound."""
    seeds = [s for r in ROWS for s in r.seeds]
    assert len(seeds) == len(set(seeds))
    for r in ROWS:
        assert r.games % r.players == 0, r.name
        if r.kind == "arena":
            options = parse_options([o for o in r.options.split(",") if o])
            make_spec(r.bots, r.players, r.rules, options, r.games, r.seeds[0])
        else:
            assert r.kind == "bound" and r.bots == ["omniscient", "heuristic"]
    have = {
        (r.setting, table.base(a), table.base(b))
        for r in ROWS
        for a, b in zip(r.bots, r.bots[1:], strict=False)
    }
    for s in table.SETTINGS:
        for a, b in [*table.COLUMNS, ("omniscient", "heuristic")]:
            assert (s, a, b) in have, (s, a, b)


@pytest.mark.parametrize(
    "name",
    [pytest.param(r.name, marks=pytest.mark.slow) if r.name in SLOW else r.name for r in ROWS],
)
def test_a_tiny_run_of_each_row(name: str, tmp_path: Path) -> None:
    row = next(r for r in ROWS if r.name == name)
    env = os.environ | {"OUT": str(tmp_path), "GAMES": str(row.players), "PARTS": "1"}
    subprocess.run(
        ["bash", str(BENCHMARKS / "strength.sh"), "1", f"^{name}$"],
        env=env,
        check=True,
        capture_output=True,
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{name}-{row.seeds[0]}.json"]
    rows = table.plan()
    table.load(rows, tmp_path, games=row.players)
    (mine,) = [r for r in rows if r.name == name]
    assert len(mine.runs) == 1 and not mine.complete
    edges = table.edges(mine)
    assert [(e.a, e.b) for e in edges] == list(zip(row.bots, row.bots[1:], strict=False))
    assert all(e.verdict == "not yet run" and e.games == row.players for e in edges)
    printed = "\n".join(table.summary(rows) + table.details(rows))
    assert name in printed and "not yet run" in printed


def test_a_part_that_is_not_the_planned_run_is_refused(tmp_path: Path) -> None:
    """A part file whose games or seed differ from the plan is an error, not a row."""
    row = next(r for r in ROWS if r.kind == "arena" and r.players == 2)
    env = os.environ | {"OUT": str(tmp_path), "GAMES": "2", "PARTS": "1"}
    subprocess.run(
        ["bash", str(BENCHMARKS / "strength.sh"), "1", f"^{row.name}$"],
        env=env,
        check=True,
        capture_output=True,
    )
    with pytest.raises(SystemExit, match="not the planned run"):
        table.load(table.plan(), tmp_path)  # the plan's games, not 2


def test_verdicts_need_every_part_and_one_sided_significance() -> None:
    """'yes' only for a complete row with z > 1.645; 'not shown' below; partial rows are
    'not yet run' whatever their z."""
    row = table.Row("m2-x", "arena", 2, "mattel2022", "", ["a", "b"], 2, [1, 2])
    e = table.Edge(row, "a", "b", diff=0.05, se=0.01, games=4)
    row.runs = [{}]
    assert e.verdict == "not yet run"
    row.runs = [{}, {}]
    assert e.verdict == "yes"
    assert table.Edge(row, "a", "b", diff=0.01, se=0.01, games=4).verdict == "not shown"


def _committed_parts(tmp_path: Path) -> Path:
    """The part files git tracks (a strength run going on in the background may be adding
    new ones to the working tree; the docs follow what is committed)."""
    parts = BENCHMARKS / "results" / "parts"
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--", str(parts)],
            cwd=BENCHMARKS.parent, capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return parts  # not a git checkout: the files are the release's
    out = tmp_path / "parts"
    out.mkdir()
    for name in listed:
        src = BENCHMARKS.parent / name
        (out / src.name).write_bytes(src.read_bytes())
    return out


def test_readme_and_docs_show_the_table_of_the_saved_parts(tmp_path: Path) -> None:
    """The strength table in docs/strength.md (the README links to it), and every row's details in
    docs/strength.md, are exactly what strength_table.py prints from the part files: the
    documents say what the fixed runs gave, and no more than has run (issue 15)."""
    rows = table.plan()
    table.load(rows, _committed_parts(tmp_path), None)
    docs = (BENCHMARKS.parent / "docs" / "strength.md").read_text(encoding="utf-8")
    for line in table.summary(rows):
        assert line in docs, line
    for line in table.details(rows):
        assert line in docs, line


def test_write_puts_the_tables_into_the_documents(tmp_path: Path) -> None:
    """``--write`` replaces exactly the tables (the prose around them stays) and reports
    which documents changed; a document without the table is an error."""
    rows = table.plan()
    table.load(rows, _committed_parts(tmp_path), None)
    (tmp_path / "docs").mkdir()
    stale = "| setting | greedy > random | old |\n|---|\n| old row |\n"
    (tmp_path / "docs" / "strength.md").write_text(
        f"a\n{stale}\nb\n| row | bots | setting | parts | old |\n| x |\nc\n", encoding="utf-8"
    )
    assert table.write_docs(rows, tmp_path) == ["docs/strength.md"]
    docs = (tmp_path / "docs" / "strength.md").read_text(encoding="utf-8")
    assert "old" not in docs and docs.startswith("a\n") and docs.endswith("\nc\n")
    assert "\n".join(table.summary(rows)) in docs
    assert table.write_docs(rows, tmp_path) == []
    with pytest.raises(ValueError, match="expected one table"):
        table.replace_table("no table here", "| row | bots | setting | parts |", ["| x |"])
