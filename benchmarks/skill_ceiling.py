"""How much is there to know? A flat Monte Carlo player against greedy, told more or less.

For each legal card it plays ``--rollouts`` greedy rollouts (10 % random moves) to the end of
the game in worlds built from what it is told, the same worlds and rollout seeds for every card
(common random numbers), and plays the card that won most often. ``--knows``:

- ``all``: the true game (it sees the other hands and the order of the draw pile) — cheating;
- ``pile``: the next eight cards of the draw pile, but not the other hands — cheating;
- ``hands``: the other hands, but not the order of the draw pile — cheating;
- ``nothing``: worlds sampled from its own view (``sample_world``) — fair.

Usage: ``python3 benchmarks/skill_ceiling.py --knows all --games 300`` (2 players,
mattel2022; prints the win rate against greedy with its Wilson 95 % interval).
"""

from __future__ import annotations

import argparse
import random

from ono99 import Game
from ono99.arena import wilson
from ono99.bots import make_bot
from ono99.bots.ismcts import rollout_choice
from ono99.cards import DRAW
from ono99.determinize import sample_world


def world(g: Game, me: int, knows: str, rng: random.Random) -> Game:
    if knows == "nothing":
        return sample_world(g.view(me), rng)
    w = g.copy()
    others = [s for s in range(w.n) if s != me and w.hands[s]]
    if knows == "hands":
        rng.shuffle(w.draw_pile)
    elif knows == "pile":
        top = w.draw_pile[-8:]
        pool = [c for s in others for c in w.hands[s]] + w.draw_pile[:-8]
        rng.shuffle(pool)
        for s in others:
            k = len(w.hands[s])
            w.hands[s], pool = pool[:k], pool[k:]
        w.draw_pile = pool + top
    return w


def choose(g: Game, me: int, knows: str, rollouts: int, rng: random.Random) -> int:
    legal = g.legal_actions(me)
    if len(legal) == 1:
        return legal[0]
    wins = dict.fromkeys(legal, 0)
    for _ in range(rollouts):
        w0 = world(g, me, knows, rng)
        seed = rng.getrandbits(64)
        for a in legal:
            w, r = w0.copy(), random.Random(seed)
            w.apply(a)
            while not w.is_over and w.alive[me]:
                w.apply(DRAW if w.pending_draw is not None else rollout_choice(w, r, 0.1))
            wins[a] += w.winner == me
    return max(legal, key=lambda a: wins[a])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--knows", choices=["all", "pile", "hands", "nothing"], default="nothing")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rollouts", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    won = 0
    for i in range(args.games):
        g = Game("mattel2022", 2, seed=f"ceiling:{args.seed}:{i}", events=False)
        me = i % 2
        greedy = make_bot("greedy", i)
        while not g.is_over:
            p = g.to_move
            assert p is not None
            g.apply(
                choose(g, me, args.knows, args.rollouts, rng) if p == me else greedy.act(g.view(p))
            )
        won += g.winner == me
    lo, hi = wilson(won, args.games)
    print(
        f"knows {args.knows}: {won / args.games:.3f} [{lo:.3f}, {hi:.3f}] over {args.games} games"
    )


if __name__ == "__main__":
    main()
