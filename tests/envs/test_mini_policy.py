"""The learned policy of ``mini`` (docs/mini.md, issue 37): the play order it reads, its
sampled play, the shipped file, and a tiny run of ``benchmarks/mini_learn.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ono99 import Game
from ono99.arena import make_spec, run_tournament
from ono99.bots import make_bot
from ono99.envs.encoding import NUM_CARDS, encode, obs_size
from ono99.envs.policy import MLPPolicy, PolicyBot, observe, play_order, policy_file
from ono99.rules import make_rules

ROOT = Path(__file__).resolve().parents[2]
#: the learned policy docs/mini.md measures: the network playing its highest logit, and
#: the same network sampling its softmax
RUN = ROOT / "benchmarks" / "results" / "mini" / "ppo-selfplay-1"
SHIPPED = RUN / "policy-highest.npz"


def order_policy(
    seed: int, players: int = 2, sample: bool = False, order: int = 8, **meta_more: Any
) -> MLPPolicy:
    """A tiny random mini policy reading a play order of ``order`` cards (``meta_more``:
    more meta, e.g. ``options={"size": "large"}``; none: an older file's meta)."""
    rng = np.random.default_rng(seed)
    n = obs_size(players) + order * NUM_CARDS
    weights = [
        (rng.normal(size=(n, 8)).astype(np.float32), rng.normal(size=8).astype(np.float32)),
        (rng.normal(size=(8, 18)).astype(np.float32), rng.normal(size=18).astype(np.float32)),
    ]
    meta = {"rules": "mini", "players": players, "obs_size": n, "play_order": order,
            "sample": sample, **meta_more}  # fmt: skip
    return MLPPolicy(weights, np.ones(n, np.float32), meta)


def play_out(g: Game, bots: list[PolicyBot]) -> list[int]:
    """Play ``g`` to its end with ``bots`` (one per seat), each move checked legal."""
    moves = []
    while g.winner is None:
        view = g.view(g.to_move)
        action = bots[g.to_move].act(view)
        assert action in view.legal
        g.apply(action)
        moves.append(action)
    return moves


def test_the_play_order_is_the_discard_pile_most_recent_first() -> None:
    """R-SET-1: the block holds only cards every player saw played (the discard pile)."""
    g = Game("mini", 2, seed=11)
    while len(g.discard) < 3 and g.winner is None:
        g.apply(g.legal_actions()[0])
    view = g.view(g.to_move)
    block = play_order(view, 8).reshape(8, NUM_CARDS)
    assert [int(row.argmax()) for row in block[: len(view.discard)]] == list(reversed(view.discard))
    assert block.sum() == len(view.discard) and block[len(view.discard) :].sum() == 0
    obs = observe(view, {"play_order": 8})
    assert np.array_equal(obs[: obs_size(2)], encode(view))
    assert np.array_equal(observe(view, {}), encode(view))


def test_a_sampling_policy_plays_legal_moves_from_its_seed() -> None:
    pol = order_policy(1, sample=True)
    games = [play_out(Game("mini", 2, seed=s), [PolicyBot(pol, 5), PolicyBot(pol, 6)])
             for s in range(20)]  # fmt: skip
    again = [play_out(Game("mini", 2, seed=s), [PolicyBot(pol, 5), PolicyBot(pol, 6)])
             for s in range(20)]  # fmt: skip
    assert games == again
    # sampling, not the highest logit: some seed plays another game
    other = [play_out(Game("mini", 2, seed=s), [PolicyBot(pol, 7), PolicyBot(pol, 8)])
             for s in range(20)]  # fmt: skip
    assert other != games


def test_the_play_order_counts_in_the_player_check() -> None:
    bot = PolicyBot(order_policy(2))
    g = Game("mini", 2, seed=1)
    bot.check_game(g.rules, 2)  # accepted
    with pytest.raises(ValueError, match="trained for 2 players"):
        bot.check_game(g.rules, 3)


def large_policy(seed: int = 4) -> MLPPolicy:
    """A policy of mini's large size as ``benchmarks/mini_abr.py`` saves one: its options
    in the meta, a play order of 11 cards."""
    return order_policy(seed, order=11, options={"size": "large"})


LARGE_REFUSED = {
    "mini": "this policy was trained for mini (size=large), not mini:"
    " give --rules mini --option size=large",
    "mattel2022": "this policy was trained for mini (size=large), not mattel2022:"
    " give --rules mini --option size=large",
}


@pytest.mark.parametrize("preset", ["mini", "mattel2022"])
def test_a_large_size_policy_is_refused_for_other_rules_before_a_game(
    tmp_path: Path, preset: str
) -> None:
    """Its observation has the same length in small mini (and in mattel2022, with 2
    players) but another meaning: refused by the bot's check and by the arena's set-up,
    naming what it was trained for, what was asked and what to give."""
    bot = PolicyBot(large_policy())
    bot.check_game(make_rules("mini", {"size": "large"}), 2)  # accepted
    with pytest.raises(ValueError) as info:
        bot.check_game(make_rules(preset), 2)
    assert str(info.value) == LARGE_REFUSED[preset]
    path = tmp_path / "large.npz"
    large_policy().save(path)
    with pytest.raises(ValueError, match=r"trained for mini \(size=large\)"):
        make_spec([f"policy:{path}", "greedy"], rules=preset, games=2)
    spec = make_spec([f"policy:{path}", "greedy"], rules="mini", options={"size": "large"},
                     games=2, seed=1)  # fmt: skip
    assert run_tournament(spec, workers=1)["games"] == 2


@pytest.mark.parametrize("preset", ["mini", "mattel2022"])
def test_cli_arena_refuses_a_large_size_policy_in_one_line(tmp_path: Path, preset: str) -> None:
    """``ono99 arena --bots policy:LARGE,greedy --rules PRESET``: exit status 2, one line,
    no game (CONTRACTS.md "CLI": bad arguments)."""
    path = tmp_path / "large.npz"
    large_policy().save(path)
    cmd = [sys.executable, "-m", "ono99", "arena", "--bots", f"policy:{path},greedy",
           "--rules", preset, "--games", "4", "--workers", "1", "--json"]  # fmt: skip
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "ONO99_LANG": "en"})  # fmt: skip
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and LARGE_REFUSED[preset] in lines[0], p.stderr
    # in the user's language: one Tamil line, the rules and options left as given
    p = subprocess.run([*cmd[:3], "--lang", "ta", *cmd[3:]], capture_output=True, text=True,
                       timeout=300, env={**os.environ, "ONO99_LANG": "en"})  # fmt: skip
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "பயிற்றுவிக்கப்பட்டது" in p.stderr and "--rules mini --option size=large" in p.stderr


def test_a_small_size_policy_plays_only_small_mini() -> None:
    """An older mini file has no ``options`` (the small size's are ``{}``); one that spells
    ``size=small`` out is the same; either is refused for the large size."""
    for pol in (
        order_policy(5),
        order_policy(5, options={}),
        order_policy(5, options={"size": "small"}),
    ):
        bot = PolicyBot(pol)
        bot.check_game(make_rules("mini"), 2)
        bot.check_game(make_rules("mini", {"size": "small"}), 2)
        with pytest.raises(ValueError) as info:
            bot.check_game(make_rules("mini", {"size": "large"}), 2)
        assert str(info.value) == (
            "this policy was trained for mini, not mini (size=large): give --rules mini"
        )


@pytest.mark.skipif(not SHIPPED.exists(), reason="the learned mini policy is not in this tree")
def test_the_shipped_small_policy_is_accepted_for_small_mini_only() -> None:
    pol = MLPPolicy.load(SHIPPED)
    assert "options" not in pol.meta
    name = f"policy:{SHIPPED}"
    assert make_spec([name, "optimal"], rules="mini", games=2).rules == "mini"
    with pytest.raises(ValueError, match=r"trained for mini, not mini \(size=large\)"):
        make_spec([name, "greedy"], rules="mini", options={"size": "large"}, games=2)
    with pytest.raises(ValueError, match="trained for mini, not mattel2022: give --rules mini"):
        make_spec([name, "greedy"], games=2)


def test_a_mattel2022_zoo_policy_plays_classic1980_but_not_mini() -> None:
    """The zoo's policies (docs/baselines.md) keep playing the other full presets, as
    before; ``mini`` is refused (its deck is not theirs)."""
    bot = PolicyBot(MLPPolicy.load(policy_file("zoo/m2-ppo-selfplay")))
    bot.check_game(make_rules("classic1980"), 2)
    bot.check_game(make_rules("classic1980", {"scoring": "points", "target": 60}), 2)
    bot.check_game(make_rules("gamerules"), 2)
    spec = make_spec(["policy:zoo/m2-ppo-selfplay", "greedy"], rules="classic1980", games=2, seed=1)
    assert run_tournament(spec, workers=1)["games"] == 2
    with pytest.raises(ValueError) as info:
        bot.check_game(make_rules("mini"), 2)
    assert str(info.value) == (
        "this policy was trained for mattel2022, not mini: give --rules mattel2022"
    )


@pytest.mark.skipif(not SHIPPED.exists(), reason="the learned mini policy is not in this tree")
@pytest.mark.parametrize("path", [SHIPPED, RUN / "policy.npz"], ids=["highest", "sampled"])
def test_the_learned_mini_policy_plays_legal_moves_in_the_arena(path: Path) -> None:
    """The files docs/mini.md measures: ``policy:PATH`` in ``mini`` against ``optimal``
    (the arena raises on an illegal action), and move by move in games of its own."""
    pol = MLPPolicy.load(path)
    assert pol.meta["rules"] == "mini" and pol.meta["play_order"] == 8
    assert pol.meta["sample"] == (path != SHIPPED)
    name = f"policy:{path}"
    res = run_tournament(make_spec([name, "optimal"], rules="mini", games=20, seed=3), workers=1)
    assert res["bots"][name]["games"] == 20
    bots = [make_bot(name, 1), make_bot(name, 2)]
    assert all(isinstance(b, PolicyBot) for b in bots)
    for s in range(10):
        play_out(Game("mini", 2, seed=s), bots)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_a_tiny_run_of_mini_learn(tmp_path: Path, players: int) -> None:
    """``mini_learn.py train`` for two iterations (with 3 players, without the play
    order), then ``eval`` of its file: the exact NashConv of a policy is in [0, 2] (the
    uniform policy's is 79/90 with 2 players) and the arena rows are counted (the tree
    walk makes this slow: about a minute each)."""
    script = str(ROOT / "benchmarks" / "mini_learn.py")
    cache = str(tmp_path / "tree.pkl")
    out = tmp_path / "run"
    run = [sys.executable, script, "train", "--seed", "3", "--out", str(out), "--cache", cache,
           "--iterations", "2", "--games", "64", "--eval-every", "1", "--hidden", "8",
           "--players", str(players)]  # fmt: skip
    order = 8 if players == 2 else 0  # with 3 players: the plain observation
    run += ["--play-order", str(order)]
    p = subprocess.run(run, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    summary = json.loads((out / "curve.json").read_text())
    assert summary["iterations"] == 2 and summary["games"] == 128
    assert [row[0] for row in summary["curve"]] == [0, 1, 2]
    assert all(0 <= row[2] <= 2 and 0 <= row[3] <= 2 for row in summary["curve"])
    meta = MLPPolicy.load(out / "policy.npz").meta
    assert meta["players"] == players and meta["play_order"] == order
    assert meta["obs_size"] == obs_size(players) + order * NUM_CARDS
    against = "optimal" if players == 2 else "heuristic"
    ev = [sys.executable, script, "eval", str(out / "policy.npz"), "--cache", cache,
          "--games", "6", "--against", against]  # fmt: skip
    p = subprocess.run(ev, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    row = data["rows"][0]
    assert data["players"] == players and row["against"][against]["games"] == 6
    assert 0 <= row["nash_conv"] <= 2
    assert row["nash_conv"] == pytest.approx(summary["curve"][-1][2], abs=1e-6)
