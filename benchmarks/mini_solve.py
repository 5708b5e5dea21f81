#!/usr/bin/env python3
"""Solve the research variant ``mini`` and measure every bot against optimal play (issue 37).

    python benchmarks/mini_solve.py size                       # the game tree, counted
    python benchmarks/mini_solve.py solve --iterations 200     # CFR+ -> the optimal bot's table
    python benchmarks/mini_solve.py check                      # its NashConv, OpenSpiel's Python
    python benchmarks/mini_solve.py bots --bots greedy,heuristic --games 1000 > greedy.json
    python benchmarks/mini_solve.py table greedy.json ...      # the docs/mini.md table

``size`` walks ``python_ono99(rules=mini)`` (``ono99.envs.openspiel``, chance = the cards):
histories, terminal histories, information states of each player, view keys.

``solve`` walks the whole tree once through the python game and runs CFR+ (regret
matching+, alternating updates, linearly weighted average) vectorized with numpy over it;
every ``--every`` iterations the exact NashConv of the average (a best response computed on
the same arrays, which gives OpenSpiel's ``exploitability.nash_conv`` to the last digit on
the uniform policy and on CFR+ policies). ``--openspiel-cfr N`` also times N iterations of
OpenSpiel's own C++ ``CFRPlusSolver`` on the same tree (written as a Gambit EFG file and
loaded with ``pyspiel.load_efg_game``): about as fast per iteration; OpenSpiel's Python CFR
on the python game walks the tree in Python every iteration (minutes each here). The average
policy is then keyed by what the ``optimal`` bot sees, ``view_key`` of its view (its seat,
its hand, the cards played): the information states with one view key (they differ only in
the order the player drew its cards, which tells nothing about the other's) are averaged,
weighted by how often the policy reaches each. The table
(``src/ono99/bots/data/mini_optimal.json.gz``) holds each view key's action probabilities,
the exact value of each action there (the player's expected return, +1 win / -1 loss,
against the table's own play, given the view: counterfactual values averaged over the
histories the view allows, weighted by their chance and the other player's reach), the
CFR+ curve and the table's own NashConv; ``check`` adds OpenSpiel's Python ``nash_conv`` of
the table on the python game (the independent check's algorithm).

``bots`` wraps each bot as an OpenSpiel policy of the python game: at an information state
the bot is shown that player's view at each of its decisions so far, in order (one bot,
seeded once, as in a game), and its answer there is the policy's one action (the random
bot: each legal action alike). Its exploitability is NashConv / 2, by OpenSpiel's Python
``nash_conv`` (the best response exact; the random bot's on the arrays, the same number).
Then the arena: the bot against ``optimal``, seats rotated, deals from ``--seed`` (fixed
before the run); its win rate and its paired edge (its win share minus optimal's per deal).
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import sys
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import exploitability

import ono99.envs.openspiel  # registers python_ono99
import ono99.envs.policy  # noqa: F401 (registers the bot policy:PATH)
from ono99.bots import Bot, make_bot, register_param
from ono99.bots.evaluate import DEFAULT_SAMPLES, evaluate
from ono99.bots.optimal import TABLE_PATH
from ono99.cards import action_code, parse_action

ROOT = Path(__file__).resolve().parent.parent


def load_mini(players: int = 2) -> Any:
    return pyspiel.load_game("python_ono99", {"rules": "mini", "players": players})


def log(*args: Any) -> None:
    print(*args, file=sys.stderr, flush=True)


# ------------------------------------------------------------------ the tree


class Tree:
    """The game tree in preorder: each node's kind (``c`` chance, ``p`` player, ``t``
    terminal), its player and information state, its children ``(action, probability or
    None, index)``, and at a terminal player 0's return."""

    def __init__(self) -> None:
        self.kind: list[str] = []
        self.player: list[int] = []
        self.info: list[str] = []
        self.children: list[list[tuple[int, Fraction | None, int]]] = []
        self.value: list[float] = []
        #: at a terminal, every player's return (the value above is player 0's)
        self.returns: dict[int, list[float]] = {}

    def add(self, state: Any) -> int:
        i = len(self.kind)
        self.children.append([])
        self.value.append(0.0)
        if state.is_terminal():
            self.kind.append("t")
            self.player.append(-1)
            self.info.append("")
            self.value[i] = state.returns()[0]
            self.returns[i] = list(state.returns())
            return i
        if state.is_chance_node():
            self.kind.append("c")
            self.player.append(-1)
            self.info.append("")
            for action, p in state.chance_outcomes():
                child = self.add(state.child(action))
                self.children[i].append((action, Fraction(p).limit_denominator(1000), child))
            return i
        self.kind.append("p")
        self.player.append(state.current_player())
        self.info.append(state.information_state_string())
        for action in state.legal_actions():
            self.children[i].append((action, None, self.add(state.child(action))))
        return i

    def __len__(self) -> int:
        return len(self.kind)


def build_tree(game: Any) -> Tree:
    tree = Tree()
    sys.setrecursionlimit(10_000)
    tree.add(game.new_initial_state())
    return tree


def to_efg(tree: Tree) -> tuple[str, dict[str, int]]:
    """The tree as a Gambit EFG file, and each information state's number (per player)."""
    numbers: list[dict[str, int]] = [{}, {}]
    lines = ['EFG 2 R "ONO 99 mini" { "Player 1" "Player 2" }', ""]
    chance = outcome = 0
    for i, kind in enumerate(tree.kind):
        if kind == "t":
            outcome += 1
            v = tree.value[i]
            lines.append(f't "" {outcome} "" {{ {v!r} {-v!r} }}')
        elif kind == "c":
            chance += 1
            outs = " ".join(f'"{action_code(a)}" {p}' for a, p, _ in tree.children[i])
            lines.append(f'c "" {chance} "" {{ {outs} }} 0')
        else:
            p = tree.player[i]
            number = numbers[p].setdefault(tree.info[i], len(numbers[p]) + 1)
            acts = " ".join(f'"{action_code(a)}"' for a, _, _ in tree.children[i])
            lines.append(f'p "" {p + 1} {number} "{tree.info[i]}" {{ {acts} }} 0')
    return "\n".join(lines) + "\n", {k: v for d in numbers for k, v in d.items()}


# ------------------------------------------------------------------ CFR+ on arrays


class Arrays:
    """The tree as numpy arrays for vectorized CFR+ and best response: each node's parent,
    depth, the probability of the chance outcome that leads to it, and for a child of a
    decision node its slot ``ia`` in the flat (information state, action) table."""

    def __init__(self, tree: Tree) -> None:
        n = len(tree)
        self.n = n
        self.parent = np.full(n, -1, np.int64)
        self.chance_p = np.ones(n)
        self.ia = np.full(n, -1, np.int64)  # the (information state, action) slot
        self.mover = np.full(n, -1, np.int64)  # the player whose action leads here
        self.terminal = np.array([k == "t" for k in tree.kind])
        self.value0 = np.array(tree.value)
        self.infos: list[str] = []
        self.info_player: list[int] = []
        self.actions: list[list[int]] = []
        index: dict[str, int] = {}
        depth = np.zeros(n, np.int64)
        self.node_info = np.full(n, -1, np.int64)
        for i in range(n):
            kids = tree.children[i]
            if tree.kind[i] == "p":
                info = tree.info[i]
                k = index.get(info)
                if k is None:
                    k = index[info] = len(self.infos)
                    self.infos.append(info)
                    self.info_player.append(tree.player[i])
                    self.actions.append([a for a, _, _ in kids])
                self.node_info[i] = k
            for slot, (_, p, c) in enumerate(kids):
                self.parent[c] = i
                depth[c] = depth[i] + 1
                if tree.kind[i] == "c":
                    self.chance_p[c] = float(p or 0)
                else:
                    self.mover[c] = tree.player[i]
                    self.ia[c] = slot  # made flat below
        sizes = np.array([len(a) for a in self.actions], np.int64)
        self.offset = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.n_ia = int(sizes.sum())
        self.ia_info = np.repeat(np.arange(len(self.actions)), sizes)
        has = self.mover >= 0
        self.ia[has] += self.offset[self.node_info[self.parent[has]]]
        self.levels = [np.flatnonzero(depth == d) for d in range(1, int(depth.max()) + 1)]
        self.ia_player = np.array(self.info_player, np.int64)[self.ia_info]

    def normalize(self, weights: Any) -> Any:
        """Per information state, ``weights`` made a distribution (uniform where all 0)."""
        total = np.bincount(self.ia_info, weights=weights, minlength=len(self.actions))
        sizes = np.bincount(self.ia_info, minlength=len(self.actions))
        t = total[self.ia_info]
        return np.where(t > 0, weights / np.where(t > 0, t, 1.0), 1.0 / sizes[self.ia_info])

    def reach(self, sigma: Any) -> tuple[Any, Any, Any]:
        """Each node's reach by player 0's actions, player 1's, and chance."""
        r = [np.ones(self.n), np.ones(self.n), np.ones(self.n)]
        mult = [np.ones(self.n), np.ones(self.n)]
        for p in (0, 1):
            m = self.mover == p
            mult[p][m] = sigma[self.ia[m]]
        for level in self.levels:
            par = self.parent[level]
            r[0][level] = r[0][par] * mult[0][level]
            r[1][level] = r[1][par] * mult[1][level]
            r[2][level] = r[2][par] * self.chance_p[level]
        return r[0], r[1], r[2]

    def values(self, sigma: Any) -> Any:
        """Each node's value to player 0 when both play ``sigma``."""
        w = np.where(self.mover >= 0, sigma[np.maximum(self.ia, 0)], self.chance_p)
        v = np.where(self.terminal, self.value0, 0.0)
        for level in reversed(self.levels):
            par = self.parent[level]
            acc = np.bincount(par, weights=w[level] * v[level], minlength=self.n)
            v[np.unique(par)] = acc[np.unique(par)]
        return v

    def best_response_value(self, sigma: Any, br: int) -> float:
        """The value to player ``br`` of its best response to ``sigma`` (exact: every
        history of an information state lies at the same depth)."""
        r0, r1, rc = self.reach(sigma)
        cf = (r1 if br == 0 else r0) * rc  # the others' and chance's reach
        sign = 1.0 if br == 0 else -1.0
        v = np.where(self.terminal, sign * self.value0, 0.0)
        w = np.where(self.mover >= 0, sigma[np.maximum(self.ia, 0)], self.chance_p)
        for level in reversed(self.levels):
            par = self.parent[level]
            ups = np.unique(par)
            br_kids = self.mover[level] == br
            # the best responder's nodes: pick, per information state, the action whose
            # counterfactual value summed over the state's histories is highest
            kids = level[br_kids]
            if len(kids):
                q = np.bincount(self.ia[kids], weights=cf[self.parent[kids]] * v[kids],
                                minlength=self.n_ia)  # fmt: skip
                best = np.full(len(self.actions), -np.inf)
                np.maximum.at(best, self.ia_info, np.where(self.ia_player == br, q, -np.inf))
                # ties: the first action of the best value
                chosen = np.zeros(self.n_ia, bool)
                is_best = (q == best[self.ia_info]) & (self.ia_player == br)
                first = np.full(len(self.actions), -1, np.int64)
                idx = np.flatnonzero(is_best)[::-1]
                first[self.ia_info[idx]] = idx
                chosen[first[first >= 0]] = True
                wk = np.where(br_kids, chosen[np.maximum(self.ia[level], 0)], w[level])
            else:
                wk = w[level]
            acc = np.bincount(par, weights=wk * v[level], minlength=self.n)
            v[ups] = acc[ups]
        return float(v[0])

    def nash_conv(self, sigma: Any) -> float:
        return self.best_response_value(sigma, 0) + self.best_response_value(sigma, 1)


class ArraysN(Arrays):
    """:class:`Arrays` for any number of players (3 in the larger variant): every
    player's return at the terminals, reach per player, the exact best response of each
    player, NashConv as the sum of what each gains by its best response, and CFR+."""

    def __init__(self, tree: Tree) -> None:
        super().__init__(tree)
        self.players = max(self.info_player) + 1
        self.ret = np.zeros((self.n, self.players))
        for i, r in tree.returns.items():
            self.ret[i] = r

    def reach_all(self, sigma: Any) -> Any:
        """Each node's reach by each player's actions (rows 0..P-1) and by chance (row P)."""
        players = self.players
        mult = np.ones((players, self.n))
        for p in range(players):
            m = self.mover == p
            mult[p][m] = sigma[self.ia[m]]
        r = np.ones((players + 1, self.n))
        for level in self.levels:
            par = self.parent[level]
            r[:players, level] = r[:players, par] * mult[:, level]
            r[players, level] = r[players, par] * self.chance_p[level]
        return r

    def values_of(self, sigma: Any, p: int) -> Any:
        """Each node's value to player ``p`` when all play ``sigma``."""
        w = np.where(self.mover >= 0, sigma[np.maximum(self.ia, 0)], self.chance_p)
        v = np.where(self.terminal, self.ret[:, p], 0.0)
        for level in reversed(self.levels):
            par = self.parent[level]
            ups = np.unique(par)
            acc = np.bincount(par, weights=w[level] * v[level], minlength=self.n)
            v[ups] = acc[ups]
        return v

    def cf_reach(self, r: Any, p: int) -> Any:
        """The reach of everyone but ``p`` (the others' actions and chance)."""
        return np.prod(np.delete(r, p, axis=0), axis=0)

    def br_value(self, sigma: Any, br: int) -> float:
        """The value to player ``br`` of its exact best response to the others' ``sigma``
        (as :meth:`Arrays.best_response_value`, with ``br``'s own returns)."""
        cf = self.cf_reach(self.reach_all(sigma), br)
        v = np.where(self.terminal, self.ret[:, br], 0.0)
        w = np.where(self.mover >= 0, sigma[np.maximum(self.ia, 0)], self.chance_p)
        mine = self.ia_player == br
        for level in reversed(self.levels):
            par = self.parent[level]
            ups = np.unique(par)
            br_kids = self.mover[level] == br
            kids = level[br_kids]
            wk = w[level]
            if len(kids):
                q = np.bincount(self.ia[kids], weights=cf[self.parent[kids]] * v[kids],
                                minlength=self.n_ia)  # fmt: skip
                best = np.full(len(self.actions), -np.inf)
                np.maximum.at(best, self.ia_info, np.where(mine, q, -np.inf))
                is_best = (q == best[self.ia_info]) & mine
                first = np.full(len(self.actions), -1, np.int64)
                idx = np.flatnonzero(is_best)[::-1]
                first[self.ia_info[idx]] = idx
                chosen = np.zeros(self.n_ia, bool)
                chosen[first[first >= 0]] = True
                wk = np.where(br_kids, chosen[np.maximum(self.ia[level], 0)], w[level])
            acc = np.bincount(par, weights=wk * v[level], minlength=self.n)
            v[ups] = acc[ups]
        return float(v[0])

    def nash_conv_n(self, sigma: Any) -> float:
        """Sum over the players of what a best response gains over ``sigma``'s value."""
        return sum(
            self.br_value(sigma, p) - float(self.values_of(sigma, p)[0])
            for p in range(self.players)
        )

    def cfr_plus(self, iterations: int, every: int) -> tuple[Any, list[Any]]:
        """CFR+ as :func:`cfr_plus`, for any number of players (with three it has no
        guarantee of reaching an equilibrium: it is one approximate method)."""
        regret = np.zeros(self.n_ia)
        avg = np.zeros(self.n_ia)
        curve: list[Any] = []
        t0 = time.process_time()
        nodes = np.flatnonzero(self.node_info >= 0)
        for t in range(1, iterations + 1):
            for p in range(self.players):
                sigma = self.normalize(regret)
                r = self.reach_all(sigma)
                v = self.values_of(sigma, p)
                kids = np.flatnonzero(self.mover == p)
                par = self.parent[kids]
                cf = self.cf_reach(r, p)[par]
                inst = np.bincount(self.ia[kids], weights=cf * (v[kids] - v[par]),
                                   minlength=self.n_ia)  # fmt: skip
                mine = self.ia_player == p
                regret = np.where(mine, np.maximum(regret + inst, 0.0), regret)
                reach_info = np.zeros(len(self.actions))
                reach_info[self.node_info[nodes]] = r[p][nodes]
                avg = np.where(mine, avg + t * reach_info[self.ia_info] * sigma, avg)
            if t % every == 0 or t == iterations:
                nc = self.nash_conv_n(self.normalize(avg))
                cpu = time.process_time() - t0
                curve.append([t, nc, round(cpu, 1)])
                log(f"CFR+ iteration {t}: NashConv {nc:.6f} ({cpu:.0f} s CPU)")
        return self.normalize(avg), curve


def cfr_plus(arr: Arrays, iterations: int, every: int) -> tuple[Any, list[Any]]:
    """CFR+ (regret matching+, alternating updates, linearly weighted average), vectorized
    over the whole tree; the NashConv of the average every ``every`` iterations."""
    regret = np.zeros(arr.n_ia)
    avg = np.zeros(arr.n_ia)
    curve: list[Any] = []
    t0 = time.process_time()
    for t in range(1, iterations + 1):
        for p in (0, 1):
            sigma = arr.normalize(regret)
            r0, r1, rc = arr.reach(sigma)
            v = arr.values(sigma)
            sign = 1.0 if p == 0 else -1.0
            kids = np.flatnonzero(arr.mover == p)
            par = arr.parent[kids]
            cf = (r1 if p == 0 else r0)[par] * rc[par]
            inst = np.bincount(arr.ia[kids], weights=cf * sign * (v[kids] - v[par]),
                               minlength=arr.n_ia)  # fmt: skip
            mine = arr.ia_player == p
            regret = np.where(mine, np.maximum(regret + inst, 0.0), regret)
            own = r0 if p == 0 else r1
            reach_info = np.zeros(len(arr.actions))
            nodes = np.flatnonzero(arr.node_info >= 0)
            reach_info[arr.node_info[nodes]] = own[nodes]
            avg = np.where(mine, avg + t * reach_info[arr.ia_info] * sigma, avg)
        if t % every == 0 or t == iterations:
            nc = arr.nash_conv(arr.normalize(avg))
            cpu = time.process_time() - t0
            curve.append([t, nc, round(cpu, 1)])
            log(f"CFR+ iteration {t}: NashConv {nc:.6f} ({cpu:.0f} s CPU)")
    return arr.normalize(avg), curve


# ------------------------------------------------------------------ policies


class TablePolicy(os_policy.Policy):  # type: ignore[misc]
    """``{information state: {action: p}}`` (information states or view keys) as an
    OpenSpiel policy of the python game; only the actions with p > 0 are listed, so
    OpenSpiel's best response walks only the histories the policy can reach."""

    def __init__(self, game: Any, table: dict[str, dict[int, float]], by_view: bool) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.table = table
        self.by_view = by_view

    def action_probabilities(self, state: Any, player_id: Any = None) -> dict[int, float]:
        info = state.information_state_string()
        probs = self.table[info.split("/", 1)[1] if self.by_view else info]
        return {a: p for a, p in probs.items() if p > 0}


class EvaluatorBot(Bot):
    """The review's evaluator (issue 36) as a player: the action it values highest, from
    ``samples`` worlds read from the others' plays since its own last decision, seeded
    ``seed`` (``ono99 review``'s default is 200 worlds; ``evaluator:N`` plays N)."""

    name = "evaluator"

    def __init__(self, seed: int = 0, samples: int = DEFAULT_SAMPLES) -> None:
        self.seed = seed
        self.samples = samples
        self.previous: tuple[Any, int] | None = None

    def act(self, view: Any) -> int:
        best = evaluate(view, self.samples, self.seed, self.previous).best.action
        self.previous = (view, best)
        return best


def register_evaluator() -> None:
    """Let the arena play it by name too, ``evaluator:N`` with N worlds a decision (its
    worker processes are forked from this one). Called by ``bots`` only: registered at
    import, the name would join every bot list of a process that imports this script (the
    tests do), the help and the unknown-bot message among them."""
    register_param("evaluator", listed=False)(lambda seed, n: EvaluatorBot(seed, int(n)))


class BotPolicy(os_policy.Policy):  # type: ignore[misc]
    """A bot as an OpenSpiel policy of the python game: the bot (seeded ``seed``) is shown
    the player's view at each of its decisions so far, in order, and its last answer is the
    policy's action (the random bot: uniform over the legal actions). Each information
    state is asked once: the bot as it was after each earlier one is kept (a copy)."""

    def __init__(self, game: Any, name: str, seed: int = 0) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.game = game
        self.name = name
        self.seed = seed
        #: information state -> (the bot's action there, the bot after acting)
        self.cache: dict[str, tuple[int, Any]] = {}
        self.calls = 0

    def action_probabilities(self, state: Any, player_id: Any = None) -> dict[int, float]:
        legal = state.legal_actions()
        if self.name == "random":
            return {a: 1.0 / len(legal) for a in legal}
        return {self._act(state): 1.0}

    def _act(self, state: Any) -> int:
        info = state.information_state_string()
        hit = self.cache.get(info)
        if hit is not None:
            return hit[0]
        me = state.current_player()
        bot = make_bot(self.name, self.seed)
        replay = self.game.new_initial_state()
        for a in [*state.history(), None]:
            if not replay.is_chance_node() and replay.current_player() == me:
                key = replay.information_state_string()
                hit = self.cache.get(key)
                if hit is None:
                    bot = copy.deepcopy(bot)
                    hit = self.cache[key] = (bot.act(replay.engine.view(me)), bot)
                    self.calls += 1
                bot = hit[1]
            if a is None:
                break
            replay.apply_action(a)
        return self.cache[info][0]


def nash_conv(game: Any, policy: os_policy.Policy) -> tuple[float, float]:
    """OpenSpiel's Python NashConv of ``policy`` and the seconds it took."""
    t = time.perf_counter()
    value = float(exploitability.nash_conv(game, policy))
    return value, time.perf_counter() - t


# ------------------------------------------------------------------ commands


def cmd_size(args: argparse.Namespace) -> None:
    t = time.perf_counter()
    tree = build_tree(load_mini(args.players))
    seconds = time.perf_counter() - t
    seats = range(args.players)
    infos = [{tree.info[i] for i in range(len(tree)) if tree.player[i] == p} for p in seats]
    views = {k.split("/", 1)[1] for s in infos for k in s}
    print(json.dumps({
        "histories": len(tree), "terminal": tree.kind.count("t"),
        "chance_nodes": tree.kind.count("c"), "decision_nodes": tree.kind.count("p"),
        "information_states": [len(s) for s in infos], "view_keys": len(views),
        "walk_seconds": round(seconds, 1),
    }))  # fmt: skip


def reach_and_values(
    tree: Tree, policy: dict[str, dict[int, float]]
) -> tuple[dict[str, float], dict[str, dict[int, float]], dict[str, float]]:
    """Under ``policy`` for both players: each information state's reach probability, the
    counterfactual value of each of its actions to its player (the expected return given
    the information state, averaged over the histories in it by their chance and
    other-player reach), and that weight's sum."""
    n = len(tree)
    reach = [0.0] * n
    own = [[1.0, 1.0] for _ in range(n)]
    reach[0] = 1.0
    chance = [1.0] * n
    for i in range(n):  # preorder: parents first
        kind = tree.kind[i]
        for a, p, c in tree.children[i]:
            if kind == "c":
                q = float(p or 0)
                reach[c] = reach[i] * q
                chance[c] = chance[i] * q
                own[c] = own[i][:]
            else:
                q = policy[tree.info[i]].get(a, 0.0)
                reach[c] = reach[i] * q
                chance[c] = chance[i]
                own[c] = own[i][:]
                own[c][tree.player[i]] *= q
    value = [0.0] * n
    for i in range(n - 1, -1, -1):  # children before parents
        kind = tree.kind[i]
        if kind == "t":
            value[i] = tree.value[i]
        elif kind == "c":
            value[i] = sum(float(p or 0) * value[c] for _, p, c in tree.children[i])
        else:
            probs = policy[tree.info[i]]
            value[i] = sum(probs.get(a, 0.0) * value[c] for a, _, c in tree.children[i])
    info_reach: dict[str, float] = defaultdict(float)
    weight: dict[str, float] = defaultdict(float)
    q_sum: dict[str, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    for i in range(n):
        if tree.kind[i] != "p":
            continue
        mover = tree.player[i]
        w = chance[i] * own[i][1 - mover]
        info = tree.info[i]
        info_reach[info] += reach[i]
        weight[info] += w
        sign = 1.0 if mover == 0 else -1.0
        for a, _, c in tree.children[i]:
            q_sum[info][a] += w * sign * value[c]
    values = {
        info: {a: (s / weight[info] if weight[info] > 0 else 0.0) for a, s in qs.items()}
        for info, qs in q_sum.items()
    }
    return dict(info_reach), values, dict(weight)


def by_view(
    policy: dict[str, dict[int, float]],
    reach: dict[str, float],
    values: dict[str, dict[int, float]],
    weight: dict[str, float],
) -> tuple[dict[str, dict[int, float]], dict[str, dict[int, float]]]:
    """The information states' policies and values averaged per view key (the policy
    weighted by reach, the values by counterfactual weight; an unreached key: the plain
    average)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for info in policy:
        groups[info.split("/", 1)[1]].append(info)
    out_p: dict[str, dict[int, float]] = {}
    out_v: dict[str, dict[int, float]] = {}
    for key, infos in groups.items():
        rw = [reach.get(i, 0.0) for i in infos]
        if sum(rw) <= 0:
            rw = [1.0] * len(infos)
        total = sum(rw)
        actions = policy[infos[0]]
        out_p[key] = {
            a: sum(w * policy[i].get(a, 0.0) for w, i in zip(rw, infos, strict=True)) / total
            for a in actions
        }
        vw = [weight.get(i, 0.0) for i in infos]
        if sum(vw) <= 0:
            vw = [1.0] * len(infos)
        vt = sum(vw)
        out_v[key] = {
            a: sum(w * values[i][a] for w, i in zip(vw, infos, strict=True)) / vt for a in actions
        }
    return out_p, out_v


def cmd_solve(args: argparse.Namespace) -> None:
    game = load_mini()
    t0 = time.process_time()
    tree = build_tree(game)
    arr = Arrays(tree)
    log(f"tree: {len(tree)} histories, {len(arr.infos)} information states, "
        f"{time.process_time() - t0:.0f} s CPU")  # fmt: skip
    if args.openspiel_cfr:
        log(openspiel_cfr_cost(tree, args.openspiel_cfr))
    sigma, curve = cfr_plus(arr, args.iterations, args.every)
    pr_policy = {
        info: {a: float(sigma[arr.offset[k] + j]) for j, a in enumerate(arr.actions[k])}
        for k, info in enumerate(arr.infos)
    }
    reach, _, _ = reach_and_values(tree, pr_policy)
    table, _ = by_view(pr_policy, reach, {i: dict.fromkeys(v, 0.0) for i, v in pr_policy.items()},
                       {})  # fmt: skip
    # the values are those of the table shipped (by view key), played by both players
    shipped = {info: table[info.split("/", 1)[1]] for info in pr_policy}
    reach2, q, w = reach_and_values(tree, shipped)
    table, values = by_view(shipped, reach2, q, w)
    flat = np.array([shipped[info][a] for k, info in enumerate(arr.infos) for a in arr.actions[k]])
    nc_arrays = arr.nash_conv(flat)
    log(f"the table by view key: NashConv {nc_arrays:.6f} (the arrays' exact best response)")
    data = {
        "game": "python_ono99(rules=mini)",
        "solver": "CFR+ (regret matching+, alternating updates, linear averaging), "
        "vectorized over the tree of the python game (benchmarks/mini_solve.py)",
        "iterations": args.iterations,
        "curve": curve,
        "nash_conv_average_policy": curve[-1][1],
        "nash_conv": nc_arrays,
        "nash_conv_openspiel": None,  # filled in by the check command
        "policy": {
            k: {action_code(a): round(p, 6) for a, p in sorted(v.items())}
            for k, v in sorted(table.items())
        },
        "values": {
            k: {action_code(a): round(x, 6) for a, x in sorted(v.items())}
            for k, v in sorted(values.items())
        },
    }
    out = Path(args.out)
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(data, f, separators=(",", ":"), sort_keys=True)
    log(f"wrote {out} ({out.stat().st_size} bytes)")
    keep = ("iterations", "curve", "nash_conv_average_policy", "nash_conv")
    print(json.dumps({k: data[k] for k in keep}))


def cmd_check(args: argparse.Namespace) -> None:
    """OpenSpiel's Python ``nash_conv`` of the shipped table on the python game (the
    independent check's algorithm), written into the table beside the solver's own."""
    from ono99.bots.optimal import load_table

    game = load_mini()
    data = load_table()
    probs = {k: {parse_action(c): p for c, p in v.items()} for k, v in data["policy"].items()}
    t = time.process_time()
    nc, seconds = nash_conv(game, TablePolicy(game, probs, by_view=True))
    log(f"the table: NashConv {nc:.6f} (OpenSpiel Python, {time.process_time() - t:.0f} s CPU, "
        f"{seconds:.0f} s wall)")  # fmt: skip
    data = dict(data, nash_conv_openspiel=nc)
    out = Path(args.out)
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(data, f, separators=(",", ":"), sort_keys=True)
    print(json.dumps({"nash_conv": data["nash_conv"], "nash_conv_openspiel": nc}))


def openspiel_cfr_cost(tree: Tree, iterations: int) -> str:
    """What OpenSpiel's own C++ CFR+ costs here: the tree as an EFG file, loaded with
    ``pyspiel.load_efg_game``, a few iterations of ``pyspiel.CFRPlusSolver`` timed (CPU)."""
    t = time.process_time()
    text, _ = to_efg(tree)
    efg = pyspiel.load_efg_game(text)
    load = time.process_time() - t
    solver = pyspiel.CFRPlusSolver(efg)
    t = time.process_time()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    per = (time.process_time() - t) / iterations
    return (f"OpenSpiel C++ CFRPlusSolver on the EFG: loading {load:.0f} s CPU, "
            f"{per:.1f} s CPU per iteration")  # fmt: skip


def cmd_bots(args: argparse.Namespace) -> None:
    from ono99.arena import make_spec, run_tournament
    from ono99.bots.optimal import load_table

    register_evaluator()

    game = load_mini(args.players)
    rows: list[dict[str, Any]] = []
    for name in args.bots.split(","):
        t = time.process_time()
        if name == "optimal":
            probs = {k: {parse_action(c): p for c, p in v.items()}
                     for k, v in load_table()["policy"].items()}  # fmt: skip
            policy: os_policy.Policy = TablePolicy(game, probs, by_view=True)
        else:
            policy = BotPolicy(game, name, args.seed)
        if name == "random" and args.players == 2:
            # uniform over the legal actions: the whole tree, so the arrays' exact best
            # response (OpenSpiel's Python nash_conv gives the same 79/90, minutes slower)
            w0 = time.perf_counter()
            arr = Arrays(build_tree(game))
            nc, seconds = arr.nash_conv(arr.normalize(np.zeros(arr.n_ia))), 0.0
            seconds = time.perf_counter() - w0
        else:
            nc, seconds = nash_conv(game, policy)
        row: dict[str, Any] = {
            "bot": name, "nash_conv": nc, "exploitability": nc / args.players,
            "cpu_seconds": round(time.process_time() - t, 1), "wall_seconds": round(seconds, 1),
            "bot_calls": getattr(policy, "calls", 0),
        }  # fmt: skip
        if name != "optimal" and args.games and args.players == 2:
            spec = make_spec([name, "optimal"], rules="mini", players=2, games=args.games,
                             seed=args.seed)  # fmt: skip
            res = run_tournament(spec, workers=args.workers)
            pair = res["pairs"][0]
            assert (pair["a"], pair["b"]) == (name, "optimal")
            row.update(games=res["games"], win_rate=res["bots"][name]["win_rate"],
                       win_ci95=res["bots"][name]["ci95"], edge=pair["diff"],
                       edge_ci95=pair["ci95"])  # fmt: skip
        rows.append(row)
        log(json.dumps(row))
    print(json.dumps({"seed": args.seed, "games": args.games, "players": args.players,
                      "rows": rows}))  # fmt: skip


def mccfr_sigma(arr: Arrays, solver: Any) -> Any:
    """The average policy of OpenSpiel's MCCFR solver as ``arr``'s flat table (uniform at
    an information state it never visited)."""
    flat = np.zeros(arr.n_ia)
    for k, info in enumerate(arr.infos):
        entry = solver._infostates.get(info)
        if entry is not None:  # [regrets, average policy], in legal-action order
            lo = arr.offset[k]
            flat[lo : lo + len(arr.actions[k])] = entry[1]
    return arr.normalize(flat)


def cmd_approx(args: argparse.Namespace) -> None:
    """The larger variant, ``mini`` with ``--players`` 3: the tree walked once, then two
    approximate methods, CFR+ on the arrays (``--cfr-iterations``) and OpenSpiel's
    external-sampling MCCFR on the python game (``--mccfr-minutes`` of CPU), each average
    policy measured by the exact best response of every player on the arrays."""
    from open_spiel.python.algorithms import external_sampling_mccfr

    game = load_mini(args.players)
    t = time.process_time()
    tree = build_tree(game)
    arr = ArraysN(tree)
    walk = time.process_time() - t
    log(f"tree: {len(tree)} histories, {len(arr.infos)} information states, {walk:.0f} s CPU")
    rows: list[dict[str, Any]] = []

    def row(name: str, nc: float, cpu: float, **extra: Any) -> None:
        rows.append({"bot": name, "nash_conv": nc, "exploitability": nc / args.players,
                     "cpu_seconds": round(cpu, 1), **extra})  # fmt: skip
        log(json.dumps(rows[-1]))

    t = time.process_time()
    row("random", arr.nash_conv_n(arr.normalize(np.zeros(arr.n_ia))), time.process_time() - t)
    t = time.process_time()
    _, curve = arr.cfr_plus(args.cfr_iterations, args.cfr_every)
    row(f"CFR+ ({args.cfr_iterations} iterations)", curve[-1][1], time.process_time() - t,
        curve=curve)  # fmt: skip
    np.random.seed(args.seed)  # OpenSpiel's MCCFR samples with NumPy's global generator
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    mcurve: list[Any] = []
    spent, iterations, budget = 0.0, 0, args.mccfr_minutes * 60
    next_eval = budget / args.mccfr_points
    t0 = time.process_time()
    while spent < budget:
        solver.iteration()
        iterations += 1
        spent = time.process_time() - t0
        if spent >= next_eval or spent >= budget:
            next_eval += budget / args.mccfr_points
            t = time.process_time()
            nc = arr.nash_conv_n(mccfr_sigma(arr, solver))
            t0 += time.process_time() - t  # measuring is not the solver's time
            mcurve.append([iterations, round(spent, 1), nc, len(solver._infostates)])
            log(f"MCCFR {iterations} iterations, {spent:.0f} s CPU: NashConv {nc:.4f}")
    row(f"MCCFR, external sampling ({iterations} iterations)", mcurve[-1][2], spent,
        curve=mcurve)  # fmt: skip
    print(json.dumps({"players": args.players, "seed": args.seed, "games": 0,
                      "histories": len(tree), "information_states": len(arr.infos),
                      "walk_cpu_seconds": round(walk, 1), "rows": rows}))  # fmt: skip


def cmd_table(args: argparse.Namespace) -> None:
    """The docs/mini.md table from the ``bots`` runs' JSON files."""
    from ono99.bots.optimal import load_table

    rows = []
    players = 2
    for path in args.files:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        rows += [dict(r, seed=data["seed"]) for r in data["rows"]]
        players = data.get("players", 2)
    print("| bot | NashConv | exploitability | vs `optimal`: win rate (95 % CI) "
          "| paired edge (95 % CI) | games |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|")
    if players == 2:
        table = load_table()
        nc = table.get("nash_conv_openspiel") or table["nash_conv"]
        print(f"| `optimal` | {nc:.5f} | {nc / 2:.5f} | — | — | — |")
    for r in rows:
        if r["bot"] == "optimal":
            continue
        arena = "| — | — | — |"
        if "edge" in r:
            lo, hi = r["win_ci95"]
            elo, ehi = r["edge_ci95"]
            arena = (f"| {r['win_rate']:.3f} ({lo:.3f}–{hi:.3f}) "
                     f"| {r['edge']:+.3f} ({elo:+.3f} to {ehi:+.3f}) | {r['games']:,} |")  # fmt: skip
        print(f"| `{r['bot']}` | {r['nash_conv']:.4f} | {r['exploitability']:.4f} {arena}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sz = sub.add_parser("size")
    sz.add_argument("--players", type=int, default=2, choices=(2, 3))
    s = sub.add_parser("solve")
    s.add_argument("--iterations", type=int, default=2000)
    s.add_argument("--every", type=int, default=250)
    s.add_argument("--out", default=str(TABLE_PATH))
    s.add_argument(
        "--openspiel-cfr",
        type=int,
        default=0,
        metavar="N",
        help="also time N iterations of OpenSpiel's C++ CFR+ on the tree",
    )
    c = sub.add_parser("check")
    c.add_argument("--out", default=str(TABLE_PATH))
    b = sub.add_parser("bots")
    b.add_argument("--bots", default="optimal,random,greedy,heuristic,ismcts,expert")
    b.add_argument("--games", type=int, default=2000)
    b.add_argument("--seed", type=int, default=37)
    b.add_argument("--workers", type=int, default=1)
    b.add_argument("--players", type=int, default=2, choices=(2, 3),
                   help="3: NashConv only (optimal plays 2 players)")  # fmt: skip
    ap_ = sub.add_parser("approx")
    ap_.add_argument("--players", type=int, default=3, choices=(2, 3))
    ap_.add_argument("--cfr-iterations", type=int, default=200)
    ap_.add_argument("--cfr-every", type=int, default=50)
    ap_.add_argument("--mccfr-minutes", type=float, default=5.0, help="CPU minutes of MCCFR")
    ap_.add_argument("--mccfr-points", type=int, default=5, help="measures along the way")
    ap_.add_argument("--seed", type=int, default=37)
    tb = sub.add_parser("table")
    tb.add_argument("files", nargs="+")
    args = ap.parse_args()
    {
        "size": cmd_size,
        "solve": cmd_solve,
        "check": cmd_check,
        "bots": cmd_bots,
        "approx": cmd_approx,
        "table": cmd_table,
    }[args.cmd](args)


if __name__ == "__main__":
    main()
