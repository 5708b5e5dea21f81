"""The compiled heuristic and its rollouts (``ono99.bots.fast_rollout``) give the very
moves and values of the Python ones, so the search plays the same moves with either, and the
fast simulators' ``heuristic`` opponent is the heuristic bot (R-LIM-2,
R-P2-1, R-P2-3, R-END-1, R-END-2, R-END-3, R-DRAW-1: the rules the heuristic reads)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ono99.bots.compiled as compiled
import ono99.bots.heuristic as heuristic
from ono99 import DRAW, Game
from ono99.arena import make_spec
from ono99.arena.tournament import play_game
from ono99.bots import fast_rollout as fr
from ono99.bots import make_bot
from ono99.determinize import sample_world

SETTINGS: list[tuple[str, dict[str, Any], int]] = [
    ("mattel2022", {}, 4),
    ("mattel2022", {}, 2),
    ("classic1980", {}, 3),
    ("classic1980", {"scoring": "points"}, 3),
    ("classic1980", {"zero_ending_99": True, "draw_penalty": True}, 4),
    ("classic1980", {"scoring": "points", "points_mode": "lowest", "target": 60}, 3),
    ("gamerules", {}, 5),
]


def test_the_search_rolls_out_the_heuristic_the_kernel_plays() -> None:
    """The search's rollout policy and its model of the others are the heuristic with the
    kernel's number of samples (the kernel reads the Python bots' constants themselves)."""
    bot = make_bot("ismcts:12:heuristic:infer", 0)
    assert bot.policy.samples == fr.SAMPLES  # type: ignore[attr-defined]
    assert bot.tracker.model.__self__.samples == fr.SAMPLES  # type: ignore[attr-defined]
    assert bot.policy.compiled_plays_it()  # type: ignore[attr-defined]
    # not the level's heuristic (24 samples), nor one that knows more than its view
    assert not heuristic.HeuristicBot().compiled_plays_it()

    class Knows(heuristic.HeuristicBot):
        pass

    assert not Knows(samples=fr.SAMPLES).compiled_plays_it()


@pytest.mark.parametrize(
    ("preset", "options", "n"), SETTINGS, ids=[s[0] + str(s[1]) for s in SETTINGS]
)
def test_rollouts_give_the_python_rollouts_values(
    preset: str, options: dict[str, Any], n: int
) -> None:
    """For worlds sampled from many positions of random games, every root action's
    rollout value is the Python rollout's, to the bit; the world is left as it was."""
    bot = make_bot("ismcts:12:heuristic", 1)
    rng = random.Random(f"{preset}{options}{n}")
    checked = 0
    for _ in range(4):
        g = Game(preset, n, options=options, seed=rng.getrandbits(32), events=False)
        while not g.is_over:
            if g.pending_draw is not None:
                g.apply(DRAW)
                continue
            p = g.to_move
            assert p is not None
            legal = g.legal_actions()
            if len(legal) > 1 and rng.random() < 0.25:
                world = sample_world(g.view(p), rng)
                before = world.copy()
                want = [bot._play_out(world.copy(), a, p) for a in legal]  # type: ignore[attr-defined]
                assert fr.rollout_values(world, legal, p) == want
                assert world.hands == before.hands and world.draw_pile == before.draw_pile
                checked += 1
            g.apply(legal[rng.randrange(len(legal))])
    assert checked > 20


def test_position_key_is_the_heuristics() -> None:
    """The heuristic's samples are keyed by the position (version 2, purpose BOT,
    docs/records.md): the compiled key draws the same stream as the Python one for
    positions of every preset (negative totals, owes_two, seats out, hands of any size)."""
    from ono99.chance import words
    from ono99.fast.rng import new_stream, next_word

    rng = random.Random(4)
    checked = 0
    rs = new_stream()
    for preset, options, n in SETTINGS:
        g = Game(preset, n, options=options, seed=rng.getrandbits(32), events=False)
        while not g.is_over:
            p = g.to_move
            assert p is not None
            st_, _, _ = fr.world_state(g)
            fr._seed_decision(st_, p, rs)
            got = [int(next_word(rs)) for _ in range(3)]
            assert got == list(words(heuristic._position_key(g.view(p)), 3))
            checked += 1
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    assert checked > 200


def test_the_search_plays_the_same_moves_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """Arena games of the search with compiled and with Python rollouts: the same moves,
    the same results (the strength table's parts stay one bot)."""
    spec = make_spec(["ismcts:8:heuristic:infer", "heuristic"], 3, "classic1980", {}, 2, 7)
    monkeypatch.setattr(compiled, "FAST_ROLLOUTS", True)  # compiled now, not in the background
    fast = [play_game(spec, i, timed=False) for i in range(2)]
    assert compiled.module() is fr
    monkeypatch.setattr(compiled, "FAST_ROLLOUTS", False)
    slow = [play_game(spec, i, timed=False) for i in range(2)]
    for a, b in zip(fast, slow, strict=True):
        assert (a.winners, a.places, a.decisions) == (b.winners, b.places, b.decisions)


def test_worlds_with_later_deals_keep_the_python_rollouts() -> None:
    """A world with a deal fixed for a later round (the companion's) is not compiled."""
    g = Game("classic1980", 3, seed=1, events=False)
    assert fr.usable(g)
    g.given_deals = [None, ([[2, 3, 4, 5]] * 3, [])]
    assert not fr.usable(g)


def test_auto_compiles_in_the_background_and_then_uses_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """FAST_ROLLOUTS = "auto": the first search starts a background process that compiles
    the rollouts (or finds them in the cache) and plays the Python rollouts meanwhile; once
    it is done the compiled ones play. Without Numba they never do."""
    import time

    monkeypatch.setattr(compiled, "_fast_state", "unknown")
    monkeypatch.setattr(compiled, "_fast_module", None)
    monkeypatch.setattr(compiled, "_warming", None)
    assert compiled.FAST_ROLLOUTS == "auto"
    assert compiled.module() is None  # warming
    warming = compiled._warming
    assert warming is not None and compiled._fast_state == "warming"
    deadline = time.monotonic() + 600
    while compiled.module() is None:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert compiled.module() is fr and warming.returncode == 0
    monkeypatch.setattr(compiled, "_fast_state", "unknown")
    monkeypatch.setattr(compiled.importlib.util, "find_spec", lambda name: None)
    assert compiled.module() is None and compiled._fast_state == "off"


def test_the_compiled_heuristic_plays_the_heuristics_moves() -> None:
    """The hand inference asks the heuristic what each player would have played: the
    compiled heuristic answers the same, in every preset and mode (R-LIM-2, R-P2-3, R-END-3,
    R-99-3, R-99-5, R-DRAW-1: a player's own pending draw is taken first)."""
    bot = heuristic.HeuristicBot(samples=fr.SAMPLES)
    rng = random.Random(9)
    checked = 0
    for preset, options, n in SETTINGS:
        for _ in range(3):
            g = Game(preset, n, options=options, seed=rng.getrandbits(32), events=False)
            while not g.is_over:
                p = g.to_move
                assert p is not None
                if len(g.legal_actions(p)) > 1:
                    assert fr.heuristic_move(g) == bot.act(g.view(p))
                    checked += 1
                legal = g.legal_actions()
                g.apply(legal[rng.randrange(len(legal))])
    assert checked > 500


def test_without_numba_the_search_plays_its_python_rollouts() -> None:
    """``pip install ono99`` without the fast extra: the search still plays, with the
    Python rollouts, and nothing tries to compile (CONTRACTS.md: heavy extras optional)."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from ono99.arena import make_spec\n"
        "from ono99.arena.tournament import play_game\n"
        "import ono99.bots.compiled as compiled\n"
        "spec = make_spec(['ismcts:6:heuristic:infer', 'heuristic'], 3, 'classic1980', {}, 1, 3)\n"
        "r = play_game(spec, 0, timed=False)\n"
        "print(compiled._fast_state, compiled._warming, r.decisions > 0, 'numba' in sys.modules)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["off", "None", "True", "True"]  # True: the None placeholder
