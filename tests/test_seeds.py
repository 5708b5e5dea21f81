"""Deals no one can guess: every seed nobody chose comes from ``secrets`` (at least 128
bits), is never derived from an earlier game's, and nothing a player sees during a game
holds it (R-SET-1: hands are private; a seed would give every hand and the draw order)."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace

import pytest

from ono99 import Game, to_record
from ono99.game import SEED_BITS, new_seed
from ono99.tui.session import NewGame


def test_games_without_a_seed_get_fresh_unrelated_128_bit_seeds() -> None:
    """R-SET-1: ``Game(...)`` without a seed never deals the same game twice: 200 games,
    200 different seeds, none within a million of another (no counter, no seed + 1),
    and about half of their 128 bits set (uniform, not a small number)."""
    seeds = [Game("mattel2022", 3).seed for _ in range(200)]
    assert all(isinstance(s, int) and 0 <= s < 2**SEED_BITS for s in seeds)
    seeds = [int(s) for s in seeds]
    assert len(set(seeds)) == 200
    ordered = sorted(seeds)
    assert min(b - a for a, b in itertools.pairwise(ordered)) > 10**6
    ones = sum(bin(s).count("1") for s in seeds) / len(seeds)
    assert 54 < ones < 74  # 64 expected for uniform 128-bit numbers
    assert SEED_BITS >= 128


def test_the_record_keeps_the_seed_actually_used() -> None:
    """R-REC: a game dealt from a fresh seed replays from its record exactly."""
    from ono99 import replay

    g = Game("classic1980", 3)
    rng = random.Random(1)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    rec = to_record(g)
    assert rec["seed"] == g.seed
    assert replay(json.loads(json.dumps(rec))).winner == g.winner


def test_play_again_takes_a_fresh_seed_unless_the_user_seeded_the_series() -> None:
    """R-SET-1: consecutive terminal games share nothing: each unseeded game has its own
    secrets seed (not the last one + 1); a series the user seeded goes on seed + 1."""
    settings = NewGame("mattel2022", 3, "random")
    seeds = [settings.session().seed for _ in range(20)]
    assert len(set(seeds)) == 20
    assert all(abs(a - b) > 10**6 for a, b in itertools.pairwise(seeds))
    seeded = replace(settings, seed=41)
    assert seeded.session().seed == 41


@pytest.mark.parametrize("preset", ["mattel2022", "classic1980", "gamerules"])
def test_no_view_holds_the_seed(preset: str) -> None:
    """R-SET-1: a player's view and a spectator's, as objects and as JSON, hold nothing a
    seed could be read from: no seed field, and the seed's digits nowhere in them."""
    g = Game(preset, 3, seed=new_seed())
    digits = str(g.seed)
    rng = random.Random(2)
    for _ in range(30):
        if g.is_over:
            break
        views = [g.view(s) for s in range(g.n)]
        for v in [*views, g.public_view()]:
            assert not hasattr(v, "seed")
            text = json.dumps(v.to_json())
            assert "seed" not in text and digits not in text
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])


def test_new_seed_is_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SET-1: the seed source is the operating system's (secrets), not ``random``: seeding
    Python's random module changes nothing."""
    random.seed(5)
    a = new_seed()
    random.seed(5)
    b = new_seed()
    assert a != b
    calls: list[int] = []

    def fake_randbits(k: int) -> int:
        calls.append(k)
        return 7

    monkeypatch.setattr("ono99.game.secrets.randbits", fake_randbits)
    assert Game("mattel2022", 2).seed == 7 and calls == [SEED_BITS]
