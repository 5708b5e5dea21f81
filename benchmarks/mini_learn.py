#!/usr/bin/env python3
"""The learned bot's second attempt, in ``mini``: self-play PPO, measured exactly (issue 37).

    nice -n 15 python benchmarks/mini_learn.py train --seed 1 --iterations 500 \\
        --out benchmarks/results/mini/ppo-selfplay-1
    python benchmarks/mini_learn.py eval benchmarks/results/mini/ppo-selfplay-1/policy.npz \\
        --games 1000 --seed 37 > learned.json
    python benchmarks/mini_solve.py table learned.json      # its row of docs/mini.md

``train`` walks the tree of ``python_ono99(rules=mini)`` once (``mini_solve.py``'s
walk, 15–20 s of CPU; kept in ``--cache``) and records, at every information state, the
vector the policy bot reads there: :func:`ono99.envs.policy.observe` of the player's view,
the environments' observation (docs/envs.md) and the play order, the 8 cards of the
discard pile one-hot, most recent first (``play_order`` 8; in ``mini`` the pile is never
reshuffled, so that is every card played, in order: the history observation, from which
who played what follows). Then self-play: each iteration plays ``--games`` games on that
tree (chance by its probabilities, both seats by the current policy, sampled: the tree
is the simulator, one shared network learns both seats) and makes a PPO update from
them (clipped surrogate, a separate value network as the baseline, the whole game's
return as each decision's, advantages normalised per minibatch, the entropy bonus
annealed linearly from ``--ent`` to ``--ent-end`` over ``--iterations``) and a magnet: a KL
penalty (weight ``--magnet``) towards a copy of the policy refreshed every
``--magnet-every`` iterations, a proximal step that keeps self-play from cycling (as in
magnetic mirror descent, Sokota et al. 2023). Torch on the CPU, one thread.

Every ``--eval-every`` iterations the network is exported to the policy file's NumPy form
(:class:`~ono99.envs.policy.MLPPolicy`) and its **exact NashConv** computed on the tree's
arrays (``mini_solve.Arrays``: the exact best response, which gives OpenSpiel's
``exploitability.nash_conv`` to the last digit), both for the policy as sampled (what the
bot plays with ``sample`` in its ``meta``) and for its highest logit. Training never
reads these numbers: the last iteration's policy is the one written, whatever the curve.
The run is deterministic given ``--seed`` on one machine (NumPy's generator, torch's CPU
kernels on one thread); ``--cpu-minutes`` only stops a run early (``stopped_early``).

``DIR`` gets ``config.json``, ``curve.json`` (iteration, games played, NashConv sampled,
NashConv of the highest logit, CPU seconds), ``policy.npz`` (``sample`` true; the bot
``policy:DIR/policy.npz``) and ``policy-highest.npz`` (the same network playing its highest
logit).

``views`` counts what the policy can tell apart: the view keys, and the vectors with and
without the play order.

``eval`` measures a policy file: its exact NashConv (sampled and highest logit) and, in the
arena (``ono99.arena``, seats rotated, deals from ``--seed``), the sampled policy against
``optimal`` and against ``heuristic``: win rates and paired edges with their intervals. It
prints the JSON that ``mini_solve.py table`` reads (its ``rows``), with the heuristic
games beside them.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mini_solve import ArraysN, Tree, load_mini, log
from ono99.envs.encoding import NUM_CARDS, bounds, obs_size
from ono99.envs.policy import MLPPolicy, observe
from ono99.rules import make_rules

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]
#: the play order the policy reads: every card of a ``mini`` game
PLAY_ORDER = 8
META: dict[str, Any] = {"rules": "mini", "players": 2, "play_order": PLAY_ORDER}


def default_cache(players: int) -> Path:
    """Where the walked tree is kept between runs (``--cache``)."""
    return Path(f"/tmp/ono99-mini-tree-{players}p.pkl")


# ------------------------------------------------------------------ the tree, observed


class ObservedTree(Tree):
    """``mini_solve.Tree`` that also records, at each information state's first
    history, the policy's observation there and the player's view key."""

    def __init__(self) -> None:
        super().__init__()
        self.obs: dict[str, F32] = {}

    def add(self, state: Any) -> int:
        if not state.is_terminal() and not state.is_chance_node():
            info = state.information_state_string()
            if info not in self.obs:
                self.obs[info] = observe(state.engine.view(state.current_player()), META)
        return super().add(state)


class Sim:
    """The tree as a simulator: ``Arrays`` plus each node's children (padded), their
    chance probabilities, and each information state's observation and legal actions."""

    def __init__(self, tree: ObservedTree) -> None:
        self.arr = arr = ArraysN(tree)
        self.players = arr.players
        n = arr.n
        width = max(len(c) for c in tree.children)
        self.kids = np.full((n, width), -1, np.int64)
        self.kid_p = np.zeros((n, width))
        for i, kids in enumerate(tree.children):
            for j, (_, p, c) in enumerate(kids):
                self.kids[i, j] = c
                self.kid_p[i, j] = float(p) if p is not None else 0.0
        self.is_chance = np.array([k == "c" for k in tree.kind])
        self.obs = np.stack([tree.obs[info] for info in arr.infos]).astype(np.float32)
        self.n_info = len(arr.infos)
        self.width = width
        #: each information state's legal action ids, padded with -1
        self.act = np.full((self.n_info, self.width), -1, np.int64)
        for k, acts in enumerate(arr.actions):
            self.act[k, : len(acts)] = acts
        #: each flat (information state, action) slot's position among its state's actions
        self.slot = np.arange(arr.n_ia) - arr.offset[arr.ia_info]

    def flat(self, probs: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """``probs`` (information state × padded action) as ``Arrays``' flat table."""
        out: npt.NDArray[np.float64] = probs[self.arr.ia_info, self.slot]
        return out

    def play(
        self, probs: npt.NDArray[np.float64], games: int, rng: np.random.Generator
    ) -> tuple[I64, I64, I64, npt.NDArray[np.float64]]:
        """``games`` games, both seats playing ``probs``: every decision's information
        state, action position, player, and the return to that player."""
        arr = self.arr
        cur = np.zeros(games, np.int64)
        rec_game: list[I64] = []
        rec_k: list[I64] = []
        rec_j: list[I64] = []
        while True:
            live = np.flatnonzero(~arr.terminal[cur])
            if len(live) == 0:
                break
            nodes = cur[live]
            chance = self.is_chance[nodes]
            p = np.where(chance[:, None], self.kid_p[nodes], 0.0)
            k = arr.node_info[nodes]
            dec = ~chance
            p[dec] = probs[k[dec]]
            cum = np.cumsum(p, axis=1)
            u = rng.random(len(live)) * cum[:, -1]
            j = np.minimum((cum <= u[:, None]).sum(axis=1), (self.kids[nodes] >= 0).sum(1) - 1)
            rec_game.append(live[dec])
            rec_k.append(k[dec])
            rec_j.append(j[dec])
            cur[live] = self.kids[nodes, j]
        g = np.concatenate(rec_game)
        ks = np.concatenate(rec_k)
        js = np.concatenate(rec_j)
        player = np.array(arr.info_player, np.int64)[ks]
        return ks, js, player, arr.ret[cur[g], player]

    def nash_conv(self, probs: npt.NDArray[np.float64]) -> float:
        """The exact NashConv (2 players: ``Arrays.nash_conv``; more: the sum of every
        player's best-response gain, ``ArraysN.nash_conv_n``)."""
        if self.players == 2:
            return self.arr.nash_conv(self.flat(probs))
        return self.arr.nash_conv_n(self.flat(probs))


def load_sim(cache: Path | None, players: int = 2) -> Sim:
    cache = cache or default_cache(players)
    if cache.exists():
        with open(cache, "rb") as f:
            sim: Sim = pickle.load(f)  # our own file, written below
        return sim
    t = time.process_time()
    tree = ObservedTree()
    sys.setrecursionlimit(10_000)
    tree.add(load_mini(players).new_initial_state())
    sim = Sim(tree)
    log(f"tree: {len(tree)} histories, {sim.n_info} information states, "
        f"{time.process_time() - t:.0f} s CPU")  # fmt: skip
    with open(cache, "wb") as f:
        pickle.dump(sim, f, protocol=pickle.HIGHEST_PROTOCOL)
    return sim


def policy_probs(sim: Sim, policy: MLPPolicy, sample: bool) -> npt.NDArray[np.float64]:
    """What the policy bot plays at every information state (information state × padded
    action): the softmax of the legal logits, or the highest legal logit (the first of
    equal ones, in the order of the legal actions, as ``PolicyBot`` takes it)."""
    # a policy that reads a shorter play order reads the first entries: the most recent
    logits = policy.logits(sim.obs[:, : policy.scale.shape[0]]).astype(np.float64)
    legal = sim.act >= 0
    z = np.where(legal, np.take_along_axis(logits, np.maximum(sim.act, 0), axis=1), -np.inf)
    if sample:
        e = np.exp(z - z.max(axis=1, keepdims=True))
        out: npt.NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
        return out
    best = np.zeros_like(z)
    best[np.arange(len(z)), z.argmax(axis=1)] = 1.0
    return best


def obs_scale(players: int) -> F32:
    high = bounds(make_rules("mini"), players)[1]
    return np.concatenate([high, np.ones(PLAY_ORDER * NUM_CARDS, np.float32)]).astype(np.float32)


# ------------------------------------------------------------------ training


def cmd_train(args: argparse.Namespace) -> None:
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    config = {k: v for k, v in vars(args).items() if k not in ("func", "cache")}
    (out / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    t0 = time.process_time()
    w0 = time.perf_counter()
    sim = load_sim(args.cache and Path(args.cache), args.players)
    width = obs_size(args.players) + args.play_order * NUM_CARDS
    scale = obs_scale(args.players)[:width]
    x_all = torch.from_numpy(sim.obs[:, :width] / scale)
    legal = torch.from_numpy(sim.act >= 0)
    act_idx = torch.from_numpy(np.maximum(sim.act, 0))
    n_in = width

    def mlp(out_size: int) -> nn.Sequential:
        return nn.Sequential(nn.Linear(n_in, args.hidden), nn.ReLU(),
                             nn.Linear(args.hidden, args.hidden), nn.ReLU(),
                             nn.Linear(args.hidden, out_size))  # fmt: skip

    actor, critic = mlp(18), mlp(1)
    magnet = mlp(18)
    magnet.load_state_dict(actor.state_dict())
    optim = torch.optim.Adam([*actor.parameters(), *critic.parameters()], lr=args.lr)

    def legal_logp(ks: torch.Tensor, net: nn.Module = actor) -> torch.Tensor:
        """Log-probabilities over each state's padded legal actions."""
        z = torch.gather(net(x_all[ks]), 1, act_idx[ks]).masked_fill(~legal[ks], -1e9)
        return torch.log_softmax(z, dim=-1)

    def export() -> MLPPolicy:
        layers = [m for m in actor if isinstance(m, nn.Linear)]
        weights = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
                   for m in layers]  # fmt: skip
        meta = dict(META, players=args.players, play_order=args.play_order, obs_size=n_in,
                    sample=True, trained_by="benchmarks/mini_learn.py",
                    seed=args.seed)  # fmt: skip
        return MLPPolicy(weights, scale, meta)

    curve: list[list[float]] = []
    games = 0

    def evaluate(it: int) -> None:
        pol = export()
        nc_s = sim.nash_conv(policy_probs(sim, pol, sample=True))
        nc_a = sim.nash_conv(policy_probs(sim, pol, sample=False))
        cpu = time.process_time() - t0
        curve.append([it, games, round(nc_s, 6), round(nc_a, 6), round(cpu, 1)])
        log(f"iteration {it}: {games} games, NashConv {nc_s:.4f} sampled, "
            f"{nc_a:.4f} highest logit ({cpu:.0f} s CPU)")  # fmt: skip

    evaluate(0)
    it = 0
    budget = args.cpu_minutes * 60
    while it < args.iterations and time.process_time() - t0 < budget:
        it += 1
        ent = args.ent + (args.ent_end - args.ent) * it / args.iterations
        with torch.no_grad():
            lp_all = legal_logp(torch.arange(sim.n_info)).exp().double().numpy()
        ks, js, _, ret = sim.play(lp_all, args.games, rng)
        games += args.games
        k_t, j_t = torch.from_numpy(ks), torch.from_numpy(js)
        ret_t = torch.from_numpy(ret).float()
        with torch.no_grad():
            old = legal_logp(k_t).gather(1, j_t[:, None]).squeeze(1)
            anchor = legal_logp(k_t, magnet)
        n = len(ks)
        for _ in range(args.epochs):
            perm = torch.randperm(n)
            for s in range(0, n, args.minibatch):
                mb = perm[s : s + args.minibatch]
                lp = legal_logp(k_t[mb])
                new = lp.gather(1, j_t[mb, None]).squeeze(1)
                v = critic(x_all[k_t[mb]]).squeeze(1)
                adv = ret_t[mb] - v.detach()
                if args.norm_adv:
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = (new - old[mb]).exp()
                pg = -torch.min(ratio * adv, ratio.clamp(1 - args.clip, 1 + args.clip) * adv)
                keep = legal[k_t[mb]]
                entropy = -(lp.exp() * lp.masked_fill(~keep, 0.0)).sum(1)
                kl = (lp.exp() * (lp - anchor[mb]).masked_fill(~keep, 0.0)).sum(1)
                loss = (pg.mean() - ent * entropy.mean() + args.magnet * kl.mean()
                        + 0.5 * ((v - ret_t[mb]) ** 2).mean())  # fmt: skip
                optim.zero_grad()
                loss.backward()
                optim.step()
        if args.magnet and it % args.magnet_every == 0:
            magnet.load_state_dict(actor.state_dict())
        if it % args.eval_every == 0:
            evaluate(it)
    if not curve or curve[-1][0] != it:
        evaluate(it)
    final = export()
    final.save(out / "policy.npz")
    MLPPolicy(final.weights, final.scale, dict(final.meta, sample=False)).save(
        out / "policy-highest.npz"
    )
    summary = {"iterations": it, "stopped_early": it < args.iterations, "games": games, "cpu_seconds": round(time.process_time() - t0, 1),
               "wall_seconds": round(time.perf_counter() - w0, 1), "curve": curve}  # fmt: skip
    (out / "curve.json").write_text(json.dumps(summary) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"} | {"last": curve[-1]}))


# ------------------------------------------------------------------ evaluation


def cmd_eval(args: argparse.Namespace) -> None:
    import ono99.envs.policy  # noqa: F401 (registers policy:PATH)
    from ono99.arena import make_spec, run_tournament

    pol = MLPPolicy.load(args.policy)
    players = int(pol.meta.get("players", 2))
    sim = load_sim(args.cache and Path(args.cache), players)
    t = time.process_time()
    nc = sim.nash_conv(policy_probs(sim, pol, sample=bool(pol.meta.get("sample"))))
    nc_argmax = sim.nash_conv(policy_probs(sim, pol, sample=False))
    name = f"policy:{args.policy}"
    row: dict[str, Any] = {
        "bot": args.label or name, "nash_conv": nc, "exploitability": nc / players,
        "nash_conv_highest_logit": nc_argmax, "cpu_seconds": round(time.process_time() - t, 1),
    }  # fmt: skip
    against: dict[str, Any] = {}
    for other in args.against.split(","):
        spec = make_spec([name, other], rules="mini", players=players, games=args.games,
                         seed=args.seed)  # fmt: skip
        res = run_tournament(spec, workers=args.workers)
        pair = res["pairs"][0]
        assert (pair["a"], pair["b"]) == (name, other)
        result = {"games": res["games"], "win_rate": res["bots"][name]["win_rate"],
                  "win_ci95": res["bots"][name]["ci95"], "edge": pair["diff"],
                  "edge_ci95": pair["ci95"]}  # fmt: skip
        against[other] = result
        log(other, json.dumps(result))
        if other == "optimal":
            row.update(result)
    row["against"] = against
    print(json.dumps({"seed": args.seed, "games": args.games, "players": players,
                      "rows": [row]}))  # fmt: skip


def cmd_views(args: argparse.Namespace) -> None:
    """How many different vectors the policy can tell apart: the information states, the
    view keys (what ``optimal`` reads), the observation alone, the observation with the
    play order (with the legal actions: states with one vector but other legal actions
    are told apart by the mask)."""
    sim = load_sim(args.cache and Path(args.cache), args.players)
    plain = obs_size(args.players)

    def distinct(width: int) -> int:
        rows = {sim.obs[k, :width].tobytes() + sim.act[k].tobytes() for k in range(sim.n_info)}
        return len(rows)

    keys = {info.split("/", 1)[1] for info in sim.arr.infos}
    print(json.dumps({"information_states": sim.n_info, "view_keys": len(keys),
                      "observation": distinct(plain),
                      "observation_and_play_order": distinct(sim.obs.shape[1])}))  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    tr = sub.add_parser("train")
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--out", required=True)
    tr.add_argument("--players", type=int, default=2, choices=(2, 3))
    tr.add_argument("--play-order", type=int, default=PLAY_ORDER, choices=range(PLAY_ORDER + 1),
                    metavar="K", help="the last K cards played (0: the plain observation)")  # fmt: skip
    tr.add_argument("--cache", default="", help="the walked tree's file (default in /tmp)")
    tr.add_argument("--iterations", type=int, default=500)
    tr.add_argument("--cpu-minutes", type=float, default=15.0,
                    help="stop early past this much CPU (a cap; the run says if it stopped)")  # fmt: skip
    tr.add_argument("--games", type=int, default=2048, help="games a PPO iteration")
    tr.add_argument("--epochs", type=int, default=4)
    tr.add_argument("--minibatch", type=int, default=2048)
    tr.add_argument("--hidden", type=int, default=128)
    tr.add_argument("--lr", type=float, default=1e-3)
    tr.add_argument("--clip", type=float, default=0.2)
    tr.add_argument("--ent", type=float, default=0.05)
    tr.add_argument("--ent-end", type=float, default=0.005)
    tr.add_argument("--eval-every", type=int, default=25)
    tr.add_argument("--norm-adv", action=argparse.BooleanOptionalAction, default=True)
    tr.add_argument("--magnet", type=float, default=1.0,
                    help="weight of the KL to the magnet, a copy of the policy")  # fmt: skip
    tr.add_argument("--magnet-every", type=int, default=10,
                    help="iterations between the magnet's updates")  # fmt: skip
    ev = sub.add_parser("eval")
    ev.add_argument("policy")
    ev.add_argument("--label", default="")
    ev.add_argument("--cache", default="")
    ev.add_argument("--against", default="optimal,heuristic")
    ev.add_argument("--games", type=int, default=1000)
    ev.add_argument("--seed", type=int, default=37)
    ev.add_argument("--workers", type=int, default=1)
    vw = sub.add_parser("views")
    vw.add_argument("--players", type=int, default=2, choices=(2, 3))
    vw.add_argument("--cache", default="")
    args = ap.parse_args()
    {"train": cmd_train, "eval": cmd_eval, "views": cmd_views}[args.cmd](args)


if __name__ == "__main__":
    main()
