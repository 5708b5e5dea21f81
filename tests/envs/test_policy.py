"""ono99.envs.policy: a learned policy (NumPy) as a bot that the arena plays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ono99 import Game
from ono99.arena import make_spec, run_tournament
from ono99.bots import make_bot
from ono99.envs.encoding import encode, obs_size
from ono99.envs.policy import MLPPolicy, PolicyBot


def random_policy(players: int, seed: int, hidden: int = 8) -> MLPPolicy:
    rng = np.random.default_rng(seed)
    n = obs_size(players)
    weights = [
        (
            rng.normal(size=(n, hidden)).astype(np.float32),
            rng.normal(size=hidden).astype(np.float32),
        ),
        (rng.normal(size=(hidden, 18)).astype(np.float32), rng.normal(size=18).astype(np.float32)),
    ]
    scale = np.full(n, 10.0, np.float32)
    return MLPPolicy(weights, scale, {"rules": "mattel2022", "players": players, "obs_size": n})


def test_saved_policy_reads_back_the_same(tmp_path: Path) -> None:
    pol = random_policy(3, 1)
    path = tmp_path / "p.npz"
    pol.save(path)
    back = MLPPolicy.load(path)
    assert back.meta == pol.meta
    obs = encode(Game("mattel2022", 3, seed=4).view(0))
    assert np.array_equal(back.logits(obs), pol.logits(obs))
    # by hand: ReLU between the layers, the observation divided by the scale
    (w0, b0), (w1, b1) = pol.weights
    expected = np.maximum(obs / pol.scale @ w0 + b0, 0) @ w1 + b1
    assert np.allclose(pol.logits(obs), expected, atol=1e-5)


def test_the_bot_plays_the_legal_action_of_highest_logit() -> None:
    """Whatever the logits favour, the bot's action is one of view.legal: the best of them."""
    pol = random_policy(2, 2)
    w1, b1 = pol.weights[1]
    b1[:] = 0.0
    b1[16] = 1e6  # 99x4: almost never legal
    pol.weights[1] = (w1 * 0.0, b1)
    bot = PolicyBot(pol)
    g = Game("mattel2022", 2, seed=5)
    for _ in range(30):
        if g.winner is not None:
            break
        view = g.view(g.to_move)
        action = bot.act(view)
        assert action in view.legal
        if len(view.legal) > 1:
            logits = pol.logits(encode(view))
            assert logits[action] == max(logits[a] for a in view.legal)
        g.apply(action)


def test_batched_act_never_picks_a_masked_action() -> None:
    pol = random_policy(2, 3)
    rng = np.random.default_rng(0)
    obs = rng.uniform(0, 10, size=(64, obs_size(2))).astype(np.float32)
    mask = (rng.random((64, 18)) < 0.2).astype(np.int8)
    mask[np.arange(64), rng.integers(0, 18, 64)] = 1
    acts = pol.act(obs, mask)
    assert (mask[np.arange(64), acts] == 1).all()


def test_the_arena_plays_policy_path(tmp_path: Path) -> None:
    """``policy:PATH`` is a bot name once ono99.envs.policy is imported: arena games with
    it are legal (the arena raises on an illegal action) and counted."""
    path = tmp_path / "p.npz"
    random_policy(2, 4).save(path)
    res = run_tournament(make_spec([f"policy:{path}", "random"], games=8, seed=3), workers=1)
    assert res["bots"][f"policy:{path}"]["games"] == 8
    assert isinstance(make_bot(f"policy:{path}", 0), PolicyBot)


def test_a_policy_for_other_player_counts_is_refused(tmp_path: Path) -> None:
    bot = PolicyBot(random_policy(3, 5))
    g = Game("mattel2022", 2, seed=1)
    with pytest.raises(ValueError, match="trained for 3 players"):
        for _ in range(20):  # the first decision with a choice asks the network
            view = g.view(g.to_move)
            g.apply(bot.act(view))


def test_cli_arena_with_a_policy_and_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    random_policy(2, 6).save(path)

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-c", "from ono99.cli import main; main()", "arena", *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300)

    p = cli("--bots", f"policy:{path},greedy", "--games", "4", "--workers", "1", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["bots"][f"policy:{path}"]["games"] == 4
    bad = tmp_path / "bad.npz"
    bad.write_text("not a policy")
    p = cli("--bots", f"policy:{bad},greedy", "--games", "4")
    assert p.returncode == 2 and "cannot read the policy file" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def test_importing_the_policy_bot_leaves_the_unknown_bot_message_alone() -> None:
    """``policy:PATH`` is registered by importing ono99.envs.policy (done above): the choices
    an unknown name lists stay those of a process that never imported it (the CLI's)."""
    from ono99.bots import PARAM_BOTS
    from ono99.errors import Ono99Error

    assert "policy" in PARAM_BOTS
    with pytest.raises(Ono99Error) as info:
        make_bot("bogus")
    assert "policy" not in str(info.value) and "ismcts:N" in str(info.value)


def test_a_policy_for_another_player_count_is_refused_before_the_arena_plays(
    tmp_path: Path,
) -> None:
    """``ono99 arena --bots policy:P3.npz,greedy`` (2 players: one per bot) was a traceback
    from the first game's first real decision; now the tournament is refused when it is set
    up: one line, exit status 2 (CONTRACTS.md: bad arguments, never a traceback)."""
    path = tmp_path / "p3.npz"
    random_policy(3, 7).save(path)
    with pytest.raises(ValueError, match=r"trained for 3 players.*not 2"):
        make_spec([f"policy:{path}", "greedy"], games=4)
    assert make_spec([f"policy:{path}", "greedy"], players=3, games=3).players == 3
    cmd = [sys.executable, "-c", "from ono99.cli import main; main()", "arena",
           "--bots", f"policy:{path},greedy", "--games", "4", "--workers", "1", "--json"]  # fmt: skip
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "trained for 3 players" in p.stderr
    assert p.stdout == ""


def test_every_bad_policy_file_is_one_line_in_the_users_language(tmp_path: Path) -> None:
    """``ono99 arena --bots policy:FILE`` (docs/learning.md) with a FILE that is cut short
    (a run stopped while saving, a partial copy), not a zip, another NumPy archive, a
    folder, missing, or JSON: always one line and exit status 2, never a traceback
    (``zipfile.BadZipFile``), never NumPy's advice about pickles or ``[Errno 2]``; under
    ``--lang ta`` the whole line is Tamil but for the path."""
    good = tmp_path / "p.npz"
    random_policy(2, 6).save(good)
    cut = tmp_path / "cut.npz"
    cut.write_bytes(good.read_bytes()[:300])
    notzip = tmp_path / "notzip.npz"
    notzip.write_bytes(b"PK\x03\x04garbage")
    other = tmp_path / "other.npz"
    np.savez(other, a=np.zeros(3))
    as_json = tmp_path / "config.json"
    as_json.write_text('{"rules": "mattel2022"}')
    cases = [cut, notzip, other, tmp_path, tmp_path / "missing.npz", as_json]
    for path in cases:
        with pytest.raises(ValueError, match="cannot read the policy file") as info:
            MLPPolicy.load(path)
        text = str(info.value)
        assert "\n" not in text and "Errno" not in text and "pickle" not in text, text
    for path in (cut, tmp_path / "missing.npz"):
        cmd = [sys.executable, "-c", "from ono99.cli import main; main()", "arena", "--lang",
               "ta", "--bots", f"policy:{path},greedy", "--games", "2", "--workers", "1"]  # fmt: skip
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        line = p.stderr.strip()
        assert len(line.splitlines()) == 1, line
        words = line.split(": ", 1)[1].replace(str(path), "")
        assert not any(w.isascii() and w.isalpha() and len(w) > 2 for w in words.split()), line
