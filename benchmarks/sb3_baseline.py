"""MaskablePPO baselines on ``sb3_vec_env``: against bots, or by self-play against the
learner's own snapshots; the policy exported as a ``policy:PATH`` file (docs/baselines.md).

    pip install 'ono99[sb3]' matplotlib
    nice -n 15 python benchmarks/sb3_baseline.py --seed 3801 --steps 600000 \\
        --opponents heuristic --out benchmarks/results/baselines/sb3-heuristic-3801
    nice -n 15 python benchmarks/sb3_baseline.py --seed 3802 --steps 600000 \\
        --opponents self --out benchmarks/results/baselines/sb3-selfplay-3802

Trains sb3-contrib's MaskablePPO (``MlpPolicy``, ReLU 64-64; rollouts of ``--n-steps`` per
row, minibatches of ``--batch-size``, ``--epochs`` epochs, SB3's other defaults) on one
:func:`ono99.envs.sb3_vec_env` per learner seat (``--n-envs`` rows each, concatenated: one
policy learns every seat), the observation divided by the Box's largest magnitude, until
``--steps`` learner decisions (or ``--minutes`` of wall time) have passed.

``--opponents``: the simulator's compiled bots (``heuristic``, ``greedy``, ``random``, a
comma list), or ``self``: self-play, the other seats played by a snapshot of the learner
(a :class:`~ono99.envs.policy.MLPPolicy`, evaluated batched inside the simulator's step,
``OpponentVecEnv``'s callable opponent). A snapshot is taken every ``--snapshot-every``
rollouts (the first one the untrained network); the last ``--pool`` snapshots are kept,
and every rollout the opponents play one of them, drawn from a generator seeded by
``--seed``.

Every ``--eval-every`` decisions (and at 0 and the end) the policy (highest logit) is
evaluated as ``benchmarks/train_ppo.py`` does it: ``--eval-deals`` fixed deals, every seat,
against each of ``--eval-opponents`` in the fast environment. ``--out DIR`` gets
``config.json``, ``curve.json`` and ``policy.npz`` in ``train_ppo.py``'s formats, so its
``plot`` and ``table`` commands read them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_ppo


def seats_vec_env(envs: list[Any], scale: Any) -> Any:
    """One SB3 ``VecEnv`` over ``envs`` (one ``SB3VecEnv`` per learner seat), rows
    concatenated, observations divided by ``scale``; ``action_masks()`` for MaskablePPO."""
    from stable_baselines3.common.vec_env import VecEnv

    class SeatsVecEnv(VecEnv):
        def __init__(self) -> None:
            self.envs = envs
            self.render_mode = None
            self.sizes = [e.num_envs for e in envs]
            super().__init__(sum(self.sizes), envs[0].observation_space, envs[0].action_space)

        def _split(self, rows: Any) -> list[Any]:
            return list(np.split(np.asarray(rows), np.cumsum(self.sizes)[:-1]))

        def reset(self) -> Any:
            self._reset_seeds()  # each seat's environment keeps its constructor's seed
            return np.concatenate([e.reset() for e in self.envs]) / scale

        def step_async(self, actions: Any) -> None:
            for e, a in zip(self.envs, self._split(actions), strict=True):
                e.step_async(a)

        def step_wait(self) -> Any:
            parts = [e.step_wait() for e in self.envs]
            obs = np.concatenate([p[0] for p in parts]) / scale
            rew = np.concatenate([p[1] for p in parts])
            done = np.concatenate([p[2] for p in parts])
            return obs, rew, done, [i for p in parts for i in p[3]]

        def action_masks(self) -> Any:
            return np.concatenate([e.action_masks() for e in self.envs])

        def close(self) -> None:
            for e in self.envs:
                e.close()

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            return [getattr(self, attr_name) for _ in self._get_indices(indices)]

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(self, attr_name, value)

        def env_method(self, method_name: str, *args: Any, indices: Any = None, **kw: Any) -> Any:
            rows = getattr(self, method_name)(*args, **kw)
            return [rows[i] for i in self._get_indices(indices)]

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False for _ in self._get_indices(indices)]

    return SeatsVecEnv()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", default="mattel2022")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="heuristic", help="compiled bots, or self")
    ap.add_argument("--n-envs", type=int, default=64, help="rows per learner seat (64)")
    ap.add_argument("--n-steps", type=int, default=64, help="rollout length per row (64)")
    ap.add_argument("--batch-size", type=int, default=1024)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--steps", type=int, default=600_000, help="learner decisions")
    ap.add_argument("--minutes", type=float, default=None, help="wall-time cap (none)")
    ap.add_argument("--snapshot-every", type=int, default=5, help="rollouts (self-play)")
    ap.add_argument("--pool", type=int, default=5, help="snapshots kept (self-play)")
    ap.add_argument("--seed", type=int, required=True, help="the run's seed (fix it before)")
    ap.add_argument("--eval-every", type=int, default=100_000)
    ap.add_argument("--eval-deals", type=int, default=500)
    ap.add_argument("--eval-seed", type=int, default=train_ppo.EVAL_SEED)
    ap.add_argument("--eval-opponents", default="heuristic,greedy,random")
    ap.add_argument("--out", type=Path, required=True, help="the run's folder")
    args = ap.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from ono99.envs.policy import MLPPolicy
    from ono99.envs.sb3 import RELU_POLICY, policy_from_sb3, sb3_vec_env

    torch.set_num_threads(1)
    self_play = args.opponents == "self"
    cfg = train_ppo.Config(
        seed=args.seed, rules=args.rules, players=args.players, opponents=args.opponents,
        steps=args.steps, rows=args.n_envs, rollout=args.n_steps, epochs=args.epochs,
        hidden=(64, 64), eval_every=args.eval_every, eval_deals=args.eval_deals,
        eval_seed=args.eval_seed, eval_opponents=tuple(args.eval_opponents.split(",")),
    )  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    config = {**asdict(cfg), "trainer": "sb3-contrib MaskablePPO",
              "batch_size": args.batch_size, "snapshot_every": args.snapshot_every,
              "pool": args.pool}  # fmt: skip
    (args.out / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    scale = train_ppo.obs_scale(cfg)

    # self-play: the opponents' network, swapped between rollouts
    pool: list[MLPPolicy] = []
    current: list[MLPPolicy] = []
    pick = random.Random(args.seed)

    def opponent(obs: Any, mask: Any) -> Any:
        return current[0].act(obs, mask)

    opponents: Any = opponent if self_play else args.opponents
    envs = [
        sb3_vec_env(
            args.rules,
            args.players,
            opponents,
            args.n_envs,
            seat=s,
            seed=args.seed * 10**10 + s * 10**9,
        )
        for s in range(args.players)
    ]
    env = seats_vec_env(envs, scale)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size,
        n_epochs=args.epochs, seed=args.seed, device="cpu", verbose=0,
        policy_kwargs={**RELU_POLICY, "activation_fn": torch.nn.ReLU},
    )  # fmt: skip

    def export() -> MLPPolicy:
        meta = {"rules": args.rules, "players": args.players, "options": {},
                "trainer": "sb3-contrib MaskablePPO", "trained_against": args.opponents,
                "seed": args.seed, "decisions": int(model.num_timesteps)}  # fmt: skip
        p = policy_from_sb3(model, meta)
        return MLPPolicy(p.weights, scale, p.meta)

    if self_play:
        pool.append(export())
        current.append(pool[0])
    start = time.perf_counter()
    curve: list[dict[str, Any]] = []
    eval_s = [0.0]
    next_eval = [0]
    rollouts = [0]

    def checkpoint(stats: dict[str, Any]) -> None:
        t0 = time.perf_counter()
        policy = export()
        evals = [
            train_ppo.evaluate(policy, cfg, opp, cfg.eval_deals, cfg.eval_seed)
            for opp in cfg.eval_opponents
        ]
        eval_s[0] += time.perf_counter() - t0
        wall = time.perf_counter() - start
        entry = {"steps": int(model.num_timesteps), "train_seconds": round(wall - eval_s[0], 1),
                 "eval_seconds": round(time.perf_counter() - t0, 1), **stats, "eval": evals}  # fmt: skip
        curve.append(entry)
        (args.out / "curve.json").write_text(json.dumps(curve, indent=1) + "\n")
        policy.save(args.out / "policy.npz")
        shown = ", ".join(f"{e['opponents']} {e['win_rate']:.3f}" for e in evals)
        print(f"[seed {args.seed}] {model.num_timesteps:>8} steps {wall:6.0f} s: {shown}",
              file=sys.stderr, flush=True)  # fmt: skip
        next_eval[0] += args.eval_every

    class Hooks(BaseCallback):
        def _on_rollout_start(self) -> None:
            self.finished: list[float] = []

        def _on_step(self) -> bool:
            done = self.locals["dones"]
            self.finished.extend(float(r) for r in self.locals["rewards"][done])
            over = args.minutes is not None and time.perf_counter() - start > args.minutes * 60
            return not over

        def _on_rollout_end(self) -> None:
            rollouts[0] += 1
            if self_play and rollouts[0] % args.snapshot_every == 0:
                pool.append(export())
                del pool[: -args.pool]
            if self_play:
                current[0] = pick.choice(pool)
            if model.num_timesteps >= next_eval[0]:
                reward = float(np.mean(self.finished)) if self.finished else 0.0
                checkpoint({"train_reward": round(reward, 5)})

    checkpoint({})
    model.learn(total_timesteps=args.steps, callback=Hooks())
    if curve[-1]["steps"] != model.num_timesteps:
        checkpoint({})
    wall = time.perf_counter() - start
    print(f"[seed {args.seed}] done: {model.num_timesteps} steps, {wall:.0f} s in all "
          f"({eval_s[0]:.0f} s evaluating)", file=sys.stderr)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
