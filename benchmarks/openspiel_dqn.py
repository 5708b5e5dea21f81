"""OpenSpiel's DQN (``open_spiel.python.pytorch.dqn``) on ONO 99's OpenSpiel game, two
players learning by self-play; the Q-network exported as a ``policy:PATH`` file
(docs/baselines.md).

    pip install 'ono99[rl]' torch dm-tree matplotlib
    nice -n 15 python benchmarks/openspiel_dqn.py --seed 3803 --steps 1000000 \\
        --out benchmarks/results/baselines/dqn-selfplay-3803

The environment is OpenSpiel's ``rl_environment.Environment`` over ``python_ono99`` (the
module :mod:`ono99.envs.openspiel`) with ``observation_type=OBSERVATION``: an agent's
``info_state`` is the player's observation tensor, :func:`ono99.envs.encoding.encode` of its
view (the vector the other baselines read), divided here by the Box's largest magnitude.
Chance (the deal's seed bytes) is drawn by OpenSpiel's ``ChanceEventSampler(seed)``.

Two ``DQN`` agents (OpenSpiel's class unchanged: MLP ``--hidden`` with ReLU, Adam, a replay
buffer, an epsilon-greedy policy decaying linearly over the first ``--explore`` share of the
run, a target network) play each other, as in OpenSpiel's ``breakthrough_dqn.py`` example;
the seats they hold are swapped at random each game (a generator seeded by ``--seed``), so
each agent learns both seats. A transition is an agent's decision to its next decision
(the game's end included: reward +1 to the winner, -1 to the loser). ``--steps`` counts the
decisions of both agents.

Every ``--eval-every`` decisions (and at 0 and the end) agent 0's network, playing the legal
action of highest Q-value, is evaluated as ``benchmarks/train_ppo.py`` does it (fixed deals,
every seat, against each of ``--eval-opponents`` in the fast environment) and saved as
``DIR/policy.npz`` (an :class:`~ono99.envs.policy.MLPPolicy`: the Q-values are its logits);
``DIR`` gets ``config.json`` and ``curve.json`` in ``train_ppo.py``'s formats.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_ppo


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rules", default="mattel2022")
    ap.add_argument("--players", type=int, default=2, help="2 (two agents)")
    ap.add_argument("--steps", type=int, default=1_000_000, help="decisions of both agents")
    ap.add_argument("--hidden", default="128,128")
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--replay", type=int, default=100_000, help="replay buffer capacity")
    ap.add_argument("--learn-every", type=int, default=8)
    ap.add_argument("--target-every", type=int, default=1000)
    ap.add_argument("--explore", type=float, default=0.5, help="share of the run (0.5)")
    ap.add_argument("--epsilon-end", type=float, default=0.05)
    ap.add_argument("--seed", type=int, required=True, help="the run's seed (fix it before)")
    ap.add_argument("--eval-every", type=int, default=100_000)
    ap.add_argument("--eval-deals", type=int, default=500)
    ap.add_argument("--eval-seed", type=int, default=train_ppo.EVAL_SEED)
    ap.add_argument("--eval-opponents", default="heuristic,greedy,random")
    ap.add_argument("--out", type=Path, required=True, help="the run's folder")
    args = ap.parse_args(argv)
    if args.players != 2:
        ap.error("--players: two agents, 2 players")

    import numpy as np
    import torch
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    import ono99.envs.openspiel  # noqa: F401  (registers python_ono99)
    from ono99.envs.policy import MLPPolicy

    torch.set_num_threads(1)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    cfg = train_ppo.Config(
        seed=args.seed, rules=args.rules, players=2, opponents="self (two DQN agents)",
        steps=args.steps, lr=args.lr, hidden=hidden, eval_every=args.eval_every,
        eval_deals=args.eval_deals, eval_seed=args.eval_seed,
        eval_opponents=tuple(args.eval_opponents.split(",")),
    )  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    config = {**asdict(cfg), "trainer": "open_spiel.python.pytorch.dqn",
              "batch_size": args.batch_size, "replay": args.replay,
              "learn_every": args.learn_every, "target_every": args.target_every,
              "explore": args.explore, "epsilon_end": args.epsilon_end}  # fmt: skip
    (args.out / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    scale = train_ppo.obs_scale(cfg)

    env = rl_environment.Environment(
        f"python_ono99(players=2,rules={args.rules})",
        chance_event_sampler=rl_environment.ChanceEventSampler(seed=args.seed),
        observation_type=rl_environment.ObservationType.OBSERVATION,
    )  # fmt: skip
    size = env.observation_spec()["info_state"][0]
    assert size == scale.shape[0], (size, scale.shape)
    agents = [
        dqn.DQN(
            player_id=k,
            state_representation_size=size,
            num_actions=18,
            hidden_layers_sizes=hidden,
            batch_size=args.batch_size,
            replay_buffer_capacity=args.replay,
            learning_rate=args.lr,
            update_target_network_every=args.target_every,
            learn_every=args.learn_every,
            min_buffer_size_to_learn=1000,
            epsilon_start=1.0,
            epsilon_end=args.epsilon_end,
            epsilon_decay_duration=int(args.explore * args.steps / 2),
            epsilon_decay_schedule_str="linear",
            optimizer_str="adam",
            loss_str="mse",
            seed=args.seed * 10 + k,
        )
        for k in range(2)
    ]
    seats = random.Random(args.seed)

    def scaled(ts: Any) -> Any:
        obs = dict(ts.observations)
        obs["info_state"] = [np.asarray(x, np.float32) / scale for x in obs["info_state"]]
        return ts._replace(observations=obs)

    def export() -> MLPPolicy:
        linears = [m for m in agents[0]._q_network.modules() if isinstance(m, torch.nn.Linear)]
        weights = [
            (m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears
        ]
        meta = {"rules": args.rules, "players": 2, "options": {}, "obs_size": size,
                "trainer": "open_spiel.python.pytorch.dqn", "trained_against": "self",
                "seed": args.seed, "decisions": done}  # fmt: skip
        return MLPPolicy(weights, scale, meta)

    curve: list[dict[str, Any]] = []
    start = time.perf_counter()
    eval_s = 0.0
    done = 0
    games = 0
    returns: list[float] = []

    def checkpoint() -> None:
        nonlocal eval_s
        t0 = time.perf_counter()
        policy = export()
        evals = [
            train_ppo.evaluate(policy, cfg, opp, cfg.eval_deals, cfg.eval_seed)
            for opp in cfg.eval_opponents
        ]
        spent = time.perf_counter() - t0
        eval_s += spent
        wall = time.perf_counter() - start
        loss = agents[0].loss
        entry = {"steps": done, "train_seconds": round(wall - eval_s, 1),
                 "eval_seconds": round(spent, 1), "games": games,
                 "epsilon": round(float(agents[0].epsilon_schedule(agents[0]._iteration)), 4),
                 "loss": None if loss is None else round(float(loss), 5), "eval": evals}  # fmt: skip
        curve.append(entry)
        (args.out / "curve.json").write_text(json.dumps(curve, indent=1) + "\n")
        policy.save(args.out / "policy.npz")
        shown = ", ".join(f"{e['opponents']} {e['win_rate']:.3f}" for e in evals)
        print(f"[seed {args.seed}] {done:>8} steps {wall:6.0f} s: {shown}", file=sys.stderr,
              flush=True)  # fmt: skip

    checkpoint()
    next_eval = args.eval_every
    while done < args.steps:
        flip = seats.randrange(2)
        for k, agent in enumerate(agents):
            agent.player_id = (k + flip) % 2
        by_seat = {a.player_id: a for a in agents}
        ts = scaled(env.reset())
        while not ts.last():
            out = by_seat[ts.observations["current_player"]].step(ts)
            ts = scaled(env.step([out.action]))
            done += 1
        for agent in agents:
            agent.step(ts)
        games += 1
        returns.append(float(ts.rewards[agents[0].player_id]))
        if done >= next_eval:
            next_eval += args.eval_every
            checkpoint()
    if curve[-1]["steps"] != done:
        checkpoint()
    wall = time.perf_counter() - start
    print(f"[seed {args.seed}] done: {done} steps, {games} games, {wall:.0f} s in all "
          f"({eval_s:.0f} s evaluating)", file=sys.stderr)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
