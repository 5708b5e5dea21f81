"""ONO 99 as an OpenSpiel python game: importing this module registers ``python_ono99``.

Parameters: ``rules`` (a preset, default ``mattel2022``), ``players`` (default 2),
``rng_seed`` (default -1) and the preset's options (R-SET-6: ``scoring``, ``target``,
``points_mode``, ``zero_ending_99``, ``draw_penalty``; left out, or ``""``/``0``/``false``,
they are the preset's defaults; an option the preset does not take is refused). The game is
sequential with imperfect information and *sampled* stochastic chance: the deals,
draws and reshuffles come from the engine's seeded shuffles inside the state (no
chance nodes). With ``rng_seed`` >= 0 the game object draws each new initial
state's deal seed from a generator seeded with it (reproducible); with -1 every
deal gets a fresh ``secrets`` seed. Pending draws are taken at once (R-DRAW-1).

Observations come from the player's view only: ``observation_tensor`` and
``information_state_tensor`` are :func:`ono99.envs.encoding.encode` of it,
``observation_string`` its JSON, and ``information_state_string`` that JSON with
every announcement the player has heard (``Game.events_for``) and each hand it has
held: perfect recall. ``returns()``: at the end the winners share +1 and the losers -1 (sum 0).

>>> import pyspiel
>>> game = pyspiel.load_game("python_ono99(players=3,rules=classic1980,rng_seed=1)")
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> sum(state.returns())
0.0
"""

from __future__ import annotations

import json
import random
import secrets
from typing import Any

from ono99.cards import NUM_ACTIONS, action_code
from ono99.determinize import sample_world
from ono99.envs._deps import missing
from ono99.envs.encoding import advance, encode, obs_size, outcome, to_action
from ono99.game import Game
from ono99.rules import PRESETS, make_rules

try:
    import numpy as np
    import pyspiel
except ImportError as e:
    raise missing(__name__, e) from None

__all__ = ["MAX_GAME_LENGTH", "Ono99Game", "Ono99State", "rules_options"]

#: a bound for OpenSpiel's game info: no random game of any preset has come within a
#: tenth of it (the engine ends every game, R-END-4, but gives no hard limit)
MAX_GAME_LENGTH = 100_000
_MAX_PLAYERS = max(make_rules(p).max_players for p in PRESETS)
_MIN_PLAYERS = min(make_rules(p).min_players for p in PRESETS)

_GAME_TYPE = pyspiel.GameType(
    short_name="python_ono99",
    long_name="Python ONO 99",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=_MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "rules": "mattel2022",
        "players": 2,
        "rng_seed": -1,
        # the preset's options (R-SET-6); "" and 0 mean the preset's default
        "scoring": "",
        "target": 0,
        "points_mode": "",
        "zero_ending_99": False,
        "draw_penalty": False,
    },
)


def rules_options(params: dict[str, Any]) -> dict[str, Any]:
    """The preset options among OpenSpiel ``params``: those set to something other than
    the "preset's default" of the parameter specification (``""``, ``0``, ``False``)."""
    options: dict[str, Any] = {}
    for name in ("scoring", "points_mode"):
        if params.get(name, ""):
            options[name] = str(params[name])
    if params.get("target", 0):
        options["target"] = int(params["target"])
    for name in ("zero_ending_99", "draw_penalty"):
        if params.get(name, False):
            options[name] = True
    return options


class Ono99Game(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_ono99(rules=…,players=…,rng_seed=…)``, with the preset's options
    as further parameters (``scoring=points,target=60,draw_penalty=true``...)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules = make_rules(str(params.get("rules", "mattel2022")), rules_options(params))
        players = int(params.get("players", 2))
        Game(rules, players, seed=0, events=False)  # checks players (R-SET-5)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.rules = rules
        self.players = players
        seed = int(params.get("rng_seed", -1))
        self._rng = random.Random(seed) if seed >= 0 else None

    def new_initial_state(self) -> Ono99State:
        """A new deal (its seed from ``rng_seed``'s generator, or from ``secrets``,
        drawn when the state is first used: OpenSpiel's ``clone()`` makes an initial
        state and overwrites it, and that must not use up a seed)."""
        return Ono99State(self)

    def deal(self) -> Game:
        """The engine game of a new initial state."""
        seed = self._rng.getrandbits(63) if self._rng is not None else secrets.randbits(63)
        return Game(self.rules, self.players, seed=seed)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Ono99Observer:
        if params:
            raise ValueError(f"python_ono99 observers take no parameters, not {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Ono99Observer(self.players, perfect_recall)


class _Box:
    """A state's engine game and what each player has seen, copied cheaply by
    ``deepcopy`` (OpenSpiel's ``clone()`` deep-copies a python state's attributes)."""

    __slots__ = ("game", "engine", "seen")

    def __init__(
        self, game: Ono99Game, engine: Game | None, seen: list[list[tuple[int, ...]]]
    ) -> None:
        self.game = game
        self.engine = engine
        #: each player's own hand every time it changed (from its view): with the
        #: announcements, everything that player has seen (perfect recall)
        self.seen = seen

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        engine = None if self.engine is None else self.engine.copy(events=True)
        return _Box(self.game, engine, [list(hands) for hands in self.seen])


class Ono99State(pyspiel.State):  # type: ignore[misc]
    """A game in progress; ``engine`` is the engine's :class:`~ono99.game.Game`."""

    def __init__(self, game: Ono99Game) -> None:
        super().__init__(game)
        self._box = _Box(game, None, [])

    @property
    def engine(self) -> Game:
        box = self._box
        if box.engine is None:
            box.engine = box.game.deal()
            box.seen = [[] for _ in range(box.engine.n)]
            advance(box.engine)
            self._remember()
        return box.engine

    @property
    def seen(self) -> list[list[tuple[int, ...]]]:
        self.engine  # noqa: B018 (deals a new state)
        return self._box.seen

    def _remember(self) -> None:
        engine = self.engine
        for seat, seen in enumerate(self._box.seen):
            hand = engine.view(seat).hand
            if not seen or seen[-1] != hand:
                seen.append(hand)

    def current_player(self) -> int:
        to_move = self.engine.to_move
        return int(pyspiel.PlayerId.TERMINAL) if to_move is None else to_move

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.engine.legal_actions(player))

    def _apply_action(self, action: int) -> None:
        self.engine.apply(to_action(action))
        advance(self.engine)
        self._remember()

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> Ono99State:
        """A state ``player`` cannot tell from this one (OpenSpiel's ISMCTS asks for it):
        the same view and the same announcements heard, the others' hidden cards and the
        draw pile dealt again at random from the cards ``player`` has not seen
        (:func:`~ono99.determinize.sample_world`). The other players' histories are not
        kept: they would tell the real cards they drew. ``probability_sampler()`` gives
        the randomness (a float in [0, 1))."""
        engine = self.engine
        rng = random.Random(int(probability_sampler() * 2**53))
        world = sample_world(engine.view(player), rng)
        world.events = [e.heard_by(player) for e in engine.events or []]
        world.moves = list(engine.moves)
        world.move_seats = list(engine.move_seats)
        state = Ono99State(self._box.game)
        seen = [[world.view(s).hand] for s in range(world.n)]
        seen[player] = list(self._box.seen[player])
        state._box = _Box(self._box.game, world, seen)
        return state

    def _action_to_string(self, player: int, action: int) -> str:
        return action_code(action)

    def is_terminal(self) -> bool:
        return self.engine.is_over

    def returns(self) -> list[float]:
        return outcome(self.engine)

    def __str__(self) -> str:
        """The full state, for debugging (every hand: not an observation)."""
        g = self.engine
        hands = " | ".join(" ".join(action_code(c) for c in h) for h in g.hands)
        return f"total {g.total} to_move {g.to_move} hands {hands} moves {len(g.moves)}"


class Ono99Observer:
    """OpenSpiel's observer for ``python_ono99``: a tensor and strings from one
    player's view (with ``perfect_recall``, the string also holds what they heard)."""

    def __init__(self, players: int, perfect_recall: bool) -> None:
        self.tensor = np.zeros(obs_size(players), np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: Ono99State, player: int) -> None:
        self.tensor[:] = encode(state.engine.view(player))

    def string_from(self, state: Ono99State, player: int) -> str:
        view = state.engine.view(player).to_json()
        if not self.perfect_recall:
            return json.dumps(view, sort_keys=True)
        heard = [
            [e.kind, e.seat, None if e.card is None else action_code(e.card), e.total, e.info]
            for e in state.engine.events_for(player)
        ]
        hands = [[action_code(c) for c in hand] for hand in state.seen[player]]
        return json.dumps(
            {"view": view, "heard": heard, "hands": hands}, sort_keys=True, default=str
        )


if "python_ono99" not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, Ono99Game)
