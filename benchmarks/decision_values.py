"""How much could a search improve on the heuristic? Rollout values of every legal card at the
heuristic's own decisions, with an unbiased estimate of the gain.

Heuristic players play whole games (2 players, ``mattel2022`` by default). At every decision
with a real choice near the limit (room ≤ ``--room``, or owing two) the script estimates the
value of each legal card by ``--worlds`` paired rollouts: a world sampled from the player's view
(:func:`~ono99.bots.common.believed_world`), the card played, then the *heuristic* for every seat
to the end of the game; every card sees the same world and the same rollout random numbers
(common random numbers). That is one step of policy improvement over the heuristic (a "rollout
algorithm", Bertsekas; Tesauro & Galperin): if it finds no better card, a search built on the
heuristic has nothing to find.

Picking the best of several noisy estimates is biased upwards, so the gain is measured by
**split halves**: the card is chosen on the odd worlds (the heuristic's card unless another beats
it) and its gain over the heuristic's card is measured on the even worlds, which did not take part
in the choice. The mean of that gain over all decisions is an unbiased estimate of what the
improved policy wins per decision (with its standard error); times the decisions per game it is
the gain in win rate.

Usage::

    python benchmarks/decision_values.py --games 200 --worlds 200 --seed 1 [--out values.jsonl]

Prints a summary (per decision and per game) and one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import zlib
from collections.abc import Callable
from functools import partial
from typing import Any

from ono99 import Game
from ono99.bots.common import believed_world, forced_move
from ono99.bots.heuristic import HeuristicBot
from ono99.bots.inference import HandTracker, ParticleTracker
from ono99.bots.ismcts import _rewards
from ono99.cards import DRAW, action_code
from ono99.view import PlayerView, view_of


def rollout_values(
    view: PlayerView,
    worlds: int,
    rng: random.Random,
    samples: int,
    make_world: Callable[[random.Random], Game],
    horizon: str = "game",
) -> list[list[float]]:
    """``values[w][i]``: the searcher's result (1 win, 0 loss, 1/k shared) in world ``w``
    (from ``make_world``) after playing ``view.legal[i]``, then the heuristic everywhere to
    the end of the game; with ``horizon="round"``, to the end of the round, scored as the
    search scores it (with tokens: 1 unless the searcher lost the round, R-END-2)."""
    me = view.seat
    out: list[list[float]] = []
    for _ in range(worlds):
        world = make_world(rng)
        row = []
        for action in view.legal:
            g = world.copy()
            policy = HeuristicBot(samples=samples)
            start = (g.round, g.alive[:], _copy(g.tokens), _copy(g.scores))
            g.apply(action)
            if horizon == "round":
                while g.to_move is not None and g.round == start[0]:
                    if g.pending_draw is not None:
                        g.apply(DRAW)
                        continue
                    legal = g.legal_actions()
                    g.apply(legal[0] if len(legal) == 1 else policy.act(view_of(g, g.to_move)))
                row.append(_rewards(g, start[1], start[2], start[3])[me])
                continue
            while g.to_move is not None and g.alive[me]:
                if g.pending_draw is not None:
                    g.apply(DRAW)
                    continue
                legal = g.legal_actions()
                g.apply(legal[0] if len(legal) == 1 else policy.act(view_of(g, g.to_move)))
            w = g.winner
            if isinstance(w, list):
                row.append(1.0 / len(w) if me in w else 0.0)
            else:
                row.append(1.0 if w == me else 0.0)
        out.append(row)
    return out


def _copy(xs: list[int] | None) -> list[int] | None:
    return None if xs is None else xs[:]


def true_world(g: Game) -> Callable[[random.Random], Game]:
    """Worlds that hold the true hands; only the order of the draw pile is sampled (it is
    unknown to everyone, so this is the real expectation)."""

    def make(rng: random.Random) -> Game:
        w = g.copy()
        rng.shuffle(w.draw_pile)
        return w

    return make


def choose(values: list[list[float]], prior: int, z: float) -> int:
    """The index a rollout policy plays: ``prior`` unless another card's mean paired gain over
    it exceeds ``z`` standard errors."""
    n = len(values)
    best, best_score = prior, 0.0
    for i in range(len(values[0])):
        if i == prior:
            continue
        ds = [row[i] - row[prior] for row in values]
        m = sum(ds) / n
        var = sum((d - m) ** 2 for d in ds) / max(1, n - 1)
        score = m - z * math.sqrt(var / n)
        if score > best_score:
            best, best_score = i, score
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="mattel2022")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--worlds", type=int, default=200, help="rollout worlds per decision")
    ap.add_argument(
        "--room", type=int, default=40, help="search when the room left is at most this"
    )
    ap.add_argument("--z", type=float, default=0.0, help="deviate from the heuristic only by z SE")
    ap.add_argument(
        "--samples", type=int, default=4, help="Play 2 samples of the rollout heuristic"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--horizon",
        choices=["game", "round"],
        default="game",
        help="roll out to the end of the game, or of the round (tokens and points games)",
    )
    ap.add_argument("--out", help="write every decision's values here (JSON lines)")
    ap.add_argument(
        "--choose",
        choices=["belief", "infer", "particle", "truth"],
        default="belief",
        help="worlds the card is chosen on: the card-counting belief, that belief conditioned "
        "on the others' plays since the last move (HandTracker), a particle filter over the "
        "whole round (ParticleTracker), or the true hands (cheating)",
    )
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = open(args.out, "w") if args.out else None  # noqa: SIM115
    gains: list[float] = []
    changed = 0
    kept = fallbacks = 0
    half = max(1, args.worlds // 2)
    for i in range(args.games):
        g = Game(
            args.rules,
            args.players,
            seed=zlib.crc32(f"values:{args.seed}:{i}".encode()),
            events=False,
        )
        bots = [HeuristicBot() for s in range(args.players)]
        trackers = [
            ParticleTracker(HeuristicBot(samples=4).act, seed=i * 31 + s)
            if args.choose == "particle"
            else HandTracker(HeuristicBot(samples=4).act)
            for s in range(g.n)
        ]
        while g.to_move is not None:
            p = g.to_move
            view = g.view(p)
            action = bots[p].act(view)
            critical = view.rules.limit - view.total <= args.room or view.owes_two is not None
            if forced_move(view) is None and critical:
                truth = true_world(g)
                tracker = trackers[p]
                chooser: Callable[[random.Random], Game]
                if args.choose == "truth":
                    chooser = truth
                elif args.choose in ("infer", "particle"):
                    chooser = partial(tracker.world, view)
                else:
                    chooser = partial(believed_world, view)
                values = rollout_values(view, half, rng, args.samples, chooser, args.horizon)
                held = rollout_values(view, half, rng, args.samples, truth, args.horizon)
                prior = view.legal.index(action)
                pick = choose(values, prior, args.z)
                gain = sum(row[pick] - row[prior] for row in held) / len(held)
                gains.append(gain)
                changed += pick != prior
                if out is not None:
                    rec: dict[str, Any] = {
                        "total": view.total,
                        "hand": [action_code(c) for c in view.hand],
                        "owes_two": view.owes_two == p,
                        "plays_left": view.plays_left,
                        "heuristic": action_code(action),
                        "split_pick": action_code(view.legal[pick]),
                        "mean": {
                            action_code(a): round(sum(r[k] for r in values) / len(values), 4)
                            for k, a in enumerate(view.legal)
                        },
                    }
                    out.write(json.dumps(rec) + "\n")
            trackers[p].saw(view, action)
            g.apply(action)
        kept += sum(t.kept for t in trackers)
        fallbacks += sum(t.fallbacks for t in trackers)
        print(f"game {i + 1}/{args.games}: {len(gains)} decisions", file=sys.stderr)
    n = len(gains)
    mean = sum(gains) / n if n else 0.0
    se = math.sqrt(sum((x - mean) ** 2 for x in gains) / max(1, n - 1) / max(1, n))
    per_game = n / args.games / args.players  # searched decisions per seat per game
    print(f"{n} decisions searched ({per_game:.2f} per seat per game), {changed} changed")
    print(f"gain per decision {mean:+.5f} ± {se:.5f} (1 SE, held-out true-hand worlds)")
    what = "win rate" if args.horizon == "game" else "rounds not lost (tokens kept)"
    print(f"gain in {what} per game {mean * per_game:+.4f} ± {se * per_game:.4f}")
    print(
        json.dumps(
            {
                "rules": args.rules,
                "players": args.players,
                "games": args.games,
                "worlds": args.worlds,
                "z": args.z,
                "choose": args.choose,
                "horizon": args.horizon,
                "inferred_worlds": kept,
                "fallback_worlds": fallbacks,
                "decisions": n,
                "changed": changed,
                "gain_per_decision": round(mean, 6),
                "se": round(se, 6),
                "gain_per_game": round(mean * per_game, 6),
                "se_per_game": round(se * per_game, 6),
            }
        )
    )


if __name__ == "__main__":
    main()
