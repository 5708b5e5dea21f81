"""The analysis report's "how much is skill" section (docs/analyze.md), built from reviews:
which games are reviewed, that the figures are those of the reviews, that they do not
depend on the workers, and that the page shows them."""

from __future__ import annotations

import itertools
import json
import statistics
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ono99.analysis import analyze
from ono99.analysis.collect import analysis_seed, review_facts, reviewed
from ono99.analysis.report import pct, render
from ono99.arena import make_spec
from ono99.bots.review import review_game
from ono99.i18n import set_language
from ono99.records import parse_record
from test_analyze import run_cli


@given(st.integers(1, 600), st.integers(0, 700))
def test_the_reviewed_games_are_spread_and_counted_exactly(games: int, review: int) -> None:
    picked = [i for i in range(games) if reviewed(i, games, review)]
    assert len(picked) == min(games, review)
    if 2 <= len(picked) < games:
        # evenly: no gap between two reviewed games is more than one longer than another
        gaps = [b - a for a, b in itertools.pairwise(picked)]
        assert max(gaps) - min(gaps) <= 1


@pytest.fixture(scope="module")
def run() -> tuple[dict[str, Any], list[Any]]:
    """4 two-player games of random against heuristic, 3 of them reviewed (12 worlds)."""
    spec = make_spec(["random", "heuristic"], 2, "mattel2022", {}, 4, 21)
    return analyze(spec, workers=1, review=3, samples=12)


def test_the_skill_figures_are_the_reviews(run: tuple[dict[str, Any], list[Any]]) -> None:
    """R-END-1: a seat's result is its share of the win; the figures are recomputed here
    from each game's stored review, and each stored review is ono99 review's of the record."""
    summary, games = run
    done = [g for g in games if g.review is not None]
    assert len(done) == 3 == summary["skill"]["games"] == summary["review"]["games"]
    assert summary["review"]["samples"] == 12
    for g in done:
        again = review_game(
            parse_record(g.record), seed=analysis_seed(summary["seed"], g.index, "review"),
            samples=12,
        )  # fmt: skip
        assert [s["decisions"] for s in g.review] == [s.decisions for s in again.seats]
        assert [s["start"] for s in g.review] == [round(s.start.win, 4) for s in again.seats]
        assert [s["result"] for s in g.review] == [1.0 if w in g.winners else 0.0 for w in (0, 1)]
    skill = summary["skill"]
    for bot in ("random", "heuristic"):
        mine = [g.review[s] for g in done for s in range(2) if g.bots[s] == bot]
        losses = [x for r in mine for x in r["losses"]]
        row = skill["bots"][bot]
        assert row["decisions"] == sum(r["decisions"] for r in mine) == len(losses)
        assert row["loss"]["mean"] == pytest.approx(statistics.fmean(losses), abs=1e-6)
        assert row["mistakes"]["hits"] == sum(r["mistakes"] for r in mine)
    pairs = [(r["start"], r["result"]) for g in done for r in g.review]
    deal = skill["deal"]
    brier = statistics.fmean((res - s) ** 2 for s, res in pairs)
    even = statistics.fmean((res - 0.5) ** 2 for _, res in pairs)
    assert deal["brier_deal"] == pytest.approx(brier, abs=1e-6)
    assert deal["share"] == pytest.approx(1 - brier / even, abs=1e-5)
    fav = sum(max(g.review, key=lambda r: r["start"])["result"] for g in done
              if g.review[0]["start"] != g.review[1]["start"])  # fmt: skip
    ties = sum(0.5 for g in done if g.review[0]["start"] == g.review[1]["start"])
    assert deal["favourite_won"]["hits"] == pytest.approx(fav + ties)


def test_the_reviews_do_not_depend_on_the_workers(run: tuple[dict[str, Any], list[Any]]) -> None:
    summary, games = run
    spec = make_spec(["random", "heuristic"], 2, "mattel2022", {}, 4, 21)
    two, games2 = analyze(spec, workers=2, review=3, samples=12)
    assert [g.review for g in games2] == [g.review for g in games]
    assert two["skill"] == summary["skill"]


def test_the_report_shows_the_section(run: tuple[dict[str, Any], list[Any]]) -> None:
    summary, _ = run
    page = render(summary)
    assert "<h2>How much is skill</h2>" in page
    for row in summary["skill"]["bots"].values():
        assert pct(row["loss"]["mean"]) in page and pct(row["mistakes"]["rate"]) in page
    assert pct(summary["skill"]["deal"]["share"]) in page
    set_language("ta")
    try:
        tamil = render(summary)
    finally:
        set_language("en")
    assert "How much is skill" not in tamil and pct(summary["skill"]["deal"]["share"]) in tamil


def test_no_review_says_how_to_get_one() -> None:
    summary, games = analyze(make_spec(["greedy"], 2, "mattel2022", {}, 2, 3), workers=1)
    assert summary["skill"] is None and all(g.review is None for g in games)
    assert "--review K" in render(summary)


def test_review_facts_reads_the_record_only() -> None:
    """What the analysis stores for a game is its review from the record (views only)."""
    rec = {"rules": "mattel2022", "players": 2, "seed": 4, "moves": ["4", "8"]}  # version 1
    facts = review_facts(rec, seed=1, samples=8)
    assert [f["decisions"] for f in facts] == [1, 1]
    assert all(f["result"] is None for f in facts)  # the record stops before the end


@pytest.mark.parametrize(("option", "value"), [("--review", "-1"), ("--samples", "0")])
def test_bad_review_options_are_one_line(
    option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "analyze", "--out", str(tmp_path / "o"), "--games", "2",
                             option, value)  # fmt: skip
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and option in err
    assert not (tmp_path / "o").exists()


def test_the_cli_writes_the_reviews(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "analyze", "--out", str(tmp_path), "--games", "2",
                             "--players", "2", "--review", "5", "--samples", "6", "--seed", "4",
                             "--workers", "1", "--json")  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert summary["review"] == {"games": 2, "samples": 6}
    rows = [json.loads(x) for x in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert all(len(r["review"]) == 2 for r in rows)
