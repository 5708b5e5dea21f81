"""A deliberately simple reference implementation of RULES.md, for differential tests.

Written straight from RULES.md, independently of ``src/ono99/game.py``: slow, plain and
readable rather than fast. Cards are their text codes (``"7"``, ``"-10"``, ``"R"``,
``"P2"``, ``"H"``, ``"99"``); every round is dealt from an explicit, complete deal
(every hand plus the whole draw pile, top card first), so nothing is shuffled except
the discard pile under R-TURN-3, whose new order comes from the ``reshuffle`` callback.

Readings taken where RULES.md leaves a detail open (each is marked "reading" below):
- a player with no legal play busts at once, even while another player's draw is
  pending; a player whose *own* draw is pending (between the two cards of a Play 2)
  has an "other legal action" (R-LIM-2): they do not bust, and in points mode may not
  play an unsafe card, until they have drawn (R-DRAW-1, R-END-3);
- when a round ends and no one else is left in the game, the final state is the state
  at that moment (no regathering);
- in points mode, if the first player out of the round has just been eliminated, the
  next round is started by the next player clockwise still in the game (as R-END-2).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

MATTEL = "mattel2022"
CLASSIC = "classic1980"
GAMERULES = "gamerules"

DECKS: dict[str, dict[str, int]] = {
    "2022": {
        "0": 8,
        **{str(v): 6 for v in range(1, 10)},
        "10": 10,
        "-10": 10,
        "R": 10,
        "P2": 10,
        "99": 10,
    },
    "1980": {
        **{str(v): 3 for v in range(2, 10)},
        "10": 10,
        "-10": 4,
        "R": 6,
        "P2": 2,
        "H": 4,
        "99": 4,
    },
}
PLAYER_RANGE = {MATTEL: (2, 6), CLASSIC: (2, 8), GAMERULES: (2, 8)}
NUMBERS = {str(v): v for v in range(11)}

#: (cards, seat that is drawing) -> the new draw pile, top card first
Reshuffle = Callable[[list[str], int], list[str]]


class OracleError(Exception):
    """A bad setup or an illegal move."""


def deck_of(preset: str) -> Counter[str]:
    return Counter(DECKS["2022" if preset == MATTEL else "1980"])


def card_points(card: str) -> int:
    """R-END-3: number card = face value, 99 = 20, H/R/-10/P2 = 15."""
    if card in NUMBERS:
        return NUMBERS[card]
    if card == "99":
        return 20
    return 15


def hand_score(hand: Sequence[str]) -> int:
    """R-END-3 (without the +25 for being out of the round)."""
    return sum(card_points(c) for c in hand) + 15 * max(0, 4 - len(hand))


def resolve_options(preset: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """R-SET-6: the options with their defaults filled in; anything else is an error."""
    opts = dict(options or {})
    if preset == MATTEL:
        allowed: dict[str, Any] = {}
    elif preset == GAMERULES:
        allowed = {"draw_penalty": False}
    elif preset == CLASSIC:
        allowed = {
            "scoring": "tokens",
            "target": 100,
            "points_mode": "elimination",
            "zero_ending_99": False,
            "draw_penalty": False,
        }
    else:
        raise OracleError(f"unknown preset {preset!r}")
    for key in opts:
        if key not in allowed:
            raise OracleError(f"{preset} takes no option {key!r}")
    out = {**allowed, **opts}
    for key in ("zero_ending_99", "draw_penalty"):
        if key in out and not isinstance(out[key], bool):
            raise OracleError(f"{key} must be true or false")
    if preset == CLASSIC:
        if out["scoring"] not in ("tokens", "points"):
            raise OracleError("scoring")
        if out["points_mode"] not in ("elimination", "lowest"):
            raise OracleError("points_mode")
        target = out["target"]
        if isinstance(target, bool) or not isinstance(target, int) or target <= 0:
            raise OracleError("target must be a positive integer")
        if out["scoring"] != "points":  # "with points: target and points_mode"
            if "target" in opts or "points_mode" in opts:
                raise OracleError("target and points_mode need scoring 'points'")
            del out["target"], out["points_mode"]
    return out


class Oracle:
    """One game, from explicit deals. ``apply(code)`` plays a record move."""

    def __init__(
        self,
        preset: str,
        players: int | Sequence[str],
        options: Mapping[str, Any] | None,
        deals: Sequence[tuple[Sequence[Sequence[str]], Sequence[str]]],
        dealer: int | None = None,
        reshuffle: Reshuffle | None = None,
        seed: int = 0,
    ) -> None:
        if preset not in PLAYER_RANGE:
            raise OracleError(f"unknown preset {preset!r}")
        self.preset = preset
        self.n = players if isinstance(players, int) else len(players)
        lo, hi = PLAYER_RANGE[preset]
        if not lo <= self.n <= hi:  # R-SET-5
            raise OracleError(f"{preset} takes {lo}-{hi} players")
        self.opts = resolve_options(preset, options)
        if preset == MATTEL:
            self.mode = "elimination"
        elif preset == CLASSIC and self.opts["scoring"] == "points":
            self.mode = "points"
        else:
            self.mode = "tokens"
        self.draw_penalty = bool(self.opts.get("draw_penalty", False))
        self.zero_ending_99 = bool(self.opts.get("zero_ending_99", False))
        self.deals = [([list(h) for h in hands], list(draw)) for hands, draw in deals]
        self.dealer = self.n - 1 if dealer is None else dealer  # R-SET-3
        rng = random.Random(seed)
        self.reshuffle: Reshuffle = reshuffle or (lambda cards, seat: rng.sample(cards, len(cards)))
        self.reshuffles = 0
        #: how often each rule situation came up (for coverage reports)
        self.seen: Counter[str] = Counter()
        # game-long state
        self.out: list[int] = []  # eliminated seats, in order
        self.tokens: list[int] | None = [3] * self.n if self.mode == "tokens" else None  # R-SET-4
        self.scores: list[int] | None = [0] * self.n if self.mode == "points" else None
        self.winner: int | list[int] | None = None
        self.round = 0
        # round state (set by _start_round)
        self.hands: list[list[str]] = []
        self.draw: list[str] = []
        self.discard: list[str] = []
        self.total = 0
        self.direction = 1
        self.to_move: int | None = None
        self.owes: int | None = None  # R-P2-6
        self.first_done = False  # the obligated player has made their first play
        self.pending: int | None = None  # R-DRAW-1
        self.round_out: list[int] = []  # points mode: out of the round, in order
        self.turn_99 = False  # R-99-5: a 99 was played this turn
        self._start_round((self.dealer + 1) % self.n)  # R-SET-3

    # ----------------------------------------------------------------- queries
    def in_game(self, seat: int) -> bool:
        return seat not in self.out

    def taking_turns(self, seat: int) -> bool:
        """R-TURN-4 / R-REV-2: in the game and (points mode) still in the round."""
        return self.in_game(seat) and seat not in self.round_out

    def active(self) -> list[int]:
        return [s for s in range(self.n) if self.taking_turns(s)]

    def next_seat(self, seat: int) -> int:
        """The next player still taking turns after ``seat`` in the current direction."""
        s = seat
        for _ in range(self.n):
            s = (s + self.direction) % self.n
            if self.taking_turns(s):
                return s
        raise OracleError("no one left to move")

    def after(self, card: str) -> int:
        """The total after ``card`` (R-TURN-1, R-M10-1, R-99-2, R-99-5)."""
        if card in NUMBERS:
            return self.total + NUMBERS[card]
        if card == "-10":
            t = self.total - 10
            return max(0, t) if self.preset == MATTEL else t
        if card == "99" and self.preset == GAMERULES:
            return 99
        return self.total  # R, P2, H, a zero-ending 99

    def is_safe_total(self, total: int) -> bool:
        """R-LIM-1."""
        return total <= 99 if self.preset == GAMERULES else total < 99

    def answers(self) -> set[str]:
        """R-P2-3."""
        return {"R", "P2"} if self.preset == MATTEL else {"R", "H"}

    def first_of_two(self, seat: int) -> bool:
        return self.owes == seat and not self.first_done

    def safe_plays(self, seat: int) -> set[str]:
        """The safe plays (and ``99x4``) of ``seat`` now (R-LIM, R-99, R-P2-3)."""
        hand = self.hands[seat]
        first = self.first_of_two(seat)
        result: set[str] = set()
        for card in set(hand):
            if card == "P2" and first and self.preset != MATTEL:
                continue  # R-P2-3: never a Double Play as the first of two
            if card == "99":
                if self.preset == MATTEL:
                    continue  # R-99-1
                if self.zero_ending_99 and self.total % 10 == 0 and self.turn_99:
                    self.seen["second 99 in a turn refused"] += 1
                if self.preset == CLASSIC and not (
                    self.zero_ending_99 and self.total % 10 == 0 and not self.turn_99
                ):
                    continue  # R-99-1 / R-99-4 / R-99-5
            if self.is_safe_total(self.after(card)):
                result.add(card)
        if self.preset == MATTEL and hand.count("99") >= 4:  # R-99-3
            result.add("99x4")
        return result

    def bust_plays(self, seat: int) -> set[str]:
        """R-END-3: the unsafe cards a points-mode player with no safe card may play."""
        first = self.first_of_two(seat)
        return {c for c in self.hands[seat] if c != "99" and not (c == "P2" and first)}

    def plays(self, seat: int) -> set[str]:
        safe = self.safe_plays(seat)
        if safe or self.mode != "points" or self.pending == seat:
            return safe  # reading: one's own pending draw is an "other legal action" (R-LIM-2)
        return self.bust_plays(seat)

    def legal(self) -> set[str]:
        """Every move a record may hold next: plays by the player to move, plus ``draw``
        by the player whose draw is pending (R-DRAW-1)."""
        if self.winner is not None or self.to_move is None:
            return set()
        moves = self.plays(self.to_move)
        if self.pending is not None:
            moves.add("draw")
        return moves

    def state(self) -> dict[str, Any]:
        """The R-REC final-state fields."""
        w = self.winner
        return {
            "total": self.total,
            "direction": self.direction,
            "to_move": self.to_move,
            "hands": [list(h) for h in self.hands],
            "draw_pile": len(self.draw),
            "out": list(self.out),
            "tokens": None if self.tokens is None else list(self.tokens),
            "scores": None if self.scores is None else list(self.scores),
            "round": self.round,
            "winner": list(w) if isinstance(w, list) else w,
            "owes_two": self.owes,
        }

    # ----------------------------------------------------------------- moves
    def apply(self, move: str) -> None:
        legal = self.legal()
        if move not in legal:
            raise OracleError(f"illegal move {move!r}; legal: {sorted(legal)}")
        if move == "draw":
            seat = self.pending
            assert seat is not None
            self.pending = None
            self.seen["draw"] += 1
            self._draw(seat, 1)
            self._settle()
            return
        seat = self.to_move
        assert seat is not None
        if self.pending is not None:
            self.seen["draw lost to a play"] += 1
        self.pending = None  # R-DRAW-1: any card played loses a pending draw
        if self.mode == "points" and not self.safe_plays(seat):
            self._points_bust(seat, move)
        else:
            self._play(seat, move)
        self._settle()

    def _play(self, seat: int, move: str) -> None:
        hand = self.hands[seat]
        first = self.first_of_two(seat)
        obligated = self.owes == seat
        two_left = len(self.active()) == 2  # R-REV-2, counted when the card is played
        self.seen[f"play {move}"] += 1
        if move == "-10" and self.total < 10:
            self.seen["-10 below 10"] += 1
        if move == "99" and self.preset == CLASSIC:
            self.seen["zero-ending 99"] += 1
        if move == "R" and two_left:
            self.seen["reverse as hold"] += 1
            if self.n - len(self.out) > 2:
                self.seen["reverse as hold, two left in the round"] += 1
        if move == "99x4":  # R-99-3
            for _ in range(4):
                hand.remove("99")
                self.discard.append("99")
            draws = 4
        else:
            self.total = self.after(move)  # R-TURN-1
            if self.total < 0:
                self.seen["negative total"] += 1
            hand.remove(move)
            self.discard.append(move)
            draws = 1
            if move == "99":
                self.turn_99 = True
        if first and move in self.answers():  # R-P2-3: an answer, the single play
            self.seen[f"answer {move}"] += 1
            if move == "R" and not two_left:
                self.direction = -self.direction
            self._after_play_draw(seat, draws)
            self.owes = self.next_seat(seat)
            self.first_done = False
            self._new_turn(self.owes)
        elif first:  # R-P2-1: the first of two plays; the same player plays again
            self.seen[f"first of two {move}"] += 1
            self.first_done = True
            self._after_play_draw(seat, draws)
        else:  # a single play, or the second of two (R-P2-5)
            if obligated:
                self.seen[f"second of two {move}"] += 1
                self.owes = None
                self.first_done = False
            if move == "R" and not two_left:  # R-REV-1 / R-REV-2
                self.direction = -self.direction
            self._after_play_draw(seat, draws)
            nxt = self.next_seat(seat)
            if move == "P2":
                self.owes = nxt
                self.first_done = False
            self._new_turn(nxt)

    def _after_play_draw(self, seat: int, count: int) -> None:
        """R-TURN-2, or under R-DRAW-1 a pending draw (one card)."""
        if self.draw_penalty:
            assert count == 1
            self.pending = seat
        else:
            self._draw(seat, count)

    def _draw(self, seat: int, count: int) -> None:
        for _ in range(count):
            if not self.draw:  # R-TURN-3
                if not self.discard:
                    self.seen["nothing to draw"] += 1
                    return
                cards = list(self.discard)
                self.discard = []
                new = list(self.reshuffle(cards, seat))
                if Counter(new) != Counter(cards):
                    raise OracleError("reshuffle callback changed the cards")
                self.draw = new
                self.reshuffles += 1
                self.seen["reshuffle"] += 1
            self.hands[seat].append(self.draw.pop(0))

    def _new_turn(self, seat: int) -> None:
        self.to_move = seat
        self.turn_99 = False

    def _settle(self) -> None:
        """Busts that leave no choice happen by themselves (R-REC, R-LIM-2)."""
        while self.winner is None:
            seat = self.to_move
            assert seat is not None
            if self.plays(seat):
                return
            if self.pending == seat:  # reading: they may take their own draw first
                self.seen["must draw before busting"] += 1
                return
            if self.owes == seat:
                self.seen["bust owing two" + (" (second)" if self.first_done else "")] += 1
            if self.mode == "points":
                self.seen["out of the round without playing"] += 1
                self._out_of_round(seat)  # R-END-3: no card to play at all
            elif self.mode == "tokens":
                self._token_bust(seat)
            else:
                self._eliminate(seat)

    def _eliminate(self, seat: int) -> None:
        """R-END-1 / R-P2-4."""
        self.seen["eliminated"] += 1
        self.out.append(seat)
        self.owes = None
        self.first_done = False
        left = [s for s in range(self.n) if self.in_game(s)]
        if len(left) == 1:
            self._end_game(left[0])
            return
        self._new_turn(self.next_seat(seat))

    def _token_bust(self, seat: int) -> None:
        """R-END-2."""
        assert self.tokens is not None
        self.seen["token bust" + (" (last token gone)" if self.tokens[seat] == 0 else "")] += 1
        if self.tokens[seat] == 0:
            self.out.append(seat)
        else:
            self.tokens[seat] -= 1
        self.owes = None
        self.first_done = False
        self.pending = None
        left = [s for s in range(self.n) if self.in_game(s)]
        if len(left) == 1:
            self._end_game(left[0])
            return
        self._start_round(self._clockwise_from(seat))

    def _clockwise_from(self, seat: int) -> int:
        """``seat`` if still in the game, else the next seat clockwise that is."""
        for k in range(self.n):
            s = (seat + k) % self.n
            if self.in_game(s):
                return s
        raise OracleError("no one left")

    def _points_bust(self, seat: int, card: str) -> None:
        """R-END-3: an unsafe card, not counted; an automatic draw; out of the round."""
        self.seen["points bust" + (" owing two" if self.owes == seat else "")] += 1
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.owes = None
        self.first_done = False
        self._draw(seat, 1)
        self._out_of_round(seat)

    def _out_of_round(self, seat: int) -> None:
        self.round_out.append(seat)
        self.owes = None
        self.first_done = False
        if len(self.active()) <= 1:
            self._end_points_round()
            return
        self._new_turn(self.next_seat(seat))

    def _end_points_round(self) -> None:
        """R-END-3: score, then eliminate / end the game / deal the next round."""
        assert self.scores is not None
        self.pending = None
        self.owes = None
        self.first_done = False
        players = [s for s in range(self.n) if self.in_game(s)]
        for s in players:
            self.scores[s] += hand_score(self.hands[s]) + (25 if s in self.round_out else 0)
        target = self.opts["target"]
        if self.opts["points_mode"] == "elimination":
            newly = [s for s in players if self.scores[s] >= target]
            self.out.extend(newly)
            left = [s for s in range(self.n) if self.in_game(s)]
            if len(left) == 1:
                self._end_game(left[0])
                return
            if not left:
                self.seen["everyone out at once"] += 1
                best = min(self.scores[s] for s in newly)
                self._end_game([s for s in newly if self.scores[s] == best])
                return
        elif any(self.scores[s] >= target for s in players):
            best = min(self.scores[s] for s in players)
            self._end_game([s for s in players if self.scores[s] == best])
            return
        self._start_round(self._clockwise_from(self.round_out[0]))

    def _end_game(self, winner: int | list[int]) -> None:
        if isinstance(winner, list) and len(winner) > 1:
            self.seen["shared win"] += 1
        if isinstance(winner, list) and len(winner) == 1:
            winner = winner[0]
        self.winner = winner
        self.to_move = None
        self.owes = None
        self.first_done = False
        self.pending = None

    def _start_round(self, first: int) -> None:
        """R-SET-1/2 from the next explicit deal; R-END-2/3 for later rounds."""
        self.round += 1
        self.seen["round"] += 1
        if len(self.deals) < self.round:
            raise OracleError(f"no deal for round {self.round}")
        hands, draw = self.deals[self.round - 1]
        if len(hands) != self.n:
            raise OracleError("a deal must list a hand for every seat")
        for s in range(self.n):
            if not self.in_game(s) and hands[s]:
                raise OracleError(f"eliminated seat {s} was dealt cards")
            if self.in_game(s) and len(hands[s]) != 4:
                raise OracleError(f"seat {s} was not dealt 4 cards")
        everything: Counter[str] = Counter(draw)
        for h in hands:
            everything.update(h)
        if everything != deck_of(self.preset):
            raise OracleError("a full deal must hold exactly the preset's deck")
        self.hands = [list(h) for h in hands]
        self.draw = list(draw)
        self.discard = []
        self.total = 0
        self.direction = 1
        self.owes = None
        self.first_done = False
        self.pending = None
        self.round_out = []
        self._new_turn(first)
        self._settle()


def from_record(record: Mapping[str, Any], reshuffle: Reshuffle | None = None) -> Oracle:
    """An oracle at the start of a record whose ``deals`` are complete."""
    deals = [(d["hands"], d["draw"]) for d in record.get("deals", [])]
    return Oracle(
        record.get("rules", MATTEL),
        record["players"],
        record.get("options") or {},
        deals,
        record.get("dealer"),
        reshuffle,
        seed=record.get("seed", 0) if isinstance(record.get("seed", 0), int) else 0,
    )


def replay(record: Mapping[str, Any], reshuffle: Reshuffle | None = None) -> Oracle:
    """Replay a complete record; the oracle's final state."""
    oracle = from_record(record, reshuffle)
    for move in record.get("moves", []):
        oracle.apply(move)
    return oracle
