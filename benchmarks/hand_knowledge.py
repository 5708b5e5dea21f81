"""What is reading the opponents' hands worth? A heuristic that *knows* the next player's hand
against plain heuristics.

The cheating player is the heuristic whose "pressure" term (the chance that the next player
cannot get out at the new total) is computed from that player's true hand instead of card
counting: 0 or 1 for a single play, and for a Play 2 the true hand with the card they would draw
sampled from the unseen cards. Everything else is unchanged. It bounds what inferring hands from
the opponents' past plays could add to the heuristic: inference can at best approach knowing.

Games are played in duplicate: every deal is played once with the cheater in each seat.

Usage: ``python benchmarks/hand_knowledge.py --games 2500 [--players 2] [--seed 0]``
(prints the cheater's win rate with its standard error over deals).
"""

from __future__ import annotations

import argparse
import math
import zlib

from ono99 import Game
from ono99.bots import heuristic as H
from ono99.bots.common import is_safe
from ono99.view import PlayerView


class Knowing(H._Ctx):
    """The heuristic's per-decision context, with the true hands of the others."""

    game: Game

    def p_bust(self, total: int, owes_two: bool, seat: int) -> float:
        hand = list(self.game.hands[seat])
        if not owes_two:
            return 0.0 if any(is_safe(self.rules, c, total, False, False) for c in hand) else 1.0
        pool_list = [c for c, n in enumerate(self.pool) for _ in range(n)]
        if not pool_list:
            return super().p_bust(total, owes_two, seat)
        busts = 0
        for _ in range(self.samples):
            drawn = pool_list[self.rng.below(len(pool_list))]
            busts += not H._survives_two(self.rules, hand, drawn, total)
        return busts / self.samples


class Cheater(H.HeuristicBot):
    """The heuristic with the next player's true hand in its pressure term (see module doc)."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    def context(self, view: PlayerView) -> H._Ctx:
        ctx = Knowing(view, self.samples)
        ctx.game = self.game
        return ctx


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2500, help="deals (each played once per seat)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="mattel2022")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    shares = []
    for i in range(args.games):
        won = 0.0
        for cheat_seat in range(args.players):
            g = Game(
                args.rules,
                args.players,
                seed=zlib.crc32(f"hands:{args.seed}:{i}".encode()),
                events=False,
            )
            bots: list[H.HeuristicBot] = [
                Cheater(g) if s == cheat_seat else H.HeuristicBot() for s in range(args.players)
            ]
            while g.to_move is not None:
                p = g.to_move
                g.apply(bots[p].act(g.view(p)))
            w = g.winner
            if isinstance(w, list):
                won += 1.0 / len(w) if cheat_seat in w else 0.0
            else:
                won += w == cheat_seat
        shares.append(won / args.players)
    n = len(shares)
    m = sum(shares) / n
    se = math.sqrt(sum((x - m) ** 2 for x in shares) / max(1, n - 1) / n)
    fair = 1 / args.players
    print(
        f"cheater wins {m:.4f} ± {se:.4f} (1 SE) of {n * args.players} games; "
        f"fair share {fair:.4f}, edge {m - fair:+.4f}"
    )


if __name__ == "__main__":
    main()
