"""A learned policy as a bot: a small masked MLP evaluated with NumPy.

The training script (``benchmarks/train_ppo.py``, torch) writes a policy as one ``.npz``
file; this module reads it and plays it, with NumPy only (the ``rl`` extra), so a trained
policy plays wherever the environments run, without torch. The bot reads its seat's
:class:`~ono99.view.PlayerView` through :func:`ono99.envs.encoding.encode` (the vector
the policy was trained on, docs/envs.md) and plays the legal action of highest logit.

``import ono99.envs.policy`` registers the bot name ``policy:PATH`` with
:func:`ono99.bots.make_bot`, so the arena plays a saved policy like any bot::

    import ono99.envs.policy
    from ono99.arena import make_spec, run_tournament
    run_tournament(make_spec(["policy:ppo.npz", "heuristic"], games=400, seed=1))

A file holds ``w0, b0, w1, b1, …`` (layer ``k``: ``x @ w{k} + b{k}``, ReLU between
layers, the last layer's 18 outputs the logits), ``scale`` (the observation is divided by
it before the first layer) and ``meta``, a JSON object with at least ``rules``,
``players`` and ``obs_size``. Two optional ``meta`` entries: ``play_order`` (an int ``k``,
default 0) appends :func:`play_order` of the view, the last ``k`` cards of the discard pile
one-hot, most recent first (what a ``mini`` player saw played, in order: docs/mini.md);
``sample`` (true) plays a legal action drawn from the softmax of the legal logits, from
the bot's seed, instead of the highest.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ono99.bots.base import Bot, register_param
from ono99.cards import NUM_ACTIONS, NUM_CARDS
from ono99.envs._deps import missing
from ono99.errors import Ono99Error
from ono99.i18n import N_, os_reason
from ono99.rules import make_rules
from ono99.view import PlayerView

if TYPE_CHECKING:
    from ono99.rules import Rules

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as e:  # pragma: no cover - the rl extra is installed in tests
    raise missing(__name__, e) from None

from ono99.envs.encoding import encode, obs_size

__all__ = ["MLPPolicy", "PolicyBot", "ZOO", "observe", "play_order", "policy_file", "zoo_names"]

F32 = npt.NDArray[np.float32]

#: the model zoo: the trained baselines shipped with the package (docs/baselines.md);
#: ``policy:zoo/NAME`` is the file ``ZOO/NAME.npz``
ZOO = Path(__file__).resolve().parent / "zoo"


def zoo_names() -> list[str]:
    """The names of the model zoo's policies (``policy:zoo/NAME``), sorted."""
    return sorted(p.stem for p in ZOO.glob("*.npz"))


def policy_file(path: str) -> str | Path:
    """The file ``policy:PATH`` names: ``zoo/NAME`` (``.npz`` optional) is the model zoo's
    policy NAME, always (a file in a folder of one's own called zoo is ``./zoo/FILE``);
    any other PATH is that file. An unknown zoo name raises :class:`Ono99Error` (one line,
    naming the zoo's policies)."""
    if not path.startswith("zoo/"):
        return path
    name = path.removeprefix("zoo/").removesuffix(".npz")
    if name in zoo_names():
        return ZOO / f"{name}.npz"
    raise Ono99Error(
        # TRANSLATORS: ono99 arena/play --bots policy:zoo/NAME with an unknown NAME;
        # {choices} is a list of names, kept in English
        N_("no policy {name} in the model zoo (choose {choices})"),
        name=repr(name), choices=", ".join(f"zoo/{n}" for n in zoo_names()),
    )  # fmt: skip


class MLPPolicy:
    """The weights of a masked MLP policy, evaluated with NumPy (float32)."""

    def __init__(self, weights: list[tuple[F32, F32]], scale: F32, meta: Mapping[str, Any]) -> None:
        if not weights or weights[-1][0].shape[1] != NUM_ACTIONS:
            raise ValueError(f"the last layer must have {NUM_ACTIONS} outputs")
        if weights[0][0].shape[0] != scale.shape[0]:
            raise ValueError("the first layer and the scale differ in length")
        self.weights = [
            (np.ascontiguousarray(w, np.float32), np.ascontiguousarray(b, np.float32))
            for w, b in weights
        ]
        self.scale = np.ascontiguousarray(scale, np.float32)
        self.meta = dict(meta)

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        """Read a policy file (raises :class:`Ono99Error`, a ValueError of one line in the
        user's language, for a file it cannot read or that holds no policy)."""
        try:
            with np.load(path, allow_pickle=False) as f:
                layers = []
                k = 0
                while f"w{k}" in f:
                    layers.append((f[f"w{k}"], f[f"b{k}"]))
                    k += 1
                scale = f["scale"]
                meta = json.loads(str(f["meta"]))
            return cls(layers, scale, meta)
        except OSError as e:  # missing, a folder, not readable
            reason = os_reason(e)
        except Exception:  # cut short, not a zip, other arrays, pickles
            # (zipfile.BadZipFile, EOFError, zlib.error, KeyError, ValueError: NumPy's own
            # words about pickles or archive members tell a user nothing)
            # TRANSLATORS: why ono99 arena --bots policy:FILE cannot use FILE
            reason = Ono99Error(N_("not a whole policy file saved by benchmarks/train_ppo.py"))
        raise Ono99Error(
            # TRANSLATORS: {reason} says why, e.g. "no such file or folder"
            N_("cannot read the policy file {path}: {reason}"),
            path=str(path),
            reason=reason,
        )

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {}
        for k, (w, b) in enumerate(self.weights):
            arrays[f"w{k}"], arrays[f"b{k}"] = w, b
        arrays["scale"] = self.scale
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        with open(path, "wb") as f:
            np.savez(f, **arrays)

    def logits(self, obs: npt.NDArray[Any]) -> F32:
        """The logits of a batch of observations (rows) or of one observation."""
        x = np.asarray(obs, np.float32) / self.scale
        last = len(self.weights) - 1
        for k, (w, b) in enumerate(self.weights):
            x = x @ w + b
            if k < last:
                np.maximum(x, 0.0, out=x)
        return x

    def act(self, obs: npt.NDArray[Any], mask: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """The legal action of highest logit in every row (``mask``: 1 = legal)."""
        logits = self.logits(obs)
        masked = np.where(np.asarray(mask) > 0, logits, -np.inf)
        return np.asarray(masked.argmax(axis=-1), np.int64)


def play_order(view: PlayerView, k: int) -> F32:
    """The last ``k`` cards of ``view``'s discard pile, most recent first, one-hot
    (``k`` rows of :data:`NUM_CARDS`, flattened; rows past the pile's bottom are 0): public,
    every player saw these cards played (R-SET-1).

    >>> from ono99 import Game
    >>> g = Game("mini", 2, seed=3)
    >>> _ = g.apply(g.legal_actions()[0])
    >>> v = play_order(g.view(1), 2).reshape(2, -1)
    >>> int(v[0].argmax()) == g.view(1).discard[-1], float(v[1].sum())
    (True, 0.0)
    """
    out = np.zeros((k, NUM_CARDS), np.float32)
    for i, card in enumerate(reversed(view.discard[-k:] if k else ())):
        out[i, card] = 1.0
    return out.ravel()


def observe(view: PlayerView, meta: Mapping[str, Any]) -> F32:
    """The vector a policy with ``meta`` reads for ``view`` (before the scale):
    :func:`~ono99.envs.encoding.encode`, then :func:`play_order` if ``meta`` asks."""
    k = int(meta.get("play_order", 0))
    obs = encode(view)
    return np.concatenate([obs, play_order(view, k)]) if k else obs


class PolicyBot(Bot):
    """Plays a :class:`MLPPolicy`: the legal action of highest logit for its view (or one
    drawn from the softmax of the legal logits, seeded, if the policy's ``meta`` says
    ``sample``)."""

    name = "policy"

    def __init__(self, policy: MLPPolicy, seed: int = 0) -> None:
        self.policy = policy
        self.order = int(policy.meta.get("play_order", 0))
        self.sample = bool(policy.meta.get("sample", False))
        self.rng = random.Random(seed)

    def check_game(self, rules: Rules, players: int) -> None:
        """A policy reads the observation of the rules and player count it was trained for:
        refuse others before a game starts, in one line (not at its first decision)."""
        self._check_rules(rules)
        size = int(self.policy.scale.shape[0])
        if size != obs_size(players) + self.order * NUM_CARDS:
            raise Ono99Error(
                # TRANSLATORS: a learned policy (ono99 arena --bots policy:FILE) used in a
                # game of another player count; {size} is the length of its input vector
                N_(
                    "this policy was trained for {trained} players (it reads {size}"
                    " observation entries), not {players}: give --players {trained}"
                ),
                trained=self.policy.meta.get("players", "?"), size=size, players=players,
            )  # fmt: skip

    def _check_rules(self, rules: Rules) -> None:
        """Refuse ``mini`` for a policy trained on other rules, and other rules (or the
        other size) for a ``mini`` policy: their observations have the same length but not
        the same meaning (mini's deck, its play order). A policy of another preset still
        plays the other non-mini presets, as before (the zoo's in classic1980, tested)."""
        trained = self.policy.meta.get("rules")
        if not isinstance(trained, str) or "mini" not in (trained, rules.preset):
            return  # neither is mini, or a hand-made file names no rules: as before
        options = dict(self.policy.meta.get("options") or {})
        if trained == "mini":  # as the rules resolve them: the small size is {}
            options = dict(make_rules(trained, options).options)
        if (trained, options) == (rules.preset, dict(rules.options)):
            return
        raise Ono99Error(
            # TRANSLATORS: a learned policy (--bots policy:FILE) used in a game
            # of other rules; {trained} and {asked} are rules in English, e.g.
            # "mini (size=large)" or "mattel2022"; {give} is command-line
            # options, e.g. "--rules mini --option size=large"
            N_("this policy was trained for {trained}, not {asked}: give {give}"),
            trained=_rules_text(trained, options),
            # the options of the rules asked for matter only when the preset is the same
            asked=_rules_text(rules.preset, rules.options if rules.preset == trained else {}),
            give=" ".join(["--rules", trained, *(f"--option {p}" for p in _pairs(options))]),
        )  # fmt: skip

    def act(self, view: PlayerView) -> int:
        legal = view.legal
        if len(legal) == 1:  # forced: no need to ask the network
            return int(legal[0])
        obs = observe(view, self.policy.meta)
        if obs.shape[0] != self.policy.scale.shape[0]:  # used outside a tournament's check
            self.check_game(view.rules, view.players)
        logits = self.policy.logits(obs)
        if self.sample:
            top = max(float(logits[a]) for a in legal)
            weights = [math.exp(float(logits[a]) - top) for a in legal]
            return int(self.rng.choices(legal, weights)[0])
        return int(max(legal, key=lambda a: float(logits[a])))


def _pairs(options: Mapping[str, Any]) -> list[str]:
    """``options`` as ``key=value`` (the way ``--option`` takes them), sorted."""
    return [f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in sorted(options.items())]


def _rules_text(preset: str, options: Mapping[str, Any]) -> str:
    """A preset with its options, e.g. ``mini (size=large)``; without options, the preset."""
    return f"{preset} ({', '.join(_pairs(options))})" if options else preset


#: policies read once per process (the arena makes a bot per seat and game)
_LOADED: dict[str, MLPPolicy] = {}


@register_param("policy", listed=False)
def _policy_bot(seed: int, path: str) -> Bot:
    """``policy:PATH``: the policy saved at PATH, or the model zoo's ``zoo/NAME`` (the
    seed is used only by a policy that samples its actions)."""
    policy = _LOADED.get(path)
    if policy is None:
        policy = _LOADED[path] = MLPPolicy.load(policy_file(path))
    return PolicyBot(policy, seed)
