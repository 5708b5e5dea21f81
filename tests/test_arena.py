"""The arena: CLI/JSON contract, seat rotation, determinism across workers and backends."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from cli_helpers import run
from ono99.arena import make_spec, play_game, run_games, run_tournament, tally, wilson
from ono99.arena.tournament import bot_seed, entry_names, t_quantile
from ono99.cli import main


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from ono99.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def outcome(result: dict[str, Any]) -> dict[str, Any]:
    """What must not depend on backend or workers (decision times may)."""
    return {
        "bots": {
            name: (b["games"], b["wins"], b["win_rate"], b["ci95"], b["seats"])
            for name, b in result["bots"].items()
        },
        "pairs": result["pairs"],
    }


def test_json_contract() -> None:
    """CONTRACTS.md: one JSON object with bots -> games, wins, win_rate, ci95, decision_ms."""
    p = cli("arena", "--bots", "greedy,random", "--games", "20", "--seed", "3", "--json")
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""  # no progress bar when stderr is not a terminal
    data = json.loads(p.stdout)
    assert set(data["bots"]) == {"greedy", "random"}
    total_wins = 0.0
    for b in data["bots"].values():
        assert b["games"] == 20
        assert 0 <= b["wins"] <= 20
        assert b["win_rate"] == pytest.approx(b["wins"] / 20, abs=1e-6)
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["win_rate"] <= hi <= 1
        assert set(b["decision_ms"]) >= {"p50", "p99"}
        assert b["decision_ms"]["p50"] <= b["decision_ms"]["p99"]
        total_wins += b["wins"]
    assert total_wins == pytest.approx(20)
    assert data["games"] == 20 and data["players"] == 2 and data["rules"] == "mattel2022"


def test_table_output_has_intervals_and_ratings() -> None:
    p = cli("arena", "--bots", "heuristic,greedy,random", "--games", "6", "--workers", "1")
    assert p.returncode == 0, p.stderr
    assert "95% CI (Wilson)" in p.stdout and "95% CI (paired t)" in p.stdout
    assert "heuristic − greedy" in p.stdout and "greedy − random" in p.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "nobody"],
        ["--bots", "random", "--players", "9"],
        ["--bots", "random,greedy,heuristic", "--players", "2"],
        ["--bots", "random", "--backend", "mpi"],
        ["--bots", "random", "--games", "0"],
        ["--bots", "random", "--rules", "uno"],
        ["--bots", "random", "--option", "scoring=points"],
        ["--bots", "random", "--workers", "0"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str]) -> None:
    p = cli("arena", *args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "Traceback" not in p.stderr


def test_missing_ray_gives_the_install_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(SystemExit) as e:
        main(["arena", "--bots", "random,random", "--backend", "ray", "--games", "2"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "pip install 'ono99[ray]'" in err and len(err.strip().splitlines()) == 1


def test_seats_rotate_evenly() -> None:
    """Every bot plays every seat equally; --games rounds up to a multiple of players."""
    spec = make_spec(["heuristic", "greedy", "random"], games=7, seed=1)
    assert spec.games == 9
    seatings = [spec.seating(i) for i in range(spec.games)]
    for seat in range(3):
        assert sorted(s[seat] for s in seatings) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    res = tally(spec, [play_game(spec, i) for i in range(spec.games)])
    for b in res["bots"].values():
        assert b["seats"] == [3, 3, 3]


def test_more_players_than_bots_fill_seats_cyclically() -> None:
    spec = make_spec(["ismcts:5", "random"], players=3, games=6, seed=2)
    assert spec.lineup == (0, 1, 0)
    res = tally(spec, [play_game(spec, i) for i in range(spec.games)])
    assert res["bots"]["ismcts:5"]["seats"] == [4, 4, 4]
    assert res["bots"]["random"]["seats"] == [2, 2, 2]
    assert sum(b["wins"] for b in res["bots"].values()) == pytest.approx(6)


def test_same_bot_twice_gets_distinct_names() -> None:
    assert entry_names(["heuristic", "heuristic", "random", "heuristic"]) == (
        "heuristic",
        "heuristic#2",
        "random",
        "heuristic#3",
    )
    res = run_tournament(make_spec(["heuristic", "heuristic"], games=4, seed=5), workers=1)
    assert set(res["bots"]) == {"heuristic", "heuristic#2"}
    assert sum(b["wins"] for b in res["bots"].values()) == pytest.approx(4)


def test_shared_wins_count_as_fractions() -> None:
    """R-END-3 lowest mode can end with a shared win: each gets 1/k of a win."""
    spec = make_spec(
        ["random", "random", "random", "random"],
        rules="classic1980",
        options={"scoring": "points", "points_mode": "lowest", "target": 30},
        games=40,
        seed=1,
    )
    res = run_tournament(spec, workers=1)
    total = sum(b["wins"] for b in res["bots"].values())
    assert total == pytest.approx(40)


def test_seeds_come_from_seed_game_and_seat_only() -> None:
    assert bot_seed(1, 2, 3) == bot_seed(1, 2, 3)
    assert len({bot_seed(1, g, s) for g in range(5) for s in range(4)}) == 20
    spec = make_spec(["heuristic", "ismcts:5", "greedy"], games=3, seed=9)
    a = play_game(spec, 2)
    run_games(spec, workers=1)  # other games played in between change nothing
    b = play_game(spec, 2)
    assert (a.winners, a.places, a.decisions) == (b.winners, b.places, b.decisions)


def test_wilson_interval() -> None:
    assert wilson(0, 10)[0] == 0.0
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and 0.69 < lo < 0.73
    assert wilson(0, 0) == (0.0, 1.0)


def pair(result: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    return next(p for p in result["pairs"] if (p["a"], p["b"]) == (a, b))


def test_a_bot_against_itself_gets_an_interval_around_zero() -> None:
    """The paired interval of two copies of one bot (differently seeded) contains 0, and
    the edge's sign follows the wins (the openskill rating this replaces ranked ``random``
    below ``random#2`` after it won 2,068 games to 1,932)."""
    res = run_tournament(make_spec(["random"], players=2, games=200, seed=11), workers=1)
    p = pair(res, "random", "random#2")
    lo, hi = p["ci95"]
    assert lo < 0 < hi
    assert p["blocks"] == 100
    assert lo == pytest.approx(p["diff"] - hi + p["diff"])  # symmetric about the edge
    wins = res["bots"]["random"]["wins"] - res["bots"]["random#2"]["wins"]
    assert p["diff"] == pytest.approx(wins / 200)  # one seat each: the difference of win rates
    if wins:
        assert (p["diff"] > 0) == (wins > 0)


def test_a_stronger_bot_gets_an_interval_above_zero() -> None:
    """heuristic against random, 60 games (30 deals): the whole interval is above 0, and the
    interval is the t-interval of the per-block differences."""
    res = run_tournament(make_spec(["heuristic", "random"], 2, games=60, seed=12), workers=1)
    p = pair(res, "heuristic", "random")
    lo, hi = p["ci95"]
    assert 0 < lo < p["diff"] < hi
    assert p["blocks"] == 30
    half = 2.0452296421327034 * p["se"]  # t(0.975, 29)
    assert (lo, hi) == pytest.approx((p["diff"] - half, p["diff"] + half), abs=1e-5)
    assert p["z"] > 1.645


def test_pairs_with_more_seats_than_bots_are_per_seat_held() -> None:
    """a,b,a with 3 players: a holds two seats a game, so its win share is halved per seat;
    a bot against a copy of itself in that line-up is still level."""
    res = run_tournament(make_spec(["random", "random"], 3, games=300, seed=13), workers=1)
    p = pair(res, "random", "random#2")
    lo, hi = p["ci95"]
    assert lo < 0 < hi


def test_one_block_has_no_interval() -> None:
    res = run_tournament(make_spec(["greedy", "random"], games=2, seed=4), workers=1)
    assert res["pairs"][0]["ci95"] is None and res["pairs"][0]["blocks"] == 1


@pytest.mark.parametrize(
    ("p", "df", "t"),
    [(0.975, 1, 12.7062), (0.975, 2, 4.3027), (0.975, 29, 2.0452), (0.95, 5, 2.0150),
     (0.975, 200, 1.9719), (0.975, 201, 1.9718), (0.975, 100_000, 1.9600)],
)  # fmt: skip
def test_t_quantiles_match_the_tables(p: float, df: int, t: float) -> None:
    assert t_quantile(p, df) == pytest.approx(t, abs=1e-4)


BOTS = ["ismcts:4", "heuristic", "greedy", "random"]
OPTIONS = {"scoring": "points", "target": 60, "draw_penalty": True}


def test_local_results_do_not_depend_on_worker_count() -> None:
    spec = make_spec(BOTS, rules="classic1980", options=OPTIONS, games=12, seed=7)
    one = run_tournament(spec, workers=1)
    two = run_tournament(spec, workers=2)
    assert outcome(one) == outcome(two)
    spec = make_spec(BOTS, rules="classic1980", options=OPTIONS, games=12, seed=8)
    other = run_tournament(spec, workers=1)
    assert outcome(other) != outcome(one)


@pytest.mark.slow
def test_ray_backend_gives_the_same_results() -> None:
    """The same --seed gives identical wins/games on Ray and on local processes."""
    ray = pytest.importorskip("ray")
    spec = make_spec(BOTS, players=4, games=16, seed=21)
    local = run_tournament(spec, workers=2)
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    try:
        on_ray = run_tournament(spec, backend="ray", workers=2)
        on_ray_3 = run_tournament(spec, backend="ray", workers=3)
    finally:
        ray.shutdown()
    assert outcome(on_ray) == outcome(local) == outcome(on_ray_3)


def test_arena_one_bot_plays_itself() -> None:
    """CONTRACTS.md arena: ``--bots random --players 3`` is three entries of the same bot
    (random, random#2, random#3), each rated; the --json shape is the contract's."""
    p = run("arena", "--bots", "random", "--players", "3", "--games", "6", "--workers", "1",
            "--json")  # fmt: skip
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert set(data["bots"]) == {"random", "random#2", "random#3"}
    for entry in data["bots"].values():
        assert entry["games"] == 6 and len(entry["ci95"]) == 2
        assert set(entry["decision_ms"]) >= {"p50", "p99"} and 0 <= entry["win_rate"] <= 1
    assert sum(e["wins"] for e in data["bots"].values()) == pytest.approx(6)
    p = run("arena", "--bots", "random", "--players", "3", "--games", "3", "--workers", "1")
    assert p.returncode == 0 and "random#3" in p.stdout, p.stderr
