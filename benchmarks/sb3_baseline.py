"""A MaskablePPO baseline on ``sb3_vec_env``: train for a wall-time budget, export the policy
as a ``policy:PATH`` file, evaluate it in the arena (docs/learning.md "Baselines").

    pip install 'ono99[sb3]'
    python benchmarks/sb3_baseline.py --minutes 4 --seed 1 --out /tmp/ppo-heuristic.npz

Trains sb3-contrib's MaskablePPO (``MlpPolicy``, ReLU 64-64, SB3's other defaults but
``n_steps``) against ``--opponents`` in ``--players``-player games of ``--rules``, on the
batched simulator (``--n-envs`` rows), until ``--minutes`` of wall time have passed. The
curve (after every rollout: decisions so far, wall seconds, the learner's mean reward over
the games finished in that rollout) goes to stderr and into the JSON; the policy is saved
with :func:`ono99.envs.sb3.policy_from_sb3` and then plays ``--eval-games`` arena games
against ``--opponents`` (seats rotated, the arena's ``heuristic`` samples 24 worlds where
the simulator's compiled one samples 4). The last line of stdout is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="mattel2022")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="heuristic", help="the simulator's bots (heuristic)")
    ap.add_argument("--n-envs", type=int, default=64)
    ap.add_argument("--n-steps", type=int, default=64, help="rollout length per row (64)")
    ap.add_argument("--minutes", type=float, default=4.0, help="wall-time budget (4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--out", required=True, help="the policy file to write (.npz)")
    args = ap.parse_args(argv)

    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    import ono99.envs.policy  # noqa: F401  (registers policy:PATH for the arena)
    from ono99.arena import make_spec, run_tournament
    from ono99.envs.sb3 import RELU_POLICY, policy_from_sb3, sb3_vec_env

    torch.set_num_threads(1)
    env = sb3_vec_env(
        rules=args.rules, players=args.players, opponents=args.opponents, n_envs=args.n_envs,
        seed=args.seed,
    )  # fmt: skip
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=args.n_steps, seed=args.seed, device="cpu", verbose=0,
        policy_kwargs={**RELU_POLICY, "activation_fn": torch.nn.ReLU},
    )  # fmt: skip
    start = time.perf_counter()
    curve: list[dict[str, float]] = []

    class Curve(BaseCallback):
        def _on_rollout_start(self) -> None:
            self.finished: list[float] = []

        def _on_step(self) -> bool:
            done = self.locals["dones"]
            self.finished.extend(float(r) for r in self.locals["rewards"][done])
            return bool(time.perf_counter() - start < args.minutes * 60)

        def _on_rollout_end(self) -> None:
            point = {
                "decisions": float(self.num_timesteps),
                "seconds": round(time.perf_counter() - start, 1),
                "games": float(len(self.finished)),
                "mean_reward": float(np.mean(self.finished)) if self.finished else 0.0,
            }
            curve.append(point)
            print(json.dumps(point), file=sys.stderr, flush=True)

    model.learn(total_timesteps=10**12, callback=Curve())
    wall = time.perf_counter() - start
    meta: dict[str, Any] = {
        "rules": args.rules, "players": args.players, "trainer": "sb3-contrib MaskablePPO",
        "opponents": args.opponents, "seed": args.seed, "decisions": int(model.num_timesteps),
        "train_seconds": round(wall, 1),
    }  # fmt: skip
    policy_from_sb3(model, meta).save(args.out)
    spec = make_spec(
        [f"policy:{args.out}", args.opponents], args.players, args.rules, {}, args.eval_games,
        args.seed,
    )  # fmt: skip
    result = run_tournament(spec, workers=1)
    print(json.dumps({**meta, "curve": curve, "arena": result}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
