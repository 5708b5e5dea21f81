"""Print the strength table of docs/strength.md from the part files only.

The plan (which rows, which parts, their commands and seeds) is ``benchmarks/strength.sh
list``; the results are the part files it saves, ``benchmarks/results/parts/ROW-SEED.json``.
A part whose JSON is not the planned run (other bots, players, rules, options, games or
seed) is an error, and files that are not a planned part are not read. The parts of a row
are pooled by ``pool_runs.pool`` (wins add up; the block-paired differences pool as a
block-weighted mean).

The edge of a level over the one below is the arena's block-paired difference of win
shares per seat held (``pairs``), with its 95 % interval (1.96 standard errors). A row
says "yes" only when all its planned parts are in and z > 1.645 (one-sided 95 %), and
"not shown" when they are all in and z is lower; a row with parts missing is "not yet
run", with the figures of the parts it has and the command that runs the rest.

The bound of a setting is the edge over the heuristic of a player who sees every card
(``skill_ceiling.py --bound``); a bot's share of the room is its edge over the heuristic
divided by the bound's (the heuristic's share is 0 by definition; greedy's is negative).

Usage::

    python3 benchmarks/strength_table.py              # summary, then one line per row
    python3 benchmarks/strength_table.py --summary    # the summary table only
    python3 benchmarks/strength_table.py --parts DIR --games N   # a tiny run (the test)
    python3 benchmarks/strength_table.py --write      # put both tables into the documents

``--write`` replaces the summary table in docs/strength.md, and the
table of every row in docs/strength.md, with what the part files give (the prose around
them is written by hand; ``tests/test_strength_table.py`` checks that the tables match
the committed parts).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pool_runs import pool

HERE = Path(__file__).resolve().parent
PARTS = HERE / "results" / "parts"
Z95 = 1.959963984540054
ONE_SIDED = 1.645

#: setting prefix of a row name -> how the table names it
SETTINGS = {
    "m2": "mattel2022, 2 players",
    "m4": "mattel2022, 4 players",
    "c3t": "classic1980 with tokens, 3 players",
    "c3p": "classic1980 with points, 3 players",
}
#: the comparisons of the summary, in its column order
COLUMNS = [("greedy", "random"), ("heuristic", "greedy"), ("ismcts", "heuristic")]


@dataclass
class Row:
    """One row of the plan: a comparison run as several parts (seeds)."""

    name: str
    kind: str
    players: int
    rules: str
    options: str
    bots: list[str]
    games: int
    seeds: list[int] = field(default_factory=list)
    #: the parts found, in the plan's seed order
    runs: list[dict[str, Any]] = field(default_factory=list)
    #: the bot version the row measured (strength.sh: 1 before issue 34, 2 after)
    version: int = 1

    @property
    def setting(self) -> str:
        return self.name.split("-")[0]

    @property
    def complete(self) -> bool:
        return len(self.runs) == len(self.seeds)

    def command(self) -> str:
        opts = "".join(f" --option {o}" for o in self.options.split(",") if o)
        if self.kind == "bound":
            head = "python3 benchmarks/skill_ceiling.py --bound"
        else:
            head = f"ono99 arena --bots {','.join(self.bots)}"
        return (
            f"{head} --players {self.players} --rules {self.rules}{opts} "
            f"--games {self.games} --seed S --workers 2 --json"
        )

    def seed_range(self) -> str:
        """The seeds, first to last (each row's are consecutive in the plan)."""
        return f"{self.seeds[0]}–{self.seeds[-1]}" if len(self.seeds) > 1 else str(self.seeds[0])


def base(bot: str) -> str:
    """``ismcts:120:heuristic:infer`` -> ``ismcts``."""
    return bot.split("#")[0].split(":")[0]


def plan(script: Path = HERE / "strength.sh") -> list[Row]:
    """The rows of ``strength.sh list``, in the script's order."""
    out = subprocess.run(["bash", str(script), "list"], capture_output=True, text=True, check=True)
    rows: dict[str, Row] = {}
    for line in out.stdout.splitlines():
        name, kind, players, rules, options, bots, games, seed, version = line.split("\t")
        row = rows.get(name)
        if row is None:
            row = rows[name] = Row(
                name, kind, int(players), rules, options, bots.split(","), int(games),
                version=int(version),
            )  # fmt: skip
        row.seeds.append(int(seed))
    return list(rows.values())


def _expected_options(row: Row) -> dict[str, Any]:
    from ono99.cli.options import parse_options
    from ono99.rules import make_rules

    items = [o for o in row.options.split(",") if o]
    return dict(make_rules(row.rules, parse_options(items)).options)


def load(rows: list[Row], parts: Path, games: int | None = None) -> None:
    """Read each row's parts from ``parts`` (checking each is the planned run)."""
    for row in rows:
        want_games = math.ceil((games or row.games) / row.players) * row.players
        for seed in row.seeds:
            f = parts / f"{row.name}-{seed}.json"
            if not f.exists():
                continue
            data = json.loads(f.read_text())
            got = (
                data["seed"],
                data["players"],
                data["rules"],
                data["options"],
                data["games"],
                sorted(b["bot"] for b in data["bots"].values()),
            )
            want = (
                seed,
                row.players,
                row.rules,
                _expected_options(row),
                want_games,
                sorted(row.bots),
            )
            if got != want:
                raise SystemExit(f"strength_table: {f} is not the planned run: {got} != {want}")
            row.runs.append(data)


@dataclass
class Edge:
    """The edge of bot ``a`` over bot ``b`` in a row (per seat held)."""

    row: Row
    a: str
    b: str
    diff: float
    se: float
    games: int

    @property
    def z(self) -> float:
        return self.diff / self.se if self.se > 0 else math.inf

    @property
    def half(self) -> float:
        """Half width of the 95 % interval."""
        return Z95 * self.se

    @property
    def verdict(self) -> str:
        if not self.row.complete:
            return "not yet run"
        return "yes" if self.z > ONE_SIDED else "not shown"

    def text(self, games: bool = True) -> str:
        z = "∞" if math.isinf(self.z) else f"{self.z:.1f}"
        s = f"{100 * self.diff:+.1f} % ± {100 * self.half:.1f}, z = {z}"
        return s + (
            f", {self.games:,} games".replace(",", " ").replace("  ", ", ") if games else ""
        )


def edges(row: Row) -> list[Edge]:
    """Adjacent bots of the row (listed strongest first) compared on its pooled parts."""
    if not row.runs:
        return []
    pooled = pool(row.runs) if len(row.runs) > 1 else row.runs[0]
    names = {b["bot"]: name for name, b in pooled["bots"].items()}
    out = []
    for hi, lo in zip(row.bots, row.bots[1:], strict=False):
        a, b = names[hi], names[lo]
        for p in pooled["pairs"]:
            if {p["a"], p["b"]} == {a, b}:
                sign = 1 if p["a"] == a else -1
                out.append(Edge(row, hi, lo, sign * p["diff"], p["se"], pooled["games"]))
    return out


def cell(row: Row | None, e: Edge | None) -> str:
    if row is None:
        return "—"
    if e is None or not row.complete:
        done = f"{len(row.runs)} of {len(row.seeds)} parts"
        partial = f"; so far: {e.text()}" if e is not None else ""
        return f"not yet run ({done}{partial})"
    return f"{e.verdict}, {e.text()}"


#: (setting, stronger bot, weaker bot) -> the rows comparing them: (row, the row's name for
#: the stronger bot, the edge when parts are in)
Found = dict[tuple[str, str, str], list[tuple[Row, str, "Edge | None"]]]


def found_edges(rows: list[Row]) -> Found:
    by: Found = {}
    for row in rows:
        found = {(base(e.a), base(e.b)): e for e in edges(row)}
        for hi, lo in zip(row.bots, row.bots[1:], strict=False):
            key = (row.setting, base(hi), base(lo))
            by.setdefault(key, []).append((row, hi, found.get((base(hi), base(lo)))))
    return by


def cells(entries: list[tuple[Row, str, Edge | None]] | None) -> str:
    """One comparison's cell; a setting with several rows for it (two configurations of
    the search) names each."""
    if not entries:
        return "—"
    if len(entries) == 1:
        return cell(entries[0][0], entries[0][2]) + f" (bots v{entries[0][0].version})"
    return "; ".join(f"`{hi}` (bots v{row.version}): {cell(row, e)}" for row, hi, e in entries)


def summary(rows: list[Row]) -> list[str]:
    by = found_edges(rows)
    lines = [
        "| setting | greedy > random | heuristic > greedy | ismcts > heuristic "
        "| bound: sees every card > heuristic | share of the room: greedy / ismcts |",
        "|---|---|---|---|---|---|",
    ]
    for s, label in SETTINGS.items():
        out = [cells(by.get((s, a, b))) for a, b in COLUMNS]
        out.append(cells(by.get((s, "omniscient", "heuristic"))))
        out.append(shares(by, s))
        lines.append(f"| {label} | " + " | ".join(out) + " |")
    return lines


def shares(by: Found, s: str) -> str:
    """Greedy's and each search's share of the room above the heuristic, with 95 %
    intervals (the bound's own error included, to first order)."""
    bounds = [e for _, _, e in by.get((s, "omniscient", "heuristic"), []) if e is not None]
    if not bounds or bounds[0].diff <= 0:
        return "needs the bound"
    bound = bounds[0]
    out = []
    searches = by.get((s, "ismcts", "heuristic"), [])
    for key, sign in (((s, "heuristic", "greedy"), -1), ((s, "ismcts", "heuristic"), 1)):
        entries = by.get(key) or []
        if not entries:
            out.append(f"{key[1] if sign > 0 else 'greedy'}: not yet run")
        for row, hi, e in entries:
            label = "greedy" if sign < 0 else "ismcts" if len(searches) == 1 else f"`{hi}`"
            if len(entries) > 1 and len({r.version for r, _, _ in entries}) > 1:
                label += f" (bots v{row.version})"
            if e is None:
                out.append(f"{label}: not yet run")
                continue
            share = sign * e.diff / bound.diff
            rel = math.hypot(e.se / bound.diff, share * bound.se / bound.diff)
            tail = "" if row.complete and bound.row.complete else " (partial)"
            out.append(f"{label} {100 * share:+.1f} % ± {100 * Z95 * rel:.1f}{tail}")
    return "; ".join(out)


def details(rows: list[Row]) -> list[str]:
    lines = [
        "| row | bots | setting | parts | games | seeds | edge per seat (± 95 %) | z | verdict "
        "| win rates (seats/game) | decision p50 / p99 ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        found = edges(row)
        pooled = (pool(row.runs) if len(row.runs) > 1 else row.runs[0]) if row.runs else None
        games = pooled["games"] if pooled else 0
        planned = row.games * len(row.seeds)
        seeds = row.seed_range()
        rates = times = "—"
        if pooled:
            rates = ", ".join(
                f"{name} {b['win_rate']:.3f} ({sum(b['seats']) / games:g})"
                for name, b in pooled["bots"].items()
            )
            times = ", ".join(
                f"{name} {b['decision_ms']['p50']:.1f} / {b['decision_ms']['p99']:.0f}"
                for name, b in pooled["bots"].items()
            )
        edge_s = "; ".join(f"{e.a} − {e.b} {e.text(games=False)}" for e in found) or "—"
        z = ", ".join(f"{e.z:.1f}" for e in found) or "—"
        verdict = ", ".join(dict.fromkeys(e.verdict for e in found)) or "not yet run"
        lines.append(
            f"| {row.name} | v{row.version} | {SETTINGS.get(row.setting, row.setting)} "
            f"| {len(row.runs)} / {len(row.seeds)} | {games} / {planned} | {seeds} "
            f"| {edge_s} | {z} | {verdict} | {rates} | {times} |"
        )
    return lines


ROOT = HERE.parent
#: the first line of each table, and the documents that hold it
TABLES = {
    "| setting | greedy > random |": ("docs/strength.md",),
    "| row | bots | setting | parts |": ("docs/strength.md",),
}


def replace_table(text: str, head: str, lines: list[str]) -> str:
    """``text`` with the Markdown table whose first line starts with ``head`` replaced by
    ``lines`` (ValueError when the document has no such table)."""
    doc = text.split("\n")
    starts = [i for i, line in enumerate(doc) if line.startswith(head)]
    if len(starts) != 1:
        raise ValueError(f"expected one table starting {head!r}, found {len(starts)}")
    i = end = starts[0]
    while end < len(doc) and doc[end].startswith("|"):
        end += 1
    return "\n".join(doc[:i] + lines + doc[end:])


def write_docs(rows: list[Row], root: Path = ROOT) -> list[str]:
    """Put the tables into the documents; the names of the files that changed."""
    made = {
        "| setting | greedy > random |": summary(rows),
        "| row | bots | setting | parts |": details(rows),
    }
    changed: dict[str, str] = {}
    for head, names in TABLES.items():
        for name in names:
            text = changed.get(name) or (root / name).read_text(encoding="utf-8")
            changed[name] = replace_table(text, head, made[head])
    out = []
    for name, text in changed.items():
        if (root / name).read_text(encoding="utf-8") != text:
            (root / name).write_text(text, encoding="utf-8")
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parts", type=Path, default=PARTS, help="where the part files are")
    ap.add_argument("--games", type=int, help="games per part of a tiny run (the test)")
    ap.add_argument("--summary", action="store_true", help="the summary table only")
    ap.add_argument("--json", action="store_true", help="every row's edges as JSON")
    ap.add_argument("--write", action="store_true", help="put the tables into docs/strength.md")
    args = ap.parse_args(argv)
    rows = plan()
    load(rows, args.parts, args.games)
    if args.write:
        changed = write_docs(rows)
        print(
            "updated: " + (", ".join(changed) if changed else "nothing (the tables were current)")
        )
        return 0
    if args.json:
        out = [
            {
                "row": r.name,
                "bots": r.version,
                "parts": len(r.runs),
                "planned": len(r.seeds),
                "edges": [
                    {"a": e.a, "b": e.b, "diff": e.diff, "se": e.se, "z": e.z, "games": e.games}
                    | {"verdict": e.verdict}
                    for e in edges(r)
                ],
            }
            for r in rows
        ]
        print(json.dumps(out, indent=1))
        return 0
    print("\n".join(summary(rows)))
    if not args.summary:
        print()
        print("\n".join(details(rows)))
        print()
        print("Rows not complete: the script runs the parts left (S = each seed of the row):")
        print()
        for r in rows:
            if not r.complete:
                left = len(r.seeds) - len(r.runs)
                print(
                    f"    benchmarks/strength.sh 2 '^{r.name}$'   # {left} of {len(r.seeds)} left"
                )
                print(f"    #   {r.command()}, S = {r.seed_range()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
