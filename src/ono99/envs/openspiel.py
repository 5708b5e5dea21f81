"""ONO 99 as an OpenSpiel python game: importing this module registers ``python_ono99``.

Parameters: ``rules`` (a preset, default ``mattel2022``), ``players`` (default 2),
``history_plays`` (default 256: the plays the information-state tensor holds) and the
preset's options (R-SET-6: ``scoring``, ``target``, ``points_mode``, ``zero_ending_99``,
``draw_penalty``, mini's ``size``; left out, or ``""``/``0``/``false``, they are the
preset's defaults; an option the preset does not take is refused).

Chance is *explicit*, so the history is the state (OpenSpiel serializes a state as its
history): the first :data:`SEED_BYTES` moves are chance nodes of 256 equally likely
outcomes, the bytes of the deal's 128-bit seed (most significant first), and that seed
fixes every shuffle of the game exactly as ``Game(rules, players, seed=...)`` does: the
deal, every reshuffle (R-TURN-3) and the later rounds' deals (R-END-2). After the seed
come the players' moves only. Pending draws are taken at once (R-DRAW-1).

With ``rules="mini"`` (the research variant, docs/mini.md) chance is the cards
themselves, so the game tree is small enough for OpenSpiel's exact algorithms (CFR, best
response, ``exploitability.nash_conv``; ``size=large`` has the same chance nodes on a tree
too big for them, for the sampling ones): the deal is one chance node per card (seat 0's
hand, then seat 1's...), each outcome a card with its share of the cards not dealt yet;
and each play that draws is followed by a chance node, the card drawn, an outcome for each
card left in the draw pile with its share of it. Its ``information_state_string`` is the
compact :func:`mini_info_state` (the hand dealt, the cards drawn, the seat, the hand, the
plays); its part after the first ``/`` is what the view tells, the key of the ``optimal``
bot's table (:func:`ono99.bots.optimal.view_key`).

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

from ono99.bots.optimal import view_key
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
from ono99.rules import PRESETS, Rules, make_rules

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
    "mini_info_state",
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
        # mini's size ("small", "large"); "" is the small, solved game
        "size": "",
    },
)


def rules_options(params: dict[str, Any]) -> dict[str, Any]:
    """The preset options among OpenSpiel ``params``: those set to something other than
    the "preset's default" of the parameter specification (``""``, ``0``, ``False``)."""
    options: dict[str, Any] = {}
    for name in ("scoring", "points_mode", "size"):
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
        card_chance = rules.preset == "mini"
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS if card_chance else 256,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # mini: each card is dealt or drawn once and played at most once (never
            # reshuffled), so a game has at most two moves per card
            max_game_length=2 * rules.deck_size if card_chance else MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, params)
        #: chance is the cards dealt and drawn (mini), not the seed's bytes
        self.card_chance = card_chance
        self.rules = rules
        _setup(self, rules)
        self.players = players
        self.history_plays = history_plays

    def new_initial_state(self) -> Ono99State:
        """A new game, at its first chance node (a seed byte; mini: the first card)."""
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


class _Setup:
    """What a state needs of its game. OpenSpiel may hand a state (a clone, a deserialized
    one) a game object without the Python attributes of :class:`Ono99Game`, so a state
    keeps these, made once per parameter set from the parameters themselves."""

    __slots__ = ("rules", "players", "card_chance")

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        #: chance is the cards dealt and drawn (mini), not the seed's bytes
        self.card_chance = rules.preset == "mini"


_SETUPS: dict[str, _Setup] = {}


def _setup(game: Any, rules: Rules | None = None) -> _Setup:
    """The setup of ``game`` (``rules``: the game's own, kept for its states)."""
    params = game.get_parameters()
    key = repr(sorted(params.items()))
    setup = _SETUPS.get(key)
    if setup is None or rules is not None:
        if rules is None:
            rules = make_rules(str(params.get("rules", "mattel2022")), rules_options(params))
        setup = _SETUPS[key] = _Setup(rules, int(params.get("players", 2)))
    return setup


class _Box:
    """A state's seed bytes, engine game and what each player has seen, copied cheaply
    by ``deepcopy`` (OpenSpiel's ``clone()`` deep-copies a python state's attributes)."""

    __slots__ = ("game", "seed_bytes", "engine", "plays", "seen", "pending", "drawn")

    def __init__(
        self,
        game: _Setup,
        seed_bytes: list[int],
        engine: Game | None,
        plays: list[_Play],
        seen: list[list[tuple[int, tuple[int, ...]]]],
        pending: int = -1,
        drawn: list[list[int]] | None = None,
    ) -> None:
        #: the game's rules and players, shared by every copy
        self.game = game
        #: the seed's bytes drawn so far (mini: the cards dealt so far, in order)
        self.seed_bytes = seed_bytes
        #: mini: the play chosen, made once the chance node after it draws its card
        self.pending = pending
        #: mini: the cards each seat has drawn, in order
        self.drawn = drawn or [[] for _ in seen]
        self.engine = engine
        #: every play in order (public: each was made face up, R-SET-1)
        self.plays = plays
        #: per seat, its hand each time it changed, with the number of plays made then:
        #: with the announcements, everything that seat has seen (perfect recall)
        self.seen = seen

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        engine = None if self.engine is None else self.engine.copy(events=True)
        seen = [s[:] for s in self.seen]
        drawn = [d[:] for d in self.drawn]
        return _Box(self.game, self.seed_bytes[:], engine, self.plays[:], seen, self.pending, drawn)


class Ono99State(pyspiel.State):  # type: ignore[misc]
    """A game in progress; ``engine`` is the engine's :class:`~ono99.game.Game` once the
    seed is drawn (``None`` at the chance nodes before)."""

    def __init__(self, game: Ono99Game) -> None:
        super().__init__(game)
        setup = _setup(game)
        self._box = _Box(setup, [], None, [], [[] for _ in range(setup.players)])

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
        if engine is None or self._box.pending >= 0:
            return int(pyspiel.PlayerId.CHANCE)
        to_move = engine.to_move
        return int(pyspiel.PlayerId.TERMINAL) if to_move is None else to_move

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next seed byte: 256 outcomes, equally likely. Mini: the next card dealt
        or drawn, each card as likely as its copies among those left."""
        if not self._box.game.card_chance:
            assert self._box.engine is None
            return [(b, 1.0 / 256) for b in range(256)]
        counts = self._cards_left()
        left = sum(counts)
        return [(c, k / left) for c, k in enumerate(counts) if k]

    def _cards_left(self) -> list[int]:
        """Mini: how many of each card the next chance node may give (the deck less the
        cards dealt; once dealt, the draw pile)."""
        engine = self._box.engine
        if engine is None:
            counts = list(self._box.game.rules.deck)
            for c in self._box.seed_bytes:
                counts[c] -= 1
            return counts
        counts = [0] * NUM_CARDS
        for c in engine.draw_pile:
            counts[c] += 1
        return counts

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.dealt().legal_actions(player))

    def _apply_action(self, action: int) -> None:
        if self._box.game.card_chance:
            self._apply_card_mode(action)
            return
        box = self._box
        engine = box.engine
        if engine is None:
            if not 0 <= action < 256:
                raise ValueError(f"python_ono99: a seed byte is 0 to 255, not {action}")
            box.seed_bytes.append(int(action))
            if len(box.seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(box.seed_bytes), "big")
                engine = Game(self._box.game.rules, self._box.game.players, seed=seed)
                box.engine = engine
                engine.take_draws()
                self._remember()
            return
        self._play(engine, action)

    def _play(self, engine: Game, action: int) -> None:
        box = self._box
        round_before = engine.round
        seat = engine.to_move
        engine.apply(to_action(action))
        engine.take_draws()
        assert seat is not None
        box.plays.append((seat, int(action), engine.round != round_before))
        self._remember()

    def _apply_card_mode(self, action: int) -> None:
        """Mini: a card dealt, a play (its draw left to the chance node after it) or the
        card that play draws."""
        box = self._box
        engine = box.engine
        game = box.game
        chance = engine is None or box.pending >= 0
        if chance and (not 0 <= action < NUM_CARDS or not self._cards_left()[action]):
            raise ValueError(f"python_ono99: no card {action} is left to deal or draw")
        if engine is None:
            box.seed_bytes.append(int(action))
            size = game.rules.hand_size
            if len(box.seed_bytes) == size * game.players:
                cards = box.seed_bytes
                hands = [cards[s * size : (s + 1) * size] for s in range(game.players)]
                # the draw pile's order is left to the chance nodes: each draw puts the
                # card drawn on top first (the seed orders the rest, never used)
                engine = Game(game.rules, game.players, seed=0, deals=[(hands, [])])
                box.engine = engine
                self._remember()
            return
        if box.pending >= 0:
            pile = engine.draw_pile
            pile.remove(action)
            pile.append(action)  # the top card is the last
            play, box.pending = box.pending, -1
            box.drawn[engine.to_move or 0].append(int(action))
            self._play(engine, play)
            return
        action = to_action(action)
        engine.verify(action)  # an illegal play raises here and changes nothing
        if engine.draw_pile:
            box.pending = action  # R-TURN-2: the card drawn is the next chance node
        else:
            self._play(engine, action)

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
        state = Ono99State(self.get_game())
        if engine is None:  # nothing dealt: nothing to hide
            state._box = _Box(box.game, box.seed_bytes[:], None, [], [[] for _ in box.seen])
            return state
        rng = random.Random(int(probability_sampler() * 2**53))
        world = sample_world(engine.view(player), rng)
        world.events = [e.heard_by(player) for e in engine.events or []]
        world.moves = list(engine.moves)
        world.move_seats = list(engine.move_seats)
        now = len(box.plays)
        seen = [[(now, tuple(world.hands[s]))] for s in range(world.n)]
        seen[player] = box.seen[player][:]
        state._box = _Box(box.game, box.seed_bytes[:], world, box.plays[:], seen)
        return state

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._box.game.card_chance:
                return f"card {action_code(action)}"
            return f"seed byte {action}"
        return action_code(action)

    def is_terminal(self) -> bool:
        engine = self._box.engine
        return engine is not None and engine.is_over

    def returns(self) -> list[float]:
        engine = self._box.engine
        return [0.0] * self._box.game.players if engine is None else outcome(engine)

    def __str__(self) -> str:
        """The full state, for debugging (every hand: not an observation)."""
        g = self._box.engine
        if g is None:
            if self._box.game.card_chance:
                return "dealt " + " ".join(action_code(c) for c in self._box.seed_bytes)
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
        if self.kind == "info_state" and state._box.game.card_chance:
            size = engine.rules.hand_size
            first = state._box.seed_bytes[player * size : (player + 1) * size]
            return mini_info_state(
                player, first, state._box.drawn[player], engine.hands[player], engine.discard
            )
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


def mini_info_state(seat: int, first: Any, drawn: Any, hand: Any, discard: Any) -> str:
    """A mini player's information state (perfect recall): the hand it was dealt
    (sorted), the cards it has drawn in order, then what its view tells
    (:func:`ono99.bots.optimal.view_key`, what the ``optimal`` bot reads).

    >>> mini_info_state(0, (2, 1), (3,), (2, 3), (1,))
    '1 2+3/0|2 3|1'
    """
    first_hand = " ".join(action_code(c) for c in sorted(first))
    drawn_cards = " ".join(action_code(c) for c in drawn)
    return f"{first_hand}+{drawn_cards}/{view_key(seat, hand, discard)}"


if "python_ono99" not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, Ono99Game)
