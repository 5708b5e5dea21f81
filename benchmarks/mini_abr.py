#!/usr/bin/env python3
"""One size up: ``mini`` at ``size=large``, where only approximate methods work (issue 37).

    nice -n 5 python benchmarks/mini_abr.py selfplay --size large --seed 1 \\
        --out benchmarks/results/mini/large-selfplay-1
    python benchmarks/mini_abr.py deals --size large --against heuristic --key view \\
        --seed 4 --deals 160000 --out benchmarks/results/mini/abr/large-deals-heuristic
    python benchmarks/mini_abr.py table benchmarks/results/mini/abr/*/    # docs/mini.md

``mini`` (8 cards, hands of 2) is solved exactly: its tree has half a million histories,
and ``mini_solve.py``'s CFR+ and best response walk all of them. ``size=large`` (11 cards:
``1``–``4`` twice, a ``-10``, Reverse and Play 2; limit 12; hands of 3) has too many
histories to walk, so here the game is played, never walked: games on the reference
engine (``ono99.Game``, each player shown only its view), a batch at a time.

``selfplay`` is ``mini_learn.py``'s recipe on those games instead of the tree: one network
for both seats reading the view's observation and the play order (every card played, in
order, most recent first), PPO with the whole game's return as each decision's, a critic
as the baseline, an entropy bonus annealed from ``--ent`` to ``--ent-end``, and the magnet
(a KL pull towards a copy of the policy refreshed every ``--magnet-every`` iterations).

Two **approximate best responses** to one fixed bot (``--against``: any bot name,
``policy:PATH`` included), each an estimate of the bot's **exploitability** (NashConv / 2:
what a best response gains per game, averaged over the seats) from below, measured on
``--eval-games`` fresh deals played from both seats (deals from ``--eval-seed``, the same
for every run; the paired 95 % interval over deals):

- ``abr``: a network trained by the same PPO (no magnet: against a fixed opponent it is a
  one-player problem), seats alternating game by game; its highest logit is measured.
- ``deals``: the best response on a sample of ``--deals`` deals a seat, exactly
  (:class:`DealBR`): every sampled game branched at each of the responder's decisions,
  grouped by what it knows there, the best total taken; then that table plays the fresh
  deals. Its value on its own sample (``on_the_sample``) overstates, on fresh deals it
  understates.

Where the exact figure is known (``--size small``: docs/mini.md's table, read from its
result files) the row carries it beside the estimate: that is the check of the method
(``deals`` meets the exact figures; ``abr`` undershoots them, docs/mini.md).

Torch on the CPU, one thread (``selfplay`` and ``abr``; ``deals`` needs none); each run is
deterministic given ``--seed`` on one machine. ``DIR`` gets ``result.json`` (``abr``,
``deals``), ``config.json`` and ``curve.json`` (``selfplay``, ``abr``), and the network:
``policy.npz`` (``policy:DIR/policy.npz`` plays it; ``selfplay`` also writes
``policy-highest.npz``, its highest logit).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import ono99.envs.policy  # noqa: F401 (registers policy:PATH)
from ono99.bots import make_bot
from ono99.bots.base import Bot
from ono99.bots.optimal import load_table, view_key
from ono99.envs.encoding import NUM_CARDS, bounds, obs_size
from ono99.envs.policy import MLPPolicy, observe
from ono99.game import Game
from ono99.rules import Rules, make_rules
from ono99.view import PlayerView

F32 = npt.NDArray[np.float32]
#: where the exact figures of the small game are kept (docs/mini.md's table):
#: ``mini_solve.py bots`` runs, and ``mini_learn.py eval`` for the learned policy
RESULTS = Path(__file__).resolve().parent / "results"
ROOT = RESULTS.parents[1]
LEARNED = "policy:benchmarks/results/mini/ppo-selfplay-1/policy-highest.npz"


@functools.cache
def exact_small() -> dict[str, float]:
    """The exact exploitability (NashConv / 2) of each bot of ``mini`` (small) that
    docs/mini.md's table gives, by bot name, read from its result files."""
    out: dict[str, float] = {}
    for f in sorted(RESULTS.glob("mini-bots-*.json")):
        for row in json.loads(f.read_text(encoding="utf-8"))["rows"]:
            out[row["bot"]] = float(row["exploitability"])
    learned = json.loads((RESULTS / "mini-learned-highest.json").read_text(encoding="utf-8"))
    out[LEARNED] = float(learned["rows"][0]["exploitability"])
    out["optimal"] = float(load_table()["nash_conv"]) / 2
    return out


def exact_for(size: str, bot: str) -> float | None:
    """``bot``'s exact exploitability if known (the small size only), else None; a
    ``policy:`` path is compared by where it points from the project's root."""
    if size != "small":
        return None
    if bot.startswith("policy:"):
        path = Path(bot.removeprefix("policy:")).resolve()
        bot = next((k for k in exact_small() if k.startswith("policy:")
                    and (ROOT / k.removeprefix("policy:")).resolve() == path), bot)  # fmt: skip
    return exact_small().get(bot)


#: the evaluation deals' seeds start here: never a training game's
EVAL_SEED = 5_000_000


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


def mini_rules(size: str) -> Rules:
    """``mini`` at ``size`` (the small game is ``make_rules("mini")`` itself)."""
    return make_rules("mini", {"size": size}) if size != "small" else make_rules("mini")


def meta_for(rules: Rules, players: int) -> dict[str, Any]:
    """What a policy file of this game says: the play order is the whole deck (the pile
    is never reshuffled, so that is every card played)."""
    return {"rules": "mini", "options": dict(rules.options), "players": players,
            "play_order": rules.deck_size}  # fmt: skip


def obs_scale(rules: Rules, players: int) -> F32:
    high = bounds(rules, players)[1]
    ones = np.ones(rules.deck_size * NUM_CARDS, np.float32)
    return np.concatenate([high, ones]).astype(np.float32)


# ------------------------------------------------------------------ playing games


@dataclass
class Batch:
    """The learner's decisions of some games: observation, legal mask, action, the
    log-probability it was chosen with, and (once the games end) the game's return."""

    obs: list[F32] = field(default_factory=list)
    mask: list[npt.NDArray[np.bool_]] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    logp: list[float] = field(default_factory=list)
    ret: list[float] = field(default_factory=list)


#: the learner's choice for a batch of (observation, legal mask): actions and log-probs
Chooser = Callable[
    [F32, npt.NDArray[np.bool_]], tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]
]


def advance(g: Game, bot: Bot | None, mine: frozenset[int]) -> None:
    """Play ``g`` on until one of the seats ``mine`` has a choice to make, or the game
    ends: a move with one legal action is made without asking, the other seats' moves by
    ``bot`` (shown only its view)."""
    while not g.is_over:
        seat = g.to_move
        assert seat is not None
        legal = g.legal_actions()
        if len(legal) == 1:
            g.apply(legal[0])
        elif seat in mine:
            return
        else:
            assert bot is not None
            g.apply(bot.act(g.view(seat)))


def play_games(
    rules: Rules,
    seeds: list[int],
    learner_seats: list[frozenset[int]],
    choose: Chooser,
    opponent: Callable[[int], Bot] | None,
    meta: dict[str, Any],
    batch: Batch | None,
) -> list[float]:
    """Play one game per seed, all at once: the seats in ``learner_seats[i]`` of game
    ``i`` by ``choose`` (batched over the games), the others by a bot of ``opponent``
    (made per game from its seed, as the arena does). A move with one legal action is
    made without asking. Returns each game's return to its first learner seat (+1 win,
    -1 loss); ``batch`` gets every learner decision with its game's return to its seat."""
    n = len(seeds)
    games = [Game(rules, 2, seed=s, events=False) for s in seeds]
    bots = [opponent(s) if opponent is not None else None for s in seeds]
    rows: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (batch row, seat)
    live = list(range(n))
    while live:
        ask: list[tuple[int, int]] = []
        for i in live:
            g = games[i]
            advance(g, bots[i], learner_seats[i])
            if not g.is_over:
                assert g.to_move is not None
                ask.append((i, g.to_move))
        if ask:
            views = [games[i].view(s) for i, s in ask]
            obs = np.stack([observe(v, meta) for v in views])
            mask = np.zeros((len(ask), 18), np.bool_)
            for r, v in enumerate(views):
                mask[r, list(v.legal)] = True
            acts, logps = choose(obs, mask)
            for r, (i, seat) in enumerate(ask):
                games[i].apply(int(acts[r]))
                if batch is not None:
                    rows[i].append((len(batch.obs), seat))
                    batch.obs.append(obs[r])
                    batch.mask.append(mask[r])
                    batch.action.append(int(acts[r]))
                    batch.logp.append(float(logps[r]))
                    batch.ret.append(0.0)
        live = [i for i in live if not games[i].is_over]
    out = []
    for i, g in enumerate(games):
        first = min(learner_seats[i])
        out.append(1.0 if g.winner == first else -1.0)
        if batch is not None:
            for row, seat in rows[i]:
                batch.ret[row] = 1.0 if g.winner == seat else -1.0
    return out


# ------------------------------------------------------------------ PPO


class Learner:
    """Actor and critic MLPs (torch, one thread), the magnet, and the PPO update."""

    def __init__(self, args: argparse.Namespace, rules: Rules, players: int) -> None:
        import torch
        from torch import nn

        self.torch, self.nn = torch, nn
        torch.set_num_threads(1)
        torch.manual_seed(args.seed)
        self.args = args
        self.meta = meta_for(rules, players)
        self.scale = obs_scale(rules, players)
        n_in = obs_size(players) + rules.deck_size * NUM_CARDS
        assert self.scale.shape[0] == n_in

        def mlp(out: int) -> Any:
            return nn.Sequential(nn.Linear(n_in, args.hidden), nn.ReLU(),
                                 nn.Linear(args.hidden, args.hidden), nn.ReLU(),
                                 nn.Linear(args.hidden, out))  # fmt: skip

        self.actor, self.critic, self.magnet = mlp(18), mlp(1), mlp(18)
        self.magnet.load_state_dict(self.actor.state_dict())
        params = [*self.actor.parameters(), *self.critic.parameters()]
        self.optim = torch.optim.Adam(params, lr=args.lr)
        self.gen = torch.Generator().manual_seed(args.seed)

    def _logp(self, net: Any, x: Any, mask: Any) -> Any:
        return self.torch.log_softmax(net(x).masked_fill(~mask, -1e9), dim=-1)

    def choose(self, obs: F32, mask: npt.NDArray[np.bool_]) -> tuple[Any, Any]:
        """Sample from the softmax of the legal logits (training's play)."""
        torch = self.torch
        with torch.no_grad():
            lp = self._logp(self.actor, torch.from_numpy(obs / self.scale), torch.from_numpy(mask))
            a = torch.multinomial(lp.exp(), 1, generator=self.gen).squeeze(1)
            return a.numpy(), lp.gather(1, a[:, None]).squeeze(1).double().numpy()

    def update(self, b: Batch, ent: float, magnet: float) -> None:
        torch, args = self.torch, self.args
        x = torch.from_numpy(np.stack(b.obs) / self.scale)
        mask = torch.from_numpy(np.stack(b.mask))
        act = torch.tensor(b.action)
        old = torch.tensor(b.logp, dtype=torch.float32)
        ret = torch.tensor(b.ret, dtype=torch.float32)
        with torch.no_grad():
            anchor = self._logp(self.magnet, x, mask)
        n = len(act)
        for _ in range(args.epochs):
            perm = torch.randperm(n, generator=self.gen)
            for s in range(0, n, args.minibatch):
                mb = perm[s : s + args.minibatch]
                lp = self._logp(self.actor, x[mb], mask[mb])
                new = lp.gather(1, act[mb, None]).squeeze(1)
                v = self.critic(x[mb]).squeeze(1)
                adv = ret[mb] - v.detach()
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = (new - old[mb]).exp()
                pg = -torch.min(ratio * adv, ratio.clamp(1 - args.clip, 1 + args.clip) * adv)
                keep = mask[mb]
                entropy = -(lp.exp() * lp.masked_fill(~keep, 0.0)).sum(1)
                loss = pg.mean() - ent * entropy.mean() + 0.5 * ((v - ret[mb]) ** 2).mean()
                if magnet:
                    kl = (lp.exp() * (lp - anchor[mb]).masked_fill(~keep, 0.0)).sum(1)
                    loss = loss + magnet * kl.mean()
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()

    def refresh_magnet(self) -> None:
        self.magnet.load_state_dict(self.actor.state_dict())

    def export(self, sample: bool, **extra: Any) -> MLPPolicy:
        layers = [m for m in self.actor if isinstance(m, self.nn.Linear)]
        weights = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
                   for m in layers]  # fmt: skip
        meta = dict(self.meta, obs_size=int(self.scale.shape[0]), sample=sample,
                    trained_by="benchmarks/mini_abr.py", seed=self.args.seed, **extra)  # fmt: skip
        return MLPPolicy(weights, self.scale, meta)


def highest(policy: MLPPolicy) -> Chooser:
    """A policy's highest legal logit (the first of equal ones, as ``PolicyBot``)."""

    def choose(obs: F32, mask: npt.NDArray[np.bool_]) -> tuple[Any, Any]:
        z = np.where(mask, policy.logits(obs), -np.inf)
        return z.argmax(axis=1), np.zeros(len(obs))

    return choose


def evaluate(
    rules: Rules,
    choose: Chooser,
    opponent: Callable[[int], Bot],
    games: int,
    seed: int,
    meta: dict[str, Any],
) -> dict[str, Any]:
    """``games`` deals from ``seed`` on, each played twice, the learner in seat 0 and
    then in seat 1 against a bot of ``opponent``: the learner's mean return with its 95 %
    interval (per deal: the mean of its two games, so the interval is the paired one)."""
    seeds = [seed + i for i in range(games)]
    per_seat = []
    for seat in (0, 1):
        seats = [frozenset((seat,))] * games
        per_seat.append(play_games(rules, seeds, seats, choose, opponent, meta, None))
    pair = (np.array(per_seat[0]) + np.array(per_seat[1])) / 2
    mean = float(pair.mean())
    half = 1.96 * float(pair.std(ddof=1)) / math.sqrt(games)
    return {"value": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "seat0": round(float(np.mean(per_seat[0])), 4),
            "seat1": round(float(np.mean(per_seat[1])), 4), "deals": games}  # fmt: skip


# ------------------------------------------------------------------ best response on sampled deals


def _key(view: PlayerView) -> str:
    return view_key(view.seat, view.hand, view.discard)


class DealBR:
    """A best response to a bot on a fixed sample of deals, exactly: every game of the
    sample played from the responder's seat, branching at each of its decisions on every
    legal action, the histories grouped by what the responder knows there (its view at
    each of its decisions so far: perfect recall), and at each group the action of highest
    total return taken. On the sample it is the best a responder can do; on fresh deals
    (``play``) it meets positions the sample never reached, where it plays ``fallback``;
    its value there is again an estimate from below."""

    def __init__(
        self, rules: Rules, seat: int, opponent: Callable[[int], Bot], recall: bool = True
    ) -> None:
        self.rules, self.seat, self.opponent = rules, seat, opponent
        self.mine = frozenset((seat,))
        #: group by the views at every decision so far (perfect recall), or by the view
        #: at this one alone (coarser: fresh deals reach known groups more often)
        self.recall = recall
        #: the responder's choice by its knowledge (its views' keys so far, joined)
        self.table: dict[str, int] = {}

    def _solve(self, items: list[tuple[Game, Bot]], path: str) -> float:
        total = 0.0
        groups: dict[str, list[tuple[Game, Bot]]] = {}
        for g, bot in items:
            advance(g, bot, self.mine)
            if g.is_over:
                total += 1.0 if g.winner == self.seat else -1.0
            else:
                groups.setdefault(_key(g.view(self.seat)), []).append((g, bot))
        for key, group in groups.items():
            here = f"{path}/{key}" if self.recall else key
            best, best_a = -math.inf, -1
            for a in group[0][0].legal_actions():
                branch = []
                for g, bot in group:
                    c = g.copy()
                    c.apply(a)
                    branch.append((c, bot))
                v = self._solve(branch, here)
                if v > best:
                    best, best_a = v, a
            self.table[here] = best_a
            total += best
        return total

    def fit(self, seeds: list[int]) -> float:
        """Solve the sample; its mean return (optimistic: chosen on these deals)."""
        items = [(Game(self.rules, 2, seed=s, events=False), self.opponent(s)) for s in seeds]
        return self._solve(items, "") / len(seeds)

    def play(
        self, seeds: list[int], fallback: Callable[[int], Bot]
    ) -> tuple[list[float], int, int]:
        """Fresh deals: the returns, the responder's decisions, and how many of them the
        sample never reached (played by ``fallback``)."""
        out, asked, unseen = [], 0, 0
        for s in seeds:
            g = Game(self.rules, 2, seed=s, events=False)
            bot, spare = self.opponent(s), fallback(s)
            path = ""
            while True:
                advance(g, bot, self.mine)
                if g.is_over:
                    break
                view = g.view(self.seat)
                path = f"{path}/{_key(view)}" if self.recall else _key(view)
                a = self.table.get(path)
                asked += 1
                if a is None:
                    unseen += 1
                    a = spare.act(view)
                g.apply(a)
            out.append(1.0 if g.winner == self.seat else -1.0)
        return out, asked, unseen


# ------------------------------------------------------------------ commands


def train(args: argparse.Namespace, against: str | None) -> tuple[Learner, dict[str, Any]]:
    """PPO for ``--iterations`` of ``--games`` games: self-play (``against`` None: both
    seats the learner, with the magnet) or against a fixed bot (seats alternating)."""
    rules = mini_rules(args.size)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    config = {k: v for k, v in vars(args).items() if k != "func"}
    (out / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    learner = Learner(args, rules, 2)
    rng = np.random.default_rng(args.seed)
    t0, w0 = time.process_time(), time.perf_counter()
    curve: list[dict[str, Any]] = []
    played = 0
    it = 0
    budget = args.cpu_minutes * 60
    while it < args.iterations and time.process_time() - t0 < budget:
        it += 1
        ent = args.ent + (args.ent_end - args.ent) * it / args.iterations
        seeds = [int(s) for s in rng.integers(2**40, 2**62, args.games)]
        if against is None:
            seats = [frozenset((0, 1))] * args.games
            opponent = None
        else:
            seats = [frozenset((k % 2,)) for k in range(args.games)]
            opponent = _opponent(against)
        b = Batch()
        rets = play_games(rules, seeds, seats, learner.choose, opponent, learner.meta, b)
        played += args.games
        learner.update(b, ent, args.magnet if against is None else 0.0)
        if against is None and args.magnet and it % args.magnet_every == 0:
            learner.refresh_magnet()
        if it % args.log_every == 0 or it == args.iterations:
            point = {"iteration": it, "games": played,
                     "cpu_seconds": round(time.process_time() - t0, 1)}  # fmt: skip
            if against is not None:
                point["training_return"] = round(float(np.mean(rets)), 4)
            curve.append(point)
            log(json.dumps(point))
    summary = {"iterations": it, "stopped_early": it < args.iterations, "games": played,
               "cpu_seconds": round(time.process_time() - t0, 1),
               "wall_seconds": round(time.perf_counter() - w0, 1), "curve": curve}  # fmt: skip
    return learner, summary


#: the bots' seed: each bot is one policy, the one docs/mini.md's exact figures measured
#: (``mini_solve.py bots --seed 37``: seeded once, as at the start of a game)
BOT_SEED = 37


def _opponent(name: str) -> Callable[[int], Bot]:
    """A fresh bot of ``name`` for a game (the game's seed given): always seeded
    :data:`BOT_SEED`, so that a bot whose choices draw on its seed plays one fixed policy
    in every game, the one whose exploitability is estimated; ``random`` alone draws anew
    each game (the uniform policy, as the exact figure has it)."""
    make_bot(name, seed=0)  # a bad name: refused before any game
    if name == "random":
        return lambda s: make_bot(name, seed=s)
    return lambda s: make_bot(name, seed=BOT_SEED)


def cmd_selfplay(args: argparse.Namespace) -> None:
    learner, summary = train(args, None)
    out = Path(args.out)
    final = learner.export(sample=True)
    final.save(out / "policy.npz")
    MLPPolicy(final.weights, final.scale, dict(final.meta, sample=False)).save(
        out / "policy-highest.npz"
    )
    (out / "curve.json").write_text(json.dumps(summary) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}))


def cmd_abr(args: argparse.Namespace) -> None:
    learner, summary = train(args, args.against)
    out = Path(args.out)
    policy = learner.export(sample=False, best_response_to=args.against)
    policy.save(out / "policy.npz")
    t = time.process_time()
    rules = mini_rules(args.size)
    result = evaluate(rules, highest(policy), _opponent(args.against), args.eval_games,
                      args.eval_seed, learner.meta)  # fmt: skip
    row: dict[str, Any] = {
        "size": args.size, "against": args.against, "seed": args.seed,
        "training_games": summary["games"], "training_cpu_seconds": summary["cpu_seconds"],
        "eval_cpu_seconds": round(time.process_time() - t, 1),
        "exploitability_estimate": result["value"], "ci95": result["ci95"],
        "seat0": result["seat0"], "seat1": result["seat1"], "eval_deals": result["deals"],
        "eval_seed": args.eval_seed,
    }  # fmt: skip
    exact = exact_for(args.size, args.against)
    if exact is not None:
        row["exact"] = exact
    (out / "curve.json").write_text(json.dumps(summary) + "\n", encoding="utf-8")
    (out / "result.json").write_text(json.dumps(row) + "\n", encoding="utf-8")
    print(json.dumps(row))


def cmd_deals(args: argparse.Namespace) -> None:
    """``deals``: the best response on ``--deals`` sampled deals a seat, measured on the
    evaluation deals (each in both seats: the same paired estimate as ``abr``'s)."""
    rules = mini_rules(args.size)
    rng = np.random.default_rng(args.seed)
    opponent = _opponent(args.against)
    t = time.process_time()
    per_seat, fitted, asked, unseen, states = [], [], 0, 0, 0
    evals = [args.eval_seed + i for i in range(args.eval_games)]
    for seat in (0, 1):
        br = DealBR(rules, seat, opponent, recall=args.key == "path")
        fitted.append(br.fit([int(x) for x in rng.integers(2**40, 2**62, args.deals)]))
        states += len(br.table)
        rets, a, u = br.play(evals, _opponent(args.fallback))
        per_seat.append(np.array(rets))
        asked, unseen = asked + a, unseen + u
    pair = (per_seat[0] + per_seat[1]) / 2
    mean = float(pair.mean())
    half = 1.96 * float(pair.std(ddof=1)) / math.sqrt(len(pair))
    row: dict[str, Any] = {
        "method": "deals", "size": args.size, "against": args.against, "seed": args.seed,
        "training_games": args.deals * 2, "training_cpu_seconds": round(time.process_time() - t, 1),
        "exploitability_estimate": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "on_the_sample": round(sum(fitted) / 2, 4), "states": states, "key": args.key,
        "unseen_share": round(unseen / max(asked, 1), 4), "fallback": args.fallback,
        "seat0": round(float(per_seat[0].mean()), 4), "seat1": round(float(per_seat[1].mean()), 4),
        "eval_deals": args.eval_games, "eval_seed": args.eval_seed,
    }  # fmt: skip
    exact = exact_for(args.size, args.against)
    if exact is not None:
        row["exact"] = exact
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "result.json").write_text(json.dumps(row) + "\n", encoding="utf-8")
    print(json.dumps(row))


def cmd_table(args: argparse.Namespace) -> None:
    """docs/mini.md's rows from ``abr`` and ``deals`` runs' folders."""
    rows = []
    for d in args.dirs:
        f = Path(d) / "result.json"
        if f.exists():
            rows.append(json.loads(f.read_text(encoding="utf-8")))
    rows.sort(key=lambda r: (r["size"] != "small", r["against"], r.get("training_games", 0)))
    print("| size | bot | method | estimate on fresh deals (95 % CI) | on its own sample "
          "| fresh decisions unseen | exact | sample, CPU |")  # fmt: skip
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for r in rows:
        exact = f"{r['exact']:.4f}" if "exact" in r else "—"
        lo, hi = r["ci95"]
        deals = r.get("method") == "deals"
        method = "deals" if deals else "PPO"
        own = f"{r['on_the_sample']:.4f}" if deals else "—"
        unseen = f"{100 * r['unseen_share']:.1f} %" if deals else "—"
        print(f"| {r['size']} | `{r['against']}` | {method} "
              f"| {r['exploitability_estimate']:.4f} ({lo:.4f} to {hi:.4f}) | {own} | {unseen} "
              f"| {exact} | {r['training_games']:,} games, {r['training_cpu_seconds']:.0f} s |")  # fmt: skip


def _common(p: argparse.ArgumentParser, iterations: int, games: int) -> None:
    p.add_argument("--size", default="large", choices=("small", "large"))
    p.add_argument("--seed", type=int, required=True, help="the run's seed (fix it before)")
    p.add_argument("--out", required=True)
    p.add_argument("--iterations", type=int, default=iterations)
    p.add_argument("--games", type=int, default=games, help="games a PPO iteration")
    p.add_argument("--cpu-minutes", type=float, default=30.0,
                   help="stop early past this much CPU (the run says if it stopped)")  # fmt: skip
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatch", type=int, default=2048)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--log-every", type=int, default=10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("selfplay", help="self-play PPO with the magnet")
    _common(sp, 500, 2048)
    sp.add_argument("--ent", type=float, default=0.05)
    sp.add_argument("--ent-end", type=float, default=0.005)
    sp.add_argument("--magnet", type=float, default=1.0)
    sp.add_argument("--magnet-every", type=int, default=10)
    ab = sub.add_parser("abr", help="an approximate best response to one bot")
    _common(ab, 100, 2048)
    ab.add_argument("--against", required=True, help="the bot (any bot name, policy:PATH)")
    ab.add_argument("--ent", type=float, default=0.01)
    ab.add_argument("--ent-end", type=float, default=0.0)
    ab.add_argument("--eval-games", type=int, default=10_000, help="deals, each in both seats")
    ab.add_argument("--eval-seed", type=int, default=EVAL_SEED)
    dl = sub.add_parser("deals", help="a best response on sampled deals, exactly")
    dl.add_argument("--size", default="large", choices=("small", "large"))
    dl.add_argument("--seed", type=int, required=True, help="the sample's seed (fix it before)")
    dl.add_argument("--out", required=True)
    dl.add_argument("--against", required=True, help="the bot (any bot name, policy:PATH)")
    dl.add_argument("--deals", type=int, default=20_000, help="sampled deals a seat")
    dl.add_argument("--fallback", default="greedy", help="where the sample never went")
    dl.add_argument("--key", default="path", choices=("path", "view"),
                    help="group by the views so far (path) or by this view alone")  # fmt: skip
    dl.add_argument("--eval-games", type=int, default=10_000, help="deals, each in both seats")
    dl.add_argument("--eval-seed", type=int, default=EVAL_SEED)
    tb = sub.add_parser("table")
    tb.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    commands = {"selfplay": cmd_selfplay, "abr": cmd_abr, "deals": cmd_deals, "table": cmd_table}
    commands[args.cmd](args)


if __name__ == "__main__":
    main()
