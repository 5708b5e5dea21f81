"""ONO 99 as an OpenSpiel python game: importing this module registers ``python_ono99``.

Parameters: ``rules`` (a preset, default ``mattel2022``), ``players`` (default 2),
``history_plays`` (default 256: the plays the information-state tensor holds) and the
preset's options (R-SET-6: ``scoring``, ``target``, ``points_mode``, ``zero_ending_99``,
``draw_penalty``; left out, or ``""``/``0``/``false``, they are the preset's defaults; an
option the preset does not take is refused).

Chance is *explicit*, so the history is the state (OpenSpiel serializes a state as its
history): the first :data:`SEED_BYTES` moves are chance nodes of 256 equally likely
outcomes, the bytes of the deal's 128-bit seed (most significant first), and that seed
fixes every shuffle of the game exactly as ``Game(rules, players, seed=...)`` does: the
deal, every reshuffle (R-TURN-3) and the later rounds' deals (R-END-2). After the seed
come the players' moves only. Pending draws are taken at once (R-DRAW-1).

Observations come from the player's view only: ``observation_tensor`` is
:func:`ono99.envs.encoding.encode` of it and ``observation_string`` its JSON.
``information_state_tensor`` adds who played what this round (the ``history=True``
block) and the game's plays in order (who, what, the player's own hand before it, whether
it ended a round): perfect recall up to ``history_plays`` plays (:func:`info_state_names`).
``information_state_string`` is the view's JSON with every announcement the player has
heard (``Game.events_for``) and each hand it has held. ``returns()``: at the end the
winners share +1 and the losers -1 (sum 0).

>>> import random
>>> import pyspiel
>>> game = pyspiel.load_game("python_ono99(players=3,rules=classic1980)")
>>> state = game.new_initial_state()
>>> rng = random.Random(1)
>>> while not state.is_terminal():
...     state.apply_action(rng.choice(state.legal_actions()))
>>> sum(state.returns())
0.0
>>> again = game.deserialize_state(state.serialize())
>>> again.history() == state.history() and again.returns() == state.returns()
True
"""

from __future__ import annotations

import json
import random
from typing import Any

from ono99.cards import FOUR_99, NUM_ACTIONS, Card, action_code
from ono99.determinize import sample_world
from ono99.envs._deps import missing
from ono99.envs.encoding import (
    NUM_CARDS,
    encode,
    field_names,
    obs_size,
    outcome,
    to_action,
)
from ono99.game import SEED_BITS, Game
from ono99.rules import PRESETS, make_rules

try:
    import numpy as np
    import pyspiel
except ImportError as e:
    raise missing(__name__, e) from None

__all__ = [
    "HISTORY_PLAYS",
    "MAX_GAME_LENGTH",
    "SEED_BYTES",
    "Ono99Game",
    "Ono99State",
    "info_state_names",
    "info_state_size",
    "rules_options",
]

#: a bound for OpenSpiel's game info: no random game of any preset has come within a
#: tenth of it (the engine ends every game, R-END-4, but gives no hard limit)
MAX_GAME_LENGTH = 100_000
#: chance nodes before the deal: one byte of the seed each (the engine's unguessable
#: seed size, ``ono99.game.SEED_BITS``)
SEED_BYTES = SEED_BITS // 8
#: the default ``history_plays``: more than any random ``mattel2022`` or 2-player 1980
#: game has lasted (docs/envs.md)
HISTORY_PLAYS = 256
#: the actions a play can be: every card and ``99x4`` (never ``draw``, R-DRAW-1)
_PLAY_IDS = FOUR_99 + 1
_C99 = int(Card.NINETY_NINE)
_MAX_PLAYERS = max(make_rules(p).max_players for p in PRESETS)
_MIN_PLAYERS = min(make_rules(p).min_players for p in PRESETS)

_GAME_TYPE = pyspiel.GameType(
    short_name="python_ono99",
    long_name="Python ONO 99",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
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
        "history_plays": HISTORY_PLAYS,
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


def _entry_size(players: int) -> int:
    return players + _PLAY_IDS + NUM_CARDS + 1


def info_state_size(players: int, history_plays: int = HISTORY_PLAYS) -> int:
    """Length of the information-state tensor."""
    return obs_size(players, history=True) + history_plays * _entry_size(players)


def info_state_names(players: int, history_plays: int = HISTORY_PLAYS) -> list[str]:
    """The name of every index of the information-state tensor (docs/envs.md): the
    observation with the who-played-what block (``field_names(players, history=True)``),
    then four planes with a row per play ``j``: ``play[j].seat+k``, ``play[j].action[a]``,
    ``play[j].hand[c]`` and ``play[j].round_over``."""
    names = field_names(players, history=True)
    rows = range(history_plays)
    names += [f"play[{j}].seat+{k}" for j in rows for k in range(players)]
    names += [f"play[{j}].action[{action_code(a)}]" for j in rows for a in range(_PLAY_IDS)]
    names += [f"play[{j}].hand[{action_code(c)}]" for j in rows for c in range(NUM_CARDS)]
    names += [f"play[{j}].round_over" for j in rows]
    return names


def _planes(tensor: Any, players: int, history_plays: int) -> dict[str, Any]:
    """The named views of an information-state tensor (OpenSpiel reads a python
    observer's ``dict`` in order, so each piece is one contiguous slice)."""
    at = obs_size(players, history=True)
    out = {"observation": tensor[:at]}
    for name, width in (("seat", players), ("action", _PLAY_IDS), ("hand", NUM_CARDS)):
        out[name] = tensor[at : at + history_plays * width].reshape(history_plays, width)
        at += history_plays * width
    out["round_over"] = tensor[at : at + history_plays]
    return out


class Ono99Game(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_ono99(rules=…,players=…)``, with the preset's options as further
    parameters (``scoring=points,target=60,draw_penalty=true``...) and ``history_plays``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules = make_rules(str(params.get("rules", "mattel2022")), rules_options(params))
        players = int(params.get("players", 2))
        Game(rules, players, seed=0, events=False)  # checks players (R-SET-5)
        history_plays = int(params.get("history_plays", HISTORY_PLAYS))
        if history_plays < 0:
            raise ValueError(f"history_plays must be 0 or more, not {history_plays}")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=256,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.rules = rules
        self.players = players
        self.history_plays = history_plays

    def new_initial_state(self) -> Ono99State:
        """A new game, at the first of its :data:`SEED_BYTES` chance nodes."""
        return Ono99State(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Ono99Observer:
        if params:
            raise ValueError(f"python_ono99 observers take no parameters, not {params!r}")
        if iig_obs_type is None:
            return Ono99Observer(self, "observation")
        if iig_obs_type.perfect_recall:
            return Ono99Observer(self, "info_state")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return Ono99Observer(self, "public")
        if not iig_obs_type.public_info:
            return Ono99Observer(self, "private")
        return Ono99Observer(self, "observation")


#: a play of the game: the seat that made it, the action, whether a new round was dealt
#: after it (R-END-2)
_Play = tuple[int, int, bool]


class _Box:
    """A state's seed bytes, engine game and what each player has seen, copied cheaply
    by ``deepcopy`` (OpenSpiel's ``clone()`` deep-copies a python state's attributes)."""

    __slots__ = ("seed_bytes", "engine", "plays", "seen")

    def __init__(
        self,
        seed_bytes: list[int],
        engine: Game | None,
        plays: list[_Play],
        seen: list[list[tuple[int, tuple[int, ...]]]],
    ) -> None:
        self.seed_bytes = seed_bytes
        self.engine = engine
        #: every play in order (public: each was made face up, R-SET-1)
        self.plays = plays
        #: per seat, its hand each time it changed, with the number of plays made then:
        #: with the announcements, everything that seat has seen (perfect recall)
        self.seen = seen

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        engine = None if self.engine is None else self.engine.copy(events=True)
        return _Box(self.seed_bytes[:], engine, self.plays[:], [s[:] for s in self.seen])


class Ono99State(pyspiel.State):  # type: ignore[misc]
    """A game in progress; ``engine`` is the engine's :class:`~ono99.game.Game` once the
    seed is drawn (``None`` at the chance nodes before)."""

    def __init__(self, game: Ono99Game) -> None:
        super().__init__(game)
        self._game = game
        self._box = _Box([], None, [], [[] for _ in range(game.players)])

    @property
    def engine(self) -> Game | None:
        return self._box.engine

    def dealt(self) -> Game:
        """The engine game (raises ``ValueError`` at a chance node: nothing is dealt)."""
        engine = self._box.engine
        if engine is None:
            raise ValueError("python_ono99: the deal's seed is not drawn yet (chance node)")
        return engine

    def seen(self, seat: int) -> list[tuple[int, ...]]:
        """Each hand ``seat`` has held, in order."""
        return [hand for _, hand in self._box.seen[seat]]

    def _remember(self) -> None:
        box = self._box
        engine = box.engine
        assert engine is not None
        for seat, seen in enumerate(box.seen):
            hand = tuple(engine.hands[seat])
            if not seen or seen[-1][1] != hand:
                seen.append((len(box.plays), hand))

    def current_player(self) -> int:
        engine = self._box.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        to_move = engine.to_move
        return int(pyspiel.PlayerId.TERMINAL) if to_move is None else to_move

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next seed byte: 256 outcomes, equally likely."""
        assert self._box.engine is None
        return [(b, 1.0 / 256) for b in range(256)]

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.dealt().legal_actions(player))

    def _apply_action(self, action: int) -> None:
        box = self._box
        engine = box.engine
        if engine is None:
            if not 0 <= action < 256:
                raise ValueError(f"python_ono99: a seed byte is 0 to 255, not {action}")
            box.seed_bytes.append(int(action))
            if len(box.seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(box.seed_bytes), "big")
                engine = Game(self._game.rules, self._game.players, seed=seed)
                box.engine = engine
                engine.take_draws()
                self._remember()
            return
        round_before = engine.round
        seat = engine.to_move
        engine.apply(to_action(action))
        engine.take_draws()
        assert seat is not None
        box.plays.append((seat, int(action), engine.round != round_before))
        self._remember()

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> Ono99State:
        """A state ``player`` cannot tell from this one (OpenSpiel's ISMCTS asks for it):
        the same view, the same announcements heard and the same plays, the others'
        hidden cards and the draw pile dealt again at random from the cards ``player``
        has not seen (:func:`~ono99.determinize.sample_world`). A search world, not a
        game from a seed: its ``history()`` is empty (the real seed bytes would tell the
        hidden cards), and the other players' past hands are not kept (they would tell
        the real cards those players drew). ``probability_sampler()`` gives the
        randomness (a float in [0, 1))."""
        box = self._box
        engine = box.engine
        state = Ono99State(self._game)
        if engine is None:  # nothing dealt: nothing to hide
            state._box = _Box(box.seed_bytes[:], None, [], [[] for _ in box.seen])
            return state
        rng = random.Random(int(probability_sampler() * 2**53))
        world = sample_world(engine.view(player), rng)
        world.events = [e.heard_by(player) for e in engine.events or []]
        world.moves = list(engine.moves)
        world.move_seats = list(engine.move_seats)
        now = len(box.plays)
        seen = [[(now, tuple(world.hands[s]))] for s in range(world.n)]
        seen[player] = box.seen[player][:]
        state._box = _Box(box.seed_bytes[:], world, box.plays[:], seen)
        return state

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return action_code(action)

    def is_terminal(self) -> bool:
        engine = self._box.engine
        return engine is not None and engine.is_over

    def returns(self) -> list[float]:
        engine = self._box.engine
        return [0.0] * self._game.players if engine is None else outcome(engine)

    def __str__(self) -> str:
        """The full state, for debugging (every hand: not an observation)."""
        g = self._box.engine
        if g is None:
            return f"seed bytes drawn {len(self._box.seed_bytes)} of {SEED_BYTES}"
        hands = " | ".join(" ".join(action_code(c) for c in h) for h in g.hands)
        return f"total {g.total} to_move {g.to_move} hands {hands} moves {len(g.moves)}"


class Ono99Observer:
    """OpenSpiel's observer for ``python_ono99``, from one player's view and the public
    plays. ``kind``: ``observation`` (the environments' vector and the view's JSON),
    ``info_state`` (perfect recall: :func:`info_state_names`), ``public`` (what a
    spectator sees: the public view) or ``private`` (the player's own hand)."""

    def __init__(self, game: Ono99Game, kind: str) -> None:
        n = game.players
        self.kind = kind
        self.n = n
        self.history_plays = game.history_plays
        sizes = {
            "observation": obs_size(n),
            "info_state": info_state_size(n, game.history_plays),
            "public": obs_size(n),
            "private": NUM_CARDS,
        }
        self.tensor = np.zeros(sizes[kind], np.float32)
        self.dict = {kind: self.tensor}
        if kind == "info_state":  # named views of the one tensor
            self.dict = _planes(self.tensor, n, game.history_plays)

    def set_from(self, state: Ono99State, player: int) -> None:
        tensor = self.tensor
        tensor[:] = 0.0
        box = state._box
        engine = box.engine
        if engine is None:
            return  # nothing dealt, nothing seen
        view = engine.view(player)
        if self.kind == "private":
            for c in view.hand:
                tensor[c] += 1.0
            return
        obs = encode(view)
        if self.kind == "public":
            obs[:NUM_CARDS] = 0.0  # the hand, and whether it holds a safe card
            obs[NUM_CARDS + 4] = 0.0
        size = len(obs)
        tensor[:size] = obs
        if self.kind == "info_state":
            self._history(box, player, size)

    def _history(self, box: _Box, player: int, at: int) -> None:
        n = self.n
        tensor = self.tensor
        plays = box.plays
        # who played what this round: the plays since the last round_over
        k = len(plays)
        while k > 0 and not plays[k - 1][2]:
            k -= 1
        for seat, action, _ in plays[k:]:
            block = at + NUM_CARDS * ((seat - player) % n)
            if action == FOUR_99:
                tensor[block + _C99] += 4.0  # four ONO 99 cards
            else:
                tensor[block + action] += 1.0
        planes = self.dict
        seats, actions, hands = planes["seat"], planes["action"], planes["hand"]
        round_over = planes["round_over"]
        first = max(0, len(plays) - self.history_plays)
        seen = box.seen[player]
        h = 0  # the player's hand before play j: the last one recorded at or before j
        for j in range(first, len(plays)):
            while h + 1 < len(seen) and seen[h + 1][0] <= j:
                h += 1
            seat, action, over = plays[j]
            row = j - first
            seats[row, (seat - player) % n] = 1.0
            actions[row, action] = 1.0
            if seen and seen[h][0] <= j:
                for c in seen[h][1]:
                    hands[row, c] += 1.0
            round_over[row] = over

    def string_from(self, state: Ono99State, player: int) -> str:
        engine = state._box.engine
        if engine is None:
            return "dealing"
        if self.kind == "public":
            return json.dumps(engine.public_view().to_json(), sort_keys=True)
        if self.kind == "private":
            return " ".join(action_code(c) for c in engine.hands[player])
        view = engine.view(player).to_json()
        if self.kind == "observation":
            return json.dumps(view, sort_keys=True)
        heard = [
            [e.kind, e.seat, None if e.card is None else action_code(e.card), e.total, e.info]
            for e in engine.events_for(player)
        ]
        hands = [[action_code(c) for c in hand] for hand in state.seen(player)]
        return json.dumps(
            {"view": view, "heard": heard, "hands": hands}, sort_keys=True, default=str
        )


if "python_ono99" not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, Ono99Game)
