"""One game's facts for the rules analysis, read from its public events and its record.

:func:`game_data` is a pure function of a finished :class:`~ono99.game.Game`: it reads
``game.events`` (the announcement log), the R-REC record (:func:`~ono99.records.to_record`)
and the public counters, never a hand or the draw pile, so replaying the record gives
the same data. :func:`play_analysis_games` is what a worker runs on a chunk of game
indices (the arena's backends call it, :func:`~ono99.arena.backends.run_chunks`).

Seeds: game ``i`` of seed ``K`` is dealt from :func:`analysis_seed` ``(K, i)``: every
game its own deal (the arena's duplicate deals would count one deal several times),
an integer so that the record replays with ``ono99 replay``. The bot in seat ``s`` is
seeded with the arena's :func:`~ono99.arena.tournament.bot_seed` ``(K, i, s)``, and the
bots rotate through the seats as in the arena, so a game does not depend on which
worker plays it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ono99.arena.tournament import ArenaSpec, bot_seed
from ono99.bots import make_bot
from ono99.cards import DRAW
from ono99.errors import IllegalAction
from ono99.events import Event
from ono99.game import Game
from ono99.i18n import N_
from ono99.records import to_record
from ono99.rules import make_rules
from ono99.texts import final_places

__all__ = [
    "BUST_SITUATIONS",
    "REVIEW_SAMPLES",
    "GameData",
    "analysis_seed",
    "game_data",
    "play_analysis_game",
    "play_analysis_games",
    "review_facts",
    "reviewed",
]

#: card ints (ono99.cards) of Reverse, Play 2 / Double Play, Minus Ten
_REVERSE, _PLAY2, _MINUS10 = 12, 13, 11

#: the worlds each reviewed decision is valued from (``ono99 analyze --samples``): half the
#: review's default, as an analysis reviews many games (docs/analyze.md)
REVIEW_SAMPLES = 100

#: what was going on when a player busted, most specific first: owing two and unable to
#: make the first play, or the second (R-P2-4); the play just before was a Reverse; other
BUST_SITUATIONS = ("play2_first", "play2_second", "after_reverse", "other")


@dataclass
class GameData:
    """The analysed facts of one game (one line of ``games.jsonl``).

    Seats are numbered as in the game: seat 0 plays first (left of the dealer, R-SET-3).
    """

    index: int
    seed: int
    #: the bot of each seat (its name as given, e.g. ``heuristic``)
    bots: list[str]
    #: winning seats (several for a shared win)
    winners: list[int]
    #: record moves (decisions: card plays, ``99x4``, ``draw``, points-mode busts)
    moves: int
    #: cards played that counted (``play`` events) plus four-99 discards
    plays: int
    rounds: int
    #: per seat, turns in which it played at least one card
    turns: list[int]
    #: per seat, ``play`` events per card int (0-15)
    played: list[list[int]]
    #: per seat, the card ints of its opening hand (round 1)
    opening: list[list[int]]
    #: the running total after each play -> how often (keys are str for JSON)
    totals: dict[str, int]
    #: R-M10-1 (2022): -10 played at a total under 10 (the floor at 0 stopped it)
    floor_hits: int
    #: 1980: plays that left the total below 0
    negative_plays: int
    min_total: int
    #: R-TURN-3, R-99-3, R-DRAW-1
    reshuffles: int
    four99: int
    draws_lost: int
    #: every bust: seat, round, total (the total the player faced), situation, card
    busts: list[dict[str, Any]] = field(default_factory=list)
    #: seats in the order they left the game
    out: list[int] = field(default_factory=list)
    #: each seat's place at the end, 1 first (R-END-3: those put out at the same round's
    #: end placed by their points; :func:`ono99.texts.final_places`)
    places: list[int] = field(default_factory=list)
    #: after each round: tokens (token modes) or scores (points), per seat
    trajectory: list[list[int]] = field(default_factory=list)
    #: the game's review (``ono99 analyze --review``), per seat: ``decisions`` (with a
    #: choice), ``losses`` (win chance lost by each), ``mistakes``, ``start`` (the win chance
    #: the deal gave it) and ``result`` (its share of the win); None when not reviewed
    review: list[dict[str, Any]] | None = None
    #: the R-REC record of the game (kept apart from games.jsonl)
    record: dict[str, Any] = field(default_factory=dict, repr=False)

    def row(self) -> dict[str, Any]:
        """The facts as one JSON object, without the record."""
        out = asdict(self)
        del out["record"]
        return out


def analysis_seed(seed: int, game: int, purpose: str = "game") -> int:
    """The deal seed of game ``game`` (an integer below 2**63, from these two only);
    ``purpose="review"``: the seed of its review's worlds, apart from the deal's.

    >>> analysis_seed(7, 0) == analysis_seed(7, 0) != analysis_seed(7, 1)
    True
    >>> analysis_seed(7, 0) != analysis_seed(7, 0, "review")
    True
    """
    h = hashlib.blake2b(f"analyze-{purpose}:{seed}:{game}".encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big") >> 1


def reviewed(index: int, games: int, review: int) -> bool:
    """Whether game ``index`` of ``games`` is one of the ``review`` games reviewed: spread
    evenly over the run (not its first games, which one worker's chunk would hold), exactly
    ``min(review, games)`` of them.

    >>> [i for i in range(10) if reviewed(i, 10, 3)]
    [3, 6, 9]
    >>> sum(reviewed(i, 400, 20) for i in range(400)), sum(reviewed(i, 5, 9) for i in range(5))
    (20, 5)
    """
    k = min(review, games)
    return (index + 1) * k // games > index * k // games


def review_facts(record: dict[str, Any], seed: int, samples: int) -> list[dict[str, Any]]:
    """Each seat's review of a finished game (:func:`ono99.bots.review.review_game`, every
    decision valued from its own seat's view): what :attr:`GameData.review` holds."""
    from ono99.bots.review import review_game
    from ono99.records import parse_record

    r = review_game(parse_record(record), seed=seed, samples=samples)
    return [
        {
            "decisions": s.decisions,
            "losses": [round(d.loss, 4) for d in r.decisions if d.seat == s.seat],
            "mistakes": s.mistakes,
            "start": round(s.start.win, 4),
            "result": s.result,
        }
        for s in r.seats
    ]


def game_data(game: Game, index: int = 0, bots: list[str] | None = None) -> GameData:
    """The facts of a finished game, from its event log and its record only."""
    if game.events is None:
        raise ValueError("game_data needs a game played with its events (events=True)")
    record = to_record(game)
    tally = _Tally(game)
    for e in game.events:
        read = _READ.get(e.kind)
        if read is not None:
            read(tally, e)
    w = game.winner
    return GameData(
        index=index,
        seed=int(record["seed"]) if isinstance(record["seed"], int) else 0,
        bots=list(bots) if bots is not None else list(game.names),
        winners=list(w) if isinstance(w, list) else [] if w is None else [w],
        moves=len(record["moves"]),
        plays=tally.plays,
        rounds=game.round,
        turns=tally.turns,
        played=tally.played,
        opening=[[_card_int(c) for c in hand] for hand in record["deals"][0]["hands"]],
        totals={str(k): v for k, v in sorted(tally.totals.items())},
        floor_hits=tally.floor_hits,
        negative_plays=tally.negative,
        min_total=tally.min_total,
        reshuffles=tally.reshuffles,
        four99=tally.four99,
        draws_lost=tally.lost,
        busts=tally.busts,
        out=tally.out,
        places=_places(game),
        trajectory=tally.trajectory,
        record=record,
    )


def _places(game: Game) -> list[int]:
    """Each seat's final place (the one ranking of every front end)."""
    places = [0] * game.n
    for place, seat in final_places(game.public_view()):
        places[seat] = place
    return places


class _Tally:
    """What :func:`game_data` counts as it reads the events, one method a kind."""

    def __init__(self, game: Game) -> None:
        n = game.n
        self.floor_zero = game.rules.floor_zero
        self.tokens = game.rules.scoring.start_tokens(n)
        self.turns = [0] * n
        self.played = [[0] * 16 for _ in range(n)]
        self.totals: Counter[int] = Counter()
        self.busts: list[dict[str, Any]] = []
        self.out: list[int] = []
        self.trajectory: list[list[int]] = []
        self.plays = self.floor_hits = self.negative = self.reshuffles = 0
        self.four99 = self.lost = self.min_total = self.total = 0
        self.rnd = 1
        self.turn_seat: int | None = None  # the seat whose turn's plays we are in
        self.last_card: int | None = None  # the last card played this round
        self.owe_seat: int | None = None  # R-P2: the seat owing two, and its plays since
        self.owe_plays = 0

    def round_start(self, e: Event) -> None:
        self.rnd = (e.info or {}).get("round", self.rnd)
        self.total, self.turn_seat, self.last_card, self.owe_seat = 0, None, None, None

    def play(self, e: Event) -> None:
        seat = e.seat
        assert seat is not None
        if seat != self.turn_seat:
            self.turns[seat] += 1
            self.turn_seat = seat
        self.plays += 1
        if e.kind == "four99":
            self.four99 += 1
        else:
            card = e.card
            assert card is not None and e.total is not None
            self.played[seat][card] += 1
            if card == _MINUS10 and self.floor_zero and self.total < 10:
                self.floor_hits += 1
            self.total = e.total
            self.totals[self.total] += 1
            if self.total < 0:
                self.negative += 1
            self.min_total = min(self.min_total, self.total)
            self.last_card = card
        if seat == self.owe_seat:
            self.owe_plays += 1
            if self.owe_plays >= 2:
                self.owe_seat = None

    def owes_two(self, e: Event) -> None:
        self.owe_seat, self.owe_plays = e.seat, 0

    def bust(self, e: Event) -> None:
        if e.seat == self.owe_seat:
            situation = BUST_SITUATIONS[0] if self.owe_plays == 0 else BUST_SITUATIONS[1]
        elif self.last_card == _REVERSE:
            situation = BUST_SITUATIONS[2]
        else:
            situation = BUST_SITUATIONS[3]
        total = self.total if e.total is None else e.total
        self.busts.append(
            {"seat": e.seat, "round": self.rnd, "total": total, "situation": situation,
             "card": e.card}
        )  # fmt: skip
        self.turn_seat, self.owe_seat = None, None

    def reshuffle(self, e: Event) -> None:
        self.reshuffles += 1

    def draw_lost(self, e: Event) -> None:
        self.lost += 1

    def token_lost(self, e: Event) -> None:
        if self.tokens is not None and e.seat is not None:
            self.tokens[e.seat] = (e.info or {}).get("tokens", self.tokens[e.seat] - 1)

    def eliminated(self, e: Event) -> None:
        if e.seat is not None:
            self.out.append(e.seat)

    def round_end(self, e: Event) -> None:
        info = e.info or {}
        if "scores" in info:
            self.trajectory.append(list(info["scores"]))
        elif self.tokens is not None:
            out = self.out
            self.trajectory.append([-1 if s in out else t for s, t in enumerate(self.tokens)])


_READ: dict[str, Callable[[_Tally, Event], None]] = {
    "round_start": _Tally.round_start,
    "play": _Tally.play,
    "four99": _Tally.play,
    "owes_two": _Tally.owes_two,
    "bust": _Tally.bust,
    "reshuffle": _Tally.reshuffle,
    "draw_lost": _Tally.draw_lost,
    "token_lost": _Tally.token_lost,
    "eliminated": _Tally.eliminated,
    "round_end": _Tally.round_end,
}


def _card_int(code: str) -> int:
    from ono99.cards import parse_card

    return parse_card(code)


def play_analysis_game(spec: ArenaSpec, index: int) -> GameData:
    """Play game ``index`` of ``spec`` with the events on; each bot sees only its view."""
    seating = spec.seating(index)
    bots = [spec.bots[e] for e in seating]
    g = Game(
        make_rules(spec.rules, spec.options), len(seating), seed=analysis_seed(spec.seed, index)
    )
    players = [make_bot(b, bot_seed(spec.seed, index, s)) for s, b in enumerate(bots)]
    while acting := g.acting():
        # Bots draw at once (R-DRAW-1), as in the arena.
        seat = next((s for s, acts in acting.items() if acts == (DRAW,)), g.to_move)
        assert seat is not None
        view = g.view(seat)
        action = players[seat].act(view)
        if action not in view.legal:
            raise IllegalAction(
                N_("bot {bot} chose {action}, not one of {legal}"),
                bot=bots[seat], action=repr(action), legal=str(view.legal),
            )  # fmt: skip
        g.apply(action)
    return game_data(g, index, bots)


def play_analysis_games(
    spec: ArenaSpec, indices: range, review: int = 0, samples: int = REVIEW_SAMPLES
) -> list[GameData]:
    """Play the given games in order (what a worker does with its chunk), and review those
    of them that :func:`reviewed` picks (``review`` of the run's games, ``samples`` worlds
    a decision)."""
    out = []
    for i in indices:
        data = play_analysis_game(spec, i)
        if reviewed(i, spec.games, review):
            data.review = review_facts(data.record, analysis_seed(spec.seed, i, "review"), samples)
        out.append(data)
    return out
