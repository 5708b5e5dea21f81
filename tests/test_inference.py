"""HandTracker: worlds conditioned on the others' plays are still consistent with the view
(R-SET-1 hidden hands: only views are read)."""

from __future__ import annotations

import random
import zlib
from collections import Counter

import pytest

from ono99 import Game
from ono99.bots.base import Bot
from ono99.bots.heuristic import HeuristicBot
from ono99.bots.inference import HandTracker, ParticleTracker
from ono99.view import PlayerView


def _public(v: PlayerView) -> tuple[object, ...]:
    return (v.hand, v.hand_sizes, v.total, v.direction, v.to_move, v.owes_two, v.plays_left,
            v.discard, v.legal, v.alive, v.active, v.draw_pile)  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "players", "options"),
    [("mattel2022", 2, {}), ("mattel2022", 4, {}), ("classic1980", 3, {}), ("gamerules", 2, {})],
)
@pytest.mark.parametrize("particles", [False, True])
def test_tracked_worlds_match_the_view_and_the_deck(
    rules: str, players: int, options: dict[str, object], particles: bool
) -> None:
    """R-SET-1: every sampled world shows the tracking seat exactly its own view, holds
    exactly the deck, and the others' hands are conditioned on their plays most of the time
    (HandTracker, and the ParticleTracker that carries its worlds through the round)."""
    rng = random.Random(5)
    kept = fallbacks = 0
    for k in range(6):
        g = Game(
            rules, players, options=options, seed=zlib.crc32(f"track:{k}".encode()), events=False
        )
        bots = [HeuristicBot() for s in range(players)]
        trackers = [
            ParticleTracker(HeuristicBot().act, seed=s, particles=16)
            if particles
            else HandTracker(HeuristicBot().act)
            for s in range(players)
        ]
        while g.to_move is not None:
            p = g.to_move
            view = g.view(p)
            if g.pending_draw is None:
                for _ in range(3):
                    w = trackers[p].world(view, rng)
                    assert _public(w.view(p)) == _public(view)
                    cards = Counter(c for h in w.hands for c in h)
                    cards.update(w.draw_pile)
                    cards.update(w.discard)
                    deck = Counter({c: n for c, n in enumerate(g.rules.deck) if n})
                    assert cards == deck
            action = bots[p].act(view)
            trackers[p].saw(view, action)
            g.apply(action)
        kept += sum(t.kept for t in trackers)
        fallbacks += sum(t.fallbacks for t in trackers)
    assert kept > fallbacks  # most worlds are conditioned on the plays, not the fallback


def test_no_history_falls_back_to_the_belief() -> None:
    """A tracker that has seen nothing (first move, or after reset) samples plain worlds."""
    g = Game("mattel2022", 2, seed=1, events=False)
    t = HandTracker(HeuristicBot().act)
    w = t.world(g.view(0), random.Random(1))
    assert (t.kept, t.fallbacks) == (0, 1)
    assert sorted(w.hands[0]) == sorted(g.hands[0])
    t.saw(g.view(0), g.legal_actions()[0])
    t.reset()
    assert t.prev is None


def _play_against_heuristic(bot: Bot, seed: int) -> Game:
    """A 2-player mattel2022 game of ``bot`` (seat 0) against the heuristic, checking that
    every action ``bot`` returns is legal (R-LIM-2); the finished game."""
    g = Game("mattel2022", 2, seed=seed, events=False)
    other = HeuristicBot()
    while g.to_move is not None:
        p = g.to_move
        view = g.view(p)
        action = bot.act(view) if p == 0 else other.act(view)
        assert action in view.legal
        g.apply(action)
    return g


def test_ismcts_with_inference_plays_legal_moves_and_reads_plays() -> None:
    """ISMCTS with ``infer=True`` samples its worlds through the others' last plays, and
    only ever returns legal actions (R-LIM-2)."""
    from ono99.bots.ismcts import ISMCTSBot

    bot = ISMCTSBot(1, iterations=20, infer=True)
    _play_against_heuristic(bot, seed=3)
    assert bot.tracker is not None and bot.tracker.kept > 0


def test_particles_carry_what_earlier_plays_taught() -> None:
    """The particle filter updates at every decision (searched or not) and keeps its worlds
    from one decision to the next: after the first move its worlds come from carried
    particles, and every one of them gives the other player a hand that could have made
    every play seen since (R-SET-1: built from views only)."""
    g = Game("mattel2022", 2, seed=11, events=False)
    bots = [HeuristicBot(), HeuristicBot()]
    t = ParticleTracker(HeuristicBot().act, seed=4, particles=24)
    rng = random.Random(6)
    decisions = 0
    while g.to_move is not None and decisions < 12:
        p = g.to_move
        view = g.view(p)
        action = bots[p].act(view)
        if p == 0:
            t.saw(view, action)  # the filter follows every decision of its seat
            decisions += 1
            w = t.world(view, rng)
            assert sorted(w.hands[0]) == sorted(view.hand)
            assert len(w.hands[1]) == view.hand_sizes[1]
        g.apply(action)
    assert t.kept > 0  # particles survived from one decision to the next
    t.reset()
    assert t.prev is None and t._worlds == []


def test_ismcts_heuristic_rollouts_with_particles_play_legal_moves() -> None:
    """``ismcts:N:heuristic:particles``: heuristic rollouts to the end of the game on
    particle-filter worlds; only legal actions (R-LIM-2), the game ends (R-END-4)."""
    from ono99.bots import make_bot

    g = _play_against_heuristic(make_bot("ismcts:6:heuristic:particles", 1), seed=8)
    assert g.winner is not None
