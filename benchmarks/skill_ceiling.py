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

``--bound``: the omniscient bound of the strength table (benchmarks/strength.sh). A player
who sees everything (every hand and the order of the draw pile) against ``heuristic``
players, in the arena's format (seats rotated, duplicate deals, ``omniscient`` in the
seats ``ismcts`` holds in that setting's row: ``a,b`` with 2 players, ``a,b,a`` with 3,
``a,b,a,b`` with 4) and printed as the arena's JSON, so the block-paired comparison
with the heuristic is the same as the search's. At every decision with a choice it plays
each legal card in a copy of the true game and lets the heuristic play every seat to the
end of the game (elimination) or of the round (tokens, points; rewarded as ``ismcts``
rewards a round); as the heuristic is a pure function of its view, that is exactly what
the heuristic players at the table will do, so one playout per card is the card's true
value if it then played as the heuristic. It keeps the heuristic's card unless another is
strictly better. One step of look-ahead with perfect information: what seeing every card
is worth to a player built on the heuristic, the room a fair bot built on it has.
Usage: ``python3 benchmarks/skill_ceiling.py --bound --players 3 --rules classic1980
--option scoring=points --games 600 --seed 15701 --workers 2 --json``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
import zlib
from multiprocessing import Pool

from ono99 import Game
from ono99.arena import wilson
from ono99.arena.backends import chunks
from ono99.arena.tournament import ArenaSpec, GameResult, bot_seed, deal_game, next_actor, tally
from ono99.bots import make_bot
from ono99.bots.heuristic import HeuristicBot
from ono99.bots.ismcts import _rewards, _round_start, rollout_choice
from ono99.cards import DRAW
from ono99.cli.options import parse_options
from ono99.determinize import sample_world
from ono99.rules import make_rules


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


def playout(g: Game, me: int, policy: HeuristicBot) -> float:
    """The heuristic in every seat from ``g`` (a copy) to the end of the game (elimination)
    or of the round; ``me``'s reward as ``ismcts`` scores it."""
    start_round = g.round
    elimination = g.rules.scoring.bust_eliminates
    before = _round_start(g)
    # who acts, as in the arena (None: the game is over)
    while (p := next_actor(g)) is not None and (elimination or g.round == start_round):
        if elimination and not g.alive[me]:
            break
        legal = g.legal_actions(p)
        g.apply(legal[0] if len(legal) == 1 else policy.act(g.view(p)))
    return _rewards(g, *before)[me]


def omniscient(g: Game, me: int, policy: HeuristicBot) -> int:
    """The omniscient player's card (module doc, ``--bound``)."""
    legal = g.legal_actions(me)
    prior = policy.act(g.view(me))
    if len(legal) == 1 or prior == DRAW:
        return prior
    best, best_value = prior, -1.0
    for a in [prior] + [a for a in legal if a != prior]:
        w = g.copy()
        w.apply(a)
        v = playout(w, me, policy)
        if v > best_value:
            best, best_value = a, v
    return best


def play_bound_game(args: tuple[ArenaSpec, int]) -> GameResult:
    """Game ``index`` of the bound's tournament: entry 0 omniscient, entry 1 heuristic."""
    spec, index = args
    seating = spec.seating(index)
    g = deal_game(spec, index)
    policy = HeuristicBot()
    bots = [make_bot("heuristic", bot_seed(spec.seed, index, s)) for s in range(spec.players)]
    times: dict[int, list[float]] = {e: [] for e in set(seating)}
    decisions = 0
    while (seat := next_actor(g)) is not None:
        t0 = time.perf_counter()
        mine = seating[seat] == 0
        action = omniscient(g, seat, policy) if mine else bots[seat].act(g.view(seat))
        if action != DRAW:
            times[seating[seat]].append((time.perf_counter() - t0) * 1000.0)
        g.apply(action)
        decisions += 1
    w = g.winner
    winners = tuple(w) if isinstance(w, list) else (w,) if w is not None else ()
    places = tuple(1 if s in winners else 2 for s in range(spec.players))
    return GameResult(index, seating, winners, places, decisions, times)


def _play_chunk(args: tuple[ArenaSpec, range]) -> list[GameResult]:
    spec, part = args
    return [play_bound_game((spec, i)) for i in part]


def bound(
    players: int, rules: str, options: dict[str, object], games: int, seed: int, workers: int
) -> dict[str, object]:
    """The omniscient bound's result, in the arena's JSON format."""
    bots = ("omniscient", "heuristic")
    spec = ArenaSpec(
        bots=bots,
        names=bots,
        players=players,
        rules=rules,
        options=dict(make_rules(rules, options).options),
        games=math.ceil(games / players) * players,
        seed=seed,
    )
    parts = chunks(spec.games, workers)
    if workers <= 1:
        results = [r for part in parts for r in _play_chunk((spec, part))]
    else:
        with Pool(workers) as pool:
            results = [r for rs in pool.map(_play_chunk, [(spec, p) for p in parts]) for r in rs]
    return tally(spec, results)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--knows", choices=["all", "pile", "hands", "nothing"], default="nothing")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rollouts", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bound", action="store_true", help="omniscient against heuristic")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="mattel2022")
    ap.add_argument("--option", action="append", default=[], help="rule option key=value")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="(--bound) print the arena JSON")
    args = ap.parse_args()
    if args.bound:
        out = bound(
            args.players, args.rules, parse_options(args.option), args.games, args.seed,
            args.workers,
        )  # fmt: skip
        if args.json:
            print(json.dumps(out))
        else:
            for p in out["pairs"]:  # type: ignore[attr-defined]
                print(f"omniscient - heuristic per seat: {p['diff']:+.4f} ± {p['se']:.4f}")
        return
    rng = random.Random(args.seed)
    won = 0
    for i in range(args.games):
        g = Game(
            "mattel2022", 2, seed=zlib.crc32(f"ceiling:{args.seed}:{i}".encode()), events=False
        )
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
