#!/usr/bin/env python3
"""Masked PPO on the fast simulator, one learner against bots (issue 25; docs/learning.md).

    nice -n 10 python benchmarks/train_ppo.py train --seed 2501 --steps 3000000 \\
        --out benchmarks/results/ppo/m2-heuristic-2501
    python benchmarks/train_ppo.py plot benchmarks/results/ppo/m2-heuristic-* \\
        --svg docs/images/ppo-m2-heuristic.svg

``train`` plays ``OpponentVecEnv`` (``ono99.envs.fast_vec``): the learner in every seat
(one environment per seat, so one policy learns every seat), the bots inside the compiled
step. PPO as in CleanRL's ``ppo.py``: clipped surrogate, GAE, value loss, entropy bonus,
advantages normalised per minibatch, the learning rate annealed to 0; illegal actions get
a logit of -1e8, so the policy only ever samples legal ones. Torch on the CPU, one thread.

Every ``--eval-every`` steps (and at 0 and the end) the policy, playing its highest logit,
is evaluated on fixed deals (``--eval-seed``, the same for every run and every point of a
curve): each deal played once with the learner in every seat, against each of
``--eval-opponents``, inside the same fast environment. A deal is a paired block, as in
the arena: the edge is the learner's win share per seat minus the bots' per seat, with a
t-interval over deals (``ono99.arena.tournament.t_quantile``).

Self-play (issue 37, docs/learning.md's second attempt): ``--league self,pool,heuristic``
trains against a league instead of ``--opponents``: each entry is the opponent of its own
environments (``--rows`` rows per seat and entry), ``self`` the current network and
``pool`` one of its past snapshots (one added every ``--pool-every`` updates, the last
``--pool-size`` kept, one drawn afresh for each update), both sampling their actions from
the softmax of the legal logits (seeded), or any ``OpponentVecEnv`` opponent (a compiled
bot, ``policy:PATH``). ``--play-order K`` gives the network the last ``K`` cards played
(the fast environment's ``play_order``, what ``ono99.envs.policy`` reads from the view for
a file with ``"play_order": K``), and ``--magnet W`` adds ``W`` times the KL divergence of
the policy from a magnet, a copy of itself refreshed every ``--magnet-every`` updates (the
proximal step of ``benchmarks/mini_learn.py``, as in magnetic mirror descent).

``DIR`` gets ``config.json``, ``curve.json`` (one entry per evaluation) and ``policy.npz``
(the final policy, for ``ono99.envs.policy``: ``policy:DIR/policy.npz`` in the arena).
Torch is needed for ``train`` only (``pip install torch``; it is no dependency of ono99).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ono99.arena.tournament import t_quantile, wilson
from ono99.envs.encoding import NUM_CARDS, bounds, obs_size
from ono99.envs.fast_vec import Opponent, OpponentVecEnv
from ono99.envs.policy import MLPPolicy
from ono99.rules import make_rules

F32 = npt.NDArray[np.float32]
#: the evaluation deals: far from every training run's deals (seed × 10¹⁰ + seat × 10⁹ + i)
EVAL_SEED = 9_000_000_000_000


@dataclass
class Config:
    seed: int
    rules: str = "mattel2022"
    players: int = 2
    opponents: str = "heuristic"
    options: dict[str, Any] = field(default_factory=dict)
    #: total learner decisions to train on
    steps: int = 3_000_000
    #: rows per learner seat (the batch of each OpponentVecEnv)
    rows: int = 128
    #: decisions per row in one rollout
    rollout: int = 64
    epochs: int = 4
    minibatches: int = 4
    lr: float = 3e-4
    gamma: float = 0.995
    lam: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: tuple[int, ...] = (256, 256)
    eval_every: int = 250_000
    eval_deals: int = 1000
    eval_seed: int = EVAL_SEED
    eval_opponents: tuple[str, ...] = ("heuristic", "greedy", "random")
    #: the last K cards played in the observation (0: the plain observation)
    play_order: int = 0
    #: self-play: the league's entries, each the opponent in every other seat of its own
    #: environments: ``self`` and ``pool`` the network's own, or a bot (empty: ``opponents``)
    league: tuple[str, ...] = ()
    pool_every: int = 10
    pool_size: int = 20
    #: weight of the KL divergence from the magnet (0: none), and updates between refreshes
    magnet: float = 0.0
    magnet_every: int = 10


def obs_scale(cfg: Config) -> F32:
    """What each observation entry is divided by: the Box's largest magnitude
    (``ono99.envs.encoding.bounds``), so every input lies in [-1, 1]."""
    low, high = bounds(make_rules(cfg.rules, cfg.options), cfg.players)
    scale = np.maximum(np.maximum(np.abs(low), np.abs(high)), 1.0).astype(np.float32)
    return np.concatenate([scale, np.ones(cfg.play_order * NUM_CARDS, np.float32)])


def sampler(policy: MLPPolicy, rng: np.random.Generator) -> Any:
    """``policy`` as an ``OpponentVecEnv`` opponent that draws each action from the softmax
    of the legal logits (Gumbel-max, from ``rng``)."""

    def act(obs: F32, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        z = policy.logits(obs) + rng.gumbel(size=(obs.shape[0], mask.shape[1]))
        return np.asarray(np.where(mask > 0, z, -np.inf).argmax(axis=1), np.int64)

    return act


def evaluate(
    policy: MLPPolicy, cfg: Config, opponents: str, deals: int, seed: int
) -> dict[str, Any]:
    """Deals ``seed + 0 … deals − 1``, each played once with the policy (highest logit)
    in every seat against ``opponents``: win rate with Wilson's interval, and the paired
    edge per deal with its t-interval."""
    n = cfg.players
    share = np.zeros((n, deals))  # the learner's win share in deal d, seat s
    for seat in range(n):
        env = OpponentVecEnv(
            cfg.rules, n, deals, opponents=opponents, seat=seat, seed=seed,
            play_order=cfg.play_order, **cfg.options,
        )  # fmt: skip
        step = env.reset()
        # rows start with games 0 … deals − 1 (the deals); a row's later games are ignored
        assert (env.game_ids[:deals] == np.arange(deals)).all()
        live = np.ones(deals, bool)
        while live.any():
            step = env.step(policy.act(step.obs, step.mask))
            ended = live & step.done
            share[seat, ended] = np.maximum(step.rewards[ended, seat], 0.0)
            live &= ~step.done
    games = n * deals
    wins = float(share.sum())
    lo, hi = wilson(wins, games)
    # a deal's edge: the learner's win share per seat minus the bots' (n − 1 seats)
    edge = share.mean(axis=0) - (1.0 - share.mean(axis=0)) / (n - 1)
    mean = float(edge.mean())
    se = float(edge.std(ddof=1) / math.sqrt(deals))
    half = t_quantile(0.975, deals - 1) * se
    return {
        "opponents": opponents,
        "games": games,
        "win_rate": round(wins / games, 6),
        "ci95": [round(lo, 6), round(hi, 6)],
        "edge": round(mean, 6),
        "edge_ci95": [round(mean - half, 6), round(mean + half, 6)],
    }


def train(cfg: Config, out: Path, log: Any = sys.stderr) -> list[dict[str, Any]]:
    """Train with ``cfg``; write ``out``/config.json, curve.json, policy.npz; return the
    curve."""
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(cfg.seed)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(cfg), indent=1) + "\n")
    n_in = obs_size(cfg.players) + cfg.play_order * NUM_CARDS
    scale = torch.from_numpy(obs_scale(cfg))
    rng = np.random.default_rng(cfg.seed)  # the league's sampled actions and pool draws

    def mlp(outputs: int) -> nn.Sequential:
        layers: list[nn.Module] = []
        width = n_in
        for h in cfg.hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        layers.append(nn.Linear(width, outputs))
        return nn.Sequential(*layers)

    actor, critic = mlp(18), mlp(1)
    magnet = copy.deepcopy(actor)
    params = [*actor.parameters(), *critic.parameters()]
    optim = torch.optim.Adam(params, lr=cfg.lr, eps=1e-5)

    def export() -> MLPPolicy:
        linears = [m for m in actor if isinstance(m, nn.Linear)]
        weights = [
            (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears
        ]
        meta = {"rules": cfg.rules, "players": cfg.players, "options": cfg.options,
                "obs_size": n_in, "seed": cfg.seed,
                "trained_against": ",".join(cfg.league) if cfg.league else cfg.opponents}  # fmt: skip
        if cfg.play_order:
            meta["play_order"] = cfg.play_order
        return MLPPolicy(weights, scale.numpy(), meta)

    # the league's own members: the current network and a pool of its snapshots, each a
    # holder that the opponents' callables read at every move
    pool: list[MLPPolicy] = [export()]
    own: dict[str, list[Any]] = {"self": [sampler(pool[0], rng)], "pool": [sampler(pool[0], rng)]}

    def member(name: str) -> Opponent:
        if name not in own:
            return name
        holder = own[name]

        def act(obs: F32, mask: npt.NDArray[np.int8]) -> Any:
            return holder[-1](obs, mask)

        return act

    def refresh(update: int) -> None:
        """Before a rollout: ``self`` plays the network now, ``pool`` a snapshot drawn."""
        own["self"][:] = [sampler(export(), rng)]
        if update > 0 and update % cfg.pool_every == 0:
            pool.append(export())
            del pool[: -cfg.pool_size]
        own["pool"][:] = [sampler(pool[int(rng.integers(len(pool)))], rng)]

    specs = cfg.league or (cfg.opponents,)
    envs = [
        OpponentVecEnv(
            cfg.rules,
            cfg.players,
            cfg.rows,
            opponents=member(spec) if cfg.league else spec,
            seat=s,
            # the league's first entry has the deals of a run without one
            seed=cfg.seed * 10**10 + s * 10**9 + j * 10**8,
            play_order=cfg.play_order,
            **cfg.options,
        )
        for j, spec in enumerate(specs)
        for s in range(cfg.players)
    ]
    steps_ = [e.reset() for e in envs]
    rows = cfg.rows * len(envs)
    T = cfg.rollout
    obs_buf = torch.zeros((T, rows, n_in))
    mask_buf = torch.zeros((T, rows, 18), dtype=torch.bool)
    act_buf = torch.zeros((T, rows), dtype=torch.long)
    logp_buf = torch.zeros((T, rows))
    val_buf = torch.zeros((T, rows))
    rew_buf = torch.zeros((T, rows))
    done_buf = torch.zeros((T, rows))

    def current() -> tuple[torch.Tensor, torch.Tensor]:
        o = np.concatenate([s.obs for s in steps_])
        m = np.concatenate([s.mask for s in steps_])
        return torch.from_numpy(o) / scale, torch.from_numpy(m > 0)

    def log_probs(o: torch.Tensor, m: torch.Tensor, net: nn.Module = actor) -> torch.Tensor:
        """Log-probabilities of every action; an illegal one's probability is exactly 0."""
        return torch.log_softmax(net(o).masked_fill(~m, -1e8), dim=-1)

    curve: list[dict[str, Any]] = []
    start = time.perf_counter()
    train_s = 0.0

    def checkpoint(done_steps: int, stats: dict[str, Any]) -> None:
        policy = export()
        t0 = time.perf_counter()
        evals = [
            evaluate(policy, cfg, opp, cfg.eval_deals, cfg.eval_seed) for opp in cfg.eval_opponents
        ]
        entry = {"steps": done_steps, "train_seconds": round(train_s, 1),
                 "eval_seconds": round(time.perf_counter() - t0, 1), **stats, "eval": evals}  # fmt: skip
        curve.append(entry)
        (out / "curve.json").write_text(json.dumps(curve, indent=1) + "\n")
        policy.save(out / "policy.npz")
        shown = ", ".join(f"{e['opponents']} {e['win_rate']:.3f}" for e in evals)
        print(f"[seed {cfg.seed}] {done_steps:>9} steps {train_s:7.0f} s: {shown}", file=log)

    checkpoint(0, {})
    done_steps = 0
    updates = math.ceil(cfg.steps / (rows * T))
    next_eval = cfg.eval_every
    for update in range(updates):
        t_update = time.perf_counter()
        for g in optim.param_groups:
            g["lr"] = cfg.lr * (1.0 - update / updates)
        if cfg.league:
            refresh(update)
        if cfg.magnet and update % cfg.magnet_every == 0:
            magnet.load_state_dict(actor.state_dict())
        o, m = current()
        for t in range(T):
            with torch.no_grad():
                lp = log_probs(o, m)
                a = torch.multinomial(lp.exp(), 1).squeeze(-1)
                obs_buf[t], mask_buf[t], act_buf[t] = o, m, a
                logp_buf[t] = lp.gather(1, a[:, None]).squeeze(-1)
                val_buf[t] = critic(o).squeeze(-1)
            acts = a.numpy()
            r, dn = [], []
            for k, env in enumerate(envs):
                s = env.step(acts[k * cfg.rows : (k + 1) * cfg.rows])
                steps_[k] = s
                r.append(np.where(s.done, s.rewards[:, env.seat], 0.0))
                dn.append(s.done)
            rew_buf[t] = torch.from_numpy(np.concatenate(r).astype(np.float32))
            done_buf[t] = torch.from_numpy(np.concatenate(dn).astype(np.float32))
            o, m = current()
        with torch.no_grad():
            next_val = critic(o).squeeze(-1)
            adv = torch.zeros((T, rows))
            gae = torch.zeros(rows)
            for t in reversed(range(T)):
                nonterminal = 1.0 - done_buf[t]
                nv = next_val if t == T - 1 else val_buf[t + 1]
                delta = rew_buf[t] + cfg.gamma * nv * nonterminal - val_buf[t]
                gae = delta + cfg.gamma * cfg.lam * nonterminal * gae
                adv[t] = gae
            ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, n_in), mask_buf.reshape(-1, 18)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        n = b_obs.shape[0]
        size = n // cfg.minibatches
        losses, clipfracs, entropies, kls = [], [], [], []
        for _epoch in range(cfg.epochs):
            perm = torch.randperm(n)
            for i in range(cfg.minibatches):
                idx = perm[i * size : (i + 1) * size]
                lp = log_probs(b_obs[idx], b_mask[idx])
                logp = lp.gather(1, b_act[idx, None]).squeeze(-1)
                ratio = (logp - b_logp[idx]).exp()
                mb_adv = b_adv[idx]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - cfg.clip, 1 + cfg.clip))
                v = critic(b_obs[idx]).squeeze(-1)
                v_loss = 0.5 * ((v - b_ret[idx]) ** 2).mean()
                entropy = -(lp.exp() * lp).sum(-1).mean()
                loss = pg.mean() + cfg.vf_coef * v_loss - cfg.ent_coef * entropy
                if cfg.magnet:
                    with torch.no_grad():
                        anchor = log_probs(b_obs[idx], b_mask[idx], magnet)
                    # illegal actions: probability 0 on both sides, no term
                    diff = (lp - anchor).masked_fill(~b_mask[idx], 0.0)
                    kl = (lp.exp() * diff).sum(-1).mean()
                    loss = loss + cfg.magnet * kl
                    kls.append(kl.item())
                optim.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
                optim.step()
                losses.append(loss.item())
                entropies.append(entropy.item())
                clipfracs.append(((ratio - 1).abs() > cfg.clip).float().mean().item())
        done_steps += rows * T
        train_s += time.perf_counter() - t_update
        if done_steps >= next_eval or update == updates - 1:
            next_eval += cfg.eval_every
            episodes = float(done_buf.sum())
            stats: dict[str, Any] = {
                "loss": round(float(np.mean(losses)), 5),
                "entropy": round(float(np.mean(entropies)), 5),
                "clipfrac": round(float(np.mean(clipfracs)), 5),
                "train_reward": round(float(rew_buf.sum()) / max(episodes, 1.0), 5),
            }
            if kls:
                stats["magnet_kl"] = round(float(np.mean(kls)), 5)
            if cfg.league:  # the learner's mean reward a game against each entry
                per = len(envs) // len(specs) * cfg.rows
                stats["train_reward_by"] = {
                    spec: round(float(rew_buf[:, j * per : (j + 1) * per].sum())
                                / max(float(done_buf[:, j * per : (j + 1) * per].sum()), 1.0), 5)
                    for j, spec in enumerate(specs)
                }  # fmt: skip
            checkpoint(done_steps, stats)
    total = time.perf_counter() - start
    print(f"[seed {cfg.seed}] done: {done_steps} steps, {total:.0f} s in all", file=log)
    return curve


def plot(dirs: Sequence[Path], svg: Path, title: str | None = None) -> None:
    """Learning curves of several runs (one line per seed and evaluation opponent, with
    its 95 % interval as a band) into one picture (SVG, or PNG for a ``.png`` path)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [(json.loads((d / "config.json").read_text()), json.loads((d / "curve.json").read_text()))
            for d in dirs]  # fmt: skip
    opponents = runs[0][0]["eval_opponents"]
    fig, axes = plt.subplots(1, len(opponents), figsize=(4.2 * len(opponents), 3.6), sharey=False)
    axes = np.atleast_1d(axes)
    # runs of one trainer and opponent are told apart by their seed, others by both
    same = len({(c.get("trainer"), c["opponents"]) for c, _ in runs}) == 1
    for ax, opp in zip(axes, opponents, strict=True):
        for cfg, curve in runs:
            xs = [e["steps"] / 1e6 for e in curve]
            ev = [next(x for x in e["eval"] if x["opponents"] == opp) for e in curve]
            ys = [x["win_rate"] for x in ev]
            label = f"seed {cfg['seed']}"
            if not same:
                trainer = str(cfg.get("trainer", "PPO")).replace("sb3-contrib ", "")
                trainer = "OpenSpiel DQN" if trainer.endswith(".dqn") else trainer
                label = f"{trainer} vs {cfg['opponents'].split(' ')[0]}, {label}"
            line = ax.plot(xs, ys, marker=".", label=label)[0]
            ax.fill_between(xs, [x["ci95"][0] for x in ev], [x["ci95"][1] for x in ev],
                            color=line.get_color(), alpha=0.15, linewidth=0)  # fmt: skip
        ax.axhline(1.0 / runs[0][0]["players"], color="grey", linestyle=":", linewidth=1)
        ax.set_title(f"against {opp}")
        ax.set_xlabel("learner decisions (millions)" if same else "decisions (millions)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win rate (evaluation deals)")
    axes[0].legend(fontsize=8)
    cfg0 = runs[0][0]
    against = ",".join(cfg0.get("league") or ()) or cfg0["opponents"]
    fig.suptitle(title or f"PPO, {cfg0['rules']}, {cfg0['players']} players, "
                 f"trained against {against}", fontsize=10)  # fmt: skip
    fig.tight_layout()
    svg.parent.mkdir(parents=True, exist_ok=True)
    if svg.suffix == ".png":
        fig.savefig(svg, format="png", dpi=110)
    else:  # no date in the file: the same curves give the same SVG
        fig.savefig(svg, format="svg", metadata={"Date": None})
    plt.close(fig)


def table(dirs: Sequence[Path]) -> str:
    """A markdown table of the arena runs saved beside each policy (``DIR/arena-OPP.json``,
    ``ono99 arena --bots policy:DIR/policy.npz,OPP --json``): the policy's win rate and its
    paired edge per seat over the bot, with the t-interval."""
    lines = [
        "| run | against | games | policy win rate | edge per seat (95 % CI) | z |"
        " policy p50 / p99 ms |",
        "|---|---|---:|---:|---|---:|---|",
    ]
    for d in dirs:
        order = ["random", "greedy", "heuristic", "hard", "expert"]
        paths = sorted(d.glob("arena-*.json"), key=lambda p: (
            order.index(p.stem[6:]) if p.stem[6:] in order else len(order), p.stem))  # fmt: skip
        for path in paths:
            text = path.read_text()
            if not text.strip():  # a run still going (its output comes at the end)
                continue
            res = json.loads(text)
            name = next(n for n in res["bots"] if n.startswith("policy:"))
            me = res["bots"][name]
            (pair,) = res["pairs"]
            sign = 1.0 if pair["a"] == name else -1.0
            diff = sign * pair["diff"]
            lo, hi = sorted(sign * x for x in pair["ci95"])
            other = pair["b"] if sign > 0 else pair["a"]
            z = "—" if pair["z"] is None else f"{sign * pair['z']:.1f}"
            ms = me["decision_ms"]
            lines.append(
                f"| {d.name} | {other} | {res['games']:,} | {me['win_rate']:.3f} |"
                f" {diff:+.1%} [{lo:+.1%}, {hi:+.1%}] | {z} | {ms['p50']:.2f} / {ms['p99']:.2f} |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train", help="train one run")
    t.add_argument("--seed", type=int, required=True, help="the run's seed (fix it beforehand)")
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--rules", default="mattel2022")
    t.add_argument("--players", type=int, default=2)
    t.add_argument("--opponents", default="heuristic")
    t.add_argument("--steps", type=int, default=Config.steps)
    t.add_argument("--rows", type=int, default=Config.rows)
    t.add_argument("--rollout", type=int, default=Config.rollout)
    t.add_argument("--hidden", default="256,256")
    t.add_argument("--lr", type=float, default=Config.lr)
    t.add_argument("--ent-coef", type=float, default=Config.ent_coef)
    t.add_argument("--eval-every", type=int, default=Config.eval_every)
    t.add_argument("--eval-deals", type=int, default=Config.eval_deals)
    t.add_argument("--eval-seed", type=int, default=EVAL_SEED)
    t.add_argument("--eval-opponents", default="heuristic,greedy,random")
    t.add_argument("--play-order", type=int, default=0, metavar="K",
                   help="the last K cards played in the observation")  # fmt: skip
    t.add_argument("--league", default="", metavar="A,B,...",
                   help="self-play: the league's entries (self, pool, a bot, policy:PATH)")  # fmt: skip
    t.add_argument("--pool-every", type=int, default=Config.pool_every)
    t.add_argument("--pool-size", type=int, default=Config.pool_size)
    t.add_argument("--magnet", type=float, default=Config.magnet)
    t.add_argument("--magnet-every", type=int, default=Config.magnet_every)
    p = sub.add_parser("plot", help="learning curves of runs into an SVG")
    p.add_argument("dirs", type=Path, nargs="+")
    p.add_argument("--svg", type=Path, required=True)
    p.add_argument("--title")
    tb = sub.add_parser("table", help="the arena runs saved beside the policies, as markdown")
    tb.add_argument("dirs", type=Path, nargs="+")
    args = ap.parse_args(argv)
    if args.cmd == "table":
        print(table(args.dirs))
        return 0
    if args.cmd == "plot":
        plot(args.dirs, args.svg, args.title)
        return 0
    cfg = Config(
        seed=args.seed, rules=args.rules, players=args.players, opponents=args.opponents,
        steps=args.steps, rows=args.rows, rollout=args.rollout,
        hidden=tuple(int(h) for h in args.hidden.split(",")), lr=args.lr,
        ent_coef=args.ent_coef, eval_every=args.eval_every, eval_deals=args.eval_deals,
        eval_seed=args.eval_seed, eval_opponents=tuple(args.eval_opponents.split(",")),
        play_order=args.play_order, league=tuple(x.strip() for x in args.league.split(",") if x.strip()),
        pool_every=args.pool_every, pool_size=args.pool_size, magnet=args.magnet,
        magnet_every=args.magnet_every,
    )  # fmt: skip
    train(cfg, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
