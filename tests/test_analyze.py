"""``ono99 analyze`` (CONTRACTS.md "CLI"; docs/analyze.md): the report and its raw data,
figures checked against the games' records, determinism across workers and backends,
one-line errors."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ono99.analysis import analyze
from ono99.analysis.collect import BUST_SITUATIONS, game_data, play_analysis_game
from ono99.analysis.report import num, pct
from ono99.arena import make_spec
from ono99.cli import main
from ono99.i18n import set_language
from ono99.records import replay


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


TINY = ("--games", "6", "--players", "3", "--seed", "11", "--workers", "1", "--review", "1",
        "--samples", "8")  # fmt: skip


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    """One small run for several tests: 6 mattel2022 games of 3 heuristic bots."""
    out = tmp_path_factory.mktemp("tiny")
    try:
        main(["analyze", "--out", str(out), *TINY])
    except SystemExit as e:
        assert not e.code
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return out, summary, (out / "report.html").read_text(encoding="utf-8")


def test_json_output_is_summary_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints summary.json's content as one JSON object; the seed is in it."""
    code, out, err = run_cli(capsys, "analyze", "--out", str(tmp_path), *TINY, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data == json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert data["seed"] == 11 and data["games"] == 6 and data["players"] == 3
    assert data["engine"] == "reference" and data["rules"] == "mattel2022"


def test_default_seed_is_fresh_and_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --seed the run takes a random seed and writes it down, so it can be repeated."""
    args = ("--games", "3", "--players", "3", "--workers", "1", "--json", "--review", "1",
            "--samples", "8")  # fmt: skip
    a = json.loads(run_cli(capsys, "analyze", "--out", str(tmp_path / "a"), *args)[1])
    b = json.loads(run_cli(capsys, "analyze", "--out", str(tmp_path / "b"), *args)[1])
    assert a["seed"] != b["seed"]
    again = json.loads(
        run_cli(capsys, "analyze", "--out", str(tmp_path / "c"), *args, "--seed", str(a["seed"]))[1]
    )
    assert again == a


def test_report_is_self_contained(tiny: tuple[Path, dict[str, Any], str]) -> None:
    """One file: inline CSS and SVG; no script, stylesheet, image or font fetched."""
    out, _, html = tiny
    assert html.startswith("<!doctype html>") and "<svg" in html and "<style>" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert "<script" not in html and "<link" not in html and "@import" not in html
    assert "url(" not in html
    assert {p.name for p in out.iterdir()} >= {
        "report.html", "summary.json", "games.jsonl", "games.csv", "records.jsonl"
    }  # fmt: skip


def test_report_shows_the_summary_figures(tiny: tuple[Path, dict[str, Any], str]) -> None:
    """R-SET-3: every seat's wins and win rate with its interval; game length; busts by
    situation (R-P2-4); card shares, all as summary.json has them."""
    _, s, html = tiny
    text = re.sub(r"<[^>]+>", " ", html)
    for r in s["seats"]["wins"]:
        assert pct(r["rate"]) in text
        assert f"{pct(r['ci95'][0])} – {pct(r['ci95'][1])}" in text
    moves = s["length"]["moves"]
    for key in ("mean", "median", "max"):
        assert num(moves[key]) in text
    for k in BUST_SITUATIONS:
        assert pct(s["busts"]["situations"][k]["rate"]) in text
    for card, r in s["cards"]["plays"].items():
        assert pct(r["rate"]) in text, card
    assert f"{s['games']} " in text and str(s["seed"]) in text


def test_tiny_run_checked_against_the_records(tiny: tuple[Path, dict[str, Any], str]) -> None:
    """R-REC, R-SET-3, R-END-1, R-P2-4, R-TURN-3: each record replays to the winner and
    move count of its games.jsonl line; seat wins, busts, plays and totals recounted from
    the replayed games' events equal the summary."""
    out, s, _ = tiny
    records = lines(out / "records.jsonl")
    rows = lines(out / "games.jsonl")
    assert len(records) == len(rows) == s["games"] == 6
    wins = [0.0] * 3
    busts = plays = 0
    totals: Counter[int] = Counter()
    for rec, row in zip(records, rows, strict=True):
        g = replay(rec)
        assert g.is_over
        w = g.winner
        winners = w if isinstance(w, list) else [w]
        assert row["winners"] == winners
        assert row["moves"] == len(rec["moves"]) == len(g.moves)
        for seat in winners:
            wins[seat] += 1 / len(winners)
        events = g.events or []
        busts += sum(e.kind == "bust" for e in events)
        plays += sum(e.kind == "play" for e in events)
        totals.update(e.total for e in events if e.kind == "play")
        assert len(g.out) == 2 and row["out"] == g.out  # R-END-1: all but the winner are out
    assert sum(wins) == s["games"]
    assert [r["hits"] for r in s["seats"]["wins"]] == wins
    assert s["busts"]["count"] == busts == 2 * s["games"]
    assert sum(r["hits"] for r in s["busts"]["situations"].values()) == busts
    assert sum(r["hits"] for r in s["cards"]["plays"].values()) == plays
    assert {int(t): k for t, k in s["cards"]["totals_counts"].items()} == dict(totals)
    csv_lines = (out / "games.csv").read_text(encoding="utf-8").splitlines()
    assert len(csv_lines) == 7 and csv_lines[0].startswith("index,seed,bots,winners,moves")


def test_same_seed_same_data_whatever_the_workers() -> None:
    """The same seed gives the same summary and games with 1 and 2 worker processes
    (R-SET-1: every deal comes from the seed), and another seed other games."""
    kw: dict[str, Any] = {"bots": ["heuristic", "random"], "players": 3, "games": 12}
    spec = make_spec(**kw, rules="classic1980", seed=5)
    one, g1 = analyze(spec, workers=1)
    two, g2 = analyze(spec, workers=2)
    assert one.pop("workers") == 1 and two.pop("workers") == 2
    assert one == two
    assert [g.row() for g in g1] == [g.row() for g in g2]
    other, _ = analyze(make_spec(**kw, rules="classic1980", seed=6), workers=1)
    assert other["length"] != one["length"]


@pytest.mark.slow
def test_ray_backend_gives_the_same_data() -> None:
    """As ``ono99 arena``: the same seed gives the same summary on Ray, reviews included."""
    ray = pytest.importorskip("ray")
    spec = make_spec(["heuristic"], 3, games=9, seed=4)
    local, _ = analyze(spec, workers=2, review=2, samples=6)
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    try:
        on_ray, _ = analyze(spec, backend="ray", workers=2, review=2, samples=6)
    finally:
        ray.shutdown()
    for s in (local, on_ray):
        del s["backend"]
    assert on_ray == local


@pytest.mark.parametrize(
    "args",
    [
        ["--rules", "nope"],
        ["--bots", "nobody"],
        ["--bots", ""],
        ["--option", "nope=1"],
        ["--option", "scoring=points"],  # mattel2022 takes no options (R-SET-6)
        ["--option", "novalue"],
        ["--players", "1"],
        ["--players", "7"],
        ["--rules", "classic1980", "--players", "9"],
        ["--games", "0"],
        ["--games", "-3"],
        ["--seed", "-1"],
        ["--engine", "fast"],
        ["--engine", "turbo"],
        ["--backend", "cloud"],
        ["--workers", "0"],
        ["--players", "x"],
    ],
)
def test_bad_input_is_one_line_exit_2(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-SET-5, R-SET-6 and the CLI contract: one line on stderr, exit status 2."""
    code, out, err = run_cli(capsys, "analyze", "--out", str(tmp_path / "r"), *args)
    assert code == 2, (out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "r" / "report.html").exists()


def test_unwritable_out_and_missing_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--out under a file, --out a file, no --out: one line, exit status 2."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for args in (["--out", str(blocker / "sub")], ["--out", str(blocker)], []):
        code, _, err = run_cli(capsys, "analyze", "--games", "2", *args)
        assert code == 2 and len(err.strip().splitlines()) == 1, (args, err)


def test_engine_fast_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--engine fast: the analysis plays bots, which run on the reference engine only;
    one line says so (``ono99 bench`` and ``ono99 replay`` do take the fast engine)."""
    code, out, err = run_cli(capsys, "analyze", "--out", str(tmp_path), "--engine", "fast")
    assert code == 2 and not out and len(err.strip().splitlines()) == 1
    assert "--engine reference" in err


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "analyze", "--help")
    assert code == 0 and "--out" in out and "--backend" in out


def test_report_in_tamil(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--lang ta: the report's words are Tamil (the figures stay the same)."""
    try:
        code, out, err = run_cli(capsys, "--lang", "ta", "analyze", "--out", str(tmp_path), *TINY)
    finally:
        set_language("en")
    assert code == 0, err
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert '<html lang="ta"' in html
    assert re.search("[\u0b80-\u0bff]{3}", html)  # Tamil letters
    assert "Who wins by seat" not in html and "Game length" not in html
    assert re.search("[\u0b80-\u0bff]", out)  # the findings on stdout too


@settings(max_examples=12)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    preset=st.sampled_from(
        [("mattel2022", {}), ("classic1980", {}), ("gamerules", {}),
         ("classic1980", {"scoring": "points", "target": 60, "draw_penalty": True})]
    ),
)  # fmt: skip
def test_game_facts_are_read_from_the_record(
    seed: int, players: int, preset: tuple[str, dict[str, Any]]
) -> None:
    """R-REC, R-END-2, R-END-3: a game's facts come from its public events and record
    only (replaying the record gives the same facts), and they add up: a turn has at
    least one play, every counted play has a total, one snapshot per round in the round
    modes, the winner is out only in points mode."""
    rules, options = preset
    spec = make_spec(["random", "greedy"], players, rules, options, players, seed)
    d = play_analysis_game(spec, seed % players)
    again = game_data(replay(d.record), d.index, d.bots)
    assert again.row() == d.row()
    assert sum(d.turns) <= d.plays
    assert sum(d.totals.values()) == d.plays - d.four99
    assert all(b["situation"] in BUST_SITUATIONS for b in d.busts)
    assert d.winners
    if not options:  # points mode: the winner may be among those out that round (R-END-3)
        assert not set(d.winners) & set(d.out)
    if rules == "mattel2022":
        assert d.trajectory == [] and d.rounds == 1 and len(d.busts) == players - 1
    else:
        assert len(d.trajectory) == d.rounds
    assert d.moves == len(d.record["moves"])


def test_the_doc_names_exactly_the_csv_columns() -> None:
    """docs/analyze.md's table of files lists games.csv's columns, and those are exactly
    the columns written (it said "the same" as games.jsonl, whose per-card and per-round
    lists games.csv does not hold); the raw-data section says which ones it leaves out."""
    from ono99.analysis.output import CSV_COLUMNS

    doc = (Path(__file__).resolve().parents[1] / "docs" / "analyze.md").read_text("utf-8")
    line = next(x for x in doc.splitlines() if x.startswith("| `games.csv` |"))
    flat, _, rest = line.partition(";")
    assert tuple(re.findall(r"`([a-z_0-9]+)`", flat)) == CSV_COLUMNS
    left_out = re.findall(r"`([a-z_0-9]+)`", rest.split(" and the busts")[0])
    assert left_out and not set(left_out) & set(CSV_COLUMNS)
    assert f"without {', '.join(f'`{c}`' for c in left_out[:-1])} and `{left_out[-1]}`" in doc
